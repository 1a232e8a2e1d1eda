// abstrac.js: the Abstrac table (renderer interface: see static/js/table.js). It wires the
// parts in abstrac/, each of one job:
//   cards.js   ranks, suits and combinations as data and words (no DOM)
//   moves.js   a move in words                        status.js  what to do now, the last move
//   row.js     the row and the viewer's controls      board.js   players, taken cards, deals, outcome
// and takes what every table shares from the core: seats (static/js/table/seats.js), turn clocks
// (clock.js), the outcome (outcome.js) and the move log (movelog.js).
//
// view = {phase: "choose_order"|"taking"|"over", deal, dealer, target, row: [cards, exposed LAST],
//         taken: [[..], [..]], combo: [a, b], groups: [{sets, sequences}, ..], totals: [a, b],
//         to_move, deals: [{deal, dealer, combo, taken, scores, misere}, ..]}
// actions: {"type": "order", "first": bool}  and  {"type": "take", "count": 1|2|3}

import { el } from "../js/dom.js";
import { createMoveLog } from "../js/table/movelog.js";
import { seatWords } from "../js/table/seats.js";
import { boardPart } from "./abstrac/board.js";
import { describeMove } from "./abstrac/moves.js";
import { rowPart } from "./abstrac/row.js";
import { statusPart } from "./abstrac/status.js";

export { describeMove };

export function mount(root, ctx) {
  const part = (cls, tag = "div") => el(tag, { class: cls });
  const ui = {
    board: part("ab-scores"),
    status: part("ab-status", "p"),
    last: part("ab-last muted", "p"),
    outcome: part("ab-outcome"),
    top: part("ab-collection ab-collection-top", "section"),
    rowHead: part("ab-row-head", "p"),
    row: part("ab-row"),
    controls: part("ab-controls"),
    bottom: part("ab-collection ab-collection-bottom", "section"),
    deals: part("ab-deals", "section"),
  };
  ui.outcome.dataset.testid = "outcome";
  ui.outcome.hidden = true;
  ui.status.setAttribute("aria-live", "polite");
  const words = seatWords(ctx, { numberTwins: false });
  const log = createMoveLog((state, previous) => describeMove(state, previous, words), { prefix: "ab" });
  const table = el("div", { class: "felt abstrac" },
    ui.board, ui.outcome, ui.status, ui.last, ui.top,
    el("section", { class: "ab-row-area", "aria-label": "The row" }, ui.rowHead, ui.row, ui.controls),
    ui.bottom, log.element, ui.deals);
  root.append(table);

  // The table's state and parts, shared by the parts in abstrac/.
  const tbl = {
    ctx, words, ui, table,
    msg: null,
    busy: false,
    preview: 0, // how many cards a hovered or focused take would take
    plainName: words.plain,
    // Orientation (ctx.perspective): the viewer's seat, or the seat a spectator follows, is drawn
    // at the bottom. Identity ("You", controls) stays ctx.seat.
    bottomSeat: words.perspective,
    followed: words.followed,
    send,
    render,
  };
  tbl.legalTakes = () => (ctx.seat === null || !tbl.msg ? [] : tbl.msg.legal)
    .filter((a) => a.type === "take").map((a) => a.count);
  tbl.legalOrder = () => ctx.seat !== null && tbl.msg && tbl.msg.legal.some((a) => a.type === "order");
  tbl.toMove = () => {
    const v = tbl.msg.view;
    if (v.to_move !== null && v.to_move !== undefined) return v.to_move;
    return tbl.msg.to_act && tbl.msg.to_act.length ? tbl.msg.to_act[0] : null;
  };
  tbl.isOver = () => tbl.msg.over || tbl.msg.view.phase === "over";
  Object.assign(tbl, boardPart(tbl), statusPart(tbl), rowPart(tbl));

  function send(action) {
    if (tbl.busy) return;
    tbl.busy = true;
    tbl.preview = 0;
    render();
    ctx.act(action).catch(() => { tbl.busy = false; render(); });
  }

  function render() {
    if (!tbl.msg) return;
    const focused = table.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    table.classList.toggle("is-spectator", ctx.seat === null);
    tbl.renderBoard();
    tbl.renderStatus();
    tbl.renderOutcome();
    tbl.renderCollection(ui.top, 1 - tbl.bottomSeat());
    tbl.renderRow();
    tbl.renderControls();
    tbl.renderCollection(ui.bottom, tbl.bottomSeat());
    tbl.renderDeals();
    if (focused) {
      const again = table.querySelector(`[data-focus="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
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
