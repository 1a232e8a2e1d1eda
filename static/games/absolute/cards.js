// absolute/cards.js: ABSOLUTE's cards as data and as words (games/absolute/cards.py). No DOM.
// Cards are strings such as "+7S", "-10D", "-0C": sign, number, suit. The suits are drawn in
// CSS: S square, C circle, D diamond, T triangle. Zero cards are wild.

export const SUITS = {
  S: { name: "square", symbol: "■" },
  C: { name: "circle", symbol: "●" },
  D: { name: "diamond", symbol: "◆" },
  T: { name: "triangle", symbol: "▲" },
};
export const SUIT_ORDER = "SCDT";
export const MIN_SET = 3;
export const MAX_SWAP = 2;
export const TOP = 10;
export const SETS_TO_GO_OUT = 3;
export const MINUS = "\u2212";

// ------------------------------------------------------------------ cards
export function parseCard(card) {
  const sign = card[0] === "-" ? -1 : 1;
  const num = Number(card.slice(1, -1));
  return { sign, num, suit: card.slice(-1), zero: num === 0, value: sign * num };
}

export const isZero = (card) => parseCard(card).zero;

export const valueOf = (card) => parseCard(card).value;

export const sumOf = (cards) => cards.reduce((total, card) => total + valueOf(card), 0);

function rankOf(card) {
  const p = parseCard(card);
  return (p.zero ? p.sign * 0.5 : p.value) * 8 + SUIT_ORDER.indexOf(p.suit);
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => rankOf(a) - rankOf(b));
}

export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const other = new Set(b);
  return a.every((card) => other.has(card));
}

// +3, −3 or 0 (a real minus sign)
export function signed(value) {
  if (value > 0) return `+${value}`;
  if (value < 0) return `${MINUS}${-value}`;
  return "0";
}

// "−7■", "+0●"
export function cardText(card) {
  const p = parseCard(card);
  return `${p.sign < 0 ? MINUS : "+"}${p.num}${SUITS[p.suit] ? SUITS[p.suit].symbol : p.suit}`;
}

export const cardsText = (cards) => cards.map(cardText).join(" ");

// "minus 7 square", "plus zero circle (wild)"
export function cardSpeech(card) {
  const p = parseCard(card);
  const suit = SUITS[p.suit] ? SUITS[p.suit].name : p.suit;
  return `${p.sign < 0 ? "minus" : "plus"} ${p.zero ? "zero" : p.num} ${suit}${p.zero ? " (wild)" : ""}`;
}

export function zeroRange(card) {
  return parseCard(card).sign > 0 ? [0, TOP] : [-TOP, 0];
}

// 12, −3 (a real minus sign; no plus)
export function number(value) {
  return value < 0 ? `${MINUS}${-value}` : String(value);
}
