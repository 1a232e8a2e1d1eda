// matches.js: the history page. Filters (game, player by name or id, result of that player,
// date range, status) and keyset pages (older / newer), all kept in the address so a filtered
// page can be shared and the back button works.

import { get } from "./api.js";
import { el, fill, say } from "./dom.js";
import { loadGames } from "./games.js";
import { matchList } from "./matchlist.js";

const $ = (id) => document.getElementById(id);
const FILTERS = ["game", "player", "result", "since", "until", "status"];
const form = $("history-filters");
const playerInput = $("player-filter");
const resultSelect = $("result-filter");
const error = $("filter-error");
const fields = {
  game: $("game-filter"), result: resultSelect, since: $("since-filter"),
  until: $("until-filter"), status: $("status-filter"),
};
let playerId = null; // the chosen player's id, or null
let playerName = "";

function readAddress() {
  const query = new URLSearchParams(window.location.search);
  const wanted = {};
  for (const key of FILTERS) wanted[key] = query.get(key) || "";
  const before = query.get("before");
  const after = query.get("after");
  const cursor = before && /^\d+$/.test(before) ? { before }
    : after && /^\d+$/.test(after) ? { after } : null;
  return { wanted, cursor };
}

function current() {
  const wanted = {};
  // before the game list has loaded, the select cannot hold the address's game yet
  if (fields.game.options.length < 2) wanted.game = readAddress().wanted.game;
  for (const [key, input] of Object.entries(fields)) if (!(key in wanted)) wanted[key] = input.value;
  wanted.player = playerId === null ? "" : String(playerId);
  if (!wanted.player) wanted.result = "";
  return wanted;
}

function writeAddress(wanted, cursor, push) {
  const url = new URL(window.location.href);
  for (const key of FILTERS) {
    if (wanted[key]) url.searchParams.set(key, wanted[key]);
    else url.searchParams.delete(key);
  }
  url.searchParams.delete("before");
  url.searchParams.delete("after");
  if (cursor && cursor.before) url.searchParams.set("before", cursor.before);
  if (cursor && cursor.after) url.searchParams.set("after", cursor.after);
  if (url.href === window.location.href) return;
  if (push) window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}

function describe(wanted) {
  const parts = [];
  if (wanted.game) parts.push(fields.game.selectedOptions[0]?.textContent || wanted.game);
  if (playerId !== null) {
    const who = playerName || `player #${playerId}`;
    parts.push({ win: `won by ${who}`, loss: `lost by ${who}`, draw: `drawn by ${who}` }[wanted.result]
      || `with ${who}`);
  }
  if (wanted.since && wanted.until) parts.push(`from ${wanted.since} to ${wanted.until}`);
  else if (wanted.since) parts.push(`from ${wanted.since}`);
  else if (wanted.until) parts.push(`until ${wanted.until}`);
  if (wanted.status) parts.push(wanted.status === "playing" ? "running now" : "finished");
  $("history-summary").textContent = parts.length ? `Matches: ${parts.join(", ")}.` : "";
}

// ---------------------------------------------------------------- the player field
function setPlayer(id, name) {
  playerId = id;
  playerName = name || "";
  playerInput.value = id === null ? "" : name ? `${name} (#${id})` : `#${id}`;
  resultSelect.disabled = id === null;
  if (id === null) resultSelect.value = "";
  $("player-choices").hidden = true;
}

function chosenFromText(text) {
  const tagged = text.match(/\(#(\d+)\)\s*$/);
  if (tagged) return Number(tagged[1]);
  const bare = text.match(/^#?(\d+)$/);
  return bare ? Number(bare[1]) : null;
}

async function searchPlayers(text) {
  return get(`/api/players?${new URLSearchParams({ name: text, limit: "8" })}`);
}

let suggestTimer = null;
playerInput.addEventListener("input", () => {
  clearTimeout(suggestTimer);
  const text = playerInput.value.trim();
  const id = chosenFromText(text);
  if (id !== null && /\(#\d+\)\s*$/.test(text)) { // picked from the suggestions
    setPlayer(id, text.replace(/\s*\(#\d+\)\s*$/, ""));
    apply(true);
    return;
  }
  if (!text || id !== null) return;
  suggestTimer = setTimeout(async () => {
    try {
      const found = await searchPlayers(text);
      fill($("player-options"), found.map((p) => el("option", { value: `${p.name} (#${p.id})` })));
    } catch { /* suggestions are a convenience */ }
  }, 200);
});

// Turns the typed text into a player id; false when the user still has to pick one.
async function resolvePlayer() {
  const text = playerInput.value.trim();
  if (!text) { setPlayer(null); return true; }
  const id = chosenFromText(text);
  if (id !== null) {
    if (id !== playerId) setPlayer(id, /\(#\d+\)\s*$/.test(text) ? text.replace(/\s*\(#\d+\)\s*$/, "") : "");
    return true;
  }
  let found;
  try {
    found = await searchPlayers(text);
  } catch (failure) {
    say(error, failure.message);
    return false;
  }
  const exact = found.filter((p) => p.name.toLowerCase() === text.toLowerCase());
  const pick = exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : null;
  if (pick) { setPlayer(pick.id, pick.name); return true; }
  if (!found.length) {
    say(error, `No player's name starts with "${text}".`);
    return false;
  }
  $("player-choices-text").textContent = `Several players' names start with "${text}". Pick one:`;
  fill($("player-choice-list"), found.map((p) => el("li", {},
    el("button", {
      type: "button", class: "btn btn-small",
      onclick: () => { setPlayer(p.id, p.name); apply(true); },
    }, `${p.name} (#${p.id})`))));
  $("player-choices").hidden = false;
  return false;
}

async function nameOf(id) {
  try {
    return (await get(`/api/players/${encodeURIComponent(id)}`)).name;
  } catch {
    return "";
  }
}

// ---------------------------------------------------------------- the list
const start = readAddress();
if (start.wanted.player && /^\d+$/.test(start.wanted.player)) {
  setPlayer(Number(start.wanted.player), "");
  nameOf(start.wanted.player).then((name) => {
    if (name && playerId === Number(start.wanted.player)) {
      setPlayer(playerId, name);
      describe(current());
    }
  });
}
for (const [key, input] of Object.entries(fields)) input.value = start.wanted[key];
resultSelect.disabled = playerId === null;

let pagingByUser = false; // a page change from the Older/Newer buttons goes into the history
const list = matchList({
  list: $("match-list"), status: $("history-status"),
  older: $("history-older"), newer: $("history-newer"),
  params: { ...start.wanted, result: playerId === null ? "" : start.wanted.result },
  cursor: start.cursor,
  onCursor: (cursor) => writeAddress(current(), cursor, pagingByUser),
});

async function apply(push) {
  say(error, "");
  if (!(await resolvePlayer())) return;
  const wanted = current();
  if (wanted.since && wanted.until && wanted.since > wanted.until) {
    say(error, "The start date is after the end date.");
    return;
  }
  pagingByUser = false;
  writeAddress(wanted, null, push);
  describe(wanted);
  await list.reload(wanted, null);
}

for (const button of [$("history-older"), $("history-newer")]) {
  button.addEventListener("click", () => { pagingByUser = true; });
}

form.addEventListener("submit", (event) => { event.preventDefault(); apply(true); });
for (const input of Object.values(fields)) input.addEventListener("change", () => apply(true));
$("filter-clear").addEventListener("click", () => {
  for (const input of Object.values(fields)) input.value = "";
  setPlayer(null);
  apply(true);
});

window.addEventListener("popstate", () => {
  const back = readAddress();
  for (const [key, input] of Object.entries(fields)) input.value = back.wanted[key];
  const id = back.wanted.player && /^\d+$/.test(back.wanted.player) ? Number(back.wanted.player) : null;
  if (id !== playerId) setPlayer(id, "");
  resultSelect.disabled = playerId === null;
  pagingByUser = false;
  describe(current());
  list.reload(current(), back.cursor);
});

loadGames().then((games) => {
  fields.game.append(...games.map((g) => el("option", { value: g.id }, g.title)));
  fields.game.value = start.wanted.game;
}).catch(() => {}).finally(() => describe(current()));
