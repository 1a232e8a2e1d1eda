// waiting.js: how many matches wait for the player, on every page: the header's "Your games"
// link shows the count and the document title starts with it (title.js). It comes over the
// player's own socket, /ws/me ({"type":"games","waiting": n} on connect and whenever it may
// have changed), which reconnects with backoff (socket.js); while that socket is not open the
// count is asked of GET /api/me/games once a minute. Every count is also told to the page as a
// "cardroom:games" event on document ({detail: {waiting}}), so a list of games can refresh.

import { get } from "./api.js";
import { signedIn } from "./session.js";
import { ReconnectingSocket, socketUrl } from "./socket.js";
import { setWaiting } from "./title.js";
import { plural } from "./words.js";

const POLL_MS = 60_000;
let polling = null;

function show(count) {
  setWaiting(count);
  const badge = document.getElementById("games-count");
  if (badge) {
    badge.textContent = String(count);
    badge.hidden = count === 0;
    document.getElementById("games-count-words").textContent =
      count ? `: ${plural(count, "match", "matches")} waiting for you` : "";
  }
  document.dispatchEvent(new CustomEvent("cardroom:games", { detail: { waiting: count } }));
}

async function poll() {
  try {
    const { games } = await get("/api/me/games");
    show(games.filter((game) => game.your_turn).length);
  } catch (error) {
    console.warn("GET /api/me/games:", error.message);
  }
}

// Poll once a minute while the socket is not open; stop once it is.
function pollUnlessOpen(state) {
  if (state === "open") {
    clearInterval(polling);
    polling = null;
  } else if (polling === null) {
    polling = setInterval(poll, POLL_MS);
  }
}

signedIn().then(() => {
  new ReconnectingSocket(socketUrl("/ws/me"), {
    onMessage(message) { if (message.type === "games") show(message.waiting); },
    onStatus: pollUnlessOpen,
  });
});
