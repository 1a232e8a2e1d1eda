// games.js: the game catalogue from GET /api/games, fetched once per page.

import { get } from "./api.js";

let catalogue = null;

export function loadGames() {
  if (!catalogue) {
    catalogue = get("/api/games").catch((error) => { catalogue = null; throw error; });
  }
  return catalogue;
}

export async function gameTitle(id) {
  try {
    const game = (await loadGames()).find((g) => g.id === id);
    return game ? game.title : id;
  } catch {
    return id;
  }
}
