// balance/status.js: what to do now (with your turn clock) and what just happened: the plays
// since your own last one, and the round just scored.
// `tbl` is the table's shared state and parts (see ../balance.js): its state (msg, busy,
// keepFocus), ctx, words, ui and the other parts' functions.

import { cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { describeEntry, roundSummary } from "./moves.js";

export function statusPart(tbl) {
  // ------------------------------------------------------------- status lines
  function renderStatus() {
    const view = tbl.v();
    const turn = tbl.mover();
    let text;
    const extra = [];
    if (tbl.isOver()) {
      text = "The game is over.";
    } else if (tbl.myTurn()) {
      text = "Your turn: play one card, adding (+) or subtracting (−) it.";
      if (view.drawn) extra.push(`You drew the ${cardText(view.drawn)} (marked New).`);
      else if (view.stock === 0) extra.push("The stock is empty, so there is no draw.");
      const mine = deadlineOf(tbl.msg, tbl.ctx.seat);
      if (mine) extra.push(el("span", { class: "bl-status-clock" }, "Time left: ", clockNode(mine, { label: "Your time left" })));
    } else if (tbl.busy) {
      text = "Sending your play…";
    } else if (turn === null || turn === undefined) {
      text = "";
    } else if (tbl.ctx.seat === null) {
      text = `${tbl.plainName(turn)} to play.`;
    } else {
      text = `Waiting for ${tbl.plainName(turn)} to play…`;
    }
    fill(tbl.ui.status, text, extra.length ? el("span", { class: "bl-status-extra" }, extra.map((x, i) => [i ? " " : "", x])) : null);
    tbl.ui.status.classList.toggle("bl-status-you", tbl.myTurn());
    tbl.table.classList.toggle("bl-your-turn", tbl.myTurn());

    fill(tbl.ui.news, newsLine());
    tbl.ui.news.hidden = tbl.ui.news.childNodes.length === 0;
  }

  // What just happened, in words: since the viewer's own last play (or the last play or two).
  function newsLine() {
    const view = tbl.v();
    const pile = view.pile || [];
    if (!pile.length) {
      if (!tbl.solo() && view.last_round && !tbl.isOver()) {
        return [`Round ${view.round} begins: ${tbl.who(view.dealer)} dealt. Round ${view.last_round.round} scored: `, roundSummary(view.last_round, tbl.words)];
      }
      return [];
    }
    let from = pile.length - 1;
    if (tbl.ctx.seat !== null) {
      const mine = pile.map((e) => e.kind === "play" && e.seat === tbl.ctx.seat).lastIndexOf(true);
      if (mine >= 0 && pile.length - mine <= 10) from = mine;
    } else if (tbl.solo() && pile[from].kind === "automaton" && from > 0) {
      from -= 1;
    }
    const parts = pile.slice(from).map((entry) => describeEntry(entry, tbl.words));
    const lines = parts.map((p, i) => [i ? " " : "", p]);
    if (!tbl.solo() && view.last_round && pile.length < activeCount() && !tbl.isOver()) {
      lines.unshift(el("span", { class: "bl-news-round" }, `Round ${view.last_round.round} scored: `, roundSummary(view.last_round, tbl.words), " "));
    }
    return lines;
  }

  function activeCount() {
    return tbl.v().eliminated.filter((out) => !out).length;
  }

  return { renderStatus };
}
