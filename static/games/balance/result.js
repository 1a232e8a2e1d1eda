// balance/result.js: the rounds so far and the outcome: who won, the final totals and why the
// game ended (a winning total, the last survivor, everyone out, the round limit).
// `tbl` is the table's shared state and parts (see ../balance.js): its state (msg, busy,
// keepFocus), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { drawOutcome, finalScores, headline as headlineOf } from "../../js/table/outcome.js";
import { plural } from "../../js/words.js";
import { signedOrZero } from "./cards.js";
import { roundSummary } from "./moves.js";

const DECISIONS = {
  win: "reached the winning total with the highest score",
  tie: "Several players reached the winning total with the same score: another round.",
  last_survivor: "is the last player not eliminated",
  all_eliminated: "Everyone left fell to the elimination total; the best of them wins.",
  round_cap: "The round limit was reached; the best total wins.",
};

export function resultPart(tbl) {
  // ------------------------------------------------------------- rounds and the result
  function winners() {
    if (tbl.msg.outcome && Array.isArray(tbl.msg.outcome.winners)) return tbl.msg.outcome.winners;
    if (tbl.v().result && Array.isArray(tbl.v().result.winners)) return tbl.v().result.winners;
    return [];
  }

  function renderOutcome() {
    if (!tbl.isOver()) { tbl.ui.outcome.hidden = true; fill(tbl.ui.outcome); return; }
    const view = tbl.v();
    const scores = finalScores(tbl.msg, view.points);
    const won = tbl.winners();
    const reason = view.result ? view.result.reason : null;
    let headline;
    let detail;
    if (tbl.solo()) {
      const target = view.rules.target;
      const pts = scores[0];
      const yours = tbl.ctx.seat === 0;
      headline = won.length ? (yours ? "You win!" : `${tbl.plainName(0)} wins!`) : (yours ? "Not this time: you lose." : `${tbl.plainName(0)} loses.`);
      detail = `${yours ? "You" : tbl.plainName(0)} finished with ${plural(pts, "point")}; ${target} were needed.`;
      const last = view.last_round;
      if (last) detail += ` Zeros: ${last.zeros[0]}, beyond ±${tbl.limit()}: ${last.busts[0]}, automaton matches: ${last.automaton_zeroings ?? 0}.`;
    } else {
      headline = headlineOf(won, tbl.words, { shared: "A shared win", youShare: "A shared win: you are among the winners!", mark: "!" });
      const text = DECISIONS[reason] || "";
      const you = won.length === 1 && won[0] === tbl.ctx.seat;
      detail = reason === "win" || reason === "last_survivor"
        ? `${won.map(tbl.who).join(", ")} ${you ? text.replace(/^is /, "are ") : text}.`
        : text;
      detail += ` ${plural(view.rounds.length, "round")} played.`;
    }
    drawOutcome(tbl.ui.outcome, {
      msg: tbl.msg, over: true, words: tbl.words, prefix: "bl", scores, winners: won, title: headline, normal: detail,
      scoreText: signedOrZero, after: (s) => (won.includes(s) ? el("span", { class: "tag tag-win" }, "won") : null),
    });
    tbl.ui.outcome.dataset.won = String(won.includes(tbl.ctx.seat));
  }

  function renderRounds() {
    const view = tbl.v();
    const rounds = view.rounds || [];
    if (tbl.solo() || !rounds.length) { fill(tbl.ui.rounds); tbl.ui.rounds.hidden = true; return; }
    tbl.ui.rounds.hidden = false;
    const seats = view.points.map((_, s) => s);
    const last = rounds[rounds.length - 1];
    fill(tbl.ui.rounds,
      el("h3", {}, `Round ${last.round} result`),
      el("p", { class: "bl-round-line" }, roundSummary(last, tbl.words)),
      el("details", {},
        el("summary", {}, `Every round (${rounds.length})`),
        el("div", { class: "table-scroll" }, el("table", { class: "score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"),
            seats.map((s) => el("th", { scope: "col", class: "num" }, tbl.plainName(s))))),
          el("tbody", {}, rounds.map((r) => el("tr", {},
            el("td", {}, String(r.round)),
            seats.map((s) => el("td", { class: "num" }, signedOrZero(r.scores[s]),
              el("span", { class: "muted" }, ` (total ${r.totals[s]})`))))))))));
  }

  return { winners, renderOutcome, renderRounds };
}
