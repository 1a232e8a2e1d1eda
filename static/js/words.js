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
