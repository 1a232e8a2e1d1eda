// matchlist.js: a paged list of matches from GET /api/matches (history page, player page).
// Pages are keyset pages on the match id: "Older" asks for ?before=<oldest id shown>, "Newer"
// for ?after=<newest id shown>; both stay fast however many matches there are. One more match
// than a page is asked for, to know whether there is a further page.

import { get } from "./api.js";
import { el, formatTime } from "./dom.js";
import { loadGames } from "./games.js";
import { seatName, seatPlayerId } from "./names.js";
import { ratingDelta, signedNumber } from "./words.js";

export const PAGE = 20;

function scoreText(value) {
  return typeof value === "number" ? signedNumber(value, "") : String(value);
}

// "win" | "loss" | "draw" (a win shared with another seat) for one seat of a finished match.
export function resultOf(match, seatIndex) {
  if (match.status !== "finished" || seatIndex === null || seatIndex === undefined) return null;
  const winners = match.winners || [];
  if (!winners.includes(seatIndex)) return "loss";
  return winners.length > 1 ? "draw" : "win";
}

const RESULT_TAGS = { win: ["tag-win", "won"], loss: ["tag-loss", "lost"], draw: ["tag-draw", "drew"] };

function matchItem(match, titles, playerId) {
  const winners = new Set(match.winners || []);
  const scores = match.scores || [];
  const finished = match.status === "finished";
  let focus = null;
  const seats = (match.seats || []).map((s, i) => {
    const index = s.seat ?? i;
    const won = finished && winners.has(index);
    const isFocus = playerId !== undefined && seatPlayerId(s) === playerId;
    if (isFocus) focus = { ...s, seat: index };
    return el("li", { class: "match-seat" + (won ? " match-seat-won" : "") + (isFocus ? " match-seat-focus" : "") },
      seatPlayerId(s) !== null
        ? el("a", { class: "match-seat-name", href: `/players/${encodeURIComponent(seatPlayerId(s))}` }, seatName(s, index))
        : el("span", { class: "match-seat-name" }, seatName(s, index)),
      scores[index] !== undefined && scores[index] !== null ? el("span", { class: "match-seat-score" }, scoreText(scores[index])) : null,
      won && !isFocus ? el("span", { class: "tag tag-win" }, "won") : null);
  });
  const result = focus ? resultOf(match, focus.seat) : null;
  const when = match.finished_at || match.started_at || match.created_at;
  return el("li", { class: "match-item", dataset: { matchId: String(match.id), result: result || "" } },
    el("a", { class: "match-link", href: `/matches/${encodeURIComponent(match.id)}` },
      el("span", { class: "match-game" }, titles.get(match.game) || match.game),
      el("span", { class: "muted" }, ` #${match.id}`)),
    el("ul", { class: "match-seats" }, seats),
    el("span", { class: "match-when muted" },
      result ? el("span", { class: `tag ${RESULT_TAGS[result][0]}` }, RESULT_TAGS[result][1]) : null,
      focus && focus.rating ? el("span", {
        class: `rating-delta ${focus.rating.delta > 0 ? "up" : focus.rating.delta < 0 ? "down" : ""}`,
        title: "Rating change",
      }, ` ${ratingDelta(focus.rating.delta)} `) : null,
      match.has_bots ? el("span", { class: "tag tag-bot" }, "bots") : null,
      finished ? "" : el("span", { class: "badge badge-playing" }, "Playing"),
      " ", formatTime(when)));
}

/**
 * A paged list. `params` ({player, game, since, until, result, status}) filter the list;
 * `cursor` ({before} or {after}) opens a given page. `onCursor(cursor)` hears every page
 * change (the history page keeps it in the address). Returns { reload(params, cursor) }.
 */
export function matchList({ list, status, older, newer, params = {}, cursor = null, playerId, onPage, onCursor }) {
  let filters = { ...params };
  let at = cursor; // null (the newest page), {before: id} or {after: id}
  let titles = new Map();
  let shown = [];
  let serial = 0;

  async function load(next) {
    const mine = ++serial;
    at = next;
    status.hidden = false;
    status.textContent = "Loading matches…";
    const query = new URLSearchParams({ limit: String(PAGE + 1) });
    for (const [key, value] of Object.entries(filters)) {
      if (value !== "" && value !== null && value !== undefined) query.set(key, value);
    }
    if (at && at.before) query.set("before", at.before);
    if (at && at.after) query.set("after", at.after);
    try {
      if (!titles.size) titles = new Map((await loadGames()).map((g) => [g.id, g.title]));
    } catch { /* titles fall back to ids */ }
    let matches;
    try {
      matches = await get(`/api/matches?${query}`);
    } catch (error) {
      if (mine !== serial) return;
      status.textContent = `Could not load matches: ${error.message}`;
      return;
    }
    if (mine !== serial) return;
    if (Array.isArray(matches.matches)) matches = matches.matches;
    let hasOlder;
    let hasNewer;
    if (at && at.after) {
      if (matches.length <= PAGE) { load(null); return; } // near the top: the newest page
      matches = matches.slice(matches.length - PAGE); // the PAGE just newer than `after`
      hasNewer = true;
      hasOlder = true;
    } else {
      hasOlder = matches.length > PAGE;
      matches = matches.slice(0, PAGE);
      hasNewer = Boolean(at && at.before);
    }
    shown = matches;
    const focus = playerId ?? (/^\d+$/.test(String(filters.player ?? "")) ? Number(filters.player) : undefined);
    list.replaceChildren(...matches.map((m) => matchItem(m, titles, focus)));
    older.hidden = !hasOlder;
    newer.hidden = !hasNewer;
    const none = !matches.length;
    status.textContent = none ? (at ? "No more matches." : "No matches found.") : "";
    status.hidden = !none;
    if (onCursor) onCursor(at);
    if (onPage) onPage(matches, { hasOlder, hasNewer });
  }

  older.addEventListener("click", () => {
    if (shown.length) load({ before: shown[shown.length - 1].id });
  });
  newer.addEventListener("click", () => {
    if (shown.length) load({ after: shown[0].id });
    else load(null);
  });
  load(at);
  return {
    reload(next, nextCursor = null) { filters = { ...next }; return load(nextCursor); },
  };
}
