// plus_minus/moves.js: Plus & Minus's moves in words: a card's effect, a stack's name, the
// state's `last` move, a round's scores, and the move log's lines.
// `words` is the table's seat words (seatWords with "#N" twins; `who` capitalised).

import { cardText } from "../../js/cards.js";
import { KIND_TITLE, rankOf, signed } from "./cards.js";

// what a card does when played, in a few words ("" for a plain card)
export function effectNote(card, players) {
  const rank = rankOf(card);
  if (rank === 5) return "a 5: 2 more cards and 2 more plays";
  if (rank === 10) return "a 10: two stacks swap";
  if (rank === 13) {
    return players === 3
      ? "a King: both other players move their top 2 Minus cards onto their Plus"
      : "a King: two other players move their top 2 Minus cards onto their Plus";
  }
  if (rank === 1) return "an Ace: that stack takes any card";
  return "";
}

// "your Plus", "Ann's Minus"
export function stackName(seat, kind, words) {
  return words.isMe(seat) ? `your ${KIND_TITLE[kind]}` : `${words.name(seat)}'s ${KIND_TITLE[kind]}`;
}

// The state's `last` move in words.
export function describeMove(msg, previous, words, { actor } = {}) {
  const last = msg.last;
  const Who = (seat) => (seat === last.seat && actor) || words.who(seat);
  const who = words.whoLower;
  if (!last || !last.action) return "";
  const { seat, action } = last;
  if (action.type === "play") {
    const note = effectNote(action.card, msg.view.players);
    return `${Who(seat)} played the ${cardText(action.card)} on ${stackName(action.seat, action.stack, words)}${note ? ` (${note})` : ""}.`;
  }
  if (action.type === "swap") {
    return `${Who(seat)} swapped ${stackName(action.a_seat, action.a_stack, words)} and ${stackName(action.b_seat, action.b_stack, words)} stacks.`;
  }
  if (action.type === "king") {
    const [a, b] = action.seats;
    return `${Who(seat)} moved the top Minus cards of ${who(a)} and ${who(b)} onto their Plus stacks.`;
  }
  if (action.type === "pass") {
    if (action.card && words.isMe(action.to)) return `${Who(seat)} passed you the ${cardText(action.card)}.`;
    if (action.card) return `${Who(seat)} passed the ${cardText(action.card)} to ${who(action.to)}.`;
    return `${Who(seat)} passed a card face down to ${who(action.to)}.`;
  }
  return `${Who(seat)} moved.`;
}

// "Round 2 scored: Ann +12, Ben −5."
export function roundLine(round, words) {
  return `Round ${round.round} scored: ${round.scores.map((s, i) => `${words.name(i)} ${signed(s)}`).join(", ")}.`;
}

// The move log's new lines for a state, oldest first: the latest move, then the line for the
// round it finished (when it did).
export function logLines(state, before, words) {
  const view = state.view;
  const fresh = [];
  if (state.last) fresh.push(describeMove(state, before, words));
  if (view.last_round && before && before.view.last_round?.round !== view.last_round.round) {
    fresh.push(roundLine(view.last_round, words));
  }
  return fresh;
}
