// player.js: one player's page. Per game: matches played, won, lost, drawn, the rating (its
// rank among the game's rated players and the trend: the change in the latest rated match,
// with a small line of the latest ratings), then their matches, newest first, in pages.

import { get } from "./api.js";
import { el, fill, say } from "./dom.js";
import { loadGames } from "./games.js";
import { matchList } from "./matchlist.js";
import { setTitle } from "./title.js";
import { oneDecimal, plural, ratingDelta } from "./words.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const playerId = Number($("player").dataset.playerId);

function showName(name) {
  $("player-title").textContent = name;
  setTitle(`${name} · cardroom`);
}

// A small line of the latest ratings (oldest first); drawn with SVG nodes, no markup strings.
function sparkline(points) {
  if (points.length < 2) return null;
  const width = 84;
  const height = 22;
  const values = points.map((p) => p.ordinal);
  const low = Math.min(...values);
  const span = Math.max(...values) - low || 1;
  const xy = values.map((v, i) => [
    (i / (values.length - 1)) * (width - 4) + 2,
    height - 2 - ((v - low) / span) * (height - 4),
  ]);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("class", "sparkline");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `Ratings after the latest ${values.length} rated matches: ${values.map((v) => v.toFixed(1)).join(", ")}`);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "));
  const dot = document.createElementNS(SVG, "circle");
  const [lx, ly] = xy[xy.length - 1];
  dot.setAttribute("cx", lx.toFixed(1));
  dot.setAttribute("cy", ly.toFixed(1));
  dot.setAttribute("r", "2.5");
  svg.append(line, dot);
  return svg;
}

function trendCell(rating) {
  if (!rating) return el("td", { class: "muted" }, "not rated yet");
  const trend = rating.trend;
  const arrow = trend > 0 ? "▲" : trend < 0 ? "▼" : "•";
  return el("td", { class: "trend" },
    el("span", {
      class: `rating-delta ${trend > 0 ? "up" : trend < 0 ? "down" : ""}`,
      title: "Change in the latest rated match",
    }, `${arrow} ${ratingDelta(trend)}`),
    sparkline(rating.recent || []));
}

function gameRow(game, titles) {
  const rating = game.rating;
  return el("tr", { dataset: { game: game.game } },
    el("th", { scope: "row" },
      el("a", { href: `/matches?${new URLSearchParams({ game: game.game, player: String(playerId) })}` },
        titles.get(game.game) || game.game)),
    el("td", { class: "num" }, String(game.played)),
    el("td", { class: "num" }, String(game.won)),
    el("td", { class: "num" }, String(game.lost)),
    el("td", { class: "num" }, String(game.drawn)),
    el("td", { class: "num rating-value" }, rating ? oneDecimal(rating.ordinal) : "–"),
    el("td", { class: "num rating-rank" },
      rating ? `#${rating.rank}` : "–",
      rating ? el("span", { class: "muted small rank-of" }, ` of ${rating.rated_players}`) : null),
    trendCell(rating));
}

async function showStats() {
  let stats;
  try {
    stats = await get(`/api/players/${playerId}/stats`);
  } catch (error) {
    $("player-stats").textContent = "";
    say($("player-error"), error.status === 404 ? "There is no such player." : error.message);
    return;
  }
  showName(stats.player.name);
  let titles = new Map();
  try {
    titles = new Map((await loadGames()).map((g) => [g.id, g.title]));
  } catch { /* ids will do */ }
  const t = stats.totals;
  $("player-stats").textContent = t.played
    ? `${plural(t.played, "finished match", "finished matches")}: ${t.won} won, ${t.lost} lost, ${t.drawn} drawn`
      + (t.abandoned ? `, ${t.abandoned} left before the end` : "")
      + (stats.playing ? ` · playing ${stats.playing} now` : "") + "."
    : stats.playing ? `Playing ${stats.playing} now; no finished matches yet.` : "No finished matches yet.";
  const body = $("player-games").tBodies[0];
  if (stats.games.length) fill(body, stats.games.map((g) => gameRow(g, titles)));
  else fill(body, el("tr", {}, el("td", { colspan: "8", class: "muted" }, "No games played yet.")));
  try {
    const anyGame = stats.games[0]?.game || [...titles.keys()][0] || "abstrac";
    const bots = (await get(`/api/ratings?game=${encodeURIComponent(anyGame)}&limit=1`)).bots;
    $("rating-note").textContent = "Ratings are per game (openskill: skill minus three times its "
      + "uncertainty, so everyone starts at 0 and it also rises as the estimate firms up; early on "
      + "even a close second can gain). Draws are wins shared with another seat. A solo match "
      + "is not rated. Bots have fixed ratings: "
      + Object.entries(bots).map(([level, r]) => `${level} ${r.ordinal}`).join(", ") + ".";
  } catch { /* the note is a nicety */ }
}

showStats();
const list = matchList({
  list: $("match-list"), status: $("history-status"),
  older: $("history-older"), newer: $("history-newer"),
  params: { player: playerId }, playerId,
});
$("player-result").addEventListener("change", () => {
  list.reload({ player: playerId, result: $("player-result").value });
});
