// matchwords.js: a finished match's options and per-deal (per-round) notes in words, for the
// match page and the history. No DOM. Keys it does not know are left out, never shown raw.

import { listWords, plural, signedNumber } from "./words.js";

// {target: 500} with the game's option specs -> ["Points to win: 500"]
export function optionsWords(options, specs = {}) {
  return Object.entries(options || {}).map(([name, value]) => {
    const spec = specs[name];
    if (!spec) return null;
    const label = spec.label.replace(/\s*\([^)]*\)$/, "");
    if (spec.type === "bool") return `${label}: ${value ? "yes" : "no"}`;
    if (spec.type === "choice") {
      const index = (spec.choices || []).indexOf(value);
      return `${label}: ${(spec.choice_labels || [])[index] || "other"}`;
    }
    return `${label}: ${typeof value === "number" ? signedNumber(value, "") : "other"}`;
  }).filter(Boolean);
}

// Per-seat numbers shown beside each deal's score: key -> words
export const DETAIL_WORDS = {
  combo: "combinations", taken: "cards taken", penalties: "penalty", totals: "total",
  zeros: "zeros", busts: "beyond 9",
};

const ENDED_BY = {
  went_out: "ended when a player went out",
  turn_limit: "ended at the turn limit",
  stalled: "ended when nobody could draw",
};

const DECISION = {
  tie: "a tie at the top: another round",
  win: "the match was won",
  last_survivor: "one player was left",
  all_eliminated: "everyone left was out",
  round_cap: "the round limit was reached",
  solo_win: "won",
  solo_loss: "lost",
};

// A round's notes in words: "dealt by Ann, Ben began, ended when a player went out, 10 turns"
export function roundNotes(round, names) {
  const who = (seat) => (Number.isInteger(seat) ? names[seat] || `Seat ${seat + 1}` : null);
  const seats = (value) => (Array.isArray(value) && value.every(Number.isInteger) ? value.map(who) : []);
  const notes = [];
  if (who(round.dealer)) notes.push(`dealt by ${who(round.dealer)}`);
  if (who(round.first_player)) notes.push(`${who(round.first_player)} began`);
  if (ENDED_BY[round.ended_by]) notes.push(ENDED_BY[round.ended_by]);
  if (who(round.first_out)) notes.push(`${who(round.first_out)} went out first`);
  if (Number.isInteger(round.turns)) notes.push(plural(round.turns, "turn"));
  if (Number.isInteger(round.playthroughs)) notes.push(plural(round.playthroughs, "roll"));
  if (seats(round.finishers).length) notes.push(`${listWords(seats(round.finishers))} finished`);
  if (round.misere === true) notes.push("misère: the scores turned round");
  if (seats(round.eliminated).length) notes.push(`out: ${listWords(seats(round.eliminated))}`);
  if (DECISION[round.decision]) notes.push(DECISION[round.decision]);
  return notes.join(", ");
}
