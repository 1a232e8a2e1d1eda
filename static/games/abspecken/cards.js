// abspecken/cards.js: ABspecken's cards as numbers, and the sums and words the table needs.
// No DOM.

import { listWords } from "../../js/words.js";

export const VALUES = [1, 2, 3, 4, 5, 6];
export const HAND_SIZE = 5;
export const COLOUR_CLASSES = new Set(["green", "pink", "orange", "blue", "yellow", "purple", "red", "brown", "grey"]);

export // ------------------------------------------------------------- pure helpers
function sum(cards) {
  return cards.reduce((a, b) => a + b, 0);
}

// does the multiset `big` contain the multiset `small`?
export function containsAll(big, small) {
  const left = [...big];
  for (const value of small) {
    const at = left.indexOf(value);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

export const cardsText = (cards) => cards.join(" + ");
export const multiKey = (cards) => [...cards].sort((a, b) => a - b).join(",");

// "2, 4 or 6"
export const orWords = (items) => listWords(items, "or");
