// socket.js: a JSON WebSocket that stays connected. It reconnects with exponential backoff
// (0.5 s doubling to 30 s, with jitter; reset once a connection opens), sends {"type":"ping"}
// every 20 s while open, and reports its state to onStatus(state, detail):
//   "connecting" | "open" | "waiting" (detail = seconds until the next try) | "closed" (detail = reason)
// Used by the client core (table.js); it knows nothing about rooms or games.

const PING_MS = 20_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
// Close codes after which retrying cannot help (policy violation, application "client errors").
const FINAL_CODES = new Set([1008, 4400, 4401, 4403, 4404]);

export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

export class ReconnectingSocket {
  constructor(url, { onMessage, onStatus = () => {} }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.onOnline = () => this.retryNow();
    this.onVisible = () => { if (!document.hidden) this.retryNow(); };
    window.addEventListener("online", this.onOnline);
    document.addEventListener("visibilitychange", this.onVisible);
    this.connect();
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.ws) this.ws.close(1000);
  }

  connect() {
    if (this.stopped) return;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        console.warn("Ignoring a message that is not JSON:", event.data);
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.stopped) return;
      if (FINAL_CODES.has(event.code)) {
        this.stopped = true;
        this.onStatus("closed", event.reason || "The server closed the connection.");
        return;
      }
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.onStatus("waiting", Math.ceil(delay / 1000));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  // Skip the wait when the network comes back or the tab becomes visible again.
  retryNow() {
    if (this.stopped || this.ws) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }
}
