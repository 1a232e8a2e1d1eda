// matches.js: the history page, filterable by game.

import { el } from "./dom.js";
import { loadGames } from "./games.js";
import { matchList } from "./matchlist.js";

const $ = (id) => document.getElementById(id);
const filter = $("game-filter");
const wanted = new URLSearchParams(window.location.search).get("game") || "";

const list = matchList({
  list: $("match-list"), status: $("history-status"), more: $("history-more"),
  params: { game: wanted },
});

loadGames().then((games) => {
  filter.append(...games.map((g) => el("option", { value: g.id }, g.title)));
  filter.value = wanted;
}).catch(() => {});

filter.addEventListener("change", () => {
  const url = new URL(window.location.href);
  if (filter.value) url.searchParams.set("game", filter.value);
  else url.searchParams.delete("game");
  window.history.replaceState(null, "", url);
  list.reload({ game: filter.value });
});
