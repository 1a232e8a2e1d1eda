// words.js: the few words every page builds the same way. No DOM.

// plural(1, "card") -> "1 card"; plural(3, "card") -> "3 cards"; plural(2, "child", "children");
// a negative count takes a real minus sign: plural(-1, "point") -> "−1 point"
export function plural(count, word, many = `${word}s`) {
  const number = count < 0 ? `\u2212${-count}` : count;
  return `${number} ${pluralWord(count, word, many)}`;
}

// The word alone, for a count shown apart (in its own element): pluralWord(1, "card") -> "card"
export function pluralWord(count, word, many = `${word}s`) {
  return count === 1 || count === -1 ? word : many;
}

// ["Ann", "Ben", "Cy"] -> "Ann, Ben and Cy" (joiner "or" -> "Ann, Ben or Cy")
export function listWords(items, joiner = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${joiner} ${items[items.length - 1]}`;
}

export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// A number as players read it, with a real minus sign: signedNumber(-1.5) -> "−1.5",
// signedNumber(2) -> "+2" (the `plus` sign is "+" unless given, "" for none); a fraction keeps
// one decimal.
export function signedNumber(value, plus = "+") {
  const text = Number.isInteger(value) ? String(Math.abs(value)) : Math.abs(value).toFixed(1);
  return value < 0 ? `\u2212${text}` : value > 0 ? `${plus}${text}` : text;
}

// A rating (one decimal, real minus sign): oneDecimal(-1.83) -> "−1.8"
export function oneDecimal(value) {
  const text = Math.abs(value).toFixed(1);
  return value < 0 && text !== "0.0" ? `\u2212${text}` : text;
}

// A rating's change: "+1.2", "−1.2", "±0.0"
export function ratingDelta(delta) {
  const text = oneDecimal(Math.abs(delta));
  return text === "0.0" ? "±0.0" : delta > 0 ? `+${text}` : `\u2212${text}`;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// A length of time in the largest whole unit: durationWords(3600) -> "1 hour",
// durationWords(3 * 86400) -> "3 days", durationWords(90) -> "90 seconds"
export function durationWords(seconds) {
  if (seconds % DAY === 0) return plural(seconds / DAY, "day");
  if (seconds % HOUR === 0) return plural(seconds / HOUR, "hour");
  if (seconds % MINUTE === 0) return plural(seconds / MINUTE, "minute");
  return plural(seconds, "second");
}

// How far off a moment is, roughly: "in 3 hours", "in 2 days", "in 5 minutes",
// "in under a minute", or "now" once it has come
export function untilWords(ms) {
  const seconds = Math.floor(ms / 1000);
  if (seconds <= 0) return "now";
  if (seconds < MINUTE) return "in under a minute";
  if (seconds < HOUR) return `in ${plural(Math.floor(seconds / MINUTE), "minute")}`;
  if (seconds < 2 * DAY) return `in ${plural(Math.floor(seconds / HOUR), "hour")}`;
  return `in ${plural(Math.floor(seconds / DAY), "day")}`;
}
