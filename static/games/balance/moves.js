// balance/moves.js: Balance's moves in words: the state's `last` play (for the move log), a pile
// entry (a play, the starting card or the automaton's card, with what it scored) and a round's
// scores.

import { cardText } from "../../js/cards.js";
import { el } from "../../js/dom.js";
import { listWords } from "../../js/words.js";
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

// "Ann +1, Ben −2. Out: Cy." After a tie at the top (20 or more) the players at −20 or less
// are out all the same (spec 5, C-6): "Ann +4, Ben +4, Cy −6. Out: Cy. A tie at the top:
// Ann and Ben play another round."
export function roundSummary(record, words) {
  const seats = record.scores.map((_, s) => s);
  const out = record.eliminated || [];
  const scores = `${seats.map((s) => `${words.who(s)} ${signedOrZero(record.scores[s])}`).join(", ")}.`;
  const outText = out.length ? ` Out: ${listWords(out.map(words.plain))}.` : "";
  let tieText = "";
  if (record.decision === "tie") {
    const tied = topSeats(record, out);
    tieText = out.length && tied.length
      ? ` A tie at the top: ${listWords(tied.map(words.plain))} play another round.`
      : " A tie at the top: another round.";
  }
  return scores + outText + tieText;
}

// the players level at the top of the round's totals (at 20 or more after a tie, so never one
// who is out: they are at -20 or less)
function topSeats(record, out) {
  const totals = record.totals || [];
  const best = Math.max(...totals);
  return totals.map((_, s) => s).filter((s) => totals[s] === best && !out.includes(s));
}

// Who put a pile entry there, and its equation.
export function entryWho(entry, words) {
  if (entry.kind === "start") return "Starting card";
  if (entry.kind === "automaton") return `Automaton: ${equation(entry)}`;
  return `${words.who(entry.seat)}: ${equation(entry)}`;
}

// The state's `last` play in words, for the move log: "Ann added the 7♥: +2 → +9."
export function describeMove(msg, previous, words, { actor } = {}) {
  const last = msg.last;
  if (!last || !last.action || last.action.type !== "play") return "";
  const { seat, action } = last;
  const verb = action.direction > 0 ? "added" : "subtracted";
  const pile = (msg.view && msg.view.pile) || [];
  const entry = [...pile].reverse().find((e) => e.kind === "play" && e.seat === seat && e.card === action.card);
  const move = entry ? `: ${signedOrZero(entry.before)} → ${signedOrZero(entry.after)}` : "";
  return `${actor ?? words.who(seat)} ${verb} the ${cardText(action.card)}${move}.`;
}
