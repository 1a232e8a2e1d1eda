/*
 * table.js: the client core of a room page. It owns the WebSocket to /ws/rooms/{id} (same
 * origin; ws: or wss: by the page's protocol, reconnecting with backoff and pinging every 20 s,
 * see socket.js), resyncs on every `hello` (sent again after each reconnect, followed by `room`,
 * the latest `state` and `chat_history`), dispatches `room`, `state`, `error`, `chat` and
 * `chat_history` messages, and
 * dynamically imports the game's renderer /static/games/<game>.js, handing it each `state`.
 *
 * Renderer interface (one ES module per game, static/games/<game>.js, and its own stylesheet
 * static/games/<game>.css, linked when the renderer is first loaded):
 *
 *   export function mount(root, ctx) -> { update(stateMsg), destroy() }
 *
 *   root   an empty element the renderer owns and draws the table into.
 *   ctx = {
 *     seat:  int | null    the viewer's seat; null = spectator (same table, no controls).
 *                          This is identity only: "You"/"Your" wording, the "You" tag,
 *                          controls, own clocks and the outcome's "You win!" follow ctx.seat.
 *     perspective: int     the seat the table is oriented around: drawn at the bottom (or
 *                          first), the others in seat order after it, highlighted as the
 *                          followed seat. For a player it is always their own seat (=== seat).
 *                          For a spectator it is the seat they chose to follow (default 0);
 *                          a spectator following a seat still has no controls and is never
 *                          "You": where a player would read "Your hand" they read the followed
 *                          player's name ("Alice's hand"). The state messages stay the
 *                          spectator's public view, so the followed seat's hidden cards stay
 *                          hidden (face down, or counts) exactly as in the plain spectator view.
 *                          The core always sets it; renderers read a missing one (a ctx built
 *                          by hand) as `seat ?? 0`.
 *     names: [string]      the display name of each seat (kept up to date in place; a
 *                          stand-in bot playing for an away player is "Bot for <name>").
 *                          Put names into the DOM with textContent only, never innerHTML.
 *     act(action)          sends {"type":"action","action":action,"seq":<seq of the latest
 *                          state; left out while several seats act at once>,"ref":<n>}.
 *                          Returns a Promise that resolves with the next
 *                          state message, or rejects with an Error whose message is the
 *                          server's sentence when that action is refused (the core shows it
 *                          with explain() too, until the next state arrives or the player
 *                          acts again).
 *     explain(text)        shows a sentence near the table, e.g. why a click is not allowed;
 *                          explain("") clears it.
 *     replay: bool?        true on the match page's replay: a seat's view as it was then, never
 *                          a turn to take ("Your turn") nor a control to plan with.
 *   }
 *   update(stateMsg)       called with every `state` message, whole:
 *                          {"type":"state","match_id","seq","view","to_act","legal","last",
 *                           "over","outcome","deadlines"?}. Each view replaces the previous one
 *                          (no diffs). `legal` is the viewer's own legal actions (empty for
 *                          spectators). `deadlines` (seat -> ISO time) is there while a turn
 *                          timer runs; `outcome.termination` says why a match ended.
 *   destroy()              remove listeners and timers; the core then empties root. Called
 *                          before a new match (rematch), a seat change or a perspective change
 *                          remounts the table (the latest state is then applied again).
 *
 * A renderer module also exports describeMove(msg, previous, words, { actor }?) -> a sentence:
 * the state's `last` move in words ("Ann took 2 cards."), told against the state just before
 * (`previous`, or null), with words = seatWords(ctx) and `actor` the name to give the mover
 * (default words.who(seat): "You" or the seat's name). The table's status line and move log
 * and the match page's replay all use it, so every place says the same sentence.
 *
 * A renderer module also exports describeMove(msg, previous, words, { actor }?) -> a sentence:
 * the state's `last` move in words ("Ann took 2 cards."), told against the state just before
 * (`previous`, or null), with words = seatWords(ctx) and `actor` the name to give the mover
 * (default words.who(seat): "You" or the seat's name). The table's status line and move log
 * and the match page's replay all use it, so every place says the same sentence.
 *
 * What every table shares comes from the core in static/js/table/, so each renderer draws only
 * its own game: seats.js (names, "You", the order around the table from ctx.perspective),
 * clock.js (turn clocks from `deadlines`: a renderer puts clockNode(deadline) where a seat is
 * drawn; this module keeps every clock under `root` ticking, see startClocks), outcome.js (who
 * won, the final scores, and why it ended in words) and movelog.js (the recent `last` moves in
 * words, told by the game's describeMove). Plural and list words are in static/js/words.js.
 *
 * The match page reuses renderers for its replay stepper with a ctx whose act() always rejects
 * and state messages built from GET /api/matches/{id}/replay/{seq}: everything face up is
 * {seat: null, perspective: 0, replay: true}; one seat's view as they saw it is
 * {seat: S, perspective: S, replay: true}.
 */

import { fill, el } from "./dom.js";
import { seatPlayerId, tableName } from "./names.js";
import { ReconnectingSocket, socketUrl } from "./socket.js";
import { startClocks } from "./table/clock.js";
import { pageTitle, setTitle } from "./title.js";

const renderers = new Map();

// The renderer module of a game (cached), with its stylesheet /static/games/<game>.css;
// rejects when the game has no renderer.
export function loadRenderer(game) {
  if (!renderers.has(game)) {
    const id = encodeURIComponent(game);
    if (!document.querySelector(`link[data-game-css="${id}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = `/static/games/${id}.css`;
      link.dataset.gameCss = id;
      document.head.append(link);
    }
    const url = `/static/games/${id}.js`;
    renderers.set(game, import(url).catch((error) => {
      renderers.delete(game);
      throw error;
    }));
  }
  return renderers.get(game);
}

// Shows a sentence in `node` for a while (aria-live there announces it).
export function explainer(node, lifetimeMs = 10_000) {
  let timer = null;
  return (text) => {
    clearTimeout(timer);
    node.textContent = text || "";
    node.hidden = !text;
    if (text) timer = setTimeout(() => { node.hidden = true; node.textContent = ""; }, lifetimeMs);
  };
}

/**
 * Connect to a room. `root` receives the table, `message` the explanations, `follow` the seat
 * a spectator follows at first (0-based; default 0).
 * Callbacks: onHello(you, room), onRoom(room, seat), onChat(msg), onChatHistory(messages)
 * (the room's recent chat, oldest first, after every (re)connect), onStatus(state, detail),
 * onState(stateMsg), onPlayedForYou(moves, stateMsg) (a state telling a returning player what a
 * stand-in bot played for them: [{seq, action}]). Returns { sendChat(text) -> bool, setRoom(room), follow(seat) -> int,
 * close() }; follow() changes the seat a spectator follows (ignored while seated: a player
 * always sees the table from their own seat) and returns the perspective now in use.
 */
export function openRoom(roomId, {
  root, message, follow = 0, onHello, onRoom, onChat, onChatHistory, onStatus, onState, onPlayedForYou,
}) {
  const explain = explainer(message);
  const names = [];
  const pending = new Map(); // ref -> { seq, resolve, reject }
  let room = null;
  let you = { player_id: null, seat: null };
  let seat = null;
  let latest = null;
  let table = null; // { instance, matchId, seat, perspective }
  let nextRef = 1;
  let refused = false; // the message shows the server's refusal, which the next state or act clears
  let followed = validSeat(follow) ? follow : 0; // the seat a spectator follows
  const baseTitle = pageTitle();
  const clocks = startClocks(root); // the turn clocks the renderer draws, kept current

  function validSeat(value) {
    return Number.isInteger(value) && value >= 0 && (!names.length || value < names.length);
  }

  // The seat the table is drawn around: a player's own, else the one the spectator follows.
  const perspective = () => (seat !== null ? seat : validSeat(followed) ? followed : 0);
  const ctx = () => ({ seat, perspective: perspective(), names, act, explain: say });

  // An explanation (the renderer's or the core's); a refusal is one the server sent.
  function say(text, { refusal = false } = {}) {
    refused = refusal && Boolean(text);
    message.classList.toggle("is-refusal", refused);
    explain(text);
  }

  // A refusal answers the move before: once the table changes or the player acts, it is over.
  function clearRefusal() {
    if (refused) say("");
  }

  function act(action) {
    if (!latest) return Promise.reject(new Error("The match has not started yet."));
    say(""); // a refusal or an explanation answered what came before this move
    const ref = nextRef++;
    const seq = latest.seq;
    // `seq` guards a turn against moves the player has not seen yet. In a simultaneous phase
    // the others' commits do not change what this seat may do, so it is left out there.
    const message = latest.to_act.length > 1 ? { type: "action", action, ref }
      : { type: "action", action, seq, ref };
    if (!socket.send(message)) {
      const error = new Error("Not connected to the server; your move was not sent. Reconnecting…");
      say(error.message);
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => pending.set(ref, { seq, resolve, reject }));
  }

  function mySeat(currentRoom) {
    const mine = (currentRoom.seats || []).find(
      (s) => you.player_id !== null && seatPlayerId(s) === you.player_id);
    return mine ? mine.seat : null;
  }

  function setRoom(next) {
    if (!next) return;
    room = next;
    const before = names.join("\n");
    (room.seats || []).forEach((s, i) => { names[s.seat ?? i] = tableName(s, s.seat ?? i); });
    names.length = (room.seats || []).length;
    const renamed = before !== names.join("\n"); // a stand-in took a seat, or gave it back
    const previous = { seat, perspective: perspective() };
    seat = mySeat(room);
    if (table && latest && (renamed || previous.seat !== seat || previous.perspective !== perspective())) showState(latest);
    if (onRoom) onRoom(room, seat);
  }

  function setFollow(next) {
    if (!validSeat(next)) return perspective();
    const before = perspective();
    followed = next;
    if (table && latest && before !== perspective()) showState(latest);
    return perspective();
  }

  function unmount() {
    if (!table) return;
    try { table.instance.destroy(); } catch (error) { console.error(error); }
    table = null;
    root.replaceChildren();
  }

  async function showState(msg) {
    latest = msg;
    clearRefusal(); // before the renderer's update, which may explain the new state itself
    for (const [ref, waiting] of pending) {
      if (msg.seq > waiting.seq) { pending.delete(ref); waiting.resolve(msg); }
    }
    setTitle((msg.legal && msg.legal.length && seat !== null ? "● Your turn · " : "") + baseTitle);
    if (onState) onState(msg);
    if (msg.played_for_you && onPlayedForYou) onPlayedForYou(msg.played_for_you, msg);
    let module;
    try {
      module = await loadRenderer(room.game);
    } catch (error) {
      console.error(error);
      fill(root, el("p", { class: "table-empty" }, `This game (${room.game}) has no table view yet.`));
      return;
    }
    if (latest !== msg) return; // a newer state arrived while the renderer loaded
    if (!table || table.matchId !== msg.match_id || table.seat !== seat || table.perspective !== perspective()) {
      unmount();
      root.replaceChildren();
      table = { instance: module.mount(root, ctx()), matchId: msg.match_id, seat, perspective: perspective() };
      root.dataset.perspective = String(table.perspective);
    }
    table.instance.update(msg);
    clocks.tick();
  }

  function onError(msg) {
    const waiting = msg.ref !== undefined && msg.ref !== null ? pending.get(msg.ref) : null;
    const text = msg.message || "The server refused that.";
    if (waiting) {
      pending.delete(msg.ref);
      waiting.reject(Object.assign(new Error(text), { code: msg.code }));
    }
    say(text, { refusal: true });
  }

  const handlers = {
    hello(msg) {
      you = msg.you || you;
      setRoom(msg.room);
      if (onHello) onHello(you, room);
    },
    room(msg) { setRoom(msg.room); },
    state(msg) { if (room) showState(msg); },
    error: onError,
    chat(msg) { if (onChat) onChat(msg); },
    chat_history(msg) { if (onChatHistory) onChatHistory(msg.messages || []); },
    pong() {},
  };

  const socket = new ReconnectingSocket(socketUrl(`/ws/rooms/${encodeURIComponent(roomId)}`), {
    onMessage(msg) {
      const handler = handlers[msg && msg.type];
      if (handler) handler(msg);
      else console.warn("Unknown message", msg);
    },
    onStatus(state, detail) {
      if (state !== "open") {
        for (const [, waiting] of pending) waiting.reject(new Error("The connection was lost."));
        pending.clear();
      }
      if (onStatus) onStatus(state, detail);
    },
  });

  return {
    sendChat(text) { return socket.send({ type: "chat", text }); },
    // Propose or accept a rematch (accept), or decline one; false when the socket is not open.
    sendRematch(accept) { return socket.send({ type: "rematch", accept }); },
    setRoom,
    follow: setFollow,
    close() { socket.close(); clocks.stop(); unmount(); },
  };
}
