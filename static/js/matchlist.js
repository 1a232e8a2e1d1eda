// matchlist.js: a paged list of matches from GET /api/matches (history page, player page).

import { get } from "./api.js";
import { el, formatTime } from "./dom.js";
import { loadGames } from "./games.js";
import { seatName, seatPlayerId } from "./names.js";

const PAGE = 20;

function scoreText(value) {
  return typeof value === "number" && !Number.isInteger(value) ? value.toFixed(1) : String(value);
}

function matchItem(match, titles, playerId) {
  const winners = new Set(match.winners || []);
  const scores = match.scores || [];
  const finished = match.status === "finished";
  const seats = (match.seats || []).map((s, i) => {
    const index = s.seat ?? i;
    const won = finished && winners.has(index);
    const isFocus = playerId !== undefined && seatPlayerId(s) === playerId;
    return el("li", { class: "match-seat" + (won ? " match-seat-won" : "") + (isFocus ? " match-seat-focus" : "") },
      seatPlayerId(s) !== null
        ? el("a", { class: "match-seat-name", href: `/players/${encodeURIComponent(seatPlayerId(s))}` }, seatName(s, index))
        : el("span", { class: "match-seat-name" }, seatName(s, index)),
      scores[index] !== undefined && scores[index] !== null ? el("span", { class: "match-seat-score" }, scoreText(scores[index])) : null,
      won ? el("span", { class: "tag tag-win" }, "won") : null);
  });
  const when = match.finished_at || match.started_at || match.created_at;
  return el("li", { class: "match-item" },
    el("a", { class: "match-link", href: `/matches/${encodeURIComponent(match.id)}` },
      el("span", { class: "match-game" }, titles.get(match.game) || match.game),
      el("span", { class: "muted" }, ` #${match.id}`)),
    el("ul", { class: "match-seats" }, seats),
    el("span", { class: "match-when muted" },
      finished ? "" : el("span", { class: "badge badge-playing" }, "Playing"),
      " ", formatTime(when)));
}

/**
 * A "load more" list. `params` (player, game) filter GET /api/matches.
 * Returns reload(params) to start again with new filters.
 */
export function matchList({ list, status, more, params = {}, playerId, onPage }) {
  let filters = { ...params };
  let cursor = null;
  let titles = new Map();

  async function page(reset) {
    if (reset) {
      cursor = null;
      list.replaceChildren();
    }
    status.hidden = false;
    status.textContent = "Loading matches…";
    more.hidden = true;
    const query = new URLSearchParams({ limit: String(PAGE) });
    for (const [key, value] of Object.entries(filters)) if (value !== "" && value != null) query.set(key, value);
    if (cursor !== null) query.set("before", cursor);
    try {
      if (!titles.size) titles = new Map((await loadGames()).map((g) => [g.id, g.title]));
    } catch { /* titles fall back to ids */ }
    let matches;
    try {
      matches = await get(`/api/matches?${query}`);
    } catch (error) {
      status.textContent = `Could not load matches: ${error.message}`;
      return;
    }
    if (Array.isArray(matches.matches)) matches = matches.matches;
    list.append(...matches.map((m) => matchItem(m, titles, playerId)));
    if (matches.length) cursor = matches[matches.length - 1].id;
    more.hidden = matches.length < PAGE;
    const none = !list.children.length;
    status.textContent = none ? "No matches yet." : "";
    status.hidden = !none;
    if (onPage) onPage(matches);
  }

  more.addEventListener("click", () => page(false));
  page(true);
  return { reload(next) { filters = { ...next }; return page(true); } };
}
