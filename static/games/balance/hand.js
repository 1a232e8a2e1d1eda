// balance/hand.js: the hand at the bottom: yours, with an add and a subtract button under each
// card you may play (each telling the new balance and what it scores), or the face-down hand of
// the seat a spectator follows; and every hand, in a replay that shows them.
// `tbl` is the table's shared state and parts (see ../balance.js): its state (msg, busy,
// keepFocus), ctx, words, ui and the other parts' functions.

import { cardEl, cardName, cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { plural } from "../../js/words.js";
import { outcomeOf, signed, signedOrZero, spoken, valueOf } from "./cards.js";

export function handPart(tbl) {
  // ------------------------------------------------------------- the hand
  function renderHand() {
    const view = tbl.v();
    const owner = tbl.handOwner();
    if (!Array.isArray(view.hand) || (owner !== tbl.ctx.seat && owner !== view.you)) { renderHiddenHand(owner); return; }
    if (tbl.isOver() && !view.hand.length) {
      fill(tbl.ui.hand);
      tbl.ui.hand.hidden = true;
      return;
    }
    tbl.ui.hand.hidden = false;
    const hand = view.hand;
    const allowed = new Set(tbl.legal().map((a) => tbl.legalKey(a.card, a.direction)));
    const live = tbl.myTurn();
    const mine = owner === tbl.ctx.seat;
    const title = mine ? "Your hand" : `${tbl.plainName(owner)}'s hand`;
    let hint;
    if (!mine) hint = "";
    else if (tbl.isOver()) hint = "";
    else if (live) hint = "Each button shows the new balance and what the play would score. Zero scores +1; ending beyond ±9 costs 1 (not with a joker).";
    else if (view.eliminated && view.eliminated[owner]) hint = `You are out of the game (at ${signed(view.rules.out_points)} or below); you can keep watching.`;
    else if (!hand.length) hint = "You have played all your cards this round; the round ends when every hand is empty.";
    else hint = `Not your turn yet: ${tbl.plainName(tbl.mover())} is playing. Plan ahead.`;

    const seen = new Map();
    let drawnMarked = false;
    const tiles = hand.map((card) => {
      const n = (seen.get(card) || 0) + 1;
      seen.set(card, n);
      const isNew = !drawnMarked && view.drawn === card && mine;
      if (isNew) drawnMarked = true;
      const choices = [1, -1].filter(() => live && mine).filter((d) => allowed.has(tbl.legalKey(card, d)))
        .map((d) => choiceButton(card, d, `${card}:${n}:${d}`));
      return el("li", { class: "bl-tile" + (isNew ? " bl-tile-new" : "") + (choices.length ? " bl-tile-live" : ""), dataset: { card } },
        el("div", { class: "bl-tile-card" },
          cardEl(card, { onclick: () => explainCard(card, choices.length > 0) }),
          isNew ? el("span", { class: "tag tag-turn bl-new" }, "New") : null,
          el("span", { class: "bl-value", "aria-hidden": "true" }, `value ${valueOf(card)}`)),
        choices.length ? el("div", { class: "bl-choices" }, choices) : null);
    });
    fill(tbl.ui.hand,
      el("h3", { id: "bl-hand-title", tabindex: "-1" }, title,
        el("span", { class: "muted" }, ` · ${plural(hand.length, "card")}`)),
      hint ? el("p", { class: "bl-hint" + (live ? " bl-hint-live" : "") }, hint) : null,
      hand.length ? el("ul", { class: "bl-hand" + (live ? " bl-hand-live" : "") }, tiles) : null);
  }

  // A spectator's followed seat: its hand face down, as many backs as it holds. A replay that
  // shows every hand lists them below instead.
  function renderHiddenHand(owner) {
    const view = tbl.v();
    const count = (view.hand_counts || [])[owner];
    if (tbl.ctx.seat !== null || Array.isArray(view.hands) || !Number.isInteger(count) || (tbl.isOver() && !count)) {
      fill(tbl.ui.hand);
      tbl.ui.hand.hidden = true;
      return;
    }
    tbl.ui.hand.hidden = false;
    fill(tbl.ui.hand,
      el("h3", { id: "bl-hand-title", tabindex: "-1" }, `${tbl.plainName(owner)}'s hand`,
        el("span", { class: "muted" }, ` · ${plural(count, "card")}`)),
      count ? el("div", { class: "bl-backs", role: "img", "aria-label": `${plural(count, "card")}, face down` },
        Array.from({ length: count }, () => el("span", { class: "bl-back bl-back-small" }))) : null,
      el("p", { class: "bl-hint" }, "You are watching: the cards stay face down until they are played."));
  }

  function choiceButton(card, direction, focusKey) {
    const view = tbl.v();
    const value = valueOf(card);
    const after = view.balance + direction * value;
    const points = outcomeOf(after, card, tbl.limit());
    const grade = points > 0 ? "bl-good" : points < 0 ? "bl-bad" : "bl-ok";
    const verb = direction > 0 ? "Add" : "Subtract";
    const result = points > 0 ? "you score 1 point" : points < 0 ? "you lose 1 point"
      : Math.abs(after) > tbl.limit() ? "no points: jokers never cost a point" : "no change in points";
    const label = `${verb} the ${cardName(card)} (${value}): the balance becomes ${spoken(after)}, ${result}.`;
    const pointsLabel = points > 0 ? "+1 point" : points < 0 ? "−1 point" : Math.abs(after) > tbl.limit() ? "joker: safe" : "no points";
    return el("button", {
      type: "button",
      class: `btn bl-choice ${grade} ${direction > 0 ? "bl-choice-add" : "bl-choice-sub"}` + (tbl.busy ? " bl-busy" : ""),
      "aria-label": label, title: label, "aria-disabled": tbl.busy ? "true" : undefined,
      dataset: { card, direction, after, points, focus: focusKey },
      onclick: () => {
        if (tbl.busy) { tbl.ctx.explain("Your play is on its way to the server…"); return; }
        tbl.send({ type: "play", card, direction });
      },
      onmouseenter: () => tbl.showGhost(after), onmouseleave: () => tbl.showGhost(null),
      onfocus: () => tbl.showGhost(after), onblur: () => tbl.showGhost(null),
    },
    el("span", { class: "bl-choice-op", "aria-hidden": "true" }, `${direction > 0 ? "+" : "−"}${value}`),
    el("span", { class: "bl-choice-to", "aria-hidden": "true" }, `→ ${signedOrZero(after)}`),
    el("span", { class: "bl-choice-pts", "aria-hidden": "true" }, pointsLabel));
  }

  function explainCard(card, live) {
    if (tbl.ctx.seat === null || tbl.isOver()) return;
    if (live) {
      tbl.ctx.explain(`Use a button under the ${cardText(card)}: "+" adds ${valueOf(card)} to the balance, "−" subtracts it.`);
    } else if (tbl.busy) {
      tbl.ctx.explain("Your play is on its way to the server…");
    } else if (tbl.v().hand && tbl.v().hand.length && tbl.mover() !== null) {
      tbl.ctx.explain(`It is not your turn: ${tbl.plainName(tbl.mover())} is playing. You can play when your name is marked "To play".`);
    }
  }

  // ------------------------------------------------------------- replay: every hand
  function renderRevealed() {
    const view = tbl.v();
    if (!Array.isArray(view.hands)) { fill(tbl.ui.hands); tbl.ui.hands.hidden = true; return; }
    tbl.ui.hands.hidden = false;
    fill(tbl.ui.hands,
      el("h3", {}, "Every hand (replay)"),
      el("ul", { class: "bl-hands-list" }, view.hands.map((hand, seat) => el("li", { class: "bl-hands-seat", dataset: { seat } },
        el("span", { class: "bl-name" }, tbl.plainName(seat), view.drawn && seat === tbl.mover() ? el("span", { class: "muted" }, ` (drew ${cardText(view.drawn)})`) : null),
        el("span", { class: "bl-hands-cards" }, hand.length ? hand.map((c) => cardEl(c, { class: "card-small" })) : el("span", { class: "muted" }, "no cards"))))));
  }

  return { renderHand, renderRevealed };
}
