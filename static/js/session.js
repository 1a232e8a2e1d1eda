// session.js: the signed-in player shown in the header. GET /api/session tells who we are (it
// answers {"player": null} rather than a 401, so a first visit logs no error); without a name the
// header shows the "choose a name" form, which POSTs /api/players {"name"}. The server answers
// with an HttpOnly cookie, so later fetches and the WebSocket are authenticated automatically.
//
//   import { signedIn, currentPlayer } from "./session.js";
//   const me = await signedIn();   // resolves once the visitor has a name (maybe after the form)

import { get, post } from "./api.js";
import { say } from "./dom.js";

let player = null;
let resolveSignedIn;
const ready = new Promise((resolve) => { resolveSignedIn = resolve; });
const known = get("/api/session").then(
  ({ player: me }) => { if (me) setPlayer(me); else showForm(); return me; },
  (error) => { console.warn("GET /api/session:", error.message); showForm(); return null; },
);

export function signedIn() { return ready; }
export function currentPlayer() { return player; }
// Resolves to the player, or null when the visitor has not chosen a name yet.
export function whoAmI() { return known; }

// For an action that needs a name: true when signed in; otherwise explains in `errorNode`,
// brings the name form into view and answers false.
export async function needName(errorNode, what) {
  await known;
  if (player) return true;
  say(errorNode, `Choose a name first (at the top of the page), then ${what}.`);
  askForName();
  return false;
}

// Bring the name form into view and focus it (pages call this when an action needs a name).
export function askForName() {
  const input = document.getElementById("name-input");
  if (!input || player) return;
  showForm();
  input.focus();
}

// The header's account link: "Account" for a signed-in account, else "Sign in".
function showAccountLink(me) {
  const link = document.getElementById("account-link");
  if (!link || !me || !me.username) return;
  link.textContent = "Account";
  link.href = "/account";
}

function setPlayer(me) {
  player = { id: me.id, name: me.name };
  showAccountLink(me);
  const link = document.getElementById("session-link");
  link.textContent = me.name;
  link.href = `/players/${encodeURIComponent(me.id)}`;
  document.getElementById("session-name").hidden = false;
  document.getElementById("name-form").hidden = true;
  document.body.dataset.signedIn = "true";
  resolveSignedIn(player);
}

function showForm() {
  document.getElementById("name-form").hidden = false;
}

function setup() {
  const form = document.getElementById("name-form");
  const input = document.getElementById("name-input");
  const error = document.getElementById("name-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) { say(error, "Please type a name (1 to 32 characters)."); input.focus(); return; }
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const created = await post("/api/players", { name });
      say(error, "");
      setPlayer(created);
    } catch (failure) {
      say(error, failure.message);
      input.focus();
    } finally {
      button.disabled = false;
    }
  });
}

setup();
