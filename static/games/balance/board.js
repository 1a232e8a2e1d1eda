// balance/board.js: the scoreboard: each player's points (with a bar from the elimination total
// to the winning total), tags, hand size and turn clock, the solo automaton, and the rules line.
// `tbl` is the table's shared state and parts (see ../balance.js): its state (msg, busy,
// keepFocus), ctx, words, ui and the other parts' functions.

import { cardEl, cardText } from "../../js/cards.js";
import { el, fill } from "../../js/dom.js";
import { clockNode, deadlineOf } from "../../js/table/clock.js";
import { plural, pluralWord } from "../../js/words.js";
import { equation, packText, signed, signedOrZero } from "./cards.js";

export function boardPart(tbl) {
  // ------------------------------------------------------------- scoreboard
  function renderBoard() {
    const view = tbl.v();
    const turn = tbl.isOver() ? null : tbl.mover();
    const seats = view.points.map((_, s) => s);
    const items = seats.map((seat) => {
      const out = view.eliminated && view.eliminated[seat];
      const points = view.points[seat];
      const roundPts = view.round_points ? view.round_points[seat] : 0;
      const tags = [
        seat === tbl.ctx.seat ? el("span", { class: "tag tag-you" }, "You") : null,
        !tbl.solo() && view.dealer === seat ? el("span", { class: "tag" }, "Dealer") : null,
        turn === seat ? el("span", { class: "tag tag-turn" }, "To play") : null,
        out ? el("span", { class: "tag bl-tag-out" }, "Out") : null,
        tbl.isOver() && tbl.winners().includes(seat) ? el("span", { class: "tag tag-win" }, "Winner") : null,
      ];
      return el("li", {
        class: "bl-player" + (turn === seat ? " bl-player-turn" : "") + (seat === tbl.ctx.seat ? " bl-player-me" : "")
          + (tbl.followed(seat) ? " bl-player-followed" : "") + (out ? " bl-player-out" : ""),
        dataset: { seat },
      },
      el("div", { class: "bl-player-head" }, el("span", { class: "bl-name" }, tbl.plainName(seat)), tags),
      el("div", { class: "bl-player-points" },
        el("strong", { class: "bl-total", dataset: { points } }, signedOrZero(points)),
        el("span", { class: "muted" }, ` ${pluralWord(points, "point")}`),
        !tbl.solo() && roundPts ? el("span", { class: "bl-delta " + (roundPts > 0 ? "bl-good" : "bl-bad") }, ` ${signed(roundPts)} this round`) : null),
      pointsBar(points, view),
      el("div", { class: "bl-player-meta muted" },
        out ? "Eliminated" : `${plural(view.hand_counts[seat], "card")} in hand`,
        deadlineSpan(seat)));
    });
    if (tbl.solo()) items.push(automatonBox());
    fill(tbl.ui.board, items);
    tbl.ui.board.classList.toggle("bl-players-solo", tbl.solo());
    const opts = view.options || {};
    fill(tbl.ui.meta, tbl.solo()
      ? [`Solo · ${view.rules.target} points to win · `, el("span", { class: "muted" }, packText(opts))]
      : [el("strong", {}, `Round ${view.round}`), ` · first to ${view.rules.win_points} points wins · ${signed(view.rules.out_points)} is out · `,
        el("span", { class: "muted" }, packText(opts) + (opts.max_rounds ? ` · at most ${plural(opts.max_rounds, "round")}` : ""))]);
  }

  function pointsBar(points, view) {
    // Two-sided: from the elimination total (or 0 in solo) to the winning total.
    const high = tbl.solo() ? view.rules.target : view.rules.win_points;
    const low = tbl.solo() ? -view.rules.target : view.rules.out_points;
    const clamp = Math.max(low, Math.min(high, points));
    const bar = el("div", { class: "bl-bar", "aria-hidden": "true" },
      el("span", { class: "bl-bar-zero" }));
    const fillSpan = el("span", { class: "bl-bar-fill " + (points >= 0 ? "bl-bar-up" : "bl-bar-down") });
    const width = points >= 0 ? (clamp / high) * 50 : (clamp / low) * 50;
    fillSpan.style.width = `${width}%`;
    if (points >= 0) fillSpan.style.left = "50%";
    else fillSpan.style.right = "50%";
    bar.append(fillSpan);
    return bar;
  }

  function automatonBox() {
    const auto = tbl.v().automaton;
    const left = tbl.v().stock;
    let body;
    if (auto) {
      body = [
        el("div", { class: "bl-auto-card" }, cardEl(auto.card, { class: "card-small" }),
          el("span", {}, `Turned the ${cardText(auto.card)}: `, el("strong", {}, equation(auto)),
            auto.matched ? el("span", { class: "bl-points-chip " + (auto.points < 0 ? "bl-bad" : "bl-ok") },
              auto.points < 0 ? "matched: −1 point" : "matched, joker: no cost") : null)),
      ];
    } else {
      body = [el("p", { class: "muted bl-auto-none" }, tbl.isOver() || left === 0
        ? "No more cards to turn."
        : "After each of your plays it turns the top card of the stock.")];
    }
    return el("li", { class: "bl-player bl-automaton" },
      el("div", { class: "bl-player-head" }, el("span", { class: "bl-name" }, "Automaton")),
      body);
  }

  // ------------------------------------------------------------- deadlines
  function deadlineSpan(seat) {
    const at = deadlineOf(tbl.msg, seat);
    if (!at || tbl.isOver()) return null;
    return clockNode(at, { className: "bl-clock", label: `Time left for ${tbl.plainName(seat)}`, before: " · ", after: " left" });
  }

  return { renderBoard };
}
