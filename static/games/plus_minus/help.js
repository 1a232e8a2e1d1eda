// plus_minus/help.js: how to play, under the table.

import { el } from "../../js/dom.js";

export function helpPanel() {
  return el("details", { class: "pm-help" },
    el("summary", {}, "How to play"),
    el("ul", {},
      el("li", {}, "Everyone has a ", el("strong", {}, "Plus"), " stack (counts for them) and a ", el("strong", {}, "Minus"), " stack (counts against them). Only the top card shows."),
      el("li", {}, "On your turn you draw (2 on the round's first turn, then 1) and must play one card on any stack if one fits: the same rank or one higher or lower. An Ace, a King or an empty stack takes any card."),
      el("li", {}, el("strong", {}, "5"), ": draw 2 more and play twice more. ", el("strong", {}, "10"), ": swap any two whole stacks. ",
        el("strong", {}, "King"), ": two other players move the top 2 cards of their Minus onto their Plus."),
      el("li", {}, "Then pass one card face down to your left neighbour."),
      el("li", {}, "When the draw stack runs out the round is scored: Plus points − Minus points − points left in hand. A = 20; 10, J, Q, K = 10; 2–5 = 5; 6–9 = 0. One round per dealer; the highest total wins.")));
}
