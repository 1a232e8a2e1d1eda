// yourgames.js: the Your games page, the player's running matches (mygames.js).

import { showMyGames } from "./mygames.js";

showMyGames(
  document.getElementById("my-games"),
  document.getElementById("my-games-status"),
  "No match of yours is running. Start one in the lobby.",
);
