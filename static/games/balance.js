// balance.js: the Balance table (renderer interface: see static/js/table.js). It wires the
// parts in balance/, each of one job:
//   cards.js   values, zones, scores and signed numbers (no DOM)   moves.js  a move in words
//   board.js   the scoreboard (points, tags, clocks, automaton)    status.js what to do now, news
//   centre.js  the stock, the gauge, the pile                      hand.js   your hand and its plays
//   result.js  the rounds and the outcome                          help.js   how to play
// and takes what every table shares from the core: seats (static/js/table/seats.js), turn clocks
// (clock.js), the outcome (outcome.js) and the move log (movelog.js).
//
// view = {mode: "multi"|"solo", phase: "playing"|"over", round, dealer, to_move, you,
//         balance, pile: [{kind: "play"|"start"|"automaton", seat, card, direction, before,
//         after, points, matched?}], stock (count), hand ([cards] | null), drawn, hand_counts,
//         points, round_points, eliminated, last_play, rounds, last_round, options,
//         rules: {limit, win_points, out_points} | {limit, target}, result, automaton (solo)}
// A replay frame (engine.reveal) adds hands: [[cards] per seat] and stock_cards (next first).
// action: {"type": "play", "card": "7H", "direction": 1 | -1}

import { el } from "../js/dom.js";
import { createMoveLog } from "../js/table/movelog.js";
import { seatWords } from "../js/table/seats.js";
import { boardPart } from "./balance/board.js";
import { centrePart } from "./balance/centre.js";
import { handPart } from "./balance/hand.js";
import { helpPart } from "./balance/help.js";
import { describeMove } from "./balance/moves.js";
import { resultPart } from "./balance/result.js";
import { statusPart } from "./balance/status.js";

export { describeMove };

export function mount(root, ctx) {
  const part = (cls, tag = "div", props = {}) => el(tag, { class: cls, ...props });
  const ui = {
    board: part("bl-players", "ul", { "aria-label": "Points" }),
    meta: part("bl-meta", "p"),
    outcome: part("bl-outcome", "section", { "aria-label": "Result", dataset: { testid: "outcome" } }),
    status: part("bl-status", "p"),
    news: part("bl-news", "p"),
    stock: part("bl-stock"),
    meter: part("bl-meter"),
    pile: part("bl-pile"),
    trail: part("bl-trail-area", "section", { "aria-label": "This round's balance pile" }),
    hand: part("bl-hand-area", "section", { "aria-labelledby": "bl-hand-title" }),
    hands: part("bl-hands", "section", { "aria-label": "Every hand" }),
    rounds: part("bl-rounds", "section", { "aria-label": "Rounds" }),
    legend: part("bl-legend", "details"),
  };
  ui.outcome.hidden = true;
  const words = seatWords(ctx, { numberTwins: false });
  const log = createMoveLog((state, previous) => describeMove(state, previous, words), { prefix: "bl" });
  const table = el("div", { class: "felt balance" },
    ui.board, ui.meta, ui.outcome, el("div", { class: "bl-head", "aria-live": "polite" }, ui.status, ui.news),
    el("section", { class: "bl-centre", "aria-label": "The balance" }, ui.stock, ui.meter, ui.pile),
    ui.hand, ui.trail, log.element, ui.hands, ui.rounds, ui.legend);
  root.append(table);

  // The table's state and parts, shared by the parts in balance/.
  const tbl = {
    ctx, words, ui, table,
    msg: null,
    busy: false,
    keepFocus: false, // put the focus back on the table after a play sent from it
    plainName: words.plain,
    who: words.who,
    send,
    render,
  };
  // ------------------------------------------------------------- helpers
  tbl.v = () => tbl.msg.view;
  tbl.solo = () => tbl.v().mode === "solo";
  tbl.isOver = () => Boolean(tbl.msg.over) || tbl.v().phase === "over";
  tbl.limit = () => (tbl.v().rules && tbl.v().rules.limit) || 9;
  tbl.mover = () => {
    const view = tbl.v();
    if (view.to_move !== null && view.to_move !== undefined) return view.to_move;
    return tbl.msg.to_act && tbl.msg.to_act.length ? tbl.msg.to_act[0] : null;
  };
  tbl.legal = () => (ctx.seat === null || !tbl.msg || !Array.isArray(tbl.msg.legal) ? [] : tbl.msg.legal)
    .filter((a) => a && a.type === "play");
  tbl.legalKey = (card, direction) => `${card}|${direction}`;
  tbl.myTurn = () => !tbl.isOver() && tbl.legal().length > 0;
  // Orientation (ctx.perspective): the hand at the bottom is the viewer's own, or the one of the
  // seat a spectator follows (face down: only its size is public). Identity stays ctx.seat.
  tbl.handOwner = words.perspective;
  tbl.followed = words.followed;
  Object.assign(tbl, boardPart(tbl), statusPart(tbl), centrePart(tbl), handPart(tbl), resultPart(tbl), helpPart(tbl));

  function send(action) {
    if (tbl.busy) return;
    tbl.busy = true;
    tbl.keepFocus = table.contains(document.activeElement);
    ctx.explain("");
    render();
    ctx.act(action).catch(() => { tbl.busy = false; render(); });
  }

  // ------------------------------------------------------------- render
  function render() {
    if (!tbl.msg) return;
    const active = document.activeElement;
    const inside = table.contains(active);
    const focused = inside && active.dataset ? active.dataset.focus : null;
    table.classList.toggle("is-spectator", ctx.seat === null);
    table.classList.toggle("bl-solo", tbl.solo());
    table.dataset.seq = String(tbl.msg.seq ?? "");
    table.dataset.mode = tbl.v().mode;
    tbl.renderBoard();
    tbl.renderOutcome();
    tbl.renderStatus();
    tbl.renderCentre();
    tbl.renderTrail();
    tbl.renderHand();
    tbl.renderRevealed();
    tbl.renderRounds();
    tbl.renderLegend();

    let target = focused ? table.querySelector(`[data-focus="${CSS.escape(focused)}"]`) : null;
    if (!target && (inside || tbl.keepFocus) && !tbl.busy) {
      target = table.querySelector(".bl-choice") || (ui.hand.hidden ? null : ui.hand.querySelector("h3"));
    }
    if (target && (inside || tbl.keepFocus)) {
      target.focus({ preventScroll: true });
      if (!tbl.busy) tbl.keepFocus = false;
    }
  }

  return {
    update(next) {
      tbl.msg = next;
      tbl.busy = false;
      log.update(next);
      render();
    },
    destroy() {
      table.remove();
    },
  };
}
