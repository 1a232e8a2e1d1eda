// ratings.js: each rated player's rating change, shown in place on a finished match's outcome
// ("rating +1.2 → 26.3"). The changes come from GET /api/matches/{id} (seats[].rating), fetched
// once per match; the outcome is redrawn often, so each drawing takes them from the cache.

import { get } from "../api.js";
import { el } from "../dom.js";
import { oneDecimal, ratingDelta } from "../words.js";

const changes = new Map(); // match id -> Promise of Map(seat -> {delta, after})
const TRIES = 3; // ratings are written as the match ends: ask again a moment later
const WAIT_MS = 1000;

async function fetchChanges(matchId) {
  for (let attempt = 1; ; attempt += 1) {
    const match = await get(`/api/matches/${encodeURIComponent(matchId)}`);
    const seats = (match.seats || []).map((s, i) => [s.seat ?? i, s]);
    const found = new Map(seats.filter(([, s]) => s.rating).map(([seat, s]) => [seat, s.rating]));
    const rated = seats.length >= 2 && seats.some(([, s]) => !s.bot);
    if (found.size || (match.status === "finished" && !rated) || attempt >= TRIES) return found;
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
}

function changesOf(matchId) {
  if (!changes.has(matchId)) {
    changes.set(matchId, fetchChanges(matchId).catch(() => new Map()));
  }
  return changes.get(matchId);
}

// Add each seat's change to the outcome's lines (`li[data-seat]` in `list`).
export function showRatingChanges(list, matchId) {
  if (matchId === undefined || matchId === null) return;
  changesOf(matchId).then((found) => {
    for (const line of list.querySelectorAll("li[data-seat]")) {
      const change = found.get(Number(line.dataset.seat));
      if (!change || line.querySelector(".outcome-rating")) continue;
      const way = change.delta > 0 ? "up" : change.delta < 0 ? "down" : "";
      line.append(" ", el("span", { class: `outcome-rating rating-delta ${way}`, title: "Rating change" },
        `rating ${ratingDelta(change.delta)} → ${oneDecimal(change.after)}`));
    }
  });
}
