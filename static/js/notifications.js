// notifications.js: the account page's "When it is your turn" section. Push on this device
// (asks the browser's permission, registers the service worker /sw.js, subscribes with the
// server's key from GET /api/push/key and posts the subscription); for an account, the mail
// address (PUT /api/account/email mails a confirmation link) and how often mail may come
// (PUT /api/account/notifications).

import { api, del, get, post } from "./api.js";
import { say } from "./dom.js";

const section = document.getElementById("notify-section");
const pushBox = document.getElementById("notify-push");
const mailPart = document.getElementById("notify-mail");
const emailForm = document.getElementById("email-form");
const emailAddress = document.getElementById("email-address");
const emailState = document.getElementById("email-state");
const emailChoice = document.getElementById("notify-email");
const error = document.getElementById("notify-error");
const done = document.getElementById("notify-done");

const SUBSCRIPTION_ID = "cardroom.push-subscription";

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function pushWorks() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function subscribeThisDevice() {
  if (!pushWorks()) throw new Error("This browser cannot show notifications from a site.");
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Error("Notifications are blocked for this site: allow them in the browser's site settings.");
  }
  const registration = await navigator.serviceWorker.register("/sw.js");
  const { public_key: key } = await get("/api/push/key");
  const subscription =
    (await registration.pushManager.getSubscription()) ||
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  const { id } = await post("/api/push/subscriptions", subscription.toJSON());
  localStorage.setItem(SUBSCRIPTION_ID, String(id));
}

async function unsubscribeThisDevice() {
  const id = localStorage.getItem(SUBSCRIPTION_ID);
  localStorage.removeItem(SUBSCRIPTION_ID);
  if (id) await del(`/api/push/subscriptions/${id}`).catch(() => null); // gone already
  const registration = pushWorks() ? await navigator.serviceWorker.getRegistration("/sw.js") : null;
  const subscription = registration && (await registration.pushManager.getSubscription());
  if (subscription) await subscription.unsubscribe();
}

function showAddress(settings) {
  emailAddress.value = settings.email_address || "";
  say(
    emailState,
    !settings.email_address
      ? "No address yet."
      : settings.email_verified
        ? "Confirmed."
        : "Not confirmed yet: follow the link in the mail we sent.",
  );
  emailChoice.value = settings.email;
}

async function save(work, message) {
  say(error, "");
  say(done, "");
  try {
    const settings = await work();
    if (settings) {
      if (typeof settings.push === "boolean") pushOn = settings.push;
      showAddress(settings);
    }
    say(done, message);
  } catch (failure) {
    say(error, failure.message);
  }
}

// The account's push setting covers every device of theirs: this device's box only subscribes
// or unsubscribes this device (and turns push on when it subscribes), so neither unchecking it
// nor choosing how often mail comes silences the player's other devices.
let pushOn = false;
const preferences = () => ({ push: pushOn, email: emailChoice.value });

export async function showNotifications({ account }) {
  const settings = await get("/api/account/notifications");
  section.hidden = false;
  pushOn = settings.push;
  pushBox.checked = settings.push && localStorage.getItem(SUBSCRIPTION_ID) !== null;
  mailPart.hidden = !account || !settings.mail_available;
  showAddress(settings);

  pushBox.addEventListener("change", () =>
    save(async () => {
      if (!pushBox.checked) return unsubscribeThisDevice().then(() => null);
      await subscribeThisDevice();
      return api("/api/account/notifications", { method: "PUT", body: { ...preferences(), push: true } });
    }, pushBox.checked ? "This device will tell you when it is your turn." : "No more notifications on this device.").finally(() => {
      if (error.textContent) pushBox.checked = false;
    }),
  );
  emailChoice.addEventListener("change", () =>
    save(() => api("/api/account/notifications", { method: "PUT", body: preferences() }), "Saved."),
  );
  emailForm.addEventListener("submit", (event) => {
    event.preventDefault();
    save(
      () => api("/api/account/email", { method: "PUT", body: { email: emailAddress.value.trim() } }),
      "We sent a confirmation link to that address.",
    );
  });
}
