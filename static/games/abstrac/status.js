// abstrac/status.js: what to do now (or whom we wait for) and the last move in words.
// `tbl` is the table's shared state and parts (see ../abstrac.js): its state (msg, busy,
// preview), ctx, words, ui and the other parts' functions.

import { describeMove } from "./moves.js";

export function statusPart(tbl) {
  function renderStatus() {
    const v = tbl.msg.view;
    const mover = tbl.toMove();
    let text;
    if (tbl.isOver()) {
      text = "The match is over.";
    } else if (v.phase === "choose_order") {
      if (tbl.legalOrder()) text = `Your choice: ${tbl.plainName(v.dealer)} dealt. Look at the row, then go first or second.`;
      else if (tbl.ctx.seat === null) text = `${tbl.plainName(mover)} chooses who plays first.`;
      else text = `Waiting for ${tbl.plainName(mover)} to choose who plays first.`;
    } else {
      const takes = tbl.legalTakes();
      if (takes.length) {
        const most = Math.max(...takes);
        text = most === 1 ? "Your turn: take the last card" : `Your turn: take 1 to ${most} cards`;
      } else if (tbl.ctx.seat === null) {
        text = `${tbl.plainName(mover)} to play.`;
      } else {
        text = `Waiting for ${tbl.plainName(mover)}`;
      }
    }
    tbl.ui.status.textContent = text;
    tbl.ui.status.classList.toggle("ab-status-you", tbl.legalTakes().length > 0 || tbl.legalOrder());

    const last = tbl.msg.last;
    tbl.ui.last.textContent = last ? describeMove(tbl.msg, null, tbl.words) : "";
    tbl.ui.last.hidden = !last;
  }

  return { renderStatus };
}
