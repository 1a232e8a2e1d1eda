// absolute/swap.js: the swap being built: cards taken from a set and given from the hand,
// checked as you go, suggested from the legal swaps, and sent as one swap action.
// `tbl` is the table's shared state and parts (see ../absolute.js): its state (msg, previous,
// busy, lg, selected, draft, swap), ctx, words, ui and the other parts' functions.

import { MAX_SWAP, MIN_SET, cardText, isZero, sameCards, signed, sortCards, sumOf } from "./cards.js";
import { checkGroup, scoreSet } from "./rules.js";

export function swapPart(tbl) {
  function startSwap(id) {
    if (tbl.busy) return;
    const hand = new Set(tbl.myHand());
    tbl.selected = new Set([...tbl.selected].filter((c) => hand.has(c) && !tbl.inDraft(c)));
    tbl.swap = { set: id, take: new Set() };
    tbl.render(`swap-${id}-take-0`);
  }

  function cancelSwap() {
    const id = tbl.swap && tbl.swap.set;
    tbl.swap = null;
    tbl.selected.clear();
    tbl.render(id !== null ? `set-${id}-swap` : null);
  }

  function toggleTake(card) {
    if (!tbl.swap || tbl.busy) return;
    if (tbl.swap.take.has(card)) tbl.swap.take.delete(card);
    else tbl.swap.take.add(card);
    tbl.render();
  }

  function swapGive() {
    const hand = new Set(tbl.myHand());
    return sortCards([...tbl.selected].filter((c) => hand.has(c) && !tbl.inDraft(c)));
  }

  function swapCandidates() {
    const give = swapGive();
    const take = [...tbl.swap.take];
    return tbl.lg.swaps.filter((a) => a.set === tbl.swap.set
      && give.every((c) => a.give.includes(c)) && take.every((c) => a.take.includes(c)));
  }

  function evaluateSwap() {
    const v = tbl.view();
    const s = tbl.setById(tbl.swap.set);
    const give = swapGive();
    const take = sortCards([...tbl.swap.take]);
    const action = { type: "swap", set: s.id, give, take };
    const listed = tbl.lg.swaps.some((a) => a.set === s.id && sameCards(a.give, give) && sameCards(a.take, take));
    const result = sortCards([...s.cards.filter((c) => !tbl.swap.take.has(c)), ...give]);
    let problem = null;
    let check = null;
    if (!take.length) problem = "Tap 1 or 2 cards of the set to take them.";
    else if (take.length > MAX_SWAP) problem = `You may take at most ${MAX_SWAP} cards.`;
    else if (!give.length) problem = "Now tap 1 or 2 cards in your hand to give in exchange.";
    else if (give.length > MAX_SWAP) problem = `You may give at most ${MAX_SWAP} cards.`;
    else if (result.length < MIN_SET) problem = `The set would keep only ${result.length} cards; a set needs at least ${MIN_SET}.`;
    else {
      const setZero = s.cards.find(isZero);
      const zeroTaken = Boolean(setZero && tbl.swap.take.has(setZero));
      const frozen = new Map();
      if (setZero && !zeroTaken) frozen.set(setZero, s.zero);
      if (!give.some(isZero)) {
        const given = sumOf(give);
        const taken = sumOf(take) + (zeroTaken ? s.zero : 0);
        if (given !== taken) {
          problem = `You give ${signed(given)} but take ${signed(taken)}`
            + (zeroTaken ? ` (the ${cardText(setZero)} stands for ${signed(s.zero)})` : "")
            + ": the set must still add up to 0.";
        }
      }
      if (!problem) {
        check = checkGroup(result, frozen);
        if (!check.ok) problem = check.message;
      }
    }
    if (!problem && !listed) {
      if (!tbl.myTurn()) problem = "You can swap only on your turn.";
      else if (v.phase === "draw") problem = "Draw a card first, then swap.";
      else if (v.this_turn && v.this_turn.swapped) problem = "You have already swapped this turn (one swap per turn).";
      else if (v.this_turn && v.this_turn.played) problem = "Swaps come before playing: you have already played this turn.";
      else if (s.locked) problem = "This set is locked: its owner went out.";
      else problem = "The server does not allow this swap now.";
    }
    return { action, listed, problem, result, check, score: check && check.ok ? scoreSet(result) : null, set: s, give, take };
  }

  function suggestSwap() {
    const s = tbl.setById(tbl.swap.set);
    // Your own set: the best new score first; someone else's: the worst for them first.
    const mine = s.owner === tbl.ctx.seat;
    const after = (a) => scoreSet(sortCards([...s.cards.filter((c) => !a.take.includes(c)), ...a.give])).score;
    const options = tbl.lg.swaps.filter((a) => a.set === tbl.swap.set)
      .map((a) => ({ a, k: mine ? -after(a) : after(a) })).sort((x, y) => x.k - y.k).map((x) => x.a);
    if (!options.length) return;
    const action = options[tbl.suggestAt % options.length];
    tbl.suggestAt += 1;
    tbl.swap.take = new Set(action.take);
    tbl.selected = new Set(action.give);
    tbl.render("swap-confirm");
  }

  function commitSwap() {
    const result = evaluateSwap();
    if (result.problem) { tbl.ctx.explain(result.problem); return; }
    tbl.send(result.action, "hand");
  }

  return { cancelSwap, commitSwap, evaluateSwap, startSwap, suggestSwap, swapCandidates, swapGive, toggleTake };
}
