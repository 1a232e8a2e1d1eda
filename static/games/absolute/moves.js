// absolute/moves.js: ABSOLUTE's moves in words, for the status line and the move log.

import { cardText, cardsText, sortCards } from "./cards.js";

// The state's `last` move in words, told against the table just before it (`previous`, when it
// is the state right before) for a play: new sets, additions, regroupings.
export function describeMove(msg, previous, words, { actor: named } = {}) {
  const last = msg.last;
  if (!last || !last.action) return "";
  const v = msg.view;
  const a = last.action;
  const actor = named ?? words.who(last.seat);
  let text;
  if (a.type === "draw") {
    const t = v.this_turn;
    const card = t && t.seat === last.seat && t.drew === "discard" ? t.drawn_card : null;
    text = a.source === "deck" ? `${actor} drew from the deck.`
      : card ? `${actor} took the ${cardText(card)} from the discard pile.` : `${actor} took the top discard.`;
  } else if (a.type === "swap") {
    text = `${actor} swapped ${cardsText(a.give || [])} into set ${a.set} for ${cardsText(a.take || [])}.`;
  } else if (a.type === "play") {
    // Against the table just before (when we have it): new sets, additions, regroupings.
    const before = previous && previous.seq === msg.seq - 1 ? previous.view.sets : [];
    const setOf = new Map();
    for (const set of before) for (const c of set.cards) setOf.set(c, set.id);
    const parts = (a.groups || []).map((group) => {
      const g = sortCards(group);
      const from = [...new Set(g.filter((c) => setOf.has(c)).map((c) => setOf.get(c)))];
      const fresh = g.filter((c) => !setOf.has(c));
      if (!from.length) return `a new set ${cardsText(g)}`;
      if (from.length === 1 && fresh.length && before.find((x) => x.id === from[0]).cards.every((c) => g.includes(c))) {
        return `${cardsText(fresh)} on set ${from[0]}`;
      }
      return `${cardsText(g)} (regrouping set${from.length > 1 ? "s" : ""} ${from.join(" and ")})`;
    });
    text = `${actor} played ${parts.join("; ")}.`;
  } else if (a.type === "discard") {
    text = `${actor} discarded the ${cardText(a.card)}.`;
    if (v.went_out[last.seat] && !v.hand_counts[last.seat]) text += ` ${actor === "You" ? "You" : words.name(last.seat)} went out!`;
  } else if (a.type === "hold") {
    text = `${actor} held.`;
  } else {
    text = `${actor} moved.`;
  }
  return text;
}
