// passkeys.js: WebAuthn in the browser. The server's options arrive as JSON (base64url for
// bytes) and the browser's credential goes back as JSON (PublicKeyCredential.toJSON()'s shape);
// browsers without the JSON helpers get the same conversions done here.
//
//   await addPasskey({password, label});  // POST options, navigator.credentials.create, POST the
//                                         // answer (the password when asked: password_needed)
//   const me = await passkeySignIn();   // {id, name, token}: this device is signed in

import { post } from "./api.js";

export function passkeysWork() {
  return window.isSecureContext && typeof window.PublicKeyCredential === "function";
}

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const withIds = (list) => (list || []).map((item) => ({ ...item, id: fromBase64url(item.id) }));

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) {
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  }
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: withIds(json.excludeCredentials),
  };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: withIds(json.allowCredentials) };
}

function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const answer = credential.response;
  const response = { clientDataJSON: toBase64url(answer.clientDataJSON) };
  if (answer.attestationObject) {
    response.attestationObject = toBase64url(answer.attestationObject);
    response.transports = answer.getTransports ? answer.getTransports() : [];
  } else {
    response.authenticatorData = toBase64url(answer.authenticatorData);
    response.signature = toBase64url(answer.signature);
    response.userHandle = answer.userHandle ? toBase64url(answer.userHandle) : null;
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
  };
}

export async function addPasskey({ password, label } = {}) {
  const options = await post("/api/passkeys/registration/options", password ? { password } : {});
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const answer = { credential: credentialJSON(credential) };
  if (label) answer.label = label;
  return post("/api/passkeys/registration", answer);
}

export async function passkeySignIn() {
  const options = await post("/api/passkeys/authentication/options", {});
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return post("/api/passkeys/authentication", { credential: credentialJSON(credential) });
}

// A failed passkey step, in words (the browser's own errors name no reason a player can use).
export function passkeyTrouble(error) {
  switch (error && error.name) {
    case "NotAllowedError":
      return "The passkey request was cancelled or timed out. Try again when you are ready.";
    case "InvalidStateError":
      return "This device already holds a passkey for your account.";
    case "SecurityError":
      return "Passkeys need this site's own address over a secure connection.";
    case "NotSupportedError":
      return "This browser or device cannot make a passkey.";
    default:
      return error && error.message ? error.message : "The passkey did not work. Please try again.";
  }
}
