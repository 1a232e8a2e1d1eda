// account.js: the account page. A guest is pointed to "create account"; an account changes its
// password (PUT /api/account/password: every other device is signed out; it offers to remove
// the passkeys too), adds passkeys (named, optionally; the password is asked for when this
// device signed in a while ago: password_needed), lists them with their names, when each was
// added and last used, and sees its devices (GET /api/sessions), signing out one, this one or
// all of them. Guests and accounts alike set how they are told of their turn
// (notifications.js).

import { api, del, get } from "./api.js";
import { el, fill, formatTime, say } from "./dom.js";
import { showNotifications } from "./notifications.js";
import { addPasskey, passkeyTrouble, passkeysWork } from "./passkeys.js";
import { whoAmI } from "./session.js";

const status = document.getElementById("account-status");
const sections = document.getElementById("account-sections");

const passwordForm = document.getElementById("password-form");
const current = document.getElementById("password-current");
const fresh = document.getElementById("password-new");
const again = document.getElementById("password-again");
const passwordError = document.getElementById("password-error");
const passwordDone = document.getElementById("password-done");
const passwordPasskeys = document.getElementById("password-passkeys");
const removePasskeys = document.getElementById("password-remove-passkeys");

const passkeyList = document.getElementById("passkey-list");
const passkeyAdd = document.getElementById("passkey-add");
const passkeyError = document.getElementById("passkey-error");
const passkeyDone = document.getElementById("passkey-done");
const passkeyLabel = document.getElementById("passkey-label");
const passkeyPasswordField = document.getElementById("passkey-password-field");
const passkeyPassword = document.getElementById("passkey-password");

const sessionList = document.getElementById("session-list");
const sessionError = document.getElementById("session-error");

function gone() {
  window.location.assign("/signin");
}

async function showPasskeys() {
  const passkeys = await get("/api/passkeys");
  passwordPasskeys.hidden = passkeys.length === 0;
  if (passkeys.length === 0) removePasskeys.checked = false;
  fill(
    passkeyList,
    passkeys.length === 0
      ? el("li", { class: "muted" }, "No passkey yet.")
      : passkeys.map((key, index) =>
          el(
            "li",
            { class: "account-item", dataset: { passkey: key.id } },
            el(
              "span",
              {},
              `${key.label || `Passkey ${index + 1}`}, added ${formatTime(key.created_at)}`,
              el("span", { class: "hint" }, key.last_used_at ? ` · last used ${formatTime(key.last_used_at)}` : " · not used yet"),
            ),
            el("button", {
              type: "button",
              class: "btn btn-small",
              "aria-label": `Remove passkey ${key.label || index + 1}`,
              onclick: () => act(passkeyError, () => del(`/api/passkeys/${key.id}`), showPasskeys),
            }, "Remove"),
          ),
        ),
  );
}

async function showSessions() {
  const sessions = await get("/api/sessions");
  fill(
    sessionList,
    sessions.map((session) =>
      el(
        "li",
        { class: "account-item", dataset: { session: session.id, current: session.current ? "true" : "false" } },
        el(
          "span",
          {},
          session.device,
          session.current ? el("span", { class: "tag tag-you" }, "this device") : null,
          el("span", { class: "hint" }, ` · signed in ${formatTime(session.created_at)}, last seen ${formatTime(session.last_seen_at)}`),
        ),
        el("button", {
          type: "button",
          class: "btn btn-small",
          onclick: () => (session.current ? signOut() : act(sessionError, () => del(`/api/sessions/${session.id}`), showSessions)),
        }, "Sign out"),
      ),
    ),
  );
}

async function act(errorNode, work, then) {
  say(errorNode, "");
  try {
    await work();
    await then();
  } catch (failure) {
    say(errorNode, failure.message);
  }
}

async function signOut() {
  await act(sessionError, () => del("/api/session"), gone);
}

passwordForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  say(passwordDone, "");
  if (!current.value) { say(passwordError, "Please type your current password."); current.focus(); return; }
  if (!fresh.value) { say(passwordError, "Please type a new password."); fresh.focus(); return; }
  if (fresh.value !== again.value) {
    say(passwordError, "The two new passwords differ: type the same password twice.");
    again.focus();
    return;
  }
  const button = passwordForm.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const removing = removePasskeys.checked;
    await api("/api/account/password", {
      method: "PUT",
      body: { current_password: current.value, new_password: fresh.value, remove_passkeys: removing },
    });
    passwordForm.reset();
    say(passwordError, "");
    say(
      passwordDone,
      removing
        ? "Your password is changed and your passkeys are removed. Every other device was signed out."
        : "Your password is changed. Every other device was signed out.",
    );
    await Promise.all([showSessions(), showPasskeys()]);
  } catch (failure) {
    say(passwordError, failure.message);
    (failure.code === "wrong_password" ? current : fresh).focus();
  } finally {
    button.disabled = false;
  }
});

passkeyAdd.addEventListener("click", async () => {
  passkeyAdd.disabled = true;
  say(passkeyError, "");
  say(passkeyDone, "");
  const password = passkeyPasswordField.hidden ? "" : passkeyPassword.value;
  if (!passkeyPasswordField.hidden && !password) {
    say(passkeyError, "Please type your password to add a passkey.");
    passkeyPassword.focus();
    passkeyAdd.disabled = false;
    return;
  }
  try {
    await addPasskey({ password, label: passkeyLabel.value.trim() });
    say(passkeyDone, "Passkey added: you can sign in with it on the sign-in page, no password needed.");
    passkeyLabel.value = "";
    passkeyPassword.value = "";
    passkeyPasswordField.hidden = true;
    await showPasskeys();
  } catch (failure) {
    if (failure.code === "password_needed") {
      passkeyPasswordField.hidden = false;
      passkeyPassword.focus();
    }
    say(passkeyError, passkeyTrouble(failure));
  } finally {
    passkeyAdd.disabled = false;
  }
});

document.getElementById("sign-out").addEventListener("click", signOut);
document.getElementById("sign-out-everywhere").addEventListener("click", () =>
  act(sessionError, () => del("/api/sessions"), gone),
);

async function start() {
  const player = await whoAmI();
  if (!player) {
    fill(status, "You are not signed in. ", el("a", { href: "/signin" }, "Sign in"), " or choose a name at the top to play as a guest.");
    return;
  }
  const me = await get("/api/me");
  await showNotifications({ account: Boolean(me.username) });
  if (!me.username) {
    fill(
      status,
      `You are playing as the guest ${me.name}. `,
      el("a", { href: "/account/new" }, "Create an account"),
      " to keep your games and ratings on every device, or ",
      el("a", { href: "/signin" }, "sign in"),
      " to an account you have.",
    );
    return;
  }
  fill(status, `Signed in as ${me.username} (shown to others as ${me.name}).`);
  document.getElementById("account-username-field").value = me.username;
  sections.hidden = false;
  if (!passkeysWork()) {
    passkeyAdd.disabled = true;
    say(passkeyError, "This browser cannot make passkeys here.");
  }
  await Promise.all([showPasskeys(), showSessions()]);
}

start().catch((failure) => say(status, failure.message));
