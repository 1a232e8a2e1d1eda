// claim.js: "create account". A guest (a name chosen at the top) keeps their player, games and
// ratings under a username and a password: POST /api/account.

import { get, post } from "./api.js";
import { say } from "./dom.js";
import { needName, whoAmI } from "./session.js";

const form = document.getElementById("claim-form");
const username = document.getElementById("claim-username");
const password = document.getElementById("claim-password");
const again = document.getElementById("claim-again");
const error = document.getElementById("claim-error");
const done = document.getElementById("claim-done");

function refuse(message, field) {
  say(error, message);
  field.focus();
}

whoAmI().then(async (me) => {
  if (!me) return;
  const account = await get("/api/me");
  if (account.username) {
    form.hidden = true;
    say(done, `You have an account already: ${account.username}.`);
  }
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!(await needName(error, "create your account"))) return;
  if (!username.value.trim()) return refuse("Please choose a username.", username);
  if (!password.value) return refuse("Please choose a password.", password);
  if (password.value !== again.value) {
    return refuse("The two passwords differ: type the same password twice.", again);
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await post("/api/account", { username: username.value.trim(), password: password.value });
    window.location.assign("/account");
  } catch (failure) {
    const field = failure.code === "weak_password" ? password : username;
    refuse(failure.message, field);
  } finally {
    button.disabled = false;
  }
});
