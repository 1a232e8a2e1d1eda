// clock.js: turn clocks, from the state's `deadlines` (seat -> ISO time when that seat's turn
// clock runs out). A clock node carries its deadline (data-deadline); its text is always
// computed from that deadline and the current time, never by counting ticks, so it cannot
// drift, and a tab that slept shows the right time at once.
//
// Renderers draw clock nodes where their seats are (clockNode); the core (table.js) runs one
// ticker over the whole table (startClocks) that redraws them each time a shown second changes.

import { el } from "../dom.js";

export const LOW_MS = 10_000;

// A seat's deadline in a state message, or null.
export function deadlineOf(msg, seat) {
  const deadlines = msg && msg.deadlines;
  if (!deadlines || seat === null || seat === undefined) return null;
  return deadlines[String(seat)] || null;
}

// Milliseconds left until `iso` (negative once past), or null for a bad time.
export function msLeft(iso, now = Date.now()) {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? null : at - now;
}

// 0:42, 12:05, 5:03:09 past an hour, 3d 5:03:09 past a day (a turn-based table's); whole
// seconds, rounded up: it shows 0:00 only when time is up
export function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${pad(seconds % 60)}`;
  const hours = Math.floor(minutes / 60);
  const time = `${hours % 24}:${pad(minutes % 60)}:${pad(seconds % 60)}`;
  return hours < 24 ? time : `${Math.floor(hours / 24)}d ${time}`;
}

// A clock for one deadline: <span role="timer" data-deadline>. `before`/`after` wrap the
// time ("Time left: ", " left"); `label` is its accessible name (the time follows it).
export function clockNode(iso, { tag = "span", className = "", label = "Time left", before = "", after = "" } = {}) {
  const node = el(tag, {
    class: `turn-clock ${className}`.trim(), role: "timer",
    dataset: { deadline: iso, clockBefore: before, clockAfter: after, clockLabel: label },
  });
  setClock(node);
  return node;
}

// Redraw one clock node now; returns the milliseconds left (null for a bad time).
export function setClock(node, now = Date.now()) {
  const left = msLeft(node.dataset.deadline, now);
  if (left === null) { node.textContent = ""; return null; }
  const text = clockText(left);
  const full = `${node.dataset.clockBefore || ""}${text}${node.dataset.clockAfter || ""}`;
  if (node.textContent !== full) node.textContent = full;
  if (node.dataset.clockLabel) node.setAttribute("aria-label", `${node.dataset.clockLabel}: ${text}`);
  node.classList.toggle("is-low", left < LOW_MS);
  return left;
}

// Keep every clock under `root` current: one timer, woken when the next shown second changes
// (at most once a second). Returns { tick(), stop() }; tick() redraws at once (after an update).
export function startClocks(root) {
  let timer = null;
  function tick() {
    clearTimeout(timer);
    timer = null;
    const now = Date.now();
    let wait = Infinity;
    for (const node of root.querySelectorAll("[data-deadline]")) {
      const left = setClock(node, now);
      // the shown second changes when `left` crosses the next whole second
      if (left !== null && left > 0) wait = Math.min(wait, ((left - 1) % 1000) + 1);
    }
    if (wait !== Infinity) timer = setTimeout(tick, wait + 5);
  }
  return {
    tick,
    stop() { clearTimeout(timer); timer = null; },
  };
}
