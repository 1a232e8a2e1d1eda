// match.js: a match page. Final scores, seats, the per-deal (per-round) breakdown and a replay
// stepper that draws each step with the game's own renderer, as a spectator.

import { get } from "./api.js";
import { el, fill, formatTime, say } from "./dom.js";
import { gameTitle } from "./games.js";
import { seatName, seatPlayerId } from "./names.js";
import { explainer, loadRenderer } from "./table.js";

const $ = (id) => document.getElementById(id);
const matchId = Number($("match").dataset.matchId);
const base = `/api/matches/${matchId}`;

function number(value) {
  return typeof value === "number" && !Number.isInteger(value) ? value.toFixed(1) : String(value ?? "–");
}

function renderScores(match, names) {
  const winners = new Set(match.winners || []);
  const finished = match.status === "finished";
  fill($("score-table").tBodies[0], (match.seats || []).map((s, i) => {
    const index = s.seat ?? i;
    const id = seatPlayerId(s);
    const who = id !== null
      ? el("a", { href: `/players/${encodeURIComponent(id)}` }, names[index])
      : el("span", {}, names[index]);
    return el("tr", { class: finished && winners.has(index) ? "row-win" : "" },
      el("td", {}, String(index + 1)),
      el("td", {}, who, finished && winners.has(index) ? el("span", { class: "tag tag-win" }, "won") : null),
      el("td", { class: "num" }, match.scores ? number(match.scores[index]) : "–"));
  }));
}

// Round dicts vary by game; per-seat arrays become "key value" details, "scores" the cells.
function renderRounds(rounds, names) {
  if (!Array.isArray(rounds) || !rounds.length) return;
  const seats = names.length;
  const perSeat = (value) => Array.isArray(value) && value.length === seats;
  const detailKeys = Object.keys(rounds[0]).filter((k) => k !== "scores" && perSeat(rounds[0][k]));
  const note = (round) => Object.entries(round)
    .filter(([k, v]) => !perSeat(v) && !["deal", "round"].includes(k) && v !== false && v !== null && typeof v !== "object")
    .map(([k, v]) => (k === "dealer" && Number.isInteger(v) ? `dealt by ${names[v]}` : v === true ? k : `${k} ${v}`))
    .join(", ");
  fill($("rounds-table"),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "Deal"),
      names.map((n) => el("th", { scope: "col", class: "num" }, n)),
      el("th", { scope: "col" }, "Notes"))),
    el("tbody", {}, rounds.map((round, r) => el("tr", {},
      el("td", {}, String(round.deal ?? round.round ?? r + 1)),
      names.map((_, s) => el("td", { class: "num" },
        perSeat(round.scores) ? number(round.scores[s]) : "",
        detailKeys.length ? el("span", { class: "muted small" },
          ` (${detailKeys.map((k) => `${k} ${number(round[k][s])}`).join(", ")})`) : null)),
      el("td", { class: "muted" }, note(round))))));
  $("rounds-panel").hidden = false;
}

// ---------------------------------------------------------------- replay stepper
async function setupReplay(match, names) {
  const status = $("replay-status");
  if (match.status !== "finished") return;
  let replay;
  let renderer;
  try {
    [replay, renderer] = await Promise.all([get(`${base}/replay`), loadRenderer(match.game)]);
  } catch (error) {
    status.textContent = `The replay is not available: ${error.message}`;
    return;
  }
  const actions = replay.actions || [];
  const last = actions.length;
  const cache = new Map();
  const explain = explainer(status);
  const table = renderer.mount($("replay-table"), {
    seat: null, names, explain, act: () => Promise.reject(new Error("This is a replay.")),
  });
  let step = last;
  const range = $("replay-range");
  range.max = String(last);
  status.textContent = "";
  status.hidden = true;
  $("replay-controls").hidden = false;

  async function show(target) {
    step = Math.max(0, Math.min(last, target));
    range.value = String(step);
    $("replay-pos").textContent = `Move ${step} of ${last}`;
    for (const button of $("replay-controls").querySelectorAll("button")) {
      const kind = button.dataset.step;
      button.disabled = (kind === "first" || kind === "back") ? step === 0 : step === last;
    }
    const wanted = step;
    try {
      if (!cache.has(wanted)) cache.set(wanted, get(`${base}/replay/${wanted}`));
      const frame = await cache.get(wanted);
      if (wanted !== step) return;
      // The server sends the full state as "view" and each seat's view as "views"; renderers
      // draw views, so use a seat's view (the same for every seat in a perfect-information game).
      const view = Array.isArray(frame.views) && frame.views.length ? frame.views[0] : frame.view;
      const move = actions.find((a) => a.seq === wanted) || (wanted > 0 ? actions[wanted - 1] : null);
      table.update({
        type: "state", match_id: matchId, seq: wanted, view, to_act: [], legal: [],
        last: move && wanted > 0 ? { seat: move.seat, action: move.action } : null,
        over: wanted === last,
        outcome: wanted === last ? { scores: match.scores, winners: match.winners } : null,
      });
    } catch (error) {
      cache.delete(wanted);
      explain(`Could not load move ${wanted}: ${error.message}`);
    }
  }

  const moves = { first: () => 0, back: () => step - 1, next: () => step + 1, last: () => last };
  $("replay-controls").addEventListener("click", (event) => {
    const kind = event.target.closest("button")?.dataset.step;
    if (kind) show(moves[kind]());
  });
  range.addEventListener("input", () => show(Number(range.value)));
  $("replay").addEventListener("keydown", (event) => {
    if (event.target === range) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); show(step - 1); }
    if (event.key === "ArrowRight") { event.preventDefault(); show(step + 1); }
  });
  await show(last);
}

// ---------------------------------------------------------------- start
async function main() {
  let match;
  try {
    match = await get(base);
  } catch (error) {
    say($("match-error"), error.status === 404 ? "There is no such match." : error.message);
    $("match-meta").textContent = "";
    return;
  }
  const title = await gameTitle(match.game);
  const names = (match.seats || []).map((s, i) => seatName(s, s.seat ?? i));
  $("match-title").textContent = `${title} · match ${matchId}`;
  document.title = `${title} match ${matchId} · cardroom`;
  const when = match.finished_at
    ? `Finished ${formatTime(match.finished_at)}`
    : `In progress, started ${formatTime(match.started_at)}`;
  const moves = match.move_count ?? match.moves;
  $("match-meta").textContent = [when, moves !== undefined ? `${moves} moves` : "",
    match.options && Object.keys(match.options).length
      ? Object.entries(match.options).map(([k, v]) => `${k} ${v}`).join(", ") : ""]
    .filter(Boolean).join(" · ");
  renderScores(match, names);
  renderRounds(match.rounds || (match.outcome && match.outcome.rounds), names);
  await setupReplay(match, names);
}

main();
