// balance/cards.js: Balance's numbers in words and values (no DOM): a card's value, the zone of
// a balance (zero, safe, beyond the limit), what a play scores, signed and spoken numbers, the
// equation of a pile entry and the pack in words.

import { isJoker, parseCard } from "../../js/cards.js";
import { plural } from "../../js/words.js";

// What a play that leaves the balance at `after` scores: +1 on zero, −1 beyond the limit
// (not with a joker), else 0.
export function outcomeOf(after, card, limit) {
  if (after === 0) return 1;
  if (Math.abs(after) > limit && !isJoker(card)) return -1;
  return 0;
}

// "−6 + 4 = −2"; an automaton card that matched the balance just zeroes it.
export function equation(entry) {
  if (entry.kind === "automaton" && entry.matched) return `${signedOrZero(entry.before)} matched: = 0`;
  const op = entry.direction > 0 ? "+" : "−";
  return `${signedOrZero(entry.before)} ${op} ${valueOf(entry.card)} = ${signedOrZero(entry.after)}`;
}

export function packText(opts) {
  const decks = opts.decks || 1;
  const jokers = opts.jokers_per_deck ?? 0;
  return `${plural(decks, "deck")}, ${jokers ? plural(jokers, "joker") : "no jokers"}${decks > 1 ? " each" : ""}`;
}

export function valueOf(card) {
  if (isJoker(card)) return 10;
  const { rank } = parseCard(card);
  if (rank === "A") return 1;
  if (rank === "J" || rank === "Q" || rank === "K") return 10;
  return Number(rank);
}

export function zoneOf(balance, limit = 9) {
  if (balance === 0) return "zero";
  return Math.abs(balance) > limit ? "beyond" : "safe";
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

export function signedOrZero(n) {
  return n === 0 ? "0" : signed(n);
}

export function spoken(n) {
  return n > 0 ? `plus ${n}` : n < 0 ? `minus ${-n}` : "zero";
}

// "+1 point", "you −2 points"
export function pointsText(points, prefix = "") {
  return `${prefix}${points > 0 ? "+" : ""}${plural(points, "point")}`;
}
