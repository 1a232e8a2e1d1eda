// abspecken/dice.js: the dice: two eye dice, the forbidden colour (or number) die and the
// Piggy die, rolled with a short animation, and what they allow in words.
// `tbl` is the table's shared state and parts (see ../abspecken.js): its state (msg, busy, sel,
// preview, ...), ctx, words, ui and the other parts' functions.

import { el, fill } from "../../js/dom.js";
import { COLOUR_CLASSES, orWords } from "./cards.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const ROLL_MS = 750;
// pip cells (0..8 of a 3x3 grid) of each die face
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
export const PIGGY_WORDS = { smile: "smiling piggy", grim: "grim piggy" };

export function PIGGY_SHIFT(face) {
  return face && face.startsWith("pm") ? Number(face.slice(2)) : 0;
}

function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

// a pig's face: smiling, or grim with frowning brows
export function pigSvg(smiling) {
  const line = { fill: "none", stroke: "#6d2342", "stroke-width": 1.8, "stroke-linecap": "round" };
  return svg("svg", { viewBox: "0 0 40 40", class: "spk-pig", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M7 14 L9 3 L17 9 Z", fill: "#ec86ad", stroke: "#b34d78", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    svg("path", { d: "M33 14 L31 3 L23 9 Z", fill: "#ec86ad", stroke: "#b34d78", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    svg("circle", { cx: 20, cy: 22, r: 14, fill: "#f7b3cc", stroke: "#b34d78", "stroke-width": 1.4 }),
    svg("circle", { cx: 14, cy: 17.5, r: 1.9, fill: "#3a1f2b" }),
    svg("circle", { cx: 26, cy: 17.5, r: 1.9, fill: "#3a1f2b" }),
    smiling ? null : svg("path", { d: "M10 12.5 L17 15", ...line }),
    smiling ? null : svg("path", { d: "M30 12.5 L23 15", ...line }),
    svg("ellipse", { cx: 20, cy: 24.5, rx: 6.2, ry: 4.4, fill: "#f08cb2", stroke: "#b34d78", "stroke-width": 1.2 }),
    svg("ellipse", { cx: 17.8, cy: 24.5, rx: 1.1, ry: 1.6, fill: "#6d2342" }),
    svg("ellipse", { cx: 22.2, cy: 24.5, rx: 1.1, ry: 1.6, fill: "#6d2342" }),
    svg("path", { d: smiling ? "M14 30.5 Q20 35.5 26 30.5" : "M14.5 33 Q20 29.5 25.5 33", ...line }),
  );
}

export function dicePart(tbl) {
  // ------------------------------------------------------------- dice
  function dieEl(value, label, extra = "") {
    const cells = Array.from({ length: 9 }, (_, i) => el("span", { class: PIPS[value].includes(i) ? "spk-pip" : "spk-nopip" }));
    return el("span", { class: `spk-die spk-die-eye ${extra}`.trim(), role: "img", "aria-label": label, title: label }, cells);
  }

  function forbiddenDie(value, colour, numberDie) {
    const label = `Forbidden this playthrough: ${value} (${colour})`;
    const colourClass = COLOUR_CLASSES.has(colour) ? ` spk-col-${colour}` : "";
    if (numberDie) {
      return el("span", { class: `spk-die spk-die-number${colourClass}`, role: "img", "aria-label": label, title: label },
        el("span", { class: "spk-die-numeral", "aria-hidden": "true" }, String(value)),
        el("span", { class: "spk-die-swatch", "aria-hidden": "true" }));
    }
    return el("span", { class: `spk-die spk-die-colour${colourClass}`, role: "img", "aria-label": label, title: label },
      el("span", { class: "spk-die-chip", "aria-hidden": "true" }, String(value)));
  }

  function piggyDie(face) {
    const shift = face && face.startsWith("pm") ? Number(face.slice(2)) : 0;
    const label = shift ? `Piggy die: plus or minus ${shift} for the roller's sum` : `Piggy die: ${PIGGY_WORDS[face] || face}`;
    return el("span", { class: "spk-die spk-die-piggy", role: "img", "aria-label": label, title: label, dataset: { piggy: face } },
      shift ? el("span", { class: "spk-die-shift", "aria-hidden": "true" }, `±${shift}`) : pigSvg(face === "smile"));
  }

  function renderDice() {
    const view = tbl.v();
    const dice = view.dice;
    if (!dice) {
      const waitingFor = view.phase === "pick" ? "Dice are rolled once everyone has picked a hand."
        : view.phase === "piggy" ? `${tbl.name(view.roller)} ${view.roller === tbl.ctx.seat ? "are" : "is"} about to roll.` : "";
      fill(tbl.ui.dice, el("p", { class: "spk-dice-empty muted" }, waitingFor));
      tbl.ui.dice.hidden = !waitingFor;
      tbl.ui.dice.classList.remove("spk-rolling");
      return;
    }
    tbl.ui.dice.hidden = false;
    const key = `${view.round}.${view.playthrough}`;
    const now = Date.now();
    if (tbl.rolledKey !== key) {
      tbl.rolledKey = key;
      if (!tbl.firstRender && !reducedMotion()) {
        tbl.rollingUntil = now + ROLL_MS;
        clearInterval(tbl.rollTimer);
        tbl.rollTimer = setInterval(() => {
          if (Date.now() >= tbl.rollingUntil) { clearInterval(tbl.rollTimer); tbl.rollTimer = null; }
          if (tbl.msg) renderDice();
        }, 90);
      }
    }
    const rolling = now < tbl.rollingUntil;
    tbl.ui.dice.classList.toggle("spk-rolling", rolling);
    const rnd = () => 1 + Math.floor(Math.random() * 6);
    const d1 = rolling ? rnd() : dice.d1;
    const d2 = rolling ? rnd() : dice.d2;
    const forb = rolling ? rnd() : dice.forbidden;
    const piggyFaces = ["pm1", "pm2", "pm3", "smile", "grim"];
    const piggy = dice.piggy && rolling ? piggyFaces[Math.floor(Math.random() * 5)] : dice.piggy;
    const rollerName = tbl.name(view.roller);
    const dieLine = [...new Set([dice.d1, dice.d2])];
    const numberDie = Boolean(view.options.number_die);
    const sums = view.roller_targets || [dice.sum];
    const facts = [
      el("li", { class: "spk-fact-roller muted" }, `${rollerName} rolled:`),
      el("li", {}, el("strong", {}, `Sum ${dice.sum}`),
        dice.piggy_shift ? el("span", { class: "muted" }, ` (${view.roller === tbl.ctx.seat ? "you" : rollerName}: ${orWords(sums)})`) : null),
      el("li", {}, "or one card: ", el("strong", {}, orWords(dieLine))),
      el("li", { class: "spk-fact-forbidden" }, "forbidden: ",
        el("strong", {}, `${dice.forbidden}s`), ` (${dice.forbidden_colour})`),
    ];
    if (dice.piggy) facts.push(el("li", { class: "spk-fact-piggy" }, piggyWords(dice.piggy, view.roller)));
    const forbidden = forbiddenDie(forb, rolling ? tbl.colourOf(forb) : dice.forbidden_colour, numberDie);
    forbidden.dataset.forbidden = dice.forbidden;
    fill(tbl.ui.dice,
      el("div", { class: "spk-dice-row", "aria-hidden": rolling ? "true" : undefined },
        el("div", { class: "spk-dice-group" },
          el("span", { class: "spk-dice-label" }, "Eye dice"),
          el("div", { class: "spk-dice-faces" },
            dieEl(d1, `Die showing ${d1}`, "spk-d1"), dieEl(d2, `Die showing ${d2}`, "spk-d2"))),
        el("div", { class: "spk-dice-group spk-dice-group-forbidden" },
          el("span", { class: "spk-dice-label" }, numberDie ? "Number die" : "Colour die"),
          el("div", { class: "spk-dice-faces" }, forbidden)),
        dice.piggy ? el("div", { class: "spk-dice-group" },
          el("span", { class: "spk-dice-label" }, "Piggy die"),
          el("div", { class: "spk-dice-faces" }, piggyDie(piggy))) : null),
      rolling ? el("p", { class: "spk-dice-facts spk-rolling-note" }, "Rolling…")
        : el("ul", { class: "spk-dice-facts" }, facts));
  }

  function piggyWords(face, roller) {
    const who = tbl.name(roller);
    if (face === "smile") {
      const log = tbl.v().log;
      if (log && log.gift) return `Smiling piggy: ${who} gave a card to ${tbl.lname(log.gift.to)}.`;
      if (tbl.v().phase !== "gift") return `Smiling piggy: ${who} kept ${roller === tbl.ctx.seat ? "your" : "their"} cards.`;
      const must = roller === tbl.ctx.seat && tbl.legalOf("gift").length && !tbl.legalOf("no_gift").length;
      return roller === tbl.ctx.seat
        ? `Smiling piggy: you ${must ? "must" : "may"} give a card away.`
        : `Smiling piggy: ${who} ${tbl.giftRule()} a card away.`;
    }
    if (face === "grim") {
      const grim = tbl.v().log && tbl.v().log.grim;
      return grim ? `Grim piggy: ${who} took back ${roller === tbl.ctx.seat ? "your" : "their"} top discard, a ${grim}.` : `Grim piggy: ${who} takes back the top discard.`;
    }
    const shift = PIGGY_SHIFT(face);
    return `Piggy ±${shift}: ${who} may also aim ${shift} above or below the sum.`;
  }

  return { dieEl, forbiddenDie, piggyDie, piggyWords, renderDice };
}
