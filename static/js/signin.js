// signin.js: the sign-in page. A username and password POST /api/session; a passkey goes
// through passkeys.js. Either way the server sets this device's session cookie, and the
// account page opens.

import { post } from "./api.js";
import { say } from "./dom.js";
import { passkeySignIn, passkeyTrouble, passkeysWork } from "./passkeys.js";

const form = document.getElementById("signin-form");
const username = document.getElementById("signin-username");
const password = document.getElementById("signin-password");
const error = document.getElementById("signin-error");
const passkeyButton = document.getElementById("passkey-signin");
const passkeyError = document.getElementById("passkey-error");

function signedIn() {
  window.location.assign("/account");
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!username.value.trim()) { say(error, "Please type your username."); username.focus(); return; }
  if (!password.value) { say(error, "Please type your password."); password.focus(); return; }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await post("/api/session", { username: username.value.trim(), password: password.value });
    signedIn();
  } catch (failure) {
    say(error, failure.message);
    password.select();
    password.focus();
  } finally {
    button.disabled = false;
  }
});

if (!passkeysWork()) {
  passkeyButton.disabled = true;
  say(passkeyError, "This browser cannot use passkeys here: sign in with your password.");
}

passkeyButton.addEventListener("click", async () => {
  passkeyButton.disabled = true;
  say(passkeyError, "");
  try {
    await passkeySignIn();
    signedIn();
  } catch (failure) {
    say(passkeyError, passkeyTrouble(failure));
  } finally {
    passkeyButton.disabled = false;
  }
});
