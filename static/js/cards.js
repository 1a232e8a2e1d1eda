// cards.js: playing cards drawn in CSS. A card is a string, rank then suit: "AS", "10H", "9C".
// cardEl() builds the face (corner index + big pip), red for hearts/diamonds, black otherwise.

import { el } from "./dom.js";

export const SUITS = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  D: { symbol: "♦", name: "diamonds", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
};
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack",
  10: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

// "10♥"
export function cardText(card) {
  const { rank, suit } = parseCard(card);
  return rank + (SUITS[suit] ? SUITS[suit].symbol : suit);
}

// "ten of hearts"
export function cardName(card) {
  const { rank, suit } = parseCard(card);
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit] ? SUITS[suit].name : suit}`;
}

// A card face. `tag` "button" makes it clickable; extra props go to the element.
export function cardEl(card, { tag = "span", class: extra = "", ...props } = {}) {
  const { rank, suit } = parseCard(card);
  const info = SUITS[suit] || { symbol: suit, red: false };
  const node = el(tag, {
    class: `card ${info.red ? "card-red" : "card-black"} ${extra}`.trim(),
    dataset: { card },
    "aria-label": tag === "button" ? undefined : cardName(card),
    role: tag === "span" ? "img" : undefined,
    ...props,
  },
  el("span", { class: "card-index", "aria-hidden": "true" },
    el("span", { class: "card-rank" }, rank), el("span", { class: "card-suit" }, info.symbol)),
  el("span", { class: "card-pip", "aria-hidden": "true" }, info.symbol));
  if (tag === "button" && !props.type) node.type = "button";
  return node;
}
