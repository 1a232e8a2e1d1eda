// absolute/rules.js: the rules of ABSOLUTE the table checks while you build a play, for live
// feedback: what makes a valid set (games/absolute/groups.py) and what sets and hands score
// (games/absolute/scoring.py). The server checks everything again. tests/fixtures/
// absolute_groups.json holds cases both must agree on: tests/games/test_absolute_fixture.py
// checks the engine against it, tests/e2e/test_table_core.py this module. No DOM, so a page (or
// a test) can import it alone.

import { MIN_SET, MINUS, cardText, isZero, parseCard, signed, sumOf, zeroRange } from "./cards.js";

export function runPoints(cards) {
  let points = 0;
  for (const sign of [1, -1]) {
    const numbers = [...new Set(cards.map(parseCard).filter((p) => p.sign === sign).map((p) => p.num))]
      .sort((a, b) => a - b);
    let chain = 0;
    let previous = -2;
    for (const number of numbers) {
      chain = number === previous + 1 ? chain + 1 : 1;
      if (chain === MIN_SET) points += MIN_SET;
      else if (chain > MIN_SET) points += 1;
      previous = number;
    }
  }
  return points;
}

export function scoreSet(cards) {
  const parsed = cards.map(parseCard);
  const base = Math.max(...parsed.map((p) => p.num));
  const extra = Math.max(0, cards.length - MIN_SET);
  const run = runPoints(cards);
  const sameSuit = new Set(parsed.map((p) => p.suit)).size === 1;
  const counts = new Map();
  for (const p of parsed) counts.set(p.num, (counts.get(p.num) || 0) + 1);
  const ofAKind = Math.max(...counts.values()) >= 4;
  const double = sameSuit ? "suit" : ofAKind ? "kind" : null;
  const subtotal = base + extra + run;
  return { base, extra, run, double, score: double ? subtotal * 2 : subtotal };
}

// "9 + 1 extra + 3 run, ×2 one suit"
export function breakdown(s) {
  let text = `${s.base}`;
  if (s.extra) text += ` + ${s.extra} extra`;
  if (s.run) text += ` + ${s.run} run`;
  if (s.double) text = `(${text}) × 2 ${s.double === "suit" ? "one suit" : "four of a kind"}`;
  return text;
}

// Is `cards` a valid set? `frozen` maps zero cards whose value may not change to that value.
// -> {ok, total, zeroValue, message}; a refusal also has the engine's `code` (IllegalAction.code)
export function checkGroup(cards, frozen = new Map()) {
  const total = sumOf(cards);
  const zeros = cards.filter(isZero);
  if (cards.length < MIN_SET) {
    const more = MIN_SET - cards.length;
    return { ok: false, code: "set_too_small", total, message: `A set needs at least ${MIN_SET} cards: add ${more} more.` };
  }
  if (zeros.length > 1) {
    return { ok: false, code: "two_zeros", total, message: `A set may hold only one zero card; this one has ${zeros.length}.` };
  }
  if (!zeros.length) {
    if (total) {
      return { ok: false, code: "not_zero", total, message: `It adds up to ${signed(total)}, not 0: it needs cards worth ${signed(-total)} more.` };
    }
    return { ok: true, total, zeroValue: null, message: "" };
  }
  const zero = zeros[0];
  const value = -total;
  if (frozen.has(zero) && frozen.get(zero) !== value) {
    return {
      ok: false, code: "zero_frozen", total,
      message: `The ${cardText(zero)} keeps its value ${signed(frozen.get(zero))} while it stays with its old set-mates; here it would have to stand for ${signed(value)}.`,
    };
  }
  const [low, high] = zeroRange(zero);
  if (value < low || value > high) {
    return {
      ok: false, code: "zero_out_of_range", total,
      message: `The ${cardText(zero)} would have to stand for ${signed(value)}, but a ${parseCard(zero).sign < 0 ? MINUS : "+"}0 can only stand for ${signed(low)} to ${signed(high)}.`,
    };
  }
  return { ok: true, total, zeroValue: value, message: "" };
}

// The hand's cost at the end of a round: its biggest number plus one per further card.
export function handPenalty(hand) {
  if (!hand.length) return 0;
  return Math.max(...hand.map((c) => parseCard(c).num)) + hand.length - 1;
}
