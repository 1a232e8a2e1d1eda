// lobby.js: the player's own running matches (mygames.js), the open rooms (waiting for
// players) and the live matches (playing now, with how many watch and a "Watch" link), both
// refreshed every few seconds, and the "create a room" form (its pace: live or turn-based, and
// a turn-based table's time for each move) built from each game's option specs {type:
// int|bool|choice, default, label, min, max, choices, choice_labels}.

import { get, post } from "./api.js";
import { el, fill, say } from "./dom.js";
import { loadGames } from "./games.js";
import { hostName, spectatorCount, tableName } from "./names.js";
import { showMyGames } from "./mygames.js";
import { askForName, needName } from "./session.js";
import { setupPlayNow } from "./playnow.js";

const REFRESH_MS = 5000;
const $ = (id) => document.getElementById(id);
let games = [];

// ---------------------------------------------------------------- open rooms
async function refreshRooms() {
  const status = $("rooms-status");
  const live = $("live-status");
  try {
    const rooms = await get("/api/rooms");
    const waiting = rooms.filter((r) => r.status !== "playing");
    const playing = rooms.filter((r) => r.status === "playing");
    fill($("room-list"), waiting.map(roomItem));
    fill($("live-list"), playing.map(roomItem));
    say(status, waiting.length ? "" : "No open rooms right now. Create one and invite a friend.");
    status.hidden = waiting.length > 0;
    say(live, playing.length ? "" : "No match is being played in a public room right now.");
    live.hidden = playing.length > 0;
    $("live-count").textContent = String(playing.length);
    $("live-count").hidden = !playing.length;
  } catch (error) {
    status.hidden = false;
    status.textContent = `Could not load rooms: ${error.message}`;
  }
}

function roomItem(room) {
  const seats = room.seats || [];
  const filled = seats.filter((s) => s.player || s.bot).length;
  const title = (games.find((g) => g.id === room.game) || {}).title || room.game;
  const host = hostName(room);
  const playing = room.status === "playing";
  const open = room.status === "waiting" && filled < seats.length;
  const watching = spectatorCount(room);
  const bots = seats.filter((s) => s.bot).length;
  return el("li", { class: "room-item" + (playing ? " room-item-live" : ""), dataset: { roomId: room.id } },
    el("div", { class: "room-item-main" },
      el("span", { class: "room-item-game" }, title),
      el("span", { class: "room-item-players" },
        seats.map((s, i) => (s.player || s.bot ? tableName(s, i) : null)).filter(Boolean).join(playing ? " vs " : ", ")
          || "Nobody seated yet"),
      el("span", { class: "room-item-meta muted" },
        playing ? `${seats.length} players` : `${filled}/${seats.length} seated`,
        playing && bots ? ` · ${bots} bot${bots === 1 ? "" : "s"}` : "",
        host ? ` · host ${host}` : "",
        el("span", { class: "room-item-watching" },
          playing ? ` · ${watching} watching` : watching ? ` · ${watching} watching` : "")),
    ),
    el("span", { class: `badge badge-${room.status}` }, playing ? "Playing" : "Waiting"),
    el("a", { class: "btn" + (open ? " btn-primary" : ""), href: `/rooms/${encodeURIComponent(room.id)}` },
      open ? "Join" : "Watch"),
  );
}

// ---------------------------------------------------------------- create form
function optionField(name, spec) {
  const id = `opt-${name}`;
  const label = spec.label || name;
  if (spec.type === "bool") {
    return el("div", { class: "field field-check" },
      el("input", { id, name, type: "checkbox", checked: Boolean(spec.default), dataset: { kind: "bool" } }),
      el("label", { for: id }, label));
  }
  if (spec.type === "choice") {
    const select = el("select", { id, name, dataset: { kind: "choice" } },
      (spec.choices || []).map((choice, i) =>
        el("option", { value: String(i), selected: choice === spec.default },
          (spec.choice_labels || [])[i] || String(choice))));
    return el("div", { class: "field" }, el("label", { for: id }, label), select);
  }
  const range = [spec.min != null ? `from ${spec.min}` : "", spec.max != null ? `to ${spec.max}` : ""]
    .filter(Boolean).join(" ");
  return el("div", { class: "field" },
    el("label", { for: id }, label),
    el("input", {
      id, name, type: "number", inputmode: "numeric", step: 1, required: true,
      min: spec.min, max: spec.max, value: spec.default, dataset: { kind: "int" },
      "aria-describedby": range ? `${id}-hint` : undefined,
    }),
    range ? el("p", { class: "hint", id: `${id}-hint` }, `A whole number ${range}.`) : null);
}

function selectedGame() {
  return games.find((g) => g.id === $("game-select").value);
}

function showGame() {
  const game = selectedGame();
  if (!game) return;
  $("game-summary").textContent = game.summary || "";
  $("game-rules").href = `/games/${encodeURIComponent(game.id)}`;
  $("game-rules").textContent = `How to play ${game.title}`;
  $("game-rules").hidden = false;
  const seats = $("seats-input");
  seats.min = game.min_players;
  seats.max = game.max_players;
  if (!(Number(seats.value) >= game.min_players && Number(seats.value) <= game.max_players)) {
    seats.value = game.min_players;
  }
  seats.readOnly = game.min_players === game.max_players;
  $("seats-hint").textContent = game.min_players === game.max_players
    ? `${game.title} is for exactly ${game.min_players} players.`
    : `${game.min_players} to ${game.max_players} players; fill empty seats with bots in the room.`;
  const entries = Object.entries(game.options || {});
  fill($("options-fields"), entries.map(([name, spec]) => optionField(name, spec)));
  $("options-fieldset").hidden = entries.length === 0;
}

function readOptions(game) {
  const options = {};
  for (const [name, spec] of Object.entries(game.options || {})) {
    const input = document.getElementById(`opt-${name}`);
    if (spec.type === "bool") options[name] = input.checked;
    else if (spec.type === "choice") options[name] = spec.choices[Number(input.value)];
    else options[name] = Number.parseInt(input.value, 10);
  }
  return options;
}

async function createRoom(event) {
  event.preventDefault();
  const form = $("create-form");
  const error = $("create-error");
  const game = selectedGame();
  if (!game) return;
  if (!form.checkValidity()) {
    const bad = form.querySelector(":invalid");
    say(error, `${labelOf(bad)}: ${bad.validationMessage}`);
    bad.focus();
    return;
  }
  if (!(await needName(error, "create the room"))) return;
  const button = $("create-button");
  button.disabled = true;
  say(error, "");
  try {
    const room = await post("/api/rooms", {
      game: game.id,
      seats: Number.parseInt($("seats-input").value, 10),
      options: readOptions(game),
      private: $("private-input").checked,
      table: readTable(),
    });
    window.location.assign(`/rooms/${encodeURIComponent(room.id)}`);
  } catch (failure) {
    say(error, failure.message);
    if (failure.status === 401) askForName();
    button.disabled = false;
  }
}

// The room's table settings (the pace, the turn timer, seat hold, what happens to an absent
// player). A turn-based table has the time for each move; its players are never absent for
// being away, so the live timers and the seat hold are not asked.
function readTable() {
  const seatHold = Number.parseInt($("hold-input").value, 10) || 60;
  const onAbsent = $("absent-select").value;
  if (turnBased()) {
    const turn = Number.parseInt($("move-time-select").value, 10);
    return { pace: "turn_based", turn_seconds: turn, seat_hold_seconds: seatHold, on_absent: onAbsent };
  }
  const turn = Number.parseInt($("turn-input").value, 10) || 0;
  return {
    pace: "live",
    turn_seconds: turn,
    clock: turn > 0 && $("clock-input").checked,
    seat_hold_seconds: seatHold,
    on_absent: onAbsent,
  };
}

const turnBased = () => $("pace-select").value === "turn_based";

function showPace() {
  $("move-time-field").hidden = !turnBased();
  $("live-timers").hidden = turnBased();
}

function labelOf(input) {
  const label = input.id && document.querySelector(`label[for="${input.id}"]`);
  return label ? label.textContent.trim() : input.name;
}

async function setupForm() {
  const select = $("game-select");
  try {
    games = await loadGames();
  } catch (error) {
    say($("create-error"), `Could not load the games: ${error.message}`);
    return;
  }
  fill(select, games.map((g) => el("option", { value: g.id }, g.title)));
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", showGame);
  $("create-form").addEventListener("submit", createRoom);
  $("pace-select").addEventListener("change", showPace);
  showPace();
  showGame();
}

// ---------------------------------------------------------------- start
$("rooms-refresh").addEventListener("click", refreshRooms);
setupForm().then(refreshRooms);
setupPlayNow();
showMyGames($("my-games"), $("my-games-status"), "No match of yours is running.");
setInterval(() => { if (!document.hidden) refreshRooms(); }, REFRESH_MS);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshRooms(); });
