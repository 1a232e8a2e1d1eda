// absolute/faces.js: ABSOLUTE's cards drawn: faces (clickable or not) and backs.

import { el } from "../../js/dom.js";
import { MINUS, cardSpeech, cardText, parseCard, signed } from "./cards.js";

// ------------------------------------------------------------------ drawing helpers
function pip(suit, extra = "") {
  return el("span", { class: `abs-pip abs-suit-${suit} ${extra}`.trim(), "aria-hidden": "true" });
}

// A card face. tag "button" makes it clickable; zeroValue shows what a zero stands for.
export function cardFace(card, { tag = "span", size = "", zeroValue = null, extra = "", ...props } = {}) {
  const p = parseCard(card);
  const shown = p.zero && zeroValue !== null && zeroValue !== undefined;
  const label = cardSpeech(card) + (shown ? `, standing for ${signed(zeroValue)}` : "");
  const classes = ["abs-card", p.sign < 0 ? "abs-neg" : "abs-pos", p.zero ? "abs-zero" : "",
    size ? `abs-card-${size}` : "", extra].filter(Boolean).join(" ");
  const node = el(tag, {
    class: classes, dataset: { card }, "aria-label": label, title: cardText(card) + (shown ? ` = ${signed(zeroValue)}` : ""),
    role: tag === "span" ? "img" : undefined, ...props,
  },
  el("span", { class: "abs-corner", "aria-hidden": "true" }, pip(p.suit)),
  el("span", { class: "abs-num", "aria-hidden": "true" },
    el("span", { class: "abs-sign" }, p.sign < 0 ? MINUS : "+"), String(p.num)),
  el("span", { class: "abs-corner abs-corner-end", "aria-hidden": "true" }, pip(p.suit)),
  shown ? el("span", { class: "abs-zv", "aria-hidden": "true" }, `= ${signed(zeroValue)}`)
    : p.zero ? el("span", { class: "abs-zv abs-zv-wild", "aria-hidden": "true" }, "wild") : null);
  if (tag === "button") node.type = "button";
  return node;
}

export function cardBack(extra = "", props = {}) {
  return el("span", { class: `abs-back ${extra}`.trim(), "aria-hidden": "true", ...props },
    el("span", { class: "abs-back-mark" }, "±"));
}
