// outcome.js: the end of a match, as every table shows it: who won, the final scores, each
// rated player's rating change, and why it ended (the outcome's `termination`: normal, forfeit,
// claimed or aborted, which says why: its rules changed, or it reached the server's limit of
// moves, `detail.reason` "move_limit").
//
// The panel keeps each game's class names (prefix "abs" gives .abs-outcome-title,
// .abs-finals, .abs-final, ...), so each game styles it; the words are the same everywhere.

import { el, fill } from "../dom.js";
import { listWords, signedNumber } from "../words.js";
import { showRatingChanges } from "./ratings.js";

// The winning seats: the outcome's, else the view's, else the best score (highest, or lowest
// with `lowWins`).
export function winnersOf(msg, scores = [], { fallback = null, lowWins = false } = {}) {
  if (msg && msg.outcome && Array.isArray(msg.outcome.winners)) return msg.outcome.winners;
  if (Array.isArray(fallback) && fallback.length) return fallback;
  if (!scores.length) return [];
  const best = lowWins ? Math.min(...scores) : Math.max(...scores);
  return scores.map((s, seat) => (s === best ? seat : null)).filter((seat) => seat !== null);
}

// The final scores to show: the outcome's when the rules ended the match, else the game's own
// (a forfeit's outcome scores only say who lost).
export function finalScores(msg, own) {
  const outcome = msg && msg.outcome;
  const normal = outcome && (outcome.termination || "normal") === "normal";
  return normal && Array.isArray(outcome.scores) ? outcome.scores : own;
}

// "You win!", "Ann wins.", "Shared win: Ann and Ben.", "Shared win: you and Ben!", "No winner."
// (an aborted match). A game may word the shared win its own way: `shared` leads it,
// `youShare` replaces it when the viewer is among the winners; `mark` ends "Ann wins".
export function headline(winners, words, { shared = "Shared win", youShare = "", mark = "." } = {}) {
  if (!winners.length) return "No winner.";
  if (winners.length === 1) return words.isMe(winners[0]) ? "You win!" : `${words.name(winners[0])} wins${mark}`;
  const mine = winners.find((seat) => words.isMe(seat));
  if (mine !== undefined && youShare) return youShare;
  if (mine !== undefined) {
    const others = winners.filter((seat) => seat !== mine).map(words.name);
    return `${shared}: you and ${listWords(others)}!`;
  }
  return `${shared}: ${listWords(winners.map(words.name))}.`;
}

const FORFEIT_REASONS = {
  timeout: "ran out of time",
  absent: "left the table and did not come back in time",
};

// Why the match ended, in words, and who left before the end (the outcome's `abandoned`).
export function whyEnded(outcome, words, normal = "") {
  const left = (outcome && Array.isArray(outcome.abandoned)) ? outcome.abandoned : [];
  const why = endedBecause(outcome, words, normal);
  if (!left.length) return why;
  const mine = left.find((seat) => words.isMe(seat));
  if (mine !== undefined) {
    return `${why} You left before the end: a bot finished the match for you, and it counts as a loss.`;
  }
  const named = words.plain || words.name; // the player's own name, not their stand-in's
  const who = listWords(left.map((seat) => named(seat).replace(/^Bot for /, "")));
  return `${why} ${who} left before the end: a bot finished the match, and it counts as a loss for them.`;
}

// Why the match ended; `normal` is the game's own sentence (or a plain one).
function endedBecause(outcome, words, normal) {
  const termination = (outcome && outcome.termination) || "normal";
  const detail = (outcome && outcome.detail) || {};
  if (termination === "forfeit") {
    const seat = detail.forfeit;
    const who = Number.isInteger(seat) ? words.who(seat) : "A player";
    const why = FORFEIT_REASONS[detail.reason] || "lost their seat";
    return `${who} ${why}, so the match was forfeited: every other player wins.`;
  }
  if (termination === "claimed") {
    const seat = detail.claimed_by;
    const who = Number.isInteger(seat) ? words.who(seat) : "A player";
    return `${who} claimed the win: every opponent had left the table and did not come back.`;
  }
  if (termination === "aborted") {
    if (detail.reason === "move_limit") {
      const limit = Number.isInteger(detail.limit) ? `${detail.limit.toLocaleString("en")} moves` : "its moves";
      return `The match was stopped: it reached this server's limit of ${limit} without an end. Nobody wins and it is not rated.`;
    }
    return "The match was stopped: it could not go on under the current rules. Nobody wins and it is not rated.";
  }
  return normal || "The match was played to its end.";
}

/**
 * Draw the outcome into `node` (hidden while the match runs):
 *   msg         the state message (its outcome says who won and why it ended)
 *   over        whether the match is over (default msg.over; a game may know it from its view)
 *   words       seatWords(ctx)
 *   prefix      the game's class prefix ("abs")
 *   scores      the final score of each seat (the game's own totals)
 *   order       the seats in the order listed (default: by score, best first)
 *   title       the headline (default: headline(winners, words, headlineWords))
 *   notes       further lines under the headline (the game's own explanations)
 *   normal      the sentence for a match ended by its rules (default: a plain one)
 *   scoreText   (score, seat) -> text or node of a final score; after(seat) -> extra node
 *   winClass    the class of a winner's line (default `${prefix}-final-win`)
 */
export function drawOutcome(node, {
  msg, over = Boolean(msg && msg.over), words, prefix, scores, winners, order, title, notes = [], normal = "", headlineWords = {},
  scoreText = (score) => (typeof score === "number" ? signedNumber(score, "") : String(score)), after = () => null, winClass = `${prefix}-final-win`,
  listClass = `${prefix}-finals`, lowWins = false,
}) {
  if (!over) { node.hidden = true; fill(node); return; }
  const won = winners || winnersOf(msg, scores, { lowWins });
  const ranked = order || scores.map((_, seat) => seat)
    .sort((a, b) => (lowWins ? scores[a] - scores[b] : scores[b] - scores[a]));
  const termination = (msg.outcome && msg.outcome.termination) || "normal";
  const finals = el("ol", { class: `outcome-finals ${listClass}` }, ranked.map((seat) => el("li", {
    class: `${prefix}-final` + (won.includes(seat) ? ` ${winClass}` : ""), dataset: { seat },
  },
  el("span", { class: `${prefix}-final-name` }, words.name(seat)), " ",
  el("strong", { class: `${prefix}-final-score` }, scoreText(scores[seat], seat)),
  after(seat))));
  fill(node,
    el("p", { class: `outcome-title ${prefix}-outcome-title` }, title || headline(won, words, headlineWords)),
    notes.filter(Boolean).map((note) => (typeof note === "string" ? el("p", { class: `${prefix}-outcome-note` }, note) : note)),
    el("p", { class: `outcome-why ${prefix}-outcome-why`, dataset: { termination } }, whyEnded(msg.outcome, words, normal)),
    finals);
  if (termination !== "aborted") showRatingChanges(finals, msg.match_id);
  node.dataset.termination = termination;
  node.hidden = false;
}
