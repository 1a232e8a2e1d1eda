// playnow.js: "play now against bots" in the lobby. Pick a game, a level and a number of
// opponents; one click asks POST /api/play-now and lands you seated at a started table. Games
// with a solo mode (one seat) get their own one-click button.

import { post } from "./api.js";
import { el, fill, say } from "./dom.js";
import { loadGames } from "./games.js";
import { needName } from "./session.js";

const $ = (id) => document.getElementById(id);

async function play(body) {
  const error = $("play-error");
  if (!(await needName(error, "play"))) return;
  for (const button of document.querySelectorAll("#play-now button")) button.disabled = true;
  say(error, "");
  try {
    const room = await post("/api/play-now", body);
    window.location.assign(`/rooms/${encodeURIComponent(room.id)}`);
  } catch (failure) {
    say(error, failure.message);
    for (const button of document.querySelectorAll("#play-now button")) button.disabled = false;
  }
}

function showOpponents(game) {
  const input = $("play-opponents");
  input.min = Math.max(1, game.min_players - 1);
  input.max = game.max_players - 1;
  const wanted = Number(input.value);
  if (!(wanted >= Number(input.min) && wanted <= Number(input.max))) input.value = input.min;
  input.readOnly = input.min === input.max;
}

export async function setupPlayNow() {
  const select = $("play-game");
  if (!select) return;
  let games;
  try {
    games = await loadGames();
  } catch (error) {
    say($("play-error"), `Could not load the games: ${error.message}`);
    return;
  }
  const multi = games.filter((g) => g.max_players > 1);
  fill(select, multi.map((g) => el("option", { value: g.id }, g.title)));
  const current = () => games.find((g) => g.id === select.value);
  select.addEventListener("change", () => showOpponents(current()));
  showOpponents(current());
  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    play({
      game: select.value,
      level: $("play-level").value,
      opponents: Number.parseInt($("play-opponents").value, 10),
    });
  });
  fill($("solo-buttons"), games.filter((g) => g.min_players === 1).map((g) =>
    el("button", {
      type: "button",
      class: "btn",
      onclick: () => play({ game: g.id, opponents: 0 }),
    }, `${g.title} solo`)));
}
