// player.js: one player's recent matches (the name comes from the matches' seats).

import { matchList } from "./matchlist.js";
import { seatPlayerId, seatName } from "./names.js";
import { currentPlayer, whoAmI } from "./session.js";

const $ = (id) => document.getElementById(id);
const playerId = Number($("player").dataset.playerId);
let played = 0;
let won = 0;
let named = false;

function showName(name) {
  if (named || !name) return;
  named = true;
  $("player-title").textContent = name;
  document.title = `${name} · cardroom`;
}

whoAmI().then(() => {
  const me = currentPlayer();
  if (me && me.id === playerId) showName(me.name);
});

matchList({
  list: $("match-list"), status: $("history-status"), more: $("history-more"),
  params: { player: playerId }, playerId,
  onPage(matches) {
    for (const match of matches) {
      const seat = (match.seats || []).find((s) => seatPlayerId(s) === playerId);
      if (seat) showName(seatName(seat));
      if (match.status !== "finished" || !seat) continue;
      played += 1;
      if ((match.winners || []).includes(seat.seat)) won += 1;
    }
    $("player-stats").textContent = played
      ? `${won} won of ${played} finished match${played === 1 ? "" : "es"} shown below.`
      : "";
  },
});
