// match.js: a match page. Final scores and rating changes, seats, the per-deal (per-round)
// breakdown and a replay stepper that draws each step with the game's own renderer: everything
// face up, or one seat's own view as it was then (?move=N&seat=S in the address).

import { get } from "./api.js";
import { el, fill, formatTime, say } from "./dom.js";
import { gameTitle, loadGames } from "./games.js";
import { DETAIL_WORDS, optionsWords, roundNotes } from "./matchwords.js";
import { seatName, seatPlayerId, standInName } from "./names.js";
import { decisionAt, decisionWords, loadReview, mountGraph, renderAccuracy } from "./review.js";
import { whyEnded } from "./table/outcome.js";
import { seatWords } from "./table/seats.js";
import { explainer, loadRenderer } from "./table.js";
import { setTitle } from "./title.js";
import { oneDecimal, ratingDelta, signedNumber } from "./words.js";

const $ = (id) => document.getElementById(id);
const matchId = Number($("match").dataset.matchId);
const base = `/api/matches/${matchId}`;
// the moves of their own every person must have made for a match to be rated
// (app/db/matches.py MIN_OWN_MOVES)
const MIN_OWN_MOVES = 3;

function number(value) {
  return typeof value === "number" ? signedNumber(value, "") : "–";
}

function ratingCell(seat) {
  if (seat.bot) return el("td", { class: "rating-cell muted" }, "fixed");
  const change = seat.rating;
  if (!change) return el("td", { class: "rating-cell muted" }, "–");
  return el("td", { class: "rating-cell" },
    el("span", { class: `rating-delta ${change.delta > 0 ? "up" : change.delta < 0 ? "down" : ""}` },
      ratingDelta(change.delta)),
    el("span", { class: "muted small" }, ` → ${oneDecimal(change.after)}`));
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
  if (finished && match.outcome) {
    notes.push(whyEnded(match.outcome, seatWords({ seat: null, perspective: 0, names })));
  }
  if (finished && (match.seats || []).length === 1) notes.push("A solo match does not change ratings.");
  if (finished && (match.seats || []).length > 1 && match.rated === false) {
    const aborted = match.outcome && match.outcome.termination === "aborted";
    const people = (match.seats || []).filter((s) => !s.bot);
    if (people.length && people.every((s) => s.abandoned)) notes.push("Not rated: every player left the table before the end.");
    else if (people.length && !aborted) notes.push(`Not rated: a match counts only when every player made at least ${MIN_OWN_MOVES} moves of their own.`);
    else if (!aborted) notes.push("Not rated.");
  } else if ((match.seats || []).some((s) => s.abandoned)) {
    notes.push("A player who left before the end is ranked below everyone else.");
  }
  if (match.has_bots) notes.push("Played with bots: bots have fixed ratings, so only the people's ratings moved.");
  $("score-note").textContent = notes.join(" ");
}

// Round dicts vary by game: their scores are the cells, the per-seat numbers matchwords.js
// names become details ("combinations 7, cards taken 13"), its notes the last column.
function renderRounds(rounds, names) {
  if (!Array.isArray(rounds) || !rounds.length) return;
  const seats = names.length;
  const perSeat = (value) => Array.isArray(value) && value.length === seats;
  const perSeatNumbers = (value) => perSeat(value) && value.every((v) => typeof v === "number");
  const detailKeys = Object.keys(DETAIL_WORDS).filter((k) => perSeatNumbers(rounds[0][k]));
  // a round's scores: its own, else each player's breakdown's (ABSOLUTE)
  const scoresOf = (round) => (perSeat(round.scores) ? round.scores
    : perSeat(round.players) ? round.players.map((p) => p && p.score) : null);
  fill($("rounds-table"),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "Deal"),
      names.map((n) => el("th", { scope: "col", class: "num" }, n)),
      el("th", { scope: "col" }, "Notes"))),
    el("tbody", {}, rounds.map((round, r) => el("tr", {},
      el("td", {}, String(round.deal ?? round.round ?? r + 1)),
      names.map((_, s) => el("td", { class: "num" },
        scoresOf(round) ? number(scoresOf(round)[s]) : "",
        detailKeys.length ? el("span", { class: "muted small" },
          ` (${detailKeys.map((k) => `${DETAIL_WORDS[k]} ${number(round[k][s])}`).join(", ")})`) : null)),
      el("td", { class: "muted" }, roundNotes(round, names))))));
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

async function setupReplay(match, names, reviewing) {
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
  let words = null; // the seat words of the table on screen
  let shown = null; // the frame on screen
  let told = null; // the state message drawn last (the move before, for the next step's words)

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
    const ctx = {
      seat: perspective, perspective: perspective ?? 0, names, explain, replay: true,
      act: () => Promise.reject(new Error("This is a replay.")),
    };
    table = renderer.mount(root, ctx);
    words = seatWords(ctx);
    told = null;
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

  // A replay step as the state message the table draws, from the chosen point of view.
  function messageOf(frame) {
    const mine = perspective !== null;
    const view = mine && Array.isArray(frame.views) ? frame.views[perspective] : frame.view;
    const lastMove = mine && Array.isArray(frame.lasts) ? frame.lasts[perspective] : frame.last;
    const over = frame.over ?? frame.seq === last;
    return {
      type: "state", match_id: matchId, seq: frame.seq, view, to_act: frame.to_act || [],
      legal: [], last: lastMove || null, over,
      outcome: over ? (frame.outcome || { scores: match.scores, winners: match.winners }) : null,
    };
  }

  // A move a stand-in played names it ("Bot for Bob"), on the table and in the words below.
  function nameMover(frame, lastMove) {
    names.splice(0, names.length, ...seated);
    if (frame.stand_in && lastMove) names[lastMove.seat] = standInName(seated[lastMove.seat]);
  }

  function draw(frame) {
    shown = frame;
    const msg = messageOf(frame);
    nameMover(frame, msg.last);
    table.update(msg);
    const previous = told;
    told = msg;
    const sentence = msg.last ? renderer.describeMove(msg, previous, words) : "";
    $("replay-move").textContent = msg.last
      ? `Move ${frame.seq}: ${sentence || "a move."}`
      : "The deal, before anyone has moved.";
    explainReview();
  }

  // The review beside the replay: everyone's chances over the match (a click goes to that
  // move) and, at each step, the move played beside the hard bot's choice, both in the
  // table's own words.
  let review = null;
  let graph = null;
  reviewing.then((found) => {
    if (!found || !found.decisions.length) return;
    review = found;
    graph = mountGraph($("review-chances"), review, seated, last, (seq) => show(seq));
    $("review-chances").hidden = false;
    explainReview();
  });

  async function explainReview() {
    if (!review) return;
    graph.mark(step);
    graph.focus(perspective);
    const wanted = step;
    const line = $("review-move");
    const decision = decisionAt(review, step, perspective);
    if (!decision) {
      line.hidden = true;
      return;
    }
    try {
      const [before, after] = await Promise.all([frameAt(decision.seq - 1), frameAt(decision.seq)]);
      if (wanted !== step) return;
      const previous = messageOf(before);
      const playedMsg = messageOf(after);
      nameMover(after, playedMsg.last);
      const played = renderer.describeMove(playedMsg, previous, words);
      const alternative = { ...previous, seq: decision.seq, last: { seat: decision.seat, action: decision.best } };
      const best = renderer.describeMove(alternative, previous, words);
      if (shown) nameMover(shown, messageOf(shown).last);
      fill(line, decisionWords(decision, played || "a move.", best || "another move."));
      line.hidden = false;
    } catch (error) {
      explain(`Could not load the review of move ${decision.seq}: ${error.message}`);
    }
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

// ---------------------------------------------------------------- review
// The review's accuracy table beside the result, once computed (asked again while it waits);
// resolves to the review, or null when the match has none.
async function showReview(match, names) {
  if (match.status !== "finished") return null;
  const panel = $("review-panel");
  const status = $("review-status");
  panel.hidden = false;
  try {
    const review = await loadReview(matchId, (ahead) => {
      status.textContent = ahead
        ? `The hard bot is reviewing this match (${ahead} ${ahead === 1 ? "match" : "matches"} before it)…`
        : "The hard bot is reviewing this match…";
    });
    if (!review) {
      panel.hidden = true;
      return null;
    }
    status.textContent = "";
    status.hidden = true;
    renderAccuracy($("accuracy-table"), review, names);
    $("review-note").hidden = false;
    if (review.sample) {
      // a long match: the server's review budget weighed a sample of its decisions
      $("review-sample").textContent = `This match was long: the review weighed ${review.sample.reviewed} of its `
        + `${review.sample.of} decisions, spread evenly over it.`;
      $("review-sample").hidden = false;
    }
    return review;
  } catch (error) {
    status.textContent = `The review is not available: ${error.message}`;
    return null;
  }
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
  const specs = ((await loadGames().catch(() => [])).find((g) => g.id === match.game) || {}).options;
  const names = (match.seats || []).map((s, i) => seatName(s, s.seat ?? i));
  $("match-title").textContent = `${title} · match ${matchId}`;
  $("match-meta").after(el("p", {},
    el("a", { id: "match-rules", href: `/games/${encodeURIComponent(match.game)}` }, `How to play ${title}`)));
  setTitle(`${title} match ${matchId} · cardroom`);
  const when = match.finished_at
    ? `Finished ${formatTime(match.finished_at)}`
    : `In progress, started ${formatTime(match.started_at)}`;
  const moves = match.move_count ?? match.moves;
  $("match-meta").textContent = [when, moves !== undefined ? `${moves} moves` : "",
    optionsWords(match.options, specs).join(", ")]
    .filter(Boolean).join(" · ");
  renderScores(match, names);
  renderRounds(match.rounds || (match.outcome && match.outcome.rounds), names);
  await setupReplay(match, names, showReview(match, names));
}

main();
