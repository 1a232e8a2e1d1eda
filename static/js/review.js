// review.js: a finished match's review (GET /api/matches/{id}/review) on the match page: each
// seat's accuracy beside the result, a graph of everyone's chances over the match (click to
// go to a move), and at each replay step the move played beside the hard bot's preference.

import { api } from "./api.js";
import { el, fill } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 160;
const CLOSE = 0.005; // values this near are "the same" in words
const POLL_MS = 2000;

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

export function percent(value) {
  return `${Math.round(value * 100)}%`;
}

function points(value) {
  return `${Math.round(value * 100)} ${Math.round(value * 100) === 1 ? "point" : "points"}`;
}

// Asks until the review is done: the review, or null when the match has none (still running,
// or played under rules that changed). `waiting(position)` hears each "not yet".
export async function loadReview(matchId, waiting) {
  for (;;) {
    let answer;
    try {
      answer = await api(`/api/matches/${matchId}/review`);
    } catch (error) {
      if (error.status === 409 || error.status === 404) return null;
      throw error;
    }
    if (answer.status === "done") return answer;
    waiting(answer.position);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function renderAccuracy(table, review, names) {
  fill(table,
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, "Player"),
      el("th", { scope: "col", class: "num" }, "Accuracy"),
      el("th", { scope: "col", class: "num" }, "Average cost"),
      el("th", { scope: "col", class: "num" }, "Choices"))),
    el("tbody", {}, review.seats.map((row) => el("tr", { dataset: { seat: String(row.seat) } },
      el("td", {}, names[row.seat] ?? `Seat ${row.seat + 1}`),
      el("td", { class: "num", dataset: { testid: "accuracy" } },
        row.accuracy === null ? "–" : percent(row.accuracy)),
      el("td", { class: "num" }, row.average_cost === null ? "–" : points(row.average_cost)),
      el("td", { class: "num" }, String(row.decisions))))));
}

// The graph of every seat's estimated chance after each reviewed move. Returns
// { mark(step), focus(seat | null) }; a click on it calls pick(move number).
export function mountGraph(root, review, names, lastStep, pick) {
  const decisions = review.decisions;
  const x = (seq) => (lastStep ? (seq / lastStep) * WIDTH : 0);
  const y = (chance) => HEIGHT - chance * HEIGHT;
  const lines = names.map((_, seat) => {
    const path = decisions.map((d) => `${x(d.seq).toFixed(1)},${y(d.chances[seat]).toFixed(1)}`);
    return svg("polyline", { points: path.join(" "), class: `review-line review-seat-${seat % 6}` });
  });
  const marker = svg("line", { x1: 0, x2: 0, y1: 0, y2: HEIGHT, class: "review-marker" });
  const half = svg("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "review-half" });
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", class: "review-graph",
    role: "img", "aria-label": "Each player's estimated chance to win, move by move",
  }, half, ...lines, marker);
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const seq = Math.round(((event.clientX - box.left) / box.width) * lastStep);
    const nearest = decisions.reduce((best, d) =>
      (Math.abs(d.seq - seq) < Math.abs(best.seq - seq) ? d : best), decisions[0]);
    if (nearest) pick(nearest.seq);
  });
  const legend = el("ul", { class: "review-legend" }, names.map((name, seat) =>
    el("li", { class: `review-seat-${seat % 6}` }, name)));
  fill(root, chart, legend);
  return {
    mark(step) {
      marker.setAttribute("x1", x(step).toFixed(1));
      marker.setAttribute("x2", x(step).toFixed(1));
    },
    focus(seat) {
      lines.forEach((line, index) => line.classList.toggle("faded", seat !== null && index !== seat));
    },
  };
}

// The decision to show at a replay step: the move that led to it, or (from one seat's view)
// that seat's latest decision so far; null when there is none.
export function decisionAt(review, step, perspective) {
  if (perspective === null) return review.decisions.find((d) => d.seq === step) || null;
  return [...review.decisions].reverse().find((d) => d.seq <= step && d.seat === perspective) || null;
}

// One decision in words: `played` and `best` are the table's own sentences for the two moves.
export function decisionWords(decision, played, best) {
  const cost = decision.value_best - decision.value_played;
  const lines = [el("span", { class: "review-played" },
    `Move ${decision.seq}: ${played} Chance to win after it: ${percent(decision.value_played)}.`)];
  if (cost < CLOSE) {
    lines.push(el("span", { class: "review-agrees" }, " The hard bot agrees with this move."));
  } else {
    lines.push(el("span", { class: "review-best" },
      ` The hard bot prefers: ${best} Chance: ${percent(decision.value_best)} (${points(cost)} better).`));
  }
  return lines;
}
