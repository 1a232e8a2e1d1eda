// abstrac/cards.js: Abstrac's cards as data and words (no DOM): the ranks and suits in order,
// what a set or a sequence scores, and a combination's name ("Three Kings", "A-K-Q ♠").

import { parseCard, SUITS } from "../../js/cards.js";

export const RANKS = ["A", "K", "Q", "J", "10", "9"];
export const SUIT_ORDER = ["S", "H", "D", "C"];
export const SET_POINTS = { 3: 2, 4: 8 };
export const SEQUENCE_POINTS = { 3: 3, 4: 4, 5: 6, 6: 12 };
const RANK_PLURAL = { A: "Aces", K: "Kings", Q: "Queens", J: "Jacks", 10: "Tens", 9: "Nines" };

export function setLabel(set) {
  const rank = parseCard(set[0]).rank;
  return `${set.length === 4 ? "Four" : "Three"} ${RANK_PLURAL[rank] || rank}`;
}

export function sequenceLabel(sequence) {
  const sorted = [...sequence].sort((a, b) => RANKS.indexOf(parseCard(a).rank) - RANKS.indexOf(parseCard(b).rank));
  const suit = parseCard(sorted[0]).suit;
  return `${sorted.map((c) => parseCard(c).rank).join("-")} ${SUITS[suit] ? SUITS[suit].symbol : suit}`;
}
