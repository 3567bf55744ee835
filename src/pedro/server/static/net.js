// Talking to the server: JSON over HTTP, and one self-healing WebSocket per table page.
import { t, tIf, tServer } from "./i18n.js";

/** Answers whose meaning the client knows, said in the player's language (else the server's English text). */
const STATUS_TEXTS = { 404: "error.http404", 503: "error.http503" };

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** fetch + JSON both ways; a non-2xx answer becomes an ApiError carrying the server's `error` text. */
export async function api(path, { method = "GET", body } = {}) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, t("error.network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const known = STATUS_TEXTS[response.status];
    const message =
      refusalText(data) ||
      (known ? t(known) : (data && data.error) || t("error.status", { status: response.status, text: response.statusText }));
    throw new ApiError(response.status, message);
  }
  return data;
}

/** A field of a refusal as the page shows it: a list of seats numbered from 1, an English text translated. */
function fieldText(value) {
  if (Array.isArray(value)) return value.length ? value.map((seat) => seat + 1).join(", ") : "–";
  return typeof value === "string" ? tServer(value) : value;
}

/**
 * The server's refusal (`{error, code, fields}`, server/http/errors.py) in the page's language, from its
 * code (`httpError.<code>`); null for a refusal without a code the catalogs know.
 */
export function refusalText(data) {
  if (!data || !data.code) return null;
  const { problems, ...given } = data.fields || {};
  const fields = Object.fromEntries(Object.entries(given).map(([name, value]) => [name, fieldText(value)]));
  if ("seat" in fields && typeof fields.seat === "number") fields.seat += 1;
  if (Array.isArray(problems) && problems.length) fields.why = problems.map(problemText).join("; ");
  return tIf(`httpError.${data.code}`, fields);
}

/** One problem of a request the server could not read (`{field, type, ...limits}`, pydantic's error type). */
function problemText(problem) {
  return tIf(`validation.${problem.type}`, problem) || t("validation.invalid", problem);
}

const PING_EVERY_MS = 20000;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 5000;
/** Close code 1012, "service restart": the server is restarting, perhaps as another process. */
const SERVICE_RESTART = 1012;
/** After a restart every page reconnects at once: each waits a random part of this first. */
const RESTART_SPREAD_MS = 1500;

/**
 * The table's WebSocket. `hello()` returns the first message to send on every (re)connection
 * (join with the secret, or watch), so a dropped connection comes back as the same seat.
 * Callbacks: onMessage(msg), onStatus("connecting"|"open"|"reconnecting"|"restarting"|"closed");
 * "restarting" (the server said it is restarting) lasts until the server takes us back.
 */
export class TableSocket {
  constructor(tableId, { hello, onMessage, onStatus }) {
    this.tableId = tableId;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.retryMs = FIRST_RETRY_MS;
    this.stopped = false;
    this.ws = null;
    this.pingTimer = null;
    this.retryTimer = null;
    this.restarting = false;
  }

  /** ws(s)://…/ws/{table} below the page's base, so a server under a sub-path works too. */
  url() {
    const url = new URL(`ws/${encodeURIComponent(this.tableId)}`, document.baseURI);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  }

  start() {
    this.stopped = false;
    this.onStatus("connecting");
    this.open();
  }

  open() {
    clearTimeout(this.retryTimer);
    const ws = new WebSocket(this.url());
    this.ws = ws;
    let restartAnnounced = false;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      ws.send(JSON.stringify(this.hello()));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      // only a welcome proves the server took us back; until then keep the backoff growing
      if (msg.type === "welcome") {
        this.retryMs = FIRST_RETRY_MS;
        this.restarting = false;
        this.onStatus("open");
      }
      if (msg.type === "restart") {
        // the server is going away and will close this socket with 1012: say so, then reconnect
        restartAnnounced = true;
        this.restarting = true;
        this.onStatus("restarting");
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws || this.stopped) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      let delay = this.retryMs;
      if (event.code === SERVICE_RESTART || restartAnnounced) {
        // every page of the server comes back at once: spread them out (the backoff still grows
        // if the new process is not up yet)
        this.restarting = true;
        delay += Math.random() * RESTART_SPREAD_MS;
      }
      this.onStatus(this.restarting ? "restarting" : "reconnecting");
      this.retryTimer = setTimeout(() => this.open(), delay);
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    });
    // an error is always followed by close, which schedules the retry
  }

  /** Send a message; false when the socket is not open (the caller keeps its UI usable). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Close for good: no reconnection, and no more callbacks. */
  stop() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.onStatus("closed");
  }
}
