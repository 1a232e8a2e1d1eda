// room.js: the room page. Seats (take, leave, host adds/removes bots, the bots standing in for
// away players), host start, the rematch by agreement (propose, accept, decline), claiming the
// win when every opponent has left, the invite link, spectators, connection status, chat (its
// recent history on every connect) and, for a returning player, what a bot played for them
// while they were away. The table itself is drawn
// by the game's renderer through the client core (table.js). A spectator of a live match may
// follow any seat ("Follow seat"): the table is then drawn around that seat, public cards only.

import { del, get, post } from "./api.js";
import { el, fill, formatClock, formatTime, say } from "./dom.js";
import { gameTitle } from "./games.js";
import {
  hostId, seatLabel, seatName, seatPlayerId, spectatorCount, spectatorNames, standInName,
} from "./names.js";
import { askForName, signedIn } from "./session.js";
import { loadRenderer, openRoom } from "./table.js";
import { deadlineOf } from "./table/clock.js";
import { seatWords } from "./table/seats.js";
import { setTitle } from "./title.js";
import { durationWords, listWords, plural, untilWords } from "./words.js";

const BOT_LEVELS = ["easy", "normal", "hard"];
const STATUS_TEXT = { waiting: "Waiting for players", playing: "Playing", finished: "Finished" };
const CONNECTION_TEXT = {
  connecting: () => "Connecting…",
  open: () => "Connected",
  waiting: (seconds) => `Reconnecting in ${seconds} s…`,
  closed: (reason) => `Disconnected: ${reason}`,
  idle: () => "Not connected: choose a name to join in",
};

const $ = (id) => document.getElementById(id);
const page = $("room");
const roomId = page.dataset.roomId;
let me = null;
let room = null;
let core = null;
let started = false; // a state has arrived, so the table is drawn
let rematchNote = ""; // what became of the last rematch proposal (declined, lapsed)
let liveChat = []; // chat received since the latest hello, kept until its history arrives
let toldAbout = ""; // the stand-in's moves the returning player has been told of

// ?follow=N picks the seat a spectator follows. N is 0-based, like ?seat=N on the match page
// (?follow=0 is "Seat 1"); anything that is not a seat of this room is ignored.
const FOLLOW_PARAM = "follow";
function followFromAddress() {
  const value = new URLSearchParams(window.location.search).get(FOLLOW_PARAM);
  return value !== null && /^\d{1,3}$/.test(value) ? Number(value) : null;
}
let follow = followFromAddress(); // the seat followed, once known to be valid (else 0)

// ---------------------------------------------------------------- REST actions
async function roomCall(button, request) {
  say($("room-error"), "");
  if (button) button.disabled = true;
  try {
    const updated = await request();
    if (updated && core) core.setRoom(updated);
    else if (updated) renderRoom(updated);
  } catch (error) {
    say($("room-error"), error.message);
    if (error.status === 401) askForName();
  } finally {
    if (button) button.disabled = false;
  }
}

const base = `/api/rooms/${encodeURIComponent(roomId)}`;
const takeSeat = (n) => post(`${base}/seats/${n}`);
const leaveSeat = (n) => del(`${base}/seats/${n}`);
const addBot = (n, level) => post(`${base}/seats/${n}/bot`, { level });
const startMatch = () => post(`${base}/start`);
// A rematch goes over the room's socket when it is open (every viewer, this one too, hears the
// outcome as a room message; a refusal shows on the table), else over HTTP.
const rematch = () => (core && core.sendRematch(true) ? null : post(`${base}/rematch`));
const declineRematch = () => (core && core.sendRematch(false) ? null : del(`${base}/rematch`));
const claimWin = () => post(`${base}/claim`);

// ---------------------------------------------------------------- rendering
function renderRoom(next) {
  noteRematch(room, next);
  room = next;
  page.dataset.status = room.status;
  $("room-status").textContent = STATUS_TEXT[room.status] || room.status;
  $("room-status").className = `badge badge-${room.status}`;
  const watching = spectatorCount(room);
  const names = spectatorNames(room);
  const more = watching > names.length && names.length ? ` and ${watching - names.length} more` : "";
  $("room-spectators").textContent = `${watching} watching` + (names.length ? `: ${names.join(", ")}${more}` : "");
  renderPace();
  renderSeats();
  renderActions();
  renderFollow();
  if (!started) renderWaiting();
}

// A turn-based table says so, with the time for each move in words.
function renderPace() {
  const table = room.table || {};
  const pace = $("room-pace");
  pace.hidden = table.pace !== "turn_based";
  if (!pace.hidden) pace.textContent = `Turn-based · ${durationWords(table.turn_seconds)} for each move`;
}

// At a turn-based table, when the player's move is due, in words (redrawn each minute).
let myDeadline = null;
function renderDeadline() {
  const node = $("room-deadline");
  node.hidden = !myDeadline;
  if (myDeadline) {
    const left = untilWords(Date.parse(myDeadline) - Date.now());
    node.textContent = `Your move is due ${left} (${formatTime(myDeadline)}).`;
  }
}

function noteDeadline(msg) {
  const seat = mySeatIndex();
  const turnBased = (room.table || {}).pace === "turn_based";
  myDeadline = turnBased && seat !== null && !msg.over ? deadlineOf(msg, seat) : null;
  renderDeadline();
}
setInterval(renderDeadline, 60_000);

function isHost() {
  return me !== null && hostId(room) === me.id;
}

function mySeatIndex() {
  const mine = (room.seats || []).find((s) => me && seatPlayerId(s) === me.id);
  return mine ? mine.seat : null;
}

function renderSeats() {
  const host = isHost();
  const mine = mySeatIndex();
  const waiting = room.status === "waiting";
  fill($("seat-list"), (room.seats || []).map((s, i) => {
    const index = s.seat ?? i;
    const playerId = seatPlayerId(s);
    const empty = !s.player && !s.bot;
    const badges = [];
    if (playerId !== null && playerId === hostId(room)) badges.push(el("span", { class: "tag" }, "Host"));
    if (mine === index) badges.push(el("span", { class: "tag tag-you" }, "You"));
    if (s.bot) badges.push(el("span", { class: "tag tag-bot" }, `Bot · ${s.bot}`));
    if (s.player && s.connected === false) badges.push(el("span", { class: "tag tag-away" }, "Away"));
    if (s.player && s.stand_in) badges.push(el("span", { class: "tag tag-bot tag-stand-in" }, standInName(s.player.name)));

    const actions = [];
    if (waiting && empty && mine === null && me) {
      actions.push(el("button", {
        type: "button", class: "btn btn-primary btn-small",
        onclick: (e) => roomCall(e.currentTarget, () => takeSeat(index)),
      }, "Take seat"));
    }
    if (waiting && empty && host) {
      const select = el("select", { class: "select-small", "aria-label": `Bot level for ${seatLabel(index)}` },
        BOT_LEVELS.map((level) => el("option", { value: level, selected: level === "normal" }, level)));
      actions.push(el("span", { class: "bot-add" }, select, el("button", {
        type: "button", class: "btn btn-small",
        onclick: (e) => roomCall(e.currentTarget, () => addBot(index, select.value)),
      }, "Add bot")));
    }
    if (waiting && mine === index) {
      actions.push(el("button", {
        type: "button", class: "btn btn-small",
        onclick: (e) => roomCall(e.currentTarget, () => leaveSeat(index)),
      }, "Leave seat"));
    }
    if (waiting && s.bot && host) {
      actions.push(el("button", {
        type: "button", class: "btn btn-small",
        onclick: (e) => roomCall(e.currentTarget, () => leaveSeat(index)),
      }, "Remove bot"));
    }
    const connected = s.bot || (s.player && s.connected !== false);
    return el("li", { class: "seat" + (empty ? " seat-empty" : "") + (mine === index ? " seat-mine" : ""), dataset: { seat: index } },
      el("span", { class: "seat-num" }, seatLabel(index)),
      el("span", { class: "seat-who" },
        s.player ? el("span", { class: "presence" + (connected ? " presence-on" : ""), "aria-hidden": "true" }) : null,
        el("span", { class: "seat-name" }, empty ? "Empty" : seatName(s, index)),
        badges),
      actions.length ? el("span", { class: "seat-actions" }, actions) : null);
  }));
}

function renderActions() {
  const box = $("room-actions");
  const seats = room.seats || [];
  const filled = seats.filter((s) => s.player || s.bot).length;
  const items = [];
  if (room.status === "waiting") {
    if (isHost()) {
      const ready = filled === seats.length;
      items.push(el("button", {
        type: "button", class: "btn btn-primary", id: "start-button", disabled: !ready,
        onclick: (e) => roomCall(e.currentTarget, startMatch),
      }, "Start match"));
      items.push(el("p", { class: "hint" }, ready
        ? "Everyone is seated. Start when you are ready."
        : `Fill every seat (${filled} of ${seats.length} taken) with players or bots to start.`));
    } else {
      items.push(el("p", { class: "hint" }, filled === seats.length
        ? "Everyone is seated. The host starts the match."
        : `${filled} of ${seats.length} seats taken. The host starts the match.`));
    }
  } else if (room.status === "playing") {
    items.push(...claimControls());
  } else if (room.status === "finished") {
    items.push(...rematchControls());
    if (room.match_id !== null && room.match_id !== undefined) {
      items.push(el("a", { class: "btn btn-quiet", href: `/matches/${encodeURIComponent(room.match_id)}` }, "Match details"));
    }
  }
  if (!me) {
    items.push(el("p", { class: "hint" }, "Choose a name at the top of the page to take a seat, chat or watch."));
  }
  fill(box, items);
}

// Rematch by agreement: propose; accept or decline another's proposal; withdraw one's own.
function rematchControls() {
  const mine = mySeatIndex();
  const items = rematchNote ? [el("p", { class: "hint", id: "rematch-note", role: "status" }, rematchNote)] : [];
  if (!isHost() && mine === null) return items;
  const offer = room.rematch;
  const button = (id, text, request, primary = false) => el("button", {
    type: "button", class: primary ? "btn btn-primary" : "btn", id,
    onclick: (e) => roomCall(e.currentTarget, request),
  }, text);
  if (!offer) return [button("rematch-button", "Rematch", rematch, true), ...items];
  const accepted = new Set(offer.accepted || []);
  const humans = (room.seats || []).filter((s) => s.player);
  const named = (s) => (s.seat === mine ? "you" : s.player.name);
  const waiting = humans.filter((s) => !accepted.has(s.seat)).map(named);
  const agreed = humans.filter((s) => accepted.has(s.seat)).map(named);
  if (mine !== null && !accepted.has(mine)) {
    const by = agreed.length ? listWords(agreed) : "The host";
    return [
      el("p", { class: "hint rematch-offer", id: "rematch-offer", role: "status" },
        `${by} ${agreed.length > 1 ? "want" : "wants"} a rematch. Play again?`),
      button("rematch-accept", "Accept rematch", rematch, true),
      button("rematch-decline", "Decline", declineRematch),
    ];
  }
  return [
    el("p", { class: "hint rematch-offer", id: "rematch-offer", role: "status" },
      `Rematch proposed: waiting for ${listWords(waiting)} to accept.`),
    button("rematch-withdraw", "Withdraw", declineRematch),
  ];
}

// A proposal that went away without a new match was declined, or it lapsed.
function noteRematch(before, next) {
  if (next.status !== "finished" || next.rematch) {
    rematchNote = "";
    return;
  }
  const offer = before && before.status === "finished" ? before.rematch : null;
  if (!offer) return;
  rematchNote = Date.parse(offer.expires_at) > Date.now()
    ? "The rematch was declined." : "The rematch proposal ran out of time.";
}

// Claim the win: only a seated player still at the table, when a bot stands in for every
// opponent (they have been away longer than the seat hold).
function claimControls() {
  const mine = mySeatIndex();
  const seats = room.seats || [];
  if (mine === null || seats.length < 2 || seats[mine].stand_in) return [];
  if (!seats.every((s) => s.seat === mine || s.stand_in)) return [];
  return [
    el("p", { class: "hint", id: "claim-note" },
      "Every opponent has left the table. Claim the win, or play on against the bots standing in."),
    el("button", {
      type: "button", class: "btn btn-primary", id: "claim-button",
      onclick: (e) => roomCall(e.currentTarget, claimWin),
    }, "Claim the win"),
  ];
}

// A returning player is told what a bot played for them while they were away: the moves in
// the table's own words (the latest few), or their numbers if the game cannot word them.
const TOLD_MOVES = 8;

async function tellPlayedForYou(moves, msg) {
  const key = `${msg.match_id}:${moves.map((m) => m.seq).join(",")}`;
  if (!moves.length || key === toldAbout) return;
  toldAbout = key;
  const mine = mySeatIndex();
  const latest = moves.slice(-TOLD_MOVES);
  let lines = latest.map((m) => `Move ${m.seq}.`);
  try {
    const renderer = await loadRenderer(room.game);
    const names = (room.seats || []).map((s, i) => seatName(s, s.seat ?? i));
    const words = seatWords({ seat: mine, perspective: mine, names });
    lines = latest.map((m) => {
      const told = { ...msg, seq: m.seq, last: { seat: mine, action: m.action } };
      const sentence = m.action ? renderer.describeMove(told, null, words, { actor: "The bot" }) : "";
      return `Move ${m.seq}: ${sentence || "a secret move."}`;
    });
  } catch (error) {
    console.warn("the moves played while away are listed by number", error);
  }
  const earlier = moves.length - latest.length;
  fill($("away-notice"),
    el("p", {}, `While you were away, a bot played for you: ${plural(moves.length, "move")}`
      + `${earlier ? ` (the latest ${latest.length} below)` : ""}. The table shows where things stand now.`),
    el("ol", { class: "away-moves" }, lines.map((line) => el("li", {}, line))),
    el("button", { type: "button", class: "btn btn-small", onclick: () => { $("away-notice").hidden = true; } }, "OK"));
  $("away-notice").hidden = false;
}

// The "Follow seat" select: only for a signed-in spectator while a match is live.
function renderFollow() {
  const bar = $("follow-bar");
  const seats = room.seats || [];
  const show = Boolean(me && started && core) && room.status === "playing" && mySeatIndex() === null;
  bar.hidden = !show;
  if (!show) return;
  const select = $("follow-seat");
  const labels = seats.map((s, i) => `${seatName(s, s.seat ?? i)} · ${seatLabel(s.seat ?? i).toLowerCase()}`);
  if (select.dataset.labels !== JSON.stringify(labels)) { // rebuilt only when a name changes
    fill(select, labels.map((label, i) => el("option", { value: String(seats[i].seat ?? i) }, label)));
    select.dataset.labels = JSON.stringify(labels);
  }
  select.value = String(follow !== null && follow < seats.length ? follow : 0);
}

function followSeat(seat) {
  if (!core) return;
  follow = core.follow(seat);
  const url = new URL(window.location.href);
  url.searchParams.set(FOLLOW_PARAM, String(follow));
  window.history.replaceState(null, "", url);
}

$("follow-seat").addEventListener("change", (event) => followSeat(Number(event.target.value)));

function renderWaiting() {
  const seats = room.seats || [];
  const filled = seats.filter((s) => s.player || s.bot).length;
  const seated = filled === seats.length
    ? "Everyone is seated." : `Waiting for players: ${filled} of ${seats.length} seats taken.`;
  $("table-empty").textContent = room.status === "waiting"
    ? `${seated} The table appears when the host starts the match.`
    : me ? "Loading the table…" : "Choose a name at the top of the page to watch this match.";
}

// Chat that arrived live while the history was on its way stays shown after it.
const chatKey = (msg) => `${msg.at}|${msg.from && msg.from.id}|${msg.text}`;

function showChatHistory(messages) {
  const known = new Set(messages.map(chatKey));
  const live = liveChat.filter((msg) => !known.has(chatKey(msg)));
  liveChat = [];
  $("chat-log").replaceChildren();
  [...messages, ...live].forEach(addChat);
}

function receiveChat(msg) {
  liveChat.push(msg);
  if (liveChat.length > 50) liveChat.shift();
  addChat(msg);
}

function addChat(msg) {
  const log = $("chat-log");
  const mine = me && msg.from && msg.from.id === me.id;
  log.append(el("li", { class: "chat-line" + (mine ? " chat-mine" : "") },
    el("time", { class: "chat-time", datetime: msg.at || "" }, formatClock(msg.at)),
    el("span", { class: "chat-from" }, (msg.from && msg.from.name) || "someone"),
    el("span", { class: "chat-text" }, msg.text)));
  while (log.children.length > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function showConnection(state, detail) {
  const box = $("conn");
  box.dataset.state = state;
  $("conn-text").textContent = (CONNECTION_TEXT[state] || (() => state))(detail);
}

// ---------------------------------------------------------------- chat + invite
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  const error = $("chat-error");
  if (!me) { say(error, "Choose a name first."); askForName(); return; }
  if (!text) { say(error, "Type a message first."); return; }
  if (text.length > 500) { say(error, "A message can be at most 500 characters."); return; }
  if (!core || !core.sendChat(text)) { say(error, "Not connected; the message was not sent."); return; }
  say(error, "");
  input.value = "";
});

$("invite-link").value = `${window.location.origin}/rooms/${encodeURIComponent(roomId)}`;
$("invite-copy").addEventListener("click", async () => {
  const input = $("invite-link");
  const note = $("invite-note");
  try {
    await navigator.clipboard.writeText(window.location.href.split("#")[0]);
    note.textContent = "Link copied. Send it to a friend.";
  } catch {
    input.focus();
    input.select();
    note.textContent = document.execCommand && document.execCommand("copy")
      ? "Link copied. Send it to a friend."
      : "Select the link above and copy it.";
  }
});

// ---------------------------------------------------------------- start
async function main() {
  try {
    renderRoom(await get(base));
  } catch (error) {
    say($("room-error"), error.status === 404 ? "This room does not exist (or has been closed)." : error.message);
    showConnection("closed", "no room");
    return;
  }
  $("room-title").textContent = await gameTitle(room.game);
  $("room-rules").href = `/games/${encodeURIComponent(room.game)}`;
  $("room-rules").textContent = `How to play ${$("room-title").textContent}`;
  $("room-rules").hidden = false;
  setTitle(`${$("room-title").textContent} · cardroom`);
  showConnection("idle");
  me = await signedIn();
  if (follow !== null && !(follow < (room.seats || []).length)) follow = null; // not a seat here
  renderRoom(room);
  core = openRoom(roomId, {
    root: $("table"),
    message: $("table-message"),
    follow: follow ?? 0,
    onHello() { liveChat = []; },
    onRoom: renderRoom,
    onState(msg) {
      if (!started) {
        started = true;
        renderFollow();
      }
      $("table-empty").hidden = true;
      noteDeadline(msg);
      if (!msg.played_for_you && toldAbout && !toldAbout.startsWith(`${msg.match_id}:`)) $("away-notice").hidden = true;
    },
    onPlayedForYou: tellPlayedForYou,
    onChat: receiveChat,
    onChatHistory: showChatHistory,
    onStatus: showConnection,
  });
}

main();
