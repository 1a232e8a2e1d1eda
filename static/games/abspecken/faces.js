// abspecken/faces.js: ABspecken's cards drawn: a coloured card with its value.

import { el } from "../../js/dom.js";
import { COLOUR_CLASSES } from "./cards.js";

// a card face: a coloured card with its value, big and in the corners
export function cardFace(value, colour, { tag = "span", small = false, extra = "", ...props } = {}) {
  const colourClass = COLOUR_CLASSES.has(colour) ? ` spk-col-${colour}` : "";
  const label = `${value} (${colour || "card"})`;
  const node = el(tag, {
    class: `card spk-card spk-v${value}${colourClass}${small ? " spk-card-small" : ""} ${extra}`.trim(),
    dataset: { value },
    role: tag === "span" ? "img" : undefined,
    "aria-label": props["aria-label"] || label,
    title: props.title || label,
    ...props,
  },
  el("span", { class: "spk-card-corner", "aria-hidden": "true" }, String(value)),
  el("span", { class: "spk-card-value", "aria-hidden": "true" }, String(value)),
  el("span", { class: "spk-card-corner spk-card-corner-b", "aria-hidden": "true" }, String(value)));
  if (tag === "button" && !props.type) node.type = "button";
  return node;
}
