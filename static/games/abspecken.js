// abspecken.js: the ABspecken table (renderer interface: see static/js/table.js). It wires the
// parts in abspecken/, each of one job:
//   cards.js   the cards as numbers, sums and words (no DOM)   faces.js  a card drawn
//   moves.js   a move in words                                  dice.js   the dice, rolled
//   status.js  the head: round, what to do now, the last move   hand.js   your hand and controls
//   board.js   the players, the reveal, rounds, outcome and rules
// and takes what every table shares from the core: seats (static/js/table/seats.js), turn clocks
// (clock.js), the outcome (outcome.js) and the move log (movelog.js).
//
// view = {phase: "pick"|"piggy"|"gift"|"decide"|"take"|"give"|"refill"|"over", round, playthrough,
//         roller, to_act, you, hand (own cards | null), pending (own secret choice | null),
//         players: [{seat, hand_count, piles[6], pile_count, discards, top, total, is_roller,
//                    to_act, committed, refill_need, (replays only: hand, pending)}],
//         dice: {d1, d2, sum, forbidden, forbidden_colour, piggy, piggy_shift} | null,
//         targets (own sums), roller_targets, taker, takers, sources, giving: {taker, source},
//         log / previous: {round, playthrough, roller, dice, piggy_used, gift, grim, decisions,
//                          takes: [{taker, source, card}], refills: [cards | null]},
//         rounds: [{round, playthroughs, finishers, hands, piles, penalties, totals}], totals,
//         options: {piggy_die, end_threshold, number_die, ...}, colours: {"1": "green", ..},
//         over, winners}
// actions: pick {cards}, roll {piggy}, gift {card, to}, no_gift, discard {option, cards}, cannot,
//          take {from}, give {to, card}, refill {cards}.  Only actions found in `legal` are sent.

import { el } from "../js/dom.js";
import { createMoveLog } from "../js/table/movelog.js";
import { seatWords } from "../js/table/seats.js";
import { listWords } from "../js/words.js";
import { boardPart } from "./abspecken/board.js";
import { cardsText, multiKey } from "./abspecken/cards.js";
import { dicePart } from "./abspecken/dice.js";
import { cardFace } from "./abspecken/faces.js";
import { handPart } from "./abspecken/hand.js";
import { describeMove } from "./abspecken/moves.js";
import { statusPart } from "./abspecken/status.js";

export { describeMove };

export function mount(root, ctx) {
  const part = (cls, tag = "div", props = {}) => el(tag, { class: cls, ...props });
  const ui = {
    head: part("spk-head"),
    round: part("spk-round muted", "p"),
    status: part("spk-status", "p", { "aria-live": "polite", dataset: { testid: "status" } }),
    last: part("spk-last muted", "p"),
    news: part("spk-news", "p", { role: "status" }),
    outcome: part("spk-outcome", "section", { "aria-label": "Result", dataset: { testid: "outcome" } }),
    dice: part("spk-dice", "section", { "aria-label": "The dice" }),
    mine: part("spk-mine", "section", { "aria-label": "Your hand and your move" }),
    players: part("spk-players", "section", { "aria-label": "Players" }),
    reveal: part("spk-reveal", "section", { "aria-label": "What everyone did" }),
    rounds: part("spk-rounds", "section", { "aria-label": "Rounds and totals" }),
    help: part("spk-help", "details"),
  };
  ui.outcome.hidden = true;
  ui.head.append(ui.round, ui.status, ui.last, ui.news);
  // names as the room gives them (two bots of one name keep it)
  const words = seatWords(ctx, { numberTwins: false });
  const log = createMoveLog((msg, previous) => describeMove(msg, previous, words), { prefix: "spk" });
  const table = el("div", { class: "felt abspecken" },
    ui.head, ui.outcome, ui.dice, ui.mine, ui.players, ui.reveal, log.element, ui.rounds, ui.help);
  root.append(table);

  // The table's state and parts, shared by the parts in abspecken/.
  const tbl = {
    ctx, words, ui, table,
    msg: null,
    busy: false,
    sel: { key: null, hand: [], piles: [], gift: null },
    preview: null, // cards of a discard option being hovered, highlighted in the hand
    rolledKey: null, // the roll last animated
    rollingUntil: 0,
    rollTimer: null,
    firstRender: true,
    // In the simultaneous phases other players' moves can overtake ours: the server then refuses
    // ours as "stale" (it was sent for an older state). Send it again once we hold the newer
    // state, if it is still legal there.
    retry: null, // { action, seq, tries }
    render,
    send,
  };
  // ------------------------------------------------------------- small helpers
  tbl.v = () => tbl.msg.view;
  tbl.me = () => ctx.seat;
  tbl.legal = () => (ctx.seat === null || !tbl.msg || tbl.busy ? [] : tbl.msg.legal || []);
  tbl.legalOf = (type) => tbl.legal().filter((a) => a.type === type);
  tbl.plainName = words.plain;
  tbl.name = (seat) => (seat === ctx.seat ? "You" : tbl.plainName(seat));
  tbl.lname = (seat) => (seat === ctx.seat ? "you" : tbl.plainName(seat));
  tbl.isOver = () => Boolean(tbl.msg.over || tbl.v().phase === "over");
  tbl.colourOf = (value) => (tbl.v().colours && tbl.v().colours[String(value)]) || "";
  tbl.toAct = () => tbl.v().to_act || tbl.msg.to_act || [];
  // Orientation (ctx.perspective): the viewer's own seat, or the seat a spectator follows, is
  // listed first, the others after it in seat order. Identity ("You", controls) stays ctx.seat.
  tbl.followed = words.followed;
  tbl.seatsFromMe = () => words.order(tbl.v().players.length);
  tbl.joinNames = (seats) => listWords(seats.map(tbl.lname));
  tbl.cardsText = cardsText;
  tbl.multiKey = multiKey;
  tbl.selectedCards = () => tbl.sel.hand.map((i) => tbl.v().hand[i]);
  tbl.cardFace = (value, options) => cardFace(value, tbl.colourOf(value), options);
  // No card left in hand or piles: the player has finished the round (a smiling-piggy gift can
  // empty the roller; the engine then fills in his "cannot" for him).
  tbl.finished = (seat) => {
    const p = tbl.v().players[seat];
    return p.hand_count === 0 && p.pile_count === 0;
  };
  // Was this "cannot" of a playthrough's record filled in for a finisher (not declared)? In the
  // playthrough under way his hand and piles are still empty; a finished round lists him.
  tbl.finishedIn = (log, seat) => {
    const d = log && log.decisions ? log.decisions[seat] : null;
    if (!d || d.type !== "cannot") return false;
    if (log === tbl.v().log) return tbl.finished(seat);
    const round = (tbl.v().rounds || []).find((r) => r.round === log.round);
    return Boolean(round && round.finishers.includes(seat));
  };
  Object.assign(tbl, statusPart(tbl), dicePart(tbl), handPart(tbl), boardPart(tbl));
  tbl.renderHelp();

  function send(action, tries = 0) {
    if (tbl.busy && !tries) return;
    tbl.busy = true;
    tbl.preview = null;
    tbl.ctx.explain("");
    tbl.render();
    const seq = tbl.msg.seq;
    tbl.ctx.act(action).catch((error) => {
      if (error && error.code === "stale" && tries < 3) {
        tbl.retry = { action, seq, tries: tries + 1 };
        if (tbl.msg.seq > seq) resend();
        return;
      }
      tbl.busy = false;
      tbl.render();
    });
  }

  function resend() {
    const { action, tries } = tbl.retry;
    tbl.retry = null;
    const same = JSON.stringify(action);
    if ((tbl.msg.legal || []).some((a) => JSON.stringify(a) === same)) {
      tbl.ctx.explain("");
      send(action, tries);
    } else {
      tbl.busy = false;
      tbl.render();
    }
  }

  // ------------------------------------------------------------- render
  function render() {
    if (!tbl.msg) return;
    const focused = tbl.table.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    tbl.syncSelection();
    tbl.table.classList.toggle("is-spectator", tbl.ctx.seat === null);
    tbl.table.dataset.phase = tbl.v().phase;
    tbl.renderHead();
    tbl.renderOutcome();
    tbl.renderDice();
    tbl.renderMine();
    tbl.renderPlayers();
    tbl.renderReveal();
    tbl.renderRounds();
    if (focused) {
      const again = tbl.table.querySelector(`[data-focus="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
    }
    tbl.firstRender = false;
  }

  return {
    update(next) {
      tbl.msg = next;
      log.update(next);
      if (tbl.retry && tbl.msg.seq > tbl.retry.seq) {
        resend();
        if (tbl.busy) return;
      }
      tbl.busy = false;
      render();
    },
    destroy() {
      clearInterval(tbl.rollTimer);
      table.remove();
    },
  };
}
