// cards.js: playing cards drawn in CSS. A card is a string, rank then suit: "AS", "10H", "9C";
// jokers are "XR" (red) and "XB" (black). cardEl() builds the face (corner index + big pip),
// red for hearts/diamonds and the red joker, black otherwise.

import { el } from "./dom.js";

export const SUITS = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  D: { symbol: "♦", name: "diamonds", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
};
const JOKERS = {
  R: { symbol: "★", name: "red joker", red: true },
  B: { symbol: "★", name: "black joker", red: false },
};
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack",
  10: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

export function isJoker(card) {
  return card.length === 2 && card[0] === "X" && card[1] in JOKERS;
}

// The face's symbol and colour: a suit's, or a joker's.
function faceOf(card) {
  if (isJoker(card)) return JOKERS[card[1]];
  return SUITS[parseCard(card).suit] || { symbol: parseCard(card).suit, red: false };
}

// "10♥", "★" for a joker
export function cardText(card) {
  if (isJoker(card)) return "Joker";
  return parseCard(card).rank + faceOf(card).symbol;
}

// "ten of hearts", "red joker"
export function cardName(card) {
  if (isJoker(card)) return JOKERS[card[1]].name;
  const { rank, suit } = parseCard(card);
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit] ? SUITS[suit].name : suit}`;
}

// A card face. `tag` "button" makes it clickable; extra props go to the element.
export function cardEl(card, { tag = "span", class: extra = "", ...props } = {}) {
  const info = faceOf(card);
  const rank = isJoker(card) ? "JKR" : parseCard(card).rank;
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
