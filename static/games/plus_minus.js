// plus_minus.js: the Plus & Minus table (renderer interface: see static/js/table.js). It wires the
// parts in plus_minus/, each of one job:
//   cards.js    ranks, points, what fits (no DOM)      moves.js   a move in words, the log's lines
//   actions.js  the legal moves, sending a move        status.js  what to do now, the round, the deck
//   board.js    each seat's stacks, tags and hand      hand.js    your hand and the guide's steps
//   result.js   the rounds' scoring and the outcome    help.js    how to play
// and takes what every table shares from the core: seats (static/js/table/seats.js, with "#N"
// for two seats of one name), turn clocks (clock.js), the outcome (outcome.js) and the move log
// (movelog.js).
//
// view = {phase: "play"|"swap"|"king"|"pass"|"over", players, viewer, round, rounds_total, dealer,
//         current, first_turn, plays_left, turn: {seat, drawn, plays, lost}, last_turn,
//         draw_stack, seats: [{seat, left, hand_count, plus: {top, size}, minus: {top, size},
//         total}], hand: [cards] | null, last_pass: {from, to, card?} | null, totals,
//         round_scores: [[..]], last_round: {round, dealer, scores, totals, seats: [{plus, minus,
//         hand, plus_points, minus_points, hand_points, score}]} | null, options}
// The revealed view of replays adds seats[s].hand, seats[s].plus.cards / minus.cards, deck.
// actions: {"type": "play", card, seat, stack}, {"type": "swap", a_seat, a_stack, b_seat,
//          b_stack}, {"type": "king", seats: [a, b]}, {"type": "pass", card, to}

import { cardText } from "../js/cards.js";
import { el, fill } from "../js/dom.js";
import { createMoveLog } from "../js/table/movelog.js";
import { seatWords } from "../js/table/seats.js";
import { capital, plural } from "../js/words.js";
import { actionsPart } from "./plus_minus/actions.js";
import { boardPart } from "./plus_minus/board.js";
import { handPart } from "./plus_minus/hand.js";
import { helpPanel } from "./plus_minus/help.js";
import { describeMove, effectNote, logLines, stackName } from "./plus_minus/moves.js";
import { resultPart } from "./plus_minus/result.js";
import { statusPart } from "./plus_minus/status.js";

export { describeMove };

export function mount(root, ctx) {
  const part = (cls, tag = "div") => el(tag, { class: cls });
  const ui = {
    status: part("pm-status", "p"),
    sub: part("pm-sub", "p"),
    deck: part("pm-deck"),
    outcome: part("pm-outcome", "section"),
    others: part("pm-others"),
    mine: part("pm-mine"),
    handArea: part("pm-hand-area", "section"),
    rounds: part("pm-rounds", "section"),
  };
  ui.outcome.dataset.testid = "outcome";
  ui.outcome.hidden = true;
  ui.status.setAttribute("aria-live", "polite");
  // A seat's name; seats sharing a name (bots) get their seat number too ("Bot #2").
  const seats = seatWords(ctx, { twinMark: "#" });
  const words = { ...seats, who: (seat) => capital(seats.whoLower(seat)) };
  // the latest moves, newest first, with a line for each round just scored
  const log = createMoveLog((state, before) => logLines(state, before, words), { prefix: "pm" });
  const table = el("div", { class: "felt pm" },
    el("div", { class: "pm-top" }, el("div", { class: "pm-top-text" }, ui.status, ui.sub), ui.deck),
    ui.outcome,
    el("section", { class: "pm-board", "aria-label": "The stacks" },
      ui.others,
      el("div", { class: "pm-front" }, ui.mine, ui.handArea)),
    log.element, ui.rounds, helpPanel());
  root.append(table);

  // The table's state and parts, shared by the parts in plus_minus/.
  const tbl = {
    ctx, words, ui, table,
    msg: null,
    prev: null,
    busy: false,
    pick: null, // the selected hand card (play or pass)
    swapPicks: [], // stack keys picked for a 10's swap
    kingPicks: [], // seats picked for a King
    focusNext: null, // data-focus key to focus after the next render
    render,
  };
  // ------------------------------------------------------------- helpers
  tbl.v = () => tbl.msg.view;
  tbl.me = () => ctx.seat; // identity: "you", the hand, the controls
  // Orientation (ctx.perspective): the viewer's own seat, or the seat a spectator follows, sits
  // in front; the others follow it in seat order (the player to its left first).
  tbl.front = words.perspective;
  tbl.followed = words.followed;
  tbl.plainName = words.name;
  tbl.who = words.whoLower;
  tbl.stackName = (seat, kind) => stackName(seat, kind, words);
  tbl.effectNote = (card) => effectNote(card, tbl.v().players);
  tbl.stackOf = (seat, kind) => tbl.v().seats[seat][kind];
  tbl.topText = (seat, kind) => {
    const stack = tbl.stackOf(seat, kind);
    return stack.top ? `top ${cardText(stack.top)}, ${plural(stack.size, "card")}` : "empty";
  };
  tbl.isOver = () => Boolean(tbl.msg.over) || tbl.v().phase === "over";
  tbl.leftOf = (seat) => (seat + 1) % tbl.v().players;
  tbl.rightOf = (seat) => (seat + tbl.v().players - 1) % tbl.v().players;
  tbl.seatOrder = () => words.order(tbl.v().players).slice(1);
  tbl.handOf = (seat) => {
    const entry = tbl.v().seats[seat];
    if (Array.isArray(entry.hand)) return entry.hand;
    if (seat === tbl.v().viewer && Array.isArray(tbl.v().hand)) return tbl.v().hand;
    return null;
  };
  Object.assign(tbl, actionsPart(tbl), statusPart(tbl), boardPart(tbl), handPart(tbl), resultPart(tbl));

  // ------------------------------------------------------------- render
  function render() {
    if (!tbl.msg) return;
    const active = document.activeElement;
    const focused = tbl.focusNext || (table.contains(active) ? active.dataset.focus : null);
    tbl.focusNext = null;
    table.classList.toggle("is-spectator", tbl.me() === null);
    table.dataset.seq = String(tbl.msg.seq);
    table.dataset.phase = tbl.myPhase() || "wait";
    table.classList.toggle("pm-my-turn", tbl.myPhase() !== null);
    tbl.renderTop();
    tbl.renderOutcome();
    fill(ui.others, tbl.seatOrder().map(tbl.seatBoard));
    ui.others.dataset.count = String(tbl.seatOrder().length);
    fill(ui.mine, tbl.seatBoard(tbl.front()));
    tbl.renderHand();
    tbl.renderRounds();
    if (focused) {
      const again = table.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
      if (again) again.focus({ preventScroll: false });
    }
  }

  return {
    update(next) {
      const msg = tbl.msg;
      const sameTurn = msg && next.match_id === msg.match_id && next.view.phase === msg.view.phase
        && next.view.current === msg.view.current && next.seq === msg.seq;
      tbl.prev = msg;
      tbl.msg = next;
      tbl.busy = false;
      if (!sameTurn) {
        const hand = tbl.v().hand || [];
        const { pick } = tbl;
        if (!(pick && hand.includes(pick) && tbl.myPhase() === "play" && tbl.playableCards().has(pick) && tbl.prev && tbl.prev.view.phase === "play")) tbl.pick = null;
        if (tbl.myPhase() !== "swap") tbl.swapPicks = [];
        if (tbl.myPhase() !== "king") tbl.kingPicks = [];
        if (tbl.myPhase() === "pass" && hand.length === 1) tbl.pick = hand[0];
      }
      log.update(next);
      render();
    },
    destroy() {
      table.remove();
    },
  };
}
