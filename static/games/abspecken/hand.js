// abspecken/hand.js: the viewer's own area: the hand and the controls of each phase (pick an
// opening hand, roll, give, discard or declare, take, hand over, top up).
// `tbl` is the table's shared state and parts (see ../abspecken.js): its state (msg, busy, sel,
// preview, ...), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { plural } from "../../js/words.js";
import { HAND_SIZE, VALUES, containsAll, orWords, sum } from "./cards.js";
import { pigSvg } from "./dice.js";

export function handPart(tbl) {
  // ------------------------------------------------------------- selection state
  function syncSelection() {
    const view = tbl.v();
    const mine = tbl.ctx.seat !== null ? view.players[tbl.ctx.seat] : null;
    const key = [view.round, view.playthrough, view.phase, (view.hand || []).join(""),
      mine ? mine.piles.join("") : ""].join("|");
    if (tbl.sel.key !== key) tbl.sel = { key, hand: [], piles: [], gift: null, top: null };
  }

  // the legal discards, one per multiset (the die option preferred: the effect is the same);
  // each is the multiset's first legal order, its lowest card on top
  function discardChoices() {
    const found = new Map();
    for (const action of tbl.legalOf("discard")) {
      const key = tbl.multiKey(action.cards);
      if (!found.has(key) || action.option === "die") found.set(key, action);
    }
    return [...found.values()].sort((a, b) => a.cards.length - b.cards.length
      || sum(a.cards) - sum(b.cards) || (a.option === "die" ? -1 : 1));
  }

  // The legal discards of one multiset, one per card that can end on top of the pile (the
  // last card; the engine offers each once, spec C-15), lowest top first.
  function topChoices(cards) {
    const key = tbl.multiKey(cards);
    const found = new Map();
    for (const action of tbl.legalOf("discard")) {
      if (tbl.multiKey(action.cards) !== key) continue;
      const top = topOf(action);
      if (!found.has(top) || action.option === "die") found.set(top, action);
    }
    return [...found.values()].sort((a, b) => topOf(a) - topOf(b));
  }

  // the discard to send for the chosen multiset: the top card the player picked, else the
  // lowest (shown as chosen, and named on the button)
  function withTop(exact) {
    const tops = topChoices(exact.cards);
    return tops.find((a) => topOf(a) === tbl.sel.top) || tops[0] || exact;
  }

  function pickAction(type, cards) {
    const key = tbl.multiKey(cards);
    return tbl.legalOf(type).find((a) => tbl.multiKey(a.cards) === key) || null;
  }

  // ------------------------------------------------------------- my area
  function renderMine() {
    const view = tbl.v();
    if (tbl.ctx.seat === null || tbl.isOver()) { fill(tbl.ui.mine); tbl.ui.mine.hidden = true; return; }
    tbl.ui.mine.hidden = false;
    const phase = view.phase;
    const parts = [];
    if (phase === "pick" && tbl.legalOf("pick").length) {
      parts.push(...pilePicker(HAND_SIZE, "pick", "Your opening hand", "Keep this hand"));
    } else if (phase === "refill" && tbl.legalOf("refill").length) {
      parts.push(handRow({ title: "Your hand" }));
      const need = view.players[tbl.ctx.seat].refill_need;
      parts.push(...pilePicker(need, "refill", "Cards to take", need === 1 ? "Take this card" : "Take these cards"));
    } else if (phase === "decide" && tbl.legalOf("discard").length) {
      parts.push(...decideControls());
    } else if (phase === "gift" && tbl.legalOf("gift").length) {
      parts.push(...giftControls());
    } else if (phase === "give" && tbl.legalOf("give").length) {
      parts.push(handRow({ title: "Your hand: tap the card to hand over", mode: "give" }));
    } else {
      parts.push(handRow({ title: "Your hand" }));
      parts.push(...otherControls());
    }
    if (tbl.busy) parts.push(el("p", { class: "spk-sending muted" }, "Sending…"));
    fill(tbl.ui.mine, parts);
  }

  // the hand as a row of cards; mode "decide" / "gift" / "give" makes them buttons
  function handRow({ title, mode = null, lit = new Set(), note = null }) {
    const view = tbl.v();
    let hand = view.hand || [];
    const pending = view.pending;
    let ghost = [];
    if (view.phase === "pick" && pending && pending.type === "pick") { hand = pending.cards; ghost = hand; }
    const dice = view.dice;
    const forbidden = dice && ["gift", "decide"].includes(view.phase) ? dice.forbidden : null;
    const chosen = pending && pending.type === "discard" ? [...pending.cards] : [];
    const previewLeft = tbl.preview ? [...tbl.preview] : [];
    const cards = hand.map((value, i) => {
      const classes = [];
      if (value === forbidden) classes.push("spk-forbidden");
      const pendingAt = chosen.indexOf(value);
      if (pendingAt >= 0) { chosen.splice(pendingAt, 1); classes.push("spk-chosen"); }
      const previewAt = previewLeft.indexOf(value);
      if (previewAt >= 0) { previewLeft.splice(previewAt, 1); classes.push("spk-preview"); }
      if (mode === "decide" || mode === "gift") {
        const selected = mode === "gift" ? tbl.sel.gift === i : tbl.sel.hand.includes(i);
        if (selected) classes.push("spk-selected");
        if (lit.has(i)) classes.push("spk-lit");
        else if (mode === "decide" && !selected) classes.push("spk-dim");
        const what = `${value} (${tbl.colourOf(value)})`;
        const state = value === forbidden ? ", forbidden now" : mode === "decide" ? (lit.has(i) || selected ? ", can go now" : ", cannot go now") : "";
        return tbl.cardFace(value, {
          tag: "button", extra: classes.join(" "), "aria-pressed": String(selected),
          "aria-label": `${what}${state}`, dataset: { value, focus: `hand-${i}`, index: i },
          onclick: () => (mode === "gift" ? toggleGift(i) : toggleDiscard(i)),
        });
      }
      if (mode === "give") {
        const giving = view.giving || {};
        const action = tbl.legalOf("give").find((a) => a.card === value);
        return tbl.cardFace(value, {
          tag: "button", extra: "spk-lit", dataset: { value, focus: `hand-${i}`, index: i },
          "aria-label": `Give your ${value} (${tbl.colourOf(value)}) to ${tbl.plainName(giving.taker)}`,
          onclick: () => action && tbl.send(action),
        });
      }
      return tbl.cardFace(value, { extra: classes.join(" ") });
    });
    const count = hand.length;
    return el("div", { class: "spk-hand-area" },
      el("h3", { class: "spk-hand-title" }, title, el("span", { class: "muted" }, ` · ${plural(count, "card")}`),
        ghost.length ? el("span", { class: "tag" }, "secret until all have picked") : null),
      el("div", { class: "spk-hand", dataset: { testid: "hand" } },
        cards.length ? cards : el("p", { class: "muted spk-hand-empty" }, "No cards in hand.")),
      note);
  }

  function toggleDiscard(i) {
    const view = tbl.v();
    const value = view.hand[i];
    if (tbl.sel.hand.includes(i)) {
      tbl.sel.hand = tbl.sel.hand.filter((j) => j !== i);
      tbl.ctx.explain("");
      tbl.render();
      return;
    }
    const dice = view.dice;
    if (value === dice.forbidden) {
      tbl.ctx.explain(`No ${value}s this playthrough: the ${view.options.number_die ? "number" : "colour"} die shows ${value} (${dice.forbidden_colour}).`);
      return;
    }
    const options = discardChoices();
    const withIt = [...tbl.selectedCards(), value];
    if (options.some((o) => containsAll(o.cards, withIt))) {
      tbl.sel.hand = [...tbl.sel.hand, i];
      tbl.ctx.explain("");
      tbl.render();
      return;
    }
    if (!options.some((o) => o.cards.includes(value))) {
      tbl.ctx.explain(`Your ${value} cannot go now: it matches neither die (${orWords([...new Set([dice.d1, dice.d2])])}) and no cards of yours add up to ${orWords(view.targets || [dice.sum])} with it.`);
      return;
    }
    const total = sum(withIt);
    tbl.ctx.explain(`${tbl.cardsText(withIt)} = ${total}: that is not ${orWords(view.targets || [dice.sum])}, and one die allows only one card. Tap a chosen card again to put it back.`);
  }

  function toggleGift(i) {
    tbl.sel.gift = tbl.sel.gift === i ? null : i;
    tbl.render();
  }

  function decideControls() {
    const view = tbl.v();
    const options = discardChoices();
    const chosen = tbl.selectedCards();
    const compatible = options.filter((o) => containsAll(o.cards, chosen));
    // lit: hand cards that could still join the current selection
    const lit = new Set();
    view.hand.forEach((value, i) => {
      if (tbl.sel.hand.includes(i)) return;
      const withIt = [...chosen, value];
      if (compatible.some((o) => containsAll(o.cards, withIt))) lit.add(i);
    });
    const exact = chosen.length ? options.find((o) => tbl.multiKey(o.cards) === tbl.multiKey(chosen)) : null;
    const chips = options.map((o, n) => {
      const isChosen = exact === o;
      const fits = containsAll(o.cards, chosen);
      return el("button", {
        type: "button", class: `btn btn-small spk-option${isChosen ? " spk-option-on" : ""}${fits ? "" : " spk-option-off"}`,
        "aria-pressed": String(isChosen), dataset: { focus: `option-${n}`, option: o.option, cards: o.cards.join(",") },
        "aria-label": `Choose ${tbl.cardsText(o.cards)} (${optionWords(o)})`,
        onmouseenter: () => setPreview(o.cards), onmouseleave: () => setPreview(null),
        onfocus: () => setPreview(o.cards), onblur: () => setPreview(null),
        onclick: () => { tbl.sel.hand = indicesFor(o.cards); tbl.preview = null; tbl.ctx.explain(""); tbl.render(); },
      }, el("span", { class: "spk-option-cards" }, o.cards.map((c) => tbl.miniChip(c))),
      el("span", { class: "btn-sub" }, optionWords(o)));
    });
    let confirm;
    let topPicker = null;
    if (exact) {
      const tops = topChoices(exact.cards);
      const action = withTop(exact);
      const top = topOf(action);
      if (tops.length > 1) topPicker = topControls(tops, top);
      confirm = el("button", {
        type: "button", class: "btn spk-confirm", dataset: { focus: "confirm", testid: "discard", top },
        onclick: () => tbl.send(action),
      }, `Discard ${tbl.cardsText(action.cards)}`, tops.length > 1 ? el("span", { class: "btn-sub" }, `${top} on top`) : null);
    } else {
      const hint = chosen.length
        ? `${tbl.cardsText(chosen)} so far: add ${compatible.length ? "a lit card" : "…"} to reach ${orWords(view.targets)}.`
        : "Tap the lit cards, or choose one of these:";
      confirm = el("p", { class: "spk-hint" }, hint);
    }
    return [
      handRow({ title: "Your hand", mode: "decide", lit }),
      el("div", { class: "spk-controls" },
        confirm,
        chosen.length ? el("button", { type: "button", class: "btn btn-small btn-quiet spk-clear", dataset: { focus: "clear" }, onclick: () => { tbl.sel.hand = []; tbl.render(); } }, "Clear") : null),
      topPicker,
      el("div", { class: "spk-options", role: "group", "aria-label": "Possible discards" },
        el("span", { class: "spk-options-label muted" }, options.length === 1 ? "The only possible discard:" : `${options.length} possible discards:`),
        chips),
      el("p", { class: "spk-tip muted" }, "Your choice stays secret until everyone has decided. You choose which card ends on top of your pile: a grim piggy gives the roller's top card back."),
    ];
  }

  // Which card of a discard of two or more values ends on top of the pile: one toggle
  // button per possible top card (the lowest is chosen until the player picks another).
  function topControls(tops, top) {
    const buttons = tops.map((action) => {
      const value = topOf(action);
      const on = value === top;
      return el("button", {
        type: "button", class: `btn btn-small spk-top${on ? " spk-top-on" : ""}`, "aria-pressed": String(on),
        "aria-label": `${value} (${tbl.colourOf(value)}) on top${value === topOf(tops[0]) ? ", the lowest" : ""}`,
        dataset: { focus: `top-${value}`, top: value },
        onclick: () => { tbl.sel.top = value; tbl.ctx.explain(""); tbl.render(); },
      }, tbl.miniChip(value), el("span", { class: "btn-sub" }, "on top"));
    });
    return el("div", { class: "spk-tops", role: "group", "aria-labelledby": "spk-tops-label", dataset: { testid: "top-choice" } },
      el("span", { class: "spk-options-label", id: "spk-tops-label" }, "Which card ends on top of your pile?"),
      buttons);
  }

  function optionWords(o) {
    return o.option === "die" ? `one die: ${o.cards[0]}` : `sum ${sum(o.cards)}`;
  }

  function indicesFor(cards) {
    const hand = tbl.v().hand;
    const used = [];
    for (const value of cards) {
      const i = hand.findIndex((c, j) => c === value && !used.includes(j));
      if (i >= 0) used.push(i);
    }
    return used;
  }

  function setPreview(cards) {
    tbl.preview = cards;
    const wanted = cards ? [...cards] : [];
    for (const node of tbl.ui.mine.querySelectorAll(".spk-hand .spk-card")) {
      const value = Number(node.dataset.value);
      const at = wanted.indexOf(value);
      const on = at >= 0;
      if (on) wanted.splice(at, 1);
      node.classList.toggle("spk-preview", on);
    }
  }

  function giftControls() {
    const view = tbl.v();
    const hand = view.hand;
    const gifts = tbl.legalOf("gift");
    const lit = new Set(hand.map((_, i) => i));
    const card = tbl.sel.gift !== null ? hand[tbl.sel.gift] : null;
    const forbidden = view.dice ? view.dice.forbidden : null;
    const others = tbl.seatsFromMe().filter((s) => s !== tbl.ctx.seat);
    const buttons = others.map((to) => {
      const action = card !== null ? gifts.find((a) => a.card === card && a.to === to) : null;
      return el("button", {
        type: "button", class: "btn" + (action ? " spk-confirm" : ""), dataset: { focus: `gift-${to}`, to },
        onclick: () => {
          if (action) tbl.send(action);
          else tbl.ctx.explain("First tap the card you want to give away.");
        },
      }, card !== null ? `Give the ${card} to ${tbl.plainName(to)}` : `Give to ${tbl.plainName(to)}`);
    });
    const keep = tbl.legalOf("no_gift")[0];
    if (keep) {
      buttons.push(el("button", { type: "button", class: "btn", dataset: { focus: "no-gift" }, onclick: () => tbl.send(keep) }, "Keep my cards"));
    }
    const must = !keep;
    const tip = must
      ? `You must give a card: ${tbl.giftReason()}.`
      : forbidden && hand.includes(forbidden)
      ? `Tip: nobody may discard ${forbidden}s this playthrough, so a ${forbidden} is a nasty gift.`
      : "The other player must accept the card and may discard it right away if the dice allow.";
    return [
      handRow({ title: "Your hand: tap the card to give away", mode: "gift", lit }),
      el("div", { class: "spk-controls", role: "group", "aria-label": "Give the card to" }, buttons),
      el("p", { class: "spk-tip muted" }, tip),
    ];
  }

  function otherControls() {
    const view = tbl.v();
    const parts = [];
    const rolls = tbl.legalOf("roll");
    if (rolls.length) {
      const withPig = rolls.find((a) => a.piggy);
      const without = rolls.find((a) => !a.piggy);
      parts.push(el("div", { class: "spk-controls" },
        withPig ? el("button", { type: "button", class: "btn spk-confirm spk-roll", dataset: { focus: "roll-piggy" }, onclick: () => tbl.send(withPig) },
          pigSvg(true), "Roll with the Piggy die") : null,
        without ? el("button", { type: "button", class: "btn spk-roll", dataset: { focus: "roll-plain" }, onclick: () => tbl.send(without) }, "Roll without it") : null));
      parts.push(el("p", { class: "spk-tip muted" },
        "Piggy die: ±1, ±2 or ±3 lets you aim that much above or below the sum; the smiling piggy lets you give a card away; the grim piggy puts your top discard back in your hand."));
    }
    const cannot = tbl.legalOf("cannot")[0];
    if (cannot) {
      parts.push(el("div", { class: "spk-controls" },
        el("button", { type: "button", class: "btn spk-confirm", dataset: { focus: "cannot", testid: "cannot" }, onclick: () => tbl.send(cannot) },
          "I cannot ABspecken!")));
      parts.push(el("p", { class: "spk-tip muted" }, `The dice say: ${tbl.ruleWords(view.targets)} None of your cards fit, so after the reveal you take a card from someone who discarded.`));
    }
    const takes = tbl.legalOf("take");
    if (takes.length) {
      parts.push(el("div", { class: "spk-controls", role: "group", "aria-label": "Take a card from" },
        takes.map((a) => el("button", {
          type: "button", class: "btn spk-confirm spk-take", dataset: { focus: `take-${a.from}`, from: a.from },
          onclick: () => tbl.send(a),
        }, `Take from ${tbl.plainName(a.from)}`, el("span", { class: "btn-sub" }, `${plural(view.players[a.from].hand_count, "card")} in hand`)))));
      parts.push(el("p", { class: "spk-tip muted" },
        view.options.take_choice === "source_chooses" ? "They choose which card you get." : "You get one of their cards at random."));
    }
    if (!parts.length && view.phase === "decide" && view.pending) {
      const p = view.pending;
      if (p.type === "cannot" && tbl.finished(tbl.ctx.seat)) {
        parts.push(el("p", { class: "spk-pending", dataset: { testid: "finished" } }, "Your hand and draw piles are empty: you have finished this round.",
          el("span", { class: "muted" }, " Nothing to discard; waiting for the others to decide.")));
      } else {
        parts.push(el("p", { class: "spk-pending" }, p.type === "cannot" ? "You declared “I cannot ABspecken!”." : pendingWords(p),
          el("span", { class: "muted" }, " Secret until everyone has decided.")));
      }
    }
    return parts;
  }

  function pendingWords(p) {
    const values = new Set(p.cards);
    const top = p.cards[p.cards.length - 1];
    return `You will discard ${tbl.cardsText(p.cards)}${values.size > 1 ? `, the ${top} on top of your pile` : ""}.`;
  }

  // pick from one's own six draw piles: the opening hand, or a refill
  function pilePicker(need, type, title, confirmText) {
    const view = tbl.v();
    const piles = view.players[tbl.ctx.seat].piles;
    const chosen = tbl.sel.piles;
    const left = VALUES.map((value) => piles[value - 1] - chosen.filter((c) => c === value).length);
    const full = chosen.length >= need;
    const pileButtons = VALUES.map((value) => {
      const n = left[value - 1];
      return el("div", { class: "spk-pickpile" },
        tbl.cardFace(value, {
          tag: "button", extra: n > 0 && !full ? "spk-lit" : "spk-dim",
          "aria-label": `Add a ${value} (${tbl.colourOf(value)}), ${n} left in that pile`,
          dataset: { focus: `pile-${value}`, pile: value },
          onclick: () => {
            if (n <= 0) { tbl.ctx.explain(`Your ${value}s pile is empty.`); return; }
            if (full) { tbl.ctx.explain(`You already have ${plural(need, "card")}: tap a chosen card to put it back first.`); return; }
            tbl.sel.piles = [...chosen, value].sort((a, b) => a - b);
            tbl.ctx.explain("");
            tbl.render();
          },
        }),
        el("span", { class: "spk-pickpile-count" }, `${n} left`));
    });
    const picked = chosen.map((value, i) => tbl.cardFace(value, {
      tag: "button", extra: "spk-selected",
      "aria-label": `Put the ${value} back`, dataset: { focus: `chosen-${i}` },
      onclick: () => { tbl.sel.piles = chosen.filter((_, j) => j !== i); tbl.render(); },
    }));
    for (let i = chosen.length; i < need; i += 1) picked.push(el("span", { class: "card spk-slot", "aria-hidden": "true" }));
    const action = full ? pickAction(type, chosen) : null;
    return [
      el("div", { class: "spk-hand-area" },
        el("h3", { class: "spk-hand-title" }, title, el("span", { class: "muted" }, ` · ${chosen.length} of ${need}`)),
        el("div", { class: "spk-hand spk-picked" }, picked)),
      el("div", { class: "spk-controls" },
        action ? el("button", { type: "button", class: "btn spk-confirm", dataset: { focus: "confirm", testid: type }, onclick: () => tbl.send(action) }, confirmText)
          : el("p", { class: "spk-hint" }, `Tap your draw piles below: ${plural(need - chosen.length, "more card")}.`),
        chosen.length ? el("button", { type: "button", class: "btn btn-small btn-quiet", dataset: { focus: "clear" }, onclick: () => { tbl.sel.piles = []; tbl.render(); } }, "Clear") : null),
      el("div", { class: "spk-pickpiles", role: "group", "aria-label": "Your draw piles" },
        el("h3", { class: "spk-hand-title" }, "Your draw piles"), el("div", { class: "spk-pickpiles-row" }, pileButtons)),
      type === "pick" ? el("p", { class: "spk-tip muted" }, "Every value from 1 to 6 has its own colour. A spread of values gives you more ways to match the dice.") : null,
    ];
  }

  return { decideControls, discardChoices, topChoices, giftControls, handRow, indicesFor, optionWords, otherControls, pickAction, pilePicker, renderMine, setPreview, syncSelection, toggleDiscard, toggleGift };
}

const topOf = (action) => action.cards[action.cards.length - 1];
