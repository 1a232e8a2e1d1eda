// balance/centre.js: the balance itself: the stock, the gauge with its safe band (and the ghost
// pin of a play being considered), the pile's top card and this round's pile, newest last.
// `tbl` is the table's shared state and parts (see ../balance.js): its state (msg, busy,
// keepFocus), ctx, words, ui and the other parts' functions.

import { cardEl, cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { plural, pluralWord } from "../../js/words.js";
import { signed, signedOrZero, spoken, valueOf, zoneOf } from "./cards.js";
import { describeEntry, entryWho } from "./moves.js";

const SCALE = 20; // the gauge shows -20 .. +20; values beyond sit at its ends with an arrow
const TRAIL = 8; // how many recent pile cards the strip shows

export function centrePart(tbl) {
  // ------------------------------------------------------------- the balance
  function renderCentre() {
    const view = tbl.v();
    const balance = view.balance;
    const zone = zoneOf(balance, tbl.limit());
    const notes = {
      zero: "Zero! Landing here scores a point.",
      safe: `Safe: inside −${tbl.limit()} … +${tbl.limit()}.`,
      beyond: `Beyond ±${tbl.limit()}: ending out here costs a point (not with a joker).`,
    };
    fill(tbl.ui.meter,
      el("p", { class: "bl-meter-label" }, "Balance"),
      el("output", { class: "bl-balance-value", dataset: { zone, value: balance }, "aria-label": `Balance ${spoken(balance)}` }, signedOrZero(balance)),
      el("p", { class: "bl-meter-note" }, notes[zone]),
      gauge(balance));

    fill(tbl.ui.stock,
      el("div", { class: "bl-back" + (view.stock ? "" : " bl-back-empty"), "aria-hidden": "true" },
        view.stock ? el("span", { class: "bl-back-count" }, String(view.stock)) : "empty"),
      el("p", { class: "bl-caption" }, el("strong", { class: "bl-stock-count", dataset: { stock: view.stock } }, String(view.stock)), " in stock"),
      view.stock_cards && view.stock_cards.length
        ? el("p", { class: "bl-caption muted" }, "Next: ", cardText(view.stock_cards[0])) : null);

    const pile = view.pile || [];
    const top = pile[pile.length - 1];
    fill(tbl.ui.pile,
      top ? el("div", { class: "bl-pile-top" },
        pile.length > 1 ? el("span", { class: "bl-pile-under", "aria-hidden": "true" }) : null,
        cardEl(top.card, { class: "bl-pile-card" }),
        top.kind === "start" ? null : el("span", { class: "bl-op " + (top.direction > 0 ? "bl-op-add" : "bl-op-sub"), "aria-hidden": "true" }, top.direction > 0 ? "+" : "−"))
        : el("div", { class: "bl-back bl-back-empty", "aria-hidden": "true" }, "empty"),
      el("p", { class: "bl-caption" }, el("strong", {}, String(pile.length)), ` ${pluralWord(pile.length, "card")} on the pile`),
      top ? el("p", { class: "bl-caption muted" }, entryWho(top, tbl.words)) : null);
  }

  function gauge(balance) {
    const pos = (value) => ((Math.max(-SCALE, Math.min(SCALE, value)) + SCALE) / (2 * SCALE)) * 100;
    const edge = tbl.limit() + 0.5;
    const track = el("div", { class: "bl-track" },
      el("span", { class: "bl-zone bl-zone-out", style: `left:0;width:${pos(-edge)}%` }),
      el("span", { class: "bl-zone bl-zone-safe", style: `left:${pos(-edge)}%;width:${pos(edge) - pos(-edge)}%` }),
      el("span", { class: "bl-zone bl-zone-out", style: `left:${pos(edge)}%;right:0` }),
      el("span", { class: "bl-zero", style: `left:${pos(0)}%` }),
      el("span", {
        class: "bl-pin bl-pin-now" + (Math.abs(balance) > SCALE ? " bl-pin-off" : ""),
        style: `left:${pos(balance)}%`,
        dataset: { label: Math.abs(balance) > SCALE ? (balance > 0 ? "▶" : "◀") : "" },
      }),
      el("span", { class: "bl-pin bl-pin-ghost", hidden: true }));
    const ticks = el("div", { class: "bl-ticks", "aria-hidden": "true" },
      [-SCALE, -tbl.limit(), 0, tbl.limit(), SCALE].map((t) => el("span", { style: `left:${pos(t)}%`, class: t === 0 ? "bl-tick-zero" : "" }, signedOrZero(t))));
    return el("div", {
      class: "bl-gauge", role: "img",
      "aria-label": `Balance ${spoken(balance)} on a scale from minus ${SCALE} to plus ${SCALE}; the safe band is minus ${tbl.limit()} to plus ${tbl.limit()}, zero scores.`,
    }, track, ticks);
  }

  function showGhost(after) {
    const ghost = tbl.ui.meter.querySelector(".bl-pin-ghost");
    if (!ghost) return;
    if (after === null) { ghost.hidden = true; return; }
    const pos = ((Math.max(-SCALE, Math.min(SCALE, after)) + SCALE) / (2 * SCALE)) * 100;
    ghost.style.left = `${pos}%`;
    ghost.dataset.zone = zoneOf(after, tbl.limit());
    ghost.dataset.label = signedOrZero(after);
    ghost.hidden = false;
  }

  // ------------------------------------------------------------- this round's pile
  function renderTrail() {
    const view = tbl.v();
    const pile = view.pile || [];
    if (!pile.length) { fill(tbl.ui.trail); tbl.ui.trail.hidden = true; return; }
    tbl.ui.trail.hidden = false;
    const recent = pile.slice(-TRAIL);
    fill(tbl.ui.trail,
      el("h3", {}, tbl.solo() ? "The balance pile" : `Round ${view.round}: the balance pile`,
        el("span", { class: "muted" }, ` · newest on the right`)),
      el("ol", { class: "bl-trail" }, recent.map((entry) => el("li", {
        class: "bl-step bl-step-" + entry.kind + (entry.seat === tbl.ctx.seat && entry.kind === "play" ? " bl-step-mine" : ""),
      },
      cardEl(entry.card, { class: "card-small" }),
      el("span", { class: "bl-step-who" }, entry.kind === "start" ? "Start" : entry.kind === "automaton" ? "Automaton" : tbl.who(entry.seat)),
      el("span", { class: "bl-step-move" }, entry.kind === "start" ? "start" : `${signedOrZero(entry.before)} ${entry.direction > 0 ? "+" : "−"} ${valueOf(entry.card)}`),
      el("span", { class: "bl-step-after", dataset: { zone: zoneOf(entry.after, tbl.limit()) } }, `= ${signedOrZero(entry.after)}`),
      entry.points ? el("span", { class: "bl-points-chip " + (entry.points > 0 ? "bl-good" : "bl-bad") }, signed(entry.points)) : null))),
      el("details", { class: "bl-pile-all" },
        el("summary", {}, `All ${plural(pile.length, "card")} on the pile, in words`),
        el("ol", {}, pile.map((entry) => el("li", {}, describeEntry(entry, tbl.words))))));
  }

  return { renderCentre, showGhost, renderTrail };
}
