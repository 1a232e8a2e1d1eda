// abstrac/moves.js: Abstrac's moves in words, for the status line and the move log.

import { plural } from "../../js/words.js";

// The state's `last` move in words, for the status line and the move log.
export function describeMove(msg, previous, words, { actor } = {}) {
  const { seat, action } = msg.last || {};
  if (!action) return "";
  const who = actor ?? words.who(seat);
  if (action.type === "take") return `${who} took ${plural(action.count, "card")}.`;
  if (action.type === "order") return `${who} chose to go ${action.first ? "first" : "second"}.`;
  return `${who} played.`;
}
