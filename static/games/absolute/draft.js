// absolute/draft.js: the play being built before it is sent: cards selected in the hand or
// in your sets, grouped into new sets or added to your sets, each group checked as you go
// (rules.js), and sent as one play action.
// `tbl` is the table's shared state and parts (see ../absolute.js): its state (msg, previous,
// busy, lg, selected, draft, swap), ctx, words, ui and the other parts' functions.

import { cardsText, isZero, sameCards, sortCards } from "./cards.js";
import { checkGroup, scoreSet } from "./rules.js";

export function draftPart(tbl) {
  function emptyDraft() {
    return { groups: [], origins: new Map() }; // origins: set id -> {cards, zero, score}
  }

  function tidy() {
    for (const g of tbl.draft.groups) g.cards = sortCards(g.cards);
    tbl.draft.groups = tbl.draft.groups.filter((g) => g.cards.length);
    const placed = tbl.draftCards();
    for (const [id, origin] of tbl.draft.origins) {
      if (!origin.cards.some((c) => placed.has(c))) tbl.draft.origins.delete(id);
    }
    const hand = new Set(tbl.myHand());
    tbl.selected = new Set([...tbl.selected].filter((c) => hand.has(c) || placed.has(c)));
  }

  function removeFromGroups(cards) {
    for (const g of tbl.draft.groups) g.cards = g.cards.filter((c) => !cards.has(c));
  }

  function pullSet(id) {
    const s = tbl.setById(id);
    if (!s) return null;
    if (!tbl.draft.origins.has(id)) {
      tbl.draft.origins.set(id, { cards: [...s.cards], zero: s.zero, score: s.score });
    }
    let group = tbl.draft.groups.find((g) => g.origin === id);
    if (!group) {
      const missing = s.cards.filter((c) => !tbl.inDraft(c));
      group = { key: tbl.nextKey++, cards: missing, origin: id };
      tbl.draft.groups.push(group);
    }
    return group;
  }

  function newGroup() {
    if (!tbl.selected.size) return;
    const cards = [...tbl.selected];
    removeFromGroups(tbl.selected);
    tbl.draft.groups.push({ key: tbl.nextKey++, cards, origin: null });
    tbl.selected.clear();
    afterEdit(`group-${tbl.draft.groups[tbl.draft.groups.length - 1].key}`);
  }

  function moveTo(key) {
    const group = tbl.draft.groups.find((g) => g.key === key);
    if (!group || !tbl.selected.size) return;
    const moving = new Set([...tbl.selected].filter((c) => !group.cards.includes(c)));
    removeFromGroups(moving);
    group.cards.push(...moving);
    tbl.selected.clear();
    afterEdit(`group-${key}`);
  }

  function addToSet(id) {
    const moving = new Set(tbl.selected);
    const group = pullSet(id);
    if (!group) return;
    removeFromGroups(moving);
    group.cards.push(...moving);
    tbl.selected.clear();
    afterEdit(`group-${group.key}`);
  }

  function regroupSet(id) {
    const group = pullSet(id);
    if (group) afterEdit(`group-${group.key}`);
  }

  function backToHand() {
    const hand = new Set(tbl.myHand());
    const back = [...tbl.selected].filter((c) => hand.has(c) && tbl.inDraft(c));
    const stuck = [...tbl.selected].filter((c) => !hand.has(c));
    removeFromGroups(new Set(back));
    tbl.selected.clear();
    afterEdit("hand");
    if (stuck.length) {
      tbl.ctx.explain(`${cardsText(stuck)} already ${stuck.length === 1 ? "lies" : "lie"} on the table: cards of your sets can move to another group, but not back to your hand.`);
    }
  }

  // Undo one group: hand cards go back to the hand, cards of your sets back to their own set.
  function putBack(key) {
    const group = tbl.draft.groups.find((g) => g.key === key);
    if (!group) return;
    const origin = group.origin !== null ? tbl.draft.origins.get(group.origin) : null;
    if (origin && !origin.cards.every((c) => group.cards.includes(c))) {
      tbl.ctx.explain("Some cards of this set are in another group: move them back here first, or reset your play.");
      return;
    }
    const hand = new Set(tbl.myHand());
    const strays = group.cards.filter((c) => !hand.has(c) && !(origin && origin.cards.includes(c)));
    tbl.draft.groups = tbl.draft.groups.filter((g) => g !== group);
    if (origin) tbl.draft.origins.delete(group.origin);
    for (const [id, other] of tbl.draft.origins) {
      const home = strays.filter((c) => other.cards.includes(c));
      if (!home.length) continue;
      const existing = tbl.draft.groups.find((g) => g.origin === id);
      if (existing) existing.cards.push(...home);
      else pullSet(id); // brings back every card of that set that is not placed elsewhere
    }
    afterEdit("hand");
  }

  function resetDraft() {
    tbl.draft = emptyDraft();
    tbl.selected.clear();
    afterEdit("hand");
  }

  function afterEdit(focusKey) {
    tidy();
    tbl.render(focusKey);
  }

  function toggle(card) {
    if (tbl.busy) return;
    if (tbl.selected.has(card)) tbl.selected.delete(card);
    else tbl.selected.add(card);
    tbl.render();
  }

  // Which zero cards keep their value (spec 4.4: a zero beside any of its old set-mates).
  function frozenZeros() {
    const frozen = new Map();
    for (const origin of tbl.draft.origins.values()) {
      if (origin.zero === null || origin.zero === undefined) continue;
      const zero = origin.cards.find(isZero);
      const group = tbl.draft.groups.find((g) => g.cards.includes(zero));
      if (group && origin.cards.some((c) => c !== zero && group.cards.includes(c))) {
        frozen.set(zero, origin.zero);
      }
    }
    return frozen;
  }

  function evaluateDraft() {
    const v = tbl.view();
    const hand = new Set(tbl.myHand());
    const frozen = frozenZeros();
    const groups = tbl.draft.groups.map((g) => {
      const origin = g.origin !== null ? tbl.draft.origins.get(g.origin) : null;
      const unchanged = Boolean(origin && sameCards(g.cards, origin.cards));
      const check = checkGroup(g.cards, frozen);
      return { g, check, unchanged, score: check.ok ? scoreSet(g.cards) : null };
    });
    const changed = groups.filter((r) => !r.unchanged);
    // Points of the sets this play takes apart (an untouched set counts on neither side).
    const before = [...tbl.draft.origins.entries()]
      .filter(([id]) => !groups.some((r) => r.unchanged && r.g.origin === id))
      .reduce((t, [, o]) => t + o.score, 0);
    const after = changed.reduce((t, r) => t + (r.score ? r.score.score : 0), 0);
    const handPlaced = [...tbl.draftCards()].filter((c) => hand.has(c));
    const action = { type: "play", groups: changed.map((r) => sortCards(r.g.cards)) };
    let problem = null;
    if (!changed.length) problem = "Nothing changes yet: add cards from your hand.";
    else if (changed.some((r) => !r.check.ok)) problem = "Every group must be a valid set: fix the groups marked ✗.";
    else if (!handPlaced.length && !(v.options && v.options.pure_regroup)) problem = "A play must put at least one card from your hand on the table.";
    else if (handPlaced.length >= hand.size) problem = "Keep at least one card in your hand: you discard one to end your turn.";
    else if (tbl.isOver()) problem = "The match is over.";
    else if (!tbl.myTurn()) problem = `You can play this on your turn (${tbl.name(v.turn)} is playing now).`;
    else if (v.phase === "draw") problem = "Draw a card first, then play.";
    else if (v.phase === "discard") problem = "You must finish discarding now.";
    const listed = action.groups.length === 1 && tbl.lg.plays.some((a) => a.groups.length === 1 && sameCards(a.groups[0], action.groups[0]));
    return { groups, changed, action, problem, gain: after - before, after, handPlaced, listed };
  }

  function commitPlay() {
    const result = evaluateDraft();
    if (result.problem) { tbl.ctx.explain(result.problem); return; }
    tbl.send(result.action, "draft-commit");
  }

  function suggest() {
    if (!tbl.lg.plays.length) {
      tbl.ctx.explain("No set can be made from your hand right now: draw, swap, or discard and wait for better cards.");
      return;
    }
    const action = tbl.lg.plays[tbl.suggestAt % tbl.lg.plays.length];
    tbl.suggestAt += 1;
    tbl.draft = emptyDraft();
    tbl.selected.clear();
    tbl.swap = null;
    const owner = new Map();
    for (const s of tbl.ownSets()) for (const c of s.cards) owner.set(c, s);
    for (const group of action.groups) {
      const from = [...new Set(group.filter((c) => owner.has(c)).map((c) => owner.get(c)))];
      if (from.length === 1) {
        tbl.draft.origins.set(from[0].id, { cards: [...from[0].cards], zero: from[0].zero, score: from[0].score });
        tbl.draft.groups.push({ key: tbl.nextKey++, cards: [...group], origin: from[0].id });
      } else {
        tbl.draft.groups.push({ key: tbl.nextKey++, cards: [...group], origin: null });
      }
    }
    afterEdit("draft-commit");
  }

  return { addToSet, afterEdit, backToHand, commitPlay, emptyDraft, evaluateDraft, frozenZeros, moveTo, newGroup, pullSet, putBack, regroupSet, removeFromGroups, resetDraft, suggest, tidy, toggle };
}
