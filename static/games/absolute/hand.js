// absolute/hand.js: the viewer's controls: the swap and the play being built, the hand and the
// tray of buttons for the selected cards.
// `tbl` is the table's shared state and parts (see ../absolute.js): its state (msg, previous,
// busy, lg, selected, draft, swap), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { plural } from "../../js/words.js";
import { MIN_SET, MINUS, cardText, cardsText, isZero, signed, sortCards, sumOf } from "./cards.js";
import { cardFace } from "./faces.js";
import { breakdown, handPenalty } from "./rules.js";

export function handPart(tbl) {
  function renderSwap() {
    if (!tbl.swap || !tbl.seated() || !tbl.setById(tbl.swap.set)) { tbl.swap = null; tbl.ui.swap.hidden = true; fill(tbl.ui.swap); return; }
    const r = tbl.evaluateSwap();
    const candidates = tbl.swapCandidates();
    const litTake = new Set(candidates.flatMap((a) => a.take));
    const s = r.set;
    const owner = s.owner === tbl.ctx.seat ? "your" : `${tbl.name(s.owner)}'s`;
    const before = s.score;
    // What the given cards stand for: a given zero takes the value that balances the set.
    const givenZero = r.give.find(isZero);
    const givenText = !givenZero ? signed(sumOf(r.give))
      : r.check && r.check.ok ? `${signed(sumOf(r.give) + r.check.zeroValue)}, the ${cardText(givenZero)} as ${signed(r.check.zeroValue)}`
        : `${signed(sumOf(r.give))} + wild`;
    fill(tbl.ui.swap,
      el("h3", {}, `Swap with ${owner} set ${s.id}`),
      el("p", { class: "muted abs-help" }, "Take 1 or 2 cards from the set and give 1 or 2 from your hand; the set must still add up to 0. Lit cards can still complete a swap."),
      el("p", { class: "abs-swap-label" }, "Take from the set:"),
      el("div", { class: "abs-swap-take" }, s.cards.map((c, i) => cardFace(c, {
        tag: "button", zeroValue: isZero(c) ? s.zero : null,
        extra: (tbl.swap.take.has(c) ? "is-selected" : "") + (litTake.has(c) && !tbl.swap.take.has(c) ? " is-lit" : ""),
        "aria-pressed": tbl.swap.take.has(c) ? "true" : "false", dataset: { card: c, focus: `swap-${s.id}-take-${i}` },
        onclick: () => tbl.toggleTake(c), disabled: tbl.busy,
      }))),
      el("p", { class: "abs-swap-sums" },
        el("span", {}, "You give: ", el("strong", {}, r.give.length ? `${cardsText(r.give)} (${givenText})` : "— tap cards in your hand")),
        el("span", {}, "You take: ", el("strong", {}, r.take.length ? `${cardsText(r.take)} (${signed(sumOf(r.take) + (r.take.some(isZero) ? s.zero : 0))})` : "—"))),
      el("div", { class: "abs-verdict " + (r.problem ? "is-bad" : "is-ok"), role: "status" },
        r.problem ? `✗ ${r.problem}` : `✓ Legal swap. Set ${s.id} becomes ${cardsText(r.result)}`
          + (r.check && r.check.zeroValue !== null ? ` (the ${cardText(r.result.find(isZero))} stands for ${signed(r.check.zeroValue)})` : "")
          + `: ${r.score.score} pts (was ${before}).`),
      el("div", { class: "abs-row-buttons" },
        el("button", {
          type: "button", class: "btn btn-primary", dataset: { focus: "swap-confirm" },
          disabled: Boolean(r.problem) || tbl.busy, onclick: tbl.commitSwap,
        }, "Confirm swap"),
        el("button", { type: "button", class: "btn", dataset: { focus: "swap-suggest" }, onclick: tbl.suggestSwap, disabled: tbl.busy }, "Suggest"),
        el("button", { type: "button", class: "btn btn-quiet", dataset: { focus: "swap-cancel" }, onclick: tbl.cancelSwap }, "Cancel")));
    tbl.ui.swap.hidden = false;
  }

  function renderDraft() {
    if (!tbl.seated() || !tbl.draft.groups.length || tbl.isOver()) { tbl.ui.draft.hidden = true; fill(tbl.ui.draft); return; }
    const r = tbl.evaluateDraft();
    const hand = new Set(tbl.myHand());
    const frozen = tbl.frozenZeros();
    const groups = r.groups.map(({ g, check, unchanged, score }) => {
      const origin = g.origin !== null ? tbl.draft.origins.get(g.origin) : null;
      const title = origin ? `Set ${g.origin}` + (unchanged ? " (unchanged)" : " (changed)") : "New set";
      const zero = g.cards.find(isZero);
      const moveable = tbl.selected.size && [...tbl.selected].some((c) => !g.cards.includes(c));
      let sumLine = `Sum ${signed(check.total)}`;
      if (zero && g.cards.length > 1) {
        sumLine = `Numbers add up to ${signed(check.total)}, so the ${cardText(zero)} stands for ${signed(-check.total)}`;
        if (frozen.has(zero)) sumLine += ` (it must keep ${signed(frozen.get(zero))})`;
      }
      return el("li", {
        class: "abs-group " + (check.ok ? "is-ok" : "is-bad"), dataset: { group: g.key },
      },
      el("div", { class: "abs-group-head" },
        el("span", { class: "abs-group-name" }, title),
        el("span", { class: "abs-group-flag", "aria-hidden": "true" }, check.ok ? "✓" : "✗"),
        score ? el("span", { class: "abs-group-score" }, el("strong", {}, String(score.score)), " pts") : null),
      el("div", { class: "abs-group-cards" }, g.cards.map((c) => cardFace(c, {
        tag: "button", zeroValue: isZero(c) && check.ok ? check.zeroValue : null,
        extra: (tbl.selected.has(c) ? "is-selected" : "") + (hand.has(c) ? " is-from-hand" : " is-from-table"),
        "aria-pressed": tbl.selected.has(c) ? "true" : "false",
        dataset: { card: c, focus: `draft-card-${c}` }, disabled: tbl.busy || Boolean(tbl.swap),
        onclick: () => tbl.toggle(c),
      }))),
      el("p", { class: "abs-group-sum" }, sumLine),
      el("p", { class: "abs-group-verdict" }, check.ok
        ? `✓ A valid set: ${score.score} pts = ${breakdown(score)}${origin && !unchanged ? ` (was ${origin.score})` : ""}.`
        : `✗ ${check.message}`),
      el("div", { class: "abs-group-actions" },
        moveable ? el("button", {
          type: "button", class: "btn btn-small is-lit", dataset: { focus: `group-${g.key}` },
          onclick: () => tbl.moveTo(g.key), disabled: tbl.busy || Boolean(tbl.swap),
        }, "Move selected here") : el("span", { dataset: { focus: `group-${g.key}` }, tabindex: "-1" }),
        el("button", {
          type: "button", class: "btn btn-small btn-quiet", dataset: { focus: `group-${g.key}-back` },
          onclick: () => tbl.putBack(g.key), disabled: tbl.busy || Boolean(tbl.swap),
        }, origin ? "Put back" : g.cards.every((c) => hand.has(c)) ? "Back to hand" : "Undo")));
    });
    const count = r.changed.length;
    const label = r.problem ? "Play" : `Play ${plural(count, "set")} · ${r.gain >= 0 ? "+" : MINUS}${Math.abs(r.gain)} pts`;
    fill(tbl.ui.draft,
      el("h3", {}, "Your play ", el("span", { class: "muted" }, "(not on the table until you press Play)")),
      el("p", { class: "muted abs-help" }, "Tap cards to select them, then “Move selected here” or “New set”. Cards of your sets can move between groups, which regroups them."),
      el("ol", { class: "abs-groups" }, groups),
      el("div", { class: "abs-draft-foot" },
        el("p", { class: "abs-verdict " + (r.problem ? "is-bad" : "is-ok"), id: "abs-draft-why" },
          r.problem ? r.problem : `Ready: your sets will score ${r.after} pts (${r.gain >= 0 ? "+" : MINUS}${Math.abs(r.gain)}). You then discard a card.`),
        el("div", { class: "abs-row-buttons" },
          el("button", {
            type: "button", class: "btn btn-primary", dataset: { focus: "draft-commit" },
            disabled: Boolean(r.problem) || tbl.busy || Boolean(tbl.swap), "aria-describedby": "abs-draft-why",
            onclick: tbl.commitPlay,
          }, label),
          el("button", { type: "button", class: "btn btn-quiet", dataset: { focus: "draft-reset" }, onclick: tbl.resetDraft, disabled: tbl.busy }, "Reset"))));
    tbl.ui.draft.hidden = false;
  }

  function renderHand() {
    if (!tbl.seated()) { tbl.ui.hand.hidden = true; fill(tbl.ui.hand); return; }
    const v = tbl.view();
    const hand = tbl.myHand();
    const placed = tbl.draftCards();
    const shown = hand.filter((c) => !placed.has(c));
    const t = v.this_turn || {};
    const drawn = t.seat === tbl.ctx.seat ? t.drawn_card : null;
    let lit = null;
    if (tbl.swap) lit = new Set(tbl.swapCandidates().flatMap((a) => a.give));
    else if (tbl.mustDiscard()) lit = tbl.lg.discards;
    const heading = `Your hand · ${plural(hand.length, "card")}` + (placed.size ? ` (${[...placed].filter((c) => hand.includes(c)).length} in your play)` : "");
    fill(tbl.ui.hand,
      el("h3", { class: "abs-hand-title" }, heading,
        !tbl.isOver() && v.round ? el("span", { class: "muted abs-penalty" }, ` · if the round ended now: ${signed(-handPenalty(hand))}`) : null),
      shown.length
        ? el("div", { class: "abs-hand", role: "group", "aria-label": "Your hand: tap cards to select them" },
          shown.map((c) => cardFace(c, {
            tag: "button",
            extra: (tbl.selected.has(c) ? "is-selected" : "") + (lit && lit.has(c) && !tbl.selected.has(c) ? " is-lit" : "") + (c === drawn ? " is-new" : ""),
            "aria-pressed": tbl.selected.has(c) ? "true" : "false",
            dataset: { card: c, focus: `hand-${c}` }, disabled: tbl.busy || tbl.isOver(),
            onclick: () => tbl.toggle(c),
          })))
        : el("p", { class: "muted" }, hand.length ? "All your cards are in your play." : "Your hand is empty."));
    tbl.ui.hand.hidden = false;
  }

  function renderTray() {
    if (!tbl.seated() || tbl.isOver()) { tbl.ui.tray.hidden = true; fill(tbl.ui.trayButtons); return; }
    const v = tbl.view();
    const hand = new Set(tbl.myHand());
    const sel = sortCards([...tbl.selected]);
    const buttons = [];
    let info;
    if (sel.length) {
      const total = sumOf(sel);
      const zeros = sel.filter(isZero);
      info = [el("strong", {}, `${sel.length} selected`), ` · sum ${signed(total)}`];
      if (zeros.length === 1 && sel.length > 1) info.push(` · the ${cardText(zeros[0])} would stand for ${signed(-total)}`);
      else if (!zeros.length && sel.length >= 2 && total === 0 && sel.length >= MIN_SET) info.push(" · adds up to 0 ✓");
    } else if (tbl.swap) {
      info = "Tap 1 or 2 cards in your hand to give.";
    } else if (tbl.myTurn() && v.phase === "draw") {
      info = "Draw first: tap the deck or the discard pile. You may already select cards to plan.";
    } else if (tbl.mustDiscard()) {
      info = "Tap the card you want to get rid of, then Discard.";
    } else if (tbl.myTurn()) {
      const n = tbl.lg.plays.length;
      info = n ? `Tap cards to build a set, or pick one to discard. ${plural(n, "possible play")} right now.`
        : "Tap cards to build a set, or pick one to discard. No set can be made from your hand alone right now.";
    } else {
      info = "Plan ahead: tap cards to try sets before your turn.";
    }
    if (sel.length && !tbl.swap) {
      buttons.push(el("button", { type: "button", class: "btn btn-small", dataset: { focus: "tray-new" }, onclick: tbl.newGroup, disabled: tbl.busy }, "New set"));
      if (sel.some((c) => hand.has(c) && tbl.inDraft(c))) {
        buttons.push(el("button", { type: "button", class: "btn btn-small", dataset: { focus: "tray-back" }, onclick: tbl.backToHand, disabled: tbl.busy }, "Back to hand"));
      }
    }
    if (sel.length === 1 && tbl.lg.discards.has(sel[0]) && !tbl.swap) {
      buttons.push(el("button", {
        type: "button", class: "btn btn-small btn-primary", dataset: { focus: "tray-discard" }, onclick: tbl.discardSelected, disabled: tbl.busy,
      }, `Discard ${cardText(sel[0])}`));
    }
    if (!sel.length && !tbl.swap && !tbl.draft.groups.length && tbl.lg.plays.length) {
      buttons.push(el("button", { type: "button", class: "btn btn-small", dataset: { focus: "tray-suggest" }, onclick: tbl.suggest, disabled: tbl.busy }, "Suggest a set"));
    }
    if (tbl.lg.hold && !tbl.swap) {
      buttons.push(el("button", {
        type: "button", class: "btn btn-small" + (sel.length ? "" : " btn-primary"), dataset: { focus: "tray-hold" },
        onclick: () => tbl.send({ type: "hold" }, "hand"), disabled: tbl.busy,
        title: "End your turn without discarding",
      }, "Hold"));
    }
    if (sel.length) {
      buttons.push(el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "tray-clear" }, onclick: () => { tbl.selected.clear(); tbl.render("hand"); } }, "Clear"));
    }
    tbl.ui.tray.classList.toggle("is-active", sel.length > 0 || Boolean(tbl.swap));
    const infoText = el("span", {}, info).textContent;
    if (tbl.ui.trayInfo.textContent !== infoText) fill(tbl.ui.trayInfo, info); // a live region: changes only
    fill(tbl.ui.trayButtons, buttons);
    tbl.ui.trayButtons.hidden = !buttons.length;
    tbl.ui.tray.hidden = false;
  }

  return { renderDraft, renderHand, renderSwap, renderTray };
}
