// balance/moves.js: Balance's moves in words: the state's `last` play (for the move log), a pile
// entry (a play, the starting card or the automaton's card, with what it scored) and a round's
// scores.

import { cardText } from "../../js/cards.js";
import { el } from "../../js/dom.js";
import { pointsText, signedOrZero, equation } from "./cards.js";

// A pile entry in words, with the points it scored.
export function describeEntry(entry, words) {
  const pts = entry.points ? el("span", { class: "bl-points-chip " + (entry.points > 0 ? "bl-good" : "bl-bad") }, pointsText(entry.points, entry.kind === "automaton" ? "you " : "")) : null;
  const move = `${signedOrZero(entry.before)} → ${signedOrZero(entry.after)}`;
  if (entry.kind === "start") return el("span", {}, `The starting card ${cardText(entry.card)} set the balance to ${signedOrZero(entry.after)}.`);
  if (entry.kind === "automaton") {
    return el("span", {}, `The automaton turned the ${cardText(entry.card)}${entry.matched ? " (it matched the balance)" : ""}: ${move}.`, pts);
  }
  const verb = entry.direction > 0 ? "added" : "subtracted";
  return el("span", {}, `${words.who(entry.seat)} ${verb} the ${cardText(entry.card)}: ${move}.`, pts);
}

// "Ann +1, Ben −2. Out: Cy."
export function roundSummary(record, words) {
  const seats = record.scores.map((_, s) => s);
  return seats.map((s) => `${words.who(s)} ${signedOrZero(record.scores[s])}`).join(", ") +
    (record.decision === "tie" ? ". A tie at the top: another round." : "") +
    (record.eliminated && record.eliminated.length ? `. Out: ${record.eliminated.map(words.plain).join(", ")}.` : ".");
}

// Who put a pile entry there, and its equation.
export function entryWho(entry, words) {
  if (entry.kind === "start") return "Starting card";
  if (entry.kind === "automaton") return `Automaton: ${equation(entry)}`;
  return `${words.who(entry.seat)}: ${equation(entry)}`;
}

// The state's `last` play in words, for the move log: "Ann added the 7♥: +2 → +9."
export function describeMove(msg, words) {
  const last = msg.last;
  if (!last || !last.action || last.action.type !== "play") return "";
  const { seat, action } = last;
  const verb = action.direction > 0 ? "added" : "subtracted";
  const pile = (msg.view && msg.view.pile) || [];
  const entry = [...pile].reverse().find((e) => e.kind === "play" && e.seat === seat && e.card === action.card);
  const move = entry ? `: ${signedOrZero(entry.before)} → ${signedOrZero(entry.after)}` : "";
  return `${words.who(seat)} ${verb} the ${cardText(action.card)}${move}.`;
}
