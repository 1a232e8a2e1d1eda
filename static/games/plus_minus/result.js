// plus_minus/result.js: the last round's scoring (Plus, Minus and hand points of every seat), all
// rounds so far, and the outcome.
// `tbl` is the table's shared state and parts (see ../plus_minus.js): its state (msg, busy,
// pick, swapPicks, kingPicks, focusNext), ctx, words, ui and the other parts' functions.

import { cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { drawOutcome, finalScores, winnersOf } from "../../js/table/outcome.js";
import { plural, signedNumber } from "../../js/words.js";
import { signed } from "./cards.js";

export function resultPart(tbl) {
  function renderRounds() {
    const view = tbl.v();
    const last = view.last_round;
    if (!last) { fill(tbl.ui.rounds); tbl.ui.rounds.hidden = true; return; }
    tbl.ui.rounds.hidden = false;
    const fresh = !tbl.isOver() && view.round === last.round + 1 && view.first_turn;
    const n = view.players;
    const cards = (list) => (list.length ? list.map(cardText).join(" ") : "–");
    fill(tbl.ui.rounds,
      el("h3", {}, `Round ${last.round} result`, el("span", { class: "muted" }, ` · dealt by ${tbl.who(last.dealer)}`),
        fresh ? el("span", { class: "tag tag-turn" }, "just scored") : null),
      el("div", { class: "table-scroll" }, el("table", { class: "score-table pm-score-table" },
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, "Player"),
          el("th", { scope: "col", class: "num" }, "Plus"),
          el("th", { scope: "col", class: "num" }, "Minus"),
          el("th", { scope: "col", class: "num" }, "Hand"),
          el("th", { scope: "col", class: "num" }, "Round"),
          el("th", { scope: "col", class: "num" }, "Total"))),
        el("tbody", {}, last.seats.map((s, i) => el("tr", { class: i === tbl.me() ? "pm-row-me" : tbl.followed(i) ? "pm-row-followed" : "" },
          el("th", { scope: "row" }, tbl.plainName(i)),
          el("td", { class: "num pm-plus-pts", title: cards(s.plus) }, s.plus_points ? `+${s.plus_points}` : "0"),
          el("td", { class: "num pm-minus-pts", title: cards(s.minus) }, s.minus_points ? `−${s.minus_points}` : "0"),
          el("td", { class: "num pm-minus-pts", title: cards(s.hand) }, s.hand_points ? `−${s.hand_points}` : "0"),
          el("td", { class: "num" }, el("strong", {}, signed(s.score))),
          el("td", { class: "num" }, signedNumber(last.totals[i], "")))))),
      ),
      el("details", { class: "pm-details" },
        el("summary", {}, `Cards of round ${last.round}`),
        el("ul", { class: "pm-round-cards" }, last.seats.map((s, i) => el("li", {},
          el("strong", {}, tbl.plainName(i)), `: Plus ${cards(s.plus)} · Minus ${cards(s.minus)} · hand ${cards(s.hand)}`)))),
      view.round_scores.length > 1 ? el("details", { class: "pm-details" },
        el("summary", {}, `All rounds (${view.round_scores.length})`),
        el("div", { class: "table-scroll" }, el("table", { class: "score-table pm-score-table" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Round"),
            Array.from({ length: n }, (_, s) => el("th", { scope: "col", class: "num" }, tbl.plainName(s))))),
          el("tbody", {}, view.round_scores.map((scores, r) => el("tr", {},
            el("td", {}, String(r + 1)),
            scores.map((score) => el("td", { class: "num" }, signed(score))))))))) : null);
  }

  function renderOutcome() {
    const view = tbl.v();
    const scores = finalScores(tbl.msg, view.totals);
    drawOutcome(tbl.ui.outcome, {
      msg: tbl.msg, over: tbl.isOver(), words: tbl.words, prefix: "pm", listClass: "pm-final-list", scores,
      winners: winnersOf(tbl.msg, scores), headlineWords: { shared: "A shared win" },
      normal: `After ${plural(view.round_scores.length, "round")}, one per dealer.`,
    });
  }

  return { renderRounds, renderOutcome };
}
