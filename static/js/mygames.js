// mygames.js: the player's running matches (GET /api/me/games) as a list: each match's game,
// opponents, whose turn and deadline in words, and a link to its room; those waiting for the
// player first (the server's order) and highlighted. The Your games page and the lobby's panel
// show it, refreshed whenever the header's count comes (waiting.js's "cardroom:games" event).

import { get } from "./api.js";
import { el, fill, say } from "./dom.js";
import { loadGames } from "./games.js";
import { seatName } from "./names.js";
import { signedIn, whoAmI } from "./session.js";
import { listWords, untilWords } from "./words.js";

// Keep `list` showing the player's games, `status` saying why it is empty (`empty`).
export async function showMyGames(list, status, empty) {
  if (!(await whoAmI())) say(status, "Choose a name (at the top of the page) to play.");
  const me = await signedIn();
  const refresh = async () => {
    try {
      const [catalogue, { games }] = await Promise.all([loadGames(), get("/api/me/games")]);
      fill(list, games.map((game) => gameItem(game, catalogue, me)));
      say(status, games.length ? "" : empty);
    } catch (error) {
      say(status, `Could not load your games: ${error.message}`);
    }
  };
  document.addEventListener("cardroom:games", refresh);
  await refresh();
}

function gameItem(game, catalogue, me) {
  const title = (catalogue.find((g) => g.id === game.game) || {}).title || game.game;
  const others = game.seats.filter((seat) => !(seat.player && seat.player.id === me.id));
  const against = listWords(others.map((seat) => seatName(seat)));
  const waitingFor = others
    .filter((seat) => seat.player && (game.waiting_for || []).includes(seat.player.id))
    .map((seat) => seat.player.name);
  const turn = game.your_turn ? "Your turn" : waitingFor.length ? `Waiting for ${listWords(waitingFor)}` : "Waiting";
  const deadline = game.deadline
    ? el("time", { datetime: game.deadline }, `${game.your_turn ? "move" : "due"} ${untilWords(Date.parse(game.deadline) - Date.now())}`)
    : "no time limit";
  const open = game.your_turn ? "Play" : "Open";
  return el("li", { class: "room-item my-game" + (game.your_turn ? " my-game-yours" : ""), dataset: { roomId: game.room_id } },
    el("div", { class: "room-item-main" },
      el("span", { class: "room-item-game" }, title),
      el("span", { class: "room-item-players" }, `against ${against}`),
      el("span", { class: "room-item-meta muted" },
        game.pace === "turn_based" ? "Turn-based · " : "Live · ", turn, " · ", deadline)),
    el("span", { class: `badge ${game.your_turn ? "badge-yours" : "badge-playing"}` }, game.your_turn ? "Your turn" : "Their turn"),
    el("a", {
      class: "btn" + (game.your_turn ? " btn-primary" : ""),
      href: `/rooms/${encodeURIComponent(game.room_id)}`,
      "aria-label": `${open} ${title} against ${against}`,
    }, open),
  );
}
