// signin.js: the sign-in page. A username and password POST /api/session; a passkey goes
// through passkeys.js. Either way the server sets this device's session cookie, and the
// account page opens.

import { post } from "./api.js";
import { say } from "./dom.js";
import { passkeySignIn, passkeyTrouble, passkeysWork } from "./passkeys.js";
import { whoAmI } from "./session.js";

const form = document.getElementById("signin-form");
const username = document.getElementById("signin-username");
const password = document.getElementById("signin-password");
const error = document.getElementById("signin-error");
const passkeyButton = document.getElementById("passkey-signin");
const passkeyError = document.getElementById("passkey-error");

// A guest signing in to an account leaves the guest on this device: say so first.
whoAmI().then((me) => {
  const note = document.getElementById("signin-guest");
  if (me && me.username) {
    say(note, `You are signed in as ${me.username}. Signing in again switches this device to that account.`);
  } else if (me) {
    say(note, `You are playing as the guest ${me.name}. Signing in to an account leaves that guest on this device: create an account first to keep it.`);
  }
});

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
