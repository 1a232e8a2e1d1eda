// match.js: a match page. Final scores and rating changes, seats, the per-deal (per-round)
// breakdown and a replay stepper that draws each step with the game's own renderer: everything
// face up, or one seat's own view as it was then (?move=N&seat=S in the address).

import { get } from "./api.js";
import { el, fill, formatTime, say } from "./dom.js";
import { gameTitle } from "./games.js";
import { seatName, seatPlayerId, standInName } from "./names.js";
import { explainer, loadRenderer } from "./table.js";

const $ = (id) => document.getElementById(id);
const matchId = Number($("match").dataset.matchId);
const base = `/api/matches/${matchId}`;

function number(value) {
  return typeof value === "number" && !Number.isInteger(value) ? value.toFixed(1) : String(value ?? "–");
}

function signed(value) {
  const text = Math.abs(value).toFixed(1);
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : "±0.0";
}

function ratingCell(seat) {
  if (seat.bot) return el("td", { class: "rating-cell muted" }, "fixed");
  const change = seat.rating;
  if (!change) return el("td", { class: "rating-cell muted" }, "–");
  return el("td", { class: "rating-cell" },
    el("span", { class: `rating-delta ${change.delta > 0 ? "up" : change.delta < 0 ? "down" : ""}` },
      signed(change.delta)),
    el("span", { class: "muted small" }, ` → ${number(change.after)}`));
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
      el("td", {}, who, finished && winners.has(index) && !s.abandoned ? el("span", { class: "tag tag-win" }, "won") : null,
        s.abandoned ? el("span", { class: "tag tag-away", title: "Left the table; a bot finished the match for them" }, "left") : null),
      el("td", { class: "num" }, match.scores ? number(match.scores[index]) : "–"),
      ratingCell(s));
  }));
  const notes = [];
  if (finished && (match.seats || []).length === 1) notes.push("A solo match does not change ratings.");
  if (finished && (match.seats || []).length > 1 && match.rated === false) {
    notes.push((match.seats || []).some((s) => s.abandoned)
      ? "Not rated: every player left the table before the end." : "Not rated.");
  } else if ((match.seats || []).some((s) => s.abandoned)) {
    notes.push("A player who left before the end is ranked below everyone else.");
  }
  if (match.has_bots) notes.push("Played with bots: bots have fixed ratings, so only the people's ratings moved.");
  $("score-note").textContent = notes.join(" ");
}

// Round dicts vary by game; per-seat arrays become "key value" details, "scores" the cells.
function renderRounds(rounds, names) {
  if (!Array.isArray(rounds) || !rounds.length) return;
  const seats = names.length;
  const perSeat = (value) => Array.isArray(value) && value.length === seats;
  // per-seat numbers become details; per-seat lists or objects (hands, piles) are left out
  const perSeatNumbers = (value) => perSeat(value) && value.every((v) => typeof v === "number");
  const detailKeys = Object.keys(rounds[0]).filter((k) => k !== "scores" && perSeatNumbers(rounds[0][k]));
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
// The step and the point of view live in the query string (?move=42&seat=1), so a link can
// point at one move, seen by everyone (all cards face up) or by one seat as it was then.
function readPlace() {
  const query = new URLSearchParams(window.location.search);
  const move = query.get("move");
  const seat = query.get("seat");
  return {
    move: move !== null && /^\d+$/.test(move) ? Number(move) : null,
    seat: seat !== null && /^\d+$/.test(seat) ? Number(seat) : null,
  };
}

function placeUrl(step, seat) {
  const url = new URL(window.location.href);
  url.searchParams.set("move", String(step));
  if (seat === null) url.searchParams.delete("seat");
  else url.searchParams.set("seat", String(seat));
  return url;
}

function describeAction(action) {
  if (!action || typeof action !== "object" || action.type === "hidden") return "a secret move";
  const { type, ...rest } = action;
  const details = Object.entries(rest)
    .map(([k, v]) => `${k.replaceAll("_", " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ");
  return `${String(type || "move").replaceAll("_", " ")}${details ? ` (${details})` : ""}`;
}

async function setupReplay(match, names) {
  const seated = [...names]; // the seats' own names; `names` (the ctx's) follows the frame
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
  const root = $("replay-table");
  const seatSelect = $("replay-seat");
  const range = $("replay-range");
  const place = readPlace();
  let perspective = place.seat !== null && place.seat < names.length ? place.seat : null;
  let step = place.move === null ? last : Math.max(0, Math.min(last, place.move));
  let table = null;
  let shown = null; // the frame on screen

  seatSelect.append(...names.map((name, seat) =>
    el("option", { value: String(seat) }, `${name}'s view, as they saw it`)));
  seatSelect.value = perspective === null ? "" : String(perspective);

  function mountTable() {
    if (table) {
      try { table.destroy(); } catch (error) { console.error(error); }
    }
    root.replaceChildren();
    // One seat's view: that seat is the viewer, and the table is drawn around it (as it was
    // drawn for them). Everything face up: no viewer, drawn around seat 0 (a spectator's default).
    table = renderer.mount(root, {
      seat: perspective, perspective: perspective ?? 0, names, explain,
      act: () => Promise.reject(new Error("This is a replay.")),
    });
    root.dataset.perspective = perspective === null ? "all" : String(perspective);
  }

  function frameAt(seq) {
    if (!cache.has(seq)) {
      const loading = get(`${base}/replay/${seq}`);
      loading.catch(() => cache.delete(seq));
      cache.set(seq, loading);
    }
    return cache.get(seq);
  }

  function draw(frame) {
    shown = frame;
    const mine = perspective !== null;
    const view = mine && Array.isArray(frame.views) ? frame.views[perspective] : frame.view;
    const lastMove = mine && Array.isArray(frame.lasts) ? frame.lasts[perspective] : frame.last;
    const over = frame.over ?? frame.seq === last;
    // a move a stand-in played names it ("Bot for Bob"), on the table and in the line below
    names.splice(0, names.length, ...seated);
    if (frame.stand_in && lastMove) names[lastMove.seat] = standInName(seated[lastMove.seat]);
    table.update({
      type: "state", match_id: matchId, seq: frame.seq, view, to_act: frame.to_act || [],
      legal: [], last: lastMove || null, over,
      outcome: over ? (frame.outcome || { scores: match.scores, winners: match.winners }) : null,
    });
    $("replay-move").textContent = lastMove
      ? `Move ${frame.seq}: ${names[lastMove.seat] || `Seat ${lastMove.seat + 1}`} played ${describeAction(lastMove.action)}.`
      : "The deal, before anyone has moved.";
  }

  // The address follows the stepper once the visitor steps or chooses a seat (or came with
  // ?move=); the "link to this move" always points at what is shown.
  let following = place.move !== null || place.seat !== null;
  function remember() {
    const url = placeUrl(step, perspective);
    if (following) window.history.replaceState(null, "", url);
    $("replay-link").href = url.pathname + url.search;
  }

  async function show(target, { user = true } = {}) {
    if (user) following = true;
    step = Math.max(0, Math.min(last, target));
    range.value = String(step);
    $("replay-pos").textContent = `Move ${step} of ${last}`;
    for (const button of $("replay-controls").querySelectorAll("button")) {
      const kind = button.dataset.step;
      button.disabled = (kind === "first" || kind === "back") ? step === 0 : step === last;
    }
    remember();
    const wanted = step;
    try {
      const frame = await frameAt(wanted);
      if (wanted !== step) return;
      draw(frame);
      if (wanted < last) frameAt(wanted + 1).catch(() => {}); // the next step is ready at once
    } catch (error) {
      explain(`Could not load move ${wanted}: ${error.message}`);
    }
  }

  range.max = String(last);
  status.textContent = "";
  status.hidden = true;
  $("replay-controls").hidden = false;
  $("replay-options").hidden = false;
  mountTable();

  const moves = { first: () => 0, back: () => step - 1, next: () => step + 1, last: () => last };
  $("replay-controls").addEventListener("click", (event) => {
    const kind = event.target.closest("button")?.dataset.step;
    if (kind) show(moves[kind]());
  });
  range.addEventListener("input", () => show(Number(range.value)));
  seatSelect.addEventListener("change", () => {
    perspective = seatSelect.value === "" ? null : Number(seatSelect.value);
    following = true;
    mountTable();
    remember();
    if (shown && shown.seq === step) draw(shown);
    else show(step);
  });
  $("replay").addEventListener("keydown", (event) => {
    if (event.target === range || event.target === seatSelect) return;
    const keys = { ArrowLeft: () => step - 1, ArrowRight: () => step + 1, Home: () => 0, End: () => last };
    if (keys[event.key]) { event.preventDefault(); show(keys[event.key]()); }
  });
  await show(step, { user: false });
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
