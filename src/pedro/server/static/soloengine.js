// The page's side of the offline app's engine (soloworker.js): calls into the worker's Python, and
// a solo game's "socket" that carries a served table's messages to and from it, so table.js draws
// a solo game as it draws a served one.
import { saveGame } from "./solostore.js";

/** The pause before a computer's move, so a person sees each play (ms; a test may shorten it). */
const PACE_MS = 800;
export const PACE_KEY = "pedro-solo-pace";

let shared = null;

/** The one engine of this page (the worker starts loading at the first call). */
export function engine() {
  if (!shared) shared = new Engine();
  return shared;
}

class Engine {
  constructor() {
    this.worker = new Worker(new URL("./soloworker.js", import.meta.url), { type: "module" });
    this.pending = new Map();
    this.next = 1;
    this.listeners = new Set();
    this.status = { stage: "runtime" };
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === "progress" || msg.type === "ready" || msg.type === "failed") {
          this.status = msg.type === "progress" ? { stage: msg.stage } : msg;
          if (msg.type === "ready") {
            // a User Timing mark: when the engine became ready, for the browser's tools and the benchmark
            performance.mark("pedro-engine-ready");
            resolve(msg);
          }
          if (msg.type === "failed") reject(new Error(msg.error));
          for (const listen of this.listeners) listen(this.status);
          if (msg.type !== "progress") this.listeners.clear();
          return;
        }
        const call = this.pending.get(msg.id);
        if (!call) return;
        this.pending.delete(msg.id);
        if ("error" in msg) call.reject(new Error(msg.error));
        else call.resolve(msg);
      };
      this.worker.onerror = (event) => reject(new Error(event.message || "the engine did not start"));
    });
    this.ready.catch(() => {});
  }

  /** Be told of the loading's progress: listen({stage} | {type: "ready"} | {type: "failed", error}),
   * at once and at each change (a status that is final is told once). */
  onStatus(listen) {
    listen(this.status);
    if (this.status.type !== "ready" && this.status.type !== "failed") this.listeners.add(listen);
  }

  /** The worker's function `name` called with `args`: its answer and the time it took, {result, ms}. */
  timed(name, ...args) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, call: name, args });
    });
  }

  /** The worker's function `name` called with `args`: its answer. */
  async call(name, ...args) {
    return (await this.timed(name, ...args)).result;
  }

  /** As `call`, for a function that answers JSON text: the parsed answer. */
  async json(name, ...args) {
    return JSON.parse(await this.call(name, ...args));
  }
}

function pace() {
  const set = Number(localStorage.getItem(PACE_KEY));
  return Number.isFinite(set) && set >= 0 && localStorage.getItem(PACE_KEY) !== null ? set : PACE_MS;
}

/**
 * A solo game's connection, as table.js uses a TableSocket: `hello()` is the first message,
 * onMessage(msg) gets the table's messages, onStatus("connecting"|"open"|"closed"). The game is
 * opened in the worker from what the page stored (`saved`: {setup, actions}); after each change
 * it is stored again, and the computers are asked for their moves, one at a time, paced.
 */
export class SoloSocket {
  constructor(saved, { hello, onMessage, onStatus }) {
    this.saved = saved;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.stopped = false;
    this.timer = null;
    this.queue = Promise.resolve();
  }

  start() {
    this.onStatus("connecting");
    this.run(async () => {
      const opened = await engine().json("open_game", JSON.stringify(this.saved));
      if (opened.type === "error") {
        this.deliver([opened]);
        return;
      }
      this.onStatus("open");
      await this.exchange(this.hello());
    });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.onStatus("closed");
  }

  /** A client message (act, ping): sent to the worker; true, as a socket that is open says. */
  send(msg) {
    if (this.stopped) return false;
    this.run(() => this.exchange(msg));
    return true;
  }

  /** One step at a time: a person's action never runs beside a computer's. */
  run(step) {
    this.queue = this.queue.then(step).catch((err) => this.deliver([{ type: "error", code: "engine", message: String(err.message || err) }]));
  }

  async exchange(msg) {
    const answer = await engine().json("receive", JSON.stringify(msg));
    await this.changed(answer);
  }

  async changed(messages) {
    if (this.stopped) return;
    this.deliver(messages);
    if (!messages.some((m) => m.type === "state")) return;
    const saved = await engine().json("saved");
    await saveGame(saved);
    if (await engine().call("computer_to_act")) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.run(async () => this.changed(await engine().json("computer_move"))), pace());
    }
  }

  deliver(messages) {
    if (this.stopped) return;
    for (const msg of messages) this.onMessage(msg);
  }
}
