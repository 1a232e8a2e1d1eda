// balance/help.js: how to play, under the table (the limits and totals of this game's rules).
// `tbl` is the table's shared state and parts (see ../balance.js): its state (msg, busy,
// keepFocus), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";

export function helpPart(tbl) {
  function renderLegend() {
    const view = tbl.v();
    const L = tbl.limit();
    const items = [
      el("li", {}, "On your turn you draw the top card of the stock (if any), then play one card: add its value to the balance or subtract it."),
      el("li", {}, "Ace is 1, 2–10 their number, J, Q, K and jokers 10."),
      el("li", {}, el("strong", { class: "bl-good-text" }, "Land on 0: +1 point"), " (jokers too)."),
      el("li", {}, el("strong", { class: "bl-bad-text" }, `End beyond ±${L}: −1 point`), ", every time, unless you played a joker."),
    ];
    if (tbl.solo()) {
      items.push(el("li", {}, "After each of your plays the automaton turns the top card of the stock: if its value equals the balance's size, the balance drops to 0 and you lose a point (a joker costs nothing); otherwise it pushes the balance further from 0."));
      items.push(el("li", {}, `When the stock and your hand are empty, you win with ${view.rules.target} points or more.`));
    } else {
      items.push(el("li", {}, `A round ends when every card is played. At ${view.rules.win_points} points the best total wins; at ${view.rules.out_points} a player is out.`));
    }
    fill(tbl.ui.legend,
      el("summary", {}, "How to play"),
      el("ul", {}, items));
  }

  return { renderLegend };
}
