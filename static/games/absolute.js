// absolute.js: the ABSOLUTE table (renderer interface: see static/js/table.js). It wires the
// parts in absolute/, each of one job:
//   cards.js    the cards as data and words (no DOM)      rules.js   set check and scoring (no DOM)
//   faces.js    card faces and backs                      moves.js   a move in words
//   actions.js  the legal moves, sending a move           draft.js   the play being built
//   swap.js     the swap being built                      board.js   the table everyone sees
//   hand.js     the viewer's controls (hand, tray, the play and swap being built)
// and takes what every table shares from the core: seats (static/js/table/seats.js), turn clocks
// (clock.js), the outcome (outcome.js) and the move log (movelog.js).
//
// view (games/absolute/view.py): phase "draw"|"play"|"discard"|"over", round, rounds_total,
//   first_player, turn, hand (own; null for spectators), hand_counts, hand_limit, deck_count,
//   discard (top last), sets [{id, owner, cards, zero, locked, base, extra, run, double, score}],
//   went_out, first_out, final_turns, this_turn {seat, drew, drawn_card, swapped, played,
//   can_draw_deck, can_draw_discard, can_swap, can_hold, must_discard}, turns_taken, max_turns (null:
//   no turn limit), totals, round_scores, last_round, rounds, options, winners. A replay's revealed view
//   (Engine.reveal) adds hands (every seat's) and deck_cards.
// actions: {type:"draw", source:"deck"|"discard"}, {type:"swap", set, give:[..], take:[..]},
//   {type:"play", groups:[[..], ..]}, {type:"discard", card}, {type:"hold"}.
//
// Building a play: select cards (hand or your play), then "New set", "Move here" on a group of
// your play, or "Add here" on one of your sets (which pulls that set into your play; its cards
// can then be moved too, which regroups it). Each group shows its sum, whether it is a valid set
// and what it would score; the play is sent once, as one action. The server's answer is final.

import { el } from "../js/dom.js";
import { createMoveLog } from "../js/table/movelog.js";
import { seatWords } from "../js/table/seats.js";
import { actionsPart } from "./absolute/actions.js";
import { boardPart, rulesHelp } from "./absolute/board.js";
import { sameCards } from "./absolute/cards.js";
import { draftPart } from "./absolute/draft.js";
import { handPart } from "./absolute/hand.js";
import { describeMove } from "./absolute/moves.js";
import { swapPart } from "./absolute/swap.js";

export { cardText, parseCard, signed, sortCards } from "./absolute/cards.js";
export { checkGroup, scoreSet } from "./absolute/rules.js";
export { describeMove };

export function mount(root, ctx) {
  const part = (cls, tag = "div", props = {}) => el(tag, { class: cls, ...props });
  const ui = {
    top: part("abs-top"),
    outcome: part("abs-outcome", "section", { "aria-label": "Result" }),
    roundOver: part("abs-round-over", "section", { "aria-label": "Round result" }),
    status: part("abs-status", "p", { "aria-live": "polite" }),
    last: part("abs-last muted", "p"),
    piles: part("abs-piles", "section", { "aria-label": "Deck and discard pile" }),
    others: part("abs-zones", "section", { "aria-label": "The other players and their sets" }),
    mine: part("abs-zones abs-zones-mine", "section", { "aria-label": "Your sets" }),
    swap: part("abs-swap", "section", { "aria-label": "Swap" }),
    draft: part("abs-draft", "section", { "aria-label": "Your play" }),
    hand: part("abs-hand-area", "section", { "aria-label": "Your hand" }),
    tray: part("abs-tray"),
    trayInfo: part("abs-tray-info", "p", { "aria-live": "polite" }),
    trayButtons: part("abs-tray-buttons"),
    scores: part("abs-scores", "section", { "aria-label": "Scores" }),
  };
  ui.tray.append(ui.trayInfo, ui.trayButtons);
  ui.outcome.dataset.testid = "outcome";
  ui.outcome.hidden = true;
  ui.roundOver.dataset.testid = "round-over";
  ui.roundOver.hidden = true;
  const words = seatWords(ctx);
  const log = createMoveLog((msg, previous) => describeMove(msg, previous, words), { prefix: "abs" });
  const felt = el("div", { class: "felt abs-table" },
    ui.top, ui.outcome, ui.roundOver,
    el("div", { class: "abs-say" }, ui.status, ui.last),
    ui.others, ui.piles, ui.mine, ui.swap, ui.draft, ui.hand, ui.tray, log.element, ui.scores, rulesHelp());
  root.append(felt);

  // The table's state and parts, shared by the parts in absolute/.
  const tbl = {
    ctx, words, ui, felt,
    msg: null,
    previous: null,
    busy: false,
    selected: new Set(),
    swap: null, // { set: id, take: Set }
    suggestAt: 0,
    nextKey: 1,
    // seats (words): the viewer's seat is ctx.seat; the zone at the bottom is the perspective
    name: words.name,
    who: words.who,
    seated: words.seated,
    followed: words.followed,
    bottomSeat: words.perspective,
    render,
  };
  Object.assign(tbl, actionsPart(tbl), draftPart(tbl), swapPart(tbl), boardPart(tbl), handPart(tbl));
  tbl.lg = tbl.emptyLegal();
  tbl.draft = tbl.emptyDraft();

  // ---------------------------------------------------------------- facts
  tbl.view = () => tbl.msg.view;
  tbl.isOver = () => Boolean(tbl.msg.over || tbl.view().phase === "over");
  tbl.myHand = () => (tbl.seated() && Array.isArray(tbl.view().hand) ? tbl.view().hand : []);
  // a replay shows a seat's view as it was, never as a turn to take (ctx.replay)
  tbl.myTurn = () => tbl.seated() && !ctx.replay && !tbl.isOver() && tbl.view().turn === tbl.ctx.seat;
  tbl.players = () => tbl.view().players || tbl.view().hand_counts.length;
  tbl.ownSets = () => tbl.view().sets.filter((s) => s.owner === tbl.ctx.seat);
  tbl.setById = (id) => tbl.view().sets.find((s) => s.id === id);
  // A discard is owed now (after a play, or above the hand limit): the hand is the target.
  tbl.mustDiscard = () => tbl.myTurn() && tbl.view().phase !== "draw" && !tbl.lg.hold && tbl.lg.discards.size > 0;
  tbl.draftCards = () => new Set(tbl.draft.groups.flatMap((g) => g.cards));
  tbl.inDraft = (card) => tbl.draft.groups.some((g) => g.cards.includes(card));

  function render(focusKey = null) {
    if (!tbl.msg) return;
    const active = tbl.felt.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    tbl.felt.classList.toggle("is-spectator", !tbl.seated());
    tbl.felt.classList.toggle("is-my-turn", tbl.myTurn());
    tbl.renderTop();
    tbl.renderOutcome();
    tbl.renderRoundOver();
    tbl.renderStatus();
    tbl.renderPiles();
    tbl.renderZones();
    tbl.renderSwap();
    tbl.renderDraft();
    tbl.renderHand();
    tbl.renderTray();
    tbl.renderScores();
    // Keep the keyboard focus on the same control (or on the one an edit points to).
    const wanted = focusKey && active ? focusKey : active;
    if (wanted) {
      const again = tbl.felt.querySelector(`[data-focus="${CSS.escape(wanted)}"]:not([disabled])`)
        || tbl.felt.querySelector(".abs-hand .abs-card:not([disabled])");
      if (again) again.focus({ preventScroll: true });
    }
  }

  function reconcile() {
    const v = tbl.view();
    if (!tbl.seated()) { tbl.draft = tbl.emptyDraft(); tbl.selected.clear(); tbl.swap = null; return; }
    const roundChanged = tbl.previous && tbl.previous.view.round !== v.round;
    if (!tbl.previous || roundChanged || tbl.isOver()) {
      tbl.draft = tbl.emptyDraft(); tbl.selected.clear(); tbl.swap = null; return;
    }
    const last = tbl.msg.last;
    if (last && last.seat === tbl.ctx.seat && last.action && last.action.type === "play") {
      tbl.draft = tbl.emptyDraft(); tbl.selected.clear();
    }
    let changed = false;
    for (const [id, origin] of tbl.draft.origins) {
      const s = tbl.setById(id);
      if (!s || s.locked || !sameCards(s.cards, origin.cards)) changed = true;
    }
    if (changed) {
      tbl.draft = tbl.emptyDraft();
      tbl.selected.clear();
      tbl.ctx.explain("One of your sets changed on the table, so your unfinished play was cleared.");
    } else {
      const hand = new Set(tbl.myHand());
      const fromSets = new Set([...tbl.draft.origins.values()].flatMap((o) => o.cards));
      tbl.removeFromGroups(new Set([...tbl.draftCards()].filter((c) => !hand.has(c) && !fromSets.has(c))));
    }
    if (tbl.swap) {
      const s = tbl.setById(tbl.swap.set);
      if (!s || !tbl.myTurn() || !tbl.lg.swaps.some((a) => a.set === tbl.swap.set)) tbl.swap = null;
      else tbl.swap.take = new Set([...tbl.swap.take].filter((c) => s.cards.includes(c)));
    }
    tbl.tidy();
  }

  return {
    update(next) {
      tbl.previous = tbl.msg;
      tbl.msg = next;
      tbl.busy = false;
      felt.dataset.seq = String(next.seq);
      tbl.lg = tbl.readLegal();
      reconcile();
      log.update(next);
      render();
    },
    destroy() {
      felt.remove();
    },
  };
}
