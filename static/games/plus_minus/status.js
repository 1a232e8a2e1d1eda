// plus_minus/status.js: the top of the table: what to do now (or whom we wait for), the round
// and this turn's draws, and the draw stack.
// `tbl` is the table's shared state and parts (see ../plus_minus.js): its state (msg, busy,
// pick, swapPicks, kingPicks, focusNext), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { capital, plural, pluralWord } from "../../js/words.js";

export function statusPart(tbl) {
  function renderTop() {
    const view = tbl.v();
    const phase = tbl.myPhase();
    const current = view.current;
    let text;
    if (tbl.isOver()) text = "The game is over.";
    else if (phase === "play") {
      const extra = view.turn.plays > 0;
      text = extra ? `Your turn: extra play (${plural(view.plays_left, "play")} left from your 5)` : "Your turn: play a card";
    } else if (phase === "swap") text = "Your 10: swap two stacks";
    else if (phase === "king") text = "Your King: choose two players";
    else if (phase === "pass") text = `Your turn: pass a card to ${tbl.plainName(tbl.leftOf(tbl.me()))}`;
    else if (current === null) text = "";
    else {
      const doing = {
        play: "to play", swap: "is choosing two stacks to swap", king: "is choosing two players for the King",
        pass: `is passing a card to ${tbl.who(tbl.leftOf(current))}`,
      }[view.phase] || "to play";
      text = `${tbl.me() === null ? "" : "Waiting: "}${tbl.plainName(current)} ${doing}`;
    }
    tbl.ui.status.textContent = text;
    tbl.ui.status.classList.toggle("pm-status-you", phase !== null);

    const bits = [`Round ${view.round} of ${view.rounds_total}`, `dealt by ${tbl.who(view.dealer)}`];
    if (!tbl.isOver() && view.turn) {
      const t = view.turn;
      const drew = t.drawn ? `${tbl.who(t.seat)} drew ${plural(t.drawn, "card")}${view.first_turn && t.drawn === 2 && t.plays === 0 ? " (first turn of the round)" : ""}` : `${tbl.who(t.seat)} drew nothing`;
      bits.push(drew);
      if (t.lost) bits.push(`${tbl.who(t.seat)} could not play${t.plays ? " again" : ""}`);
    }
    tbl.ui.sub.textContent = capital(bits.join(" · ")) + ".";

    fill(tbl.ui.deck,
      el("span", { class: "pm-back pm-back-deck", "aria-hidden": "true" }),
      el("span", { class: "pm-deck-text" },
        el("strong", { class: "pm-deck-count" }, String(view.draw_stack)),
        el("span", {}, ` ${pluralWord(view.draw_stack, "card")} to draw`),
        el("span", { class: "pm-deck-note muted" }, tbl.isOver() ? "All rounds are played." : "The round ends when it runs out.")));
    tbl.ui.deck.setAttribute("aria-label", `Draw stack: ${plural(view.draw_stack, "card")} left`);
    tbl.ui.deck.setAttribute("role", "img");
    tbl.ui.deck.classList.toggle("pm-deck-low", view.draw_stack <= 4);
  }

  return { renderTop };
}
