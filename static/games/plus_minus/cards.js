// plus_minus/cards.js: Plus & Minus's cards as data (no DOM): ranks as numbers, the points a card
// counts, which stack tops take any card, what fits on a stack, a stack's key and signed totals.

import { parseCard } from "../../js/cards.js";

export const KINDS = ["plus", "minus"];
const RANK_NUMBER = { A: 1, J: 11, Q: 12, K: 13 };
const POINTS = { A: 20, 2: 5, 3: 5, 4: 5, 5: 5, 6: 0, 7: 0, 8: 0, 9: 0, 10: 10, J: 10, Q: 10, K: 10 };

export const rankOf = (card) => {
  const rank = parseCard(card).rank;
  return RANK_NUMBER[rank] ?? Number(rank);
};
export const pointsOf = (card) => POINTS[parseCard(card).rank] ?? 0;
export const isWild = (top) => top === null || top === undefined || [1, 13].includes(rankOf(top));
export const fits = (card, top) => isWild(top) || Math.abs(rankOf(card) - rankOf(top)) <= 1;
export const stackKey = (seat, kind) => `${seat}:${kind}`;
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
export const KIND_TITLE = { plus: "Plus", minus: "Minus" };
