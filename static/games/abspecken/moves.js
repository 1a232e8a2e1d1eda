// abspecken/moves.js: ABspecken's moves in words, for the status line and the move log.

import { cardsText } from "./cards.js";

// The state's `last` move in words ("You picked 1 + 2 + 3 + 4 + 6.", "Ann rolled with the
// Piggy die."); secret choices stay secret until the reveal.
export function describeMove(msg, previous, words, { actor } = {}) {
  const last = msg.last;
  const v = () => msg.view;
  const me = (seat) => words.isMe(seat);
  if (!last || !last.action) return "";
  const { seat, action } = last;
  const who = actor ?? words.who(seat);
  const s = me(seat) ? "" : "s";
  switch (action.type) {
    case "hidden": {
      // once the secret phase is over, the choice is in the playthrough's record
      const log = v().log;
      const d = !["pick", "decide"].includes(v().phase) && log && log.decisions ? log.decisions[seat] : null;
      if (d && d.type === "discard") return `${who} discarded ${cardsText(d.cards)}.`;
      if (d && d.type === "cannot") return `${who} declared “I cannot ABspecken!”`;
      if (v().phase === "pick" || (v().phase === "decide" && v().players[seat].committed)) {
        return `${who} ${me(seat) ? "have" : "has"} made a secret choice.`;
      }
      return `${who} made ${me(seat) ? "your" : "their"} choice; everything was revealed.`;
    }
    case "pick": return `${who} picked ${cardsText(action.cards)}.`;
    case "roll": return `${who} rolled ${action.piggy ? "with" : "without"} the Piggy die.`;
    case "gift": return `${who} gave ${action.card ? `a ${action.card}` : "a card"} to ${words.whoLower(action.to)}.`;
    case "no_gift": return `${who} kept ${me(seat) ? "your" : "their"} cards (no gift).`;
    case "discard": return `${who} discarded ${cardsText(action.cards)}.`;
    case "cannot": return `${who} declared “I cannot ABspecken!”`;
    case "take": return `${who} took a card from ${words.whoLower(action.from)}.`;
    case "give": return `${who} handed ${action.card ? `a ${action.card}` : "a card"} to ${words.whoLower(action.to)}.`;
    case "refill": return `${who} topped up with ${cardsText(action.cards) || "nothing"}.`;
    default: return `${who} play${s}.`;
  }
}
