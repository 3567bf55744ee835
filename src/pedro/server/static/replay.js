// The replay viewer /replay/{id}: every frame of a finished game, all hands open, stepped through
// by action, by trick or by hand.
import { h, fill, seatName } from "./dom.js";
import { api } from "./net.js";
import { renderFelt, renderLastTrick, renderCalls, contractLine, lastLabel } from "./tableview.js";
import { renderSheet, renderSummary, sideName } from "./sheet.js";
import { optionsText, lengthText } from "./text.js";
import { expandFrames } from "./replayframes.js";
import { renderBreakdown, renderExchange } from "./handend.js";
import { t } from "./i18n.js";
import { loadSeat } from "./storage.js";
import { mountReview, TEXT as REVIEW_TEXT } from "./review.js";

/** The replay of a served table; `load` (the offline app) gives the same answer from elsewhere,
 * and then there is no review (a review is the server's). */
export async function replayPage(root, tableId, load = null) {
  document.title = `${t("replay.title")} — Pedro`;
  const body = h("div", { class: "replay" }, h("p", { class: "muted", text: t("replay.loading") }));
  fill(
    root,
    h(
      "header",
      { class: "topbar" },
      h("a", { href: "./", class: "home", text: "♠ Pedro" }),
      h("div", { class: "heading" }, h("h1", { class: "title", text: t("replay.title") }), h("span", { class: "subtitle muted" })),
    ),
    body,
  );
  let data;
  try {
    data = load ? await load() : await api(`api/tables/${encodeURIComponent(tableId)}/replay`);
  } catch (err) {
    const why = err.status === 409 ? t("replay.unfinished") : err.message;
    fill(
      body,
      h("section", { class: "box" }, h("p", { class: "form-error", text: why }), err.status === 409 ? h("p", { class: "muted small", text: err.message }) : null, h("p", { class: "buttons" }, err.status === 409 ? h("a", { class: "button", href: `t/${encodeURIComponent(tableId)}`, text: t("replay.toTable") }) : null, h("a", { class: "button quiet", href: "./", text: t("lobby.title") }))),
    );
    return;
  }
  if (!data.frames || !data.frames.length) {
    fill(body, h("p", { class: "form-error", text: t("replay.empty") }));
    return;
  }
  const viewer = new ReplayViewer(root, body, tableId, data);
  viewer.start();
  if (!load) mountReview(viewer, tableId);
}

/** The table description the drawing code needs, from the summary (the record fills gaps). */
function tableOf(summary, record) {
  return {
    id: summary.id,
    title: summary.title,
    name: summary.name || record.variant,
    players: summary.players ?? record.players,
    partnerships: summary.partnerships,
    sides: summary.sides || [],
    target: summary.target ?? null,
    hands: summary.hands ?? null,
    options: summary.options || record.options || {},
    dealer_robs: !!summary.dealer_robs,
  };
}

class ReplayViewer {
  constructor(root, body, tableId, data) {
    this.root = root;
    this.body = body;
    this.id = tableId;
    this.frames = expandFrames(data.frames);
    this.record = data.record || {};
    this.summary = data.table || {};
    this.table = tableOf(this.summary, this.record);
    const names = this.record.names || [];
    // the names people played under: the table's seats, else the record's names
    this.seats = [...Array(this.table.players).keys()].map((s) => {
      const known = (this.summary.seats && this.summary.seats[s]) || {};
      const name = known.name || names[s] || t("join.seat", { n: s + 1 });
      return { seat: s, name, kind: known.kind || "human", player: known.player ?? null, claimed: true, connected: true, stand_in: false };
    });
    // an action that ends a hand shows the next deal already, so number hands by the closing frames
    this.handOf = [];
    // and the last closed hand's tricks, for the previous hand's final trick
    this.closedTricks = [];
    let hand = 0;
    let closed = null;
    for (const f of this.frames) {
      this.handOf.push(hand);
      if (f.closed) {
        hand++;
        closed = f.closed.tricks;
      }
      this.closedTricks.push(closed);
    }
    this.hands = this.frames[this.frames.length - 1].closed ? hand : hand + 1;
    this.i = 0;
    // a review's entry shows its moment as one seat saw it: only that seat's hand open
    this.asSeat = null;
    // "you" is only the seat this browser held at the table, never a seat a spectator jumps to
    const held = loadSeat(tableId);
    this.you = held && Number.isInteger(held.seat) ? held.seat : null;
  }

  /** Jump to frame `i` showing only `seat`'s hand (a review's entry); any other move shows every hand again. */
  showAs(i, seat) {
    this.go(i);
    this.asSeat = seat;
    this.render();
    this.el.felt.scrollIntoView({ block: "nearest" });
  }

  start() {
    const sub = this.root.querySelector(".subtitle");
    const table = this.table;
    this.root.querySelector(".title").textContent = `${t("replay.title")}: ${table.title || table.name}`;
    sub.textContent = `${table.title ? table.name + " · " : ""}${table.target || table.hands ? `${lengthText(table)} · ` : ""}${optionsText(table.options, ["target"])}`;
    this.el = {
      position: h("p", { class: "position", attrs: { "aria-live": "polite" } }),
      last: h("p", { class: "last-action" }),
      felt: h("div", { class: "felt-slot" }),
      side: h("aside", { class: "side" }),
      summary: h("div", {}),
    };
    const btn = (text, title, go, key) => h("button", { type: "button", class: "nav", text, attrs: { title, "aria-label": title }, dataset: { nav: key }, on: { click: () => this.go(go()) } });
    this.buttons = [
      btn(t("replay.first"), t("replay.firstTitle"), () => 0, "first"),
      btn(`⇤ ${t("replay.hand")}`, t("replay.prevHand"), () => this.prevHand(), "prev-hand"),
      btn(`« ${t("replay.trick")}`, t("replay.prevTrick"), () => this.prevTrick(), "prev-trick"),
      btn("‹", t("replay.prevAction"), () => this.i - 1, "prev"),
      btn("›", t("replay.nextAction"), () => this.i + 1, "next"),
      btn(`${t("replay.trick")} »`, t("replay.nextTrick"), () => this.nextTrick(), "next-trick"),
      btn(`${t("replay.hand")} ⇥`, t("replay.nextHand"), () => this.nextHand(), "next-hand"),
      btn(t("replay.last"), t("replay.lastTitle"), () => this.frames.length - 1, "last"),
    ];
    fill(
      this.body,
      h("div", { class: "replay-bar" }, h("div", { class: "nav-buttons" }, this.buttons), this.el.position, this.el.last),
      h("p", { class: "muted small keys", text: t("replay.keys") }),
      this.el.summary,
      h("div", { class: "table-layout" }, h("div", { class: "main-col" }, this.el.felt), this.el.side),
    );
    document.addEventListener("keydown", (e) => this.onKey(e));
    this.render();
  }

  onKey(e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const moves = {
      ArrowLeft: () => (e.shiftKey ? this.prevTrick() : this.i - 1),
      ArrowRight: () => (e.shiftKey ? this.nextTrick() : this.i + 1),
      ArrowUp: () => this.prevHand(),
      ArrowDown: () => this.nextHand(),
      PageUp: () => this.prevHand(),
      PageDown: () => this.nextHand(),
      Home: () => 0,
      End: () => this.frames.length - 1,
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    this.go(move());
  }

  go(i) {
    this.i = Math.max(0, Math.min(this.frames.length - 1, i));
    this.asSeat = null;
    this.render();
  }

  /** A frame that closed a trick: the hand's finished tricks grew, or the action ended the hand. */
  closesTrick(j) {
    if (j <= 0) return false;
    const f = this.frames[j];
    if (f.closed) return f.closed.tricks.length > 0;
    const p = this.frames[j - 1];
    return f.hand_index === p.hand_index && (f.game.tricks || []).length > (p.game.tricks || []).length;
  }

  nextTrick() {
    for (let j = this.i + 1; j < this.frames.length; j++) if (this.closesTrick(j)) return j;
    return this.frames.length - 1;
  }

  prevTrick() {
    for (let j = this.i - 1; j > 0; j--) if (this.closesTrick(j)) return j;
    return 0;
  }

  /** Hands are stepped end to end: the frame that closes a hand shows its result and the next deal. */
  nextHand() {
    for (let j = this.i + 1; j < this.frames.length; j++) if (this.frames[j].closed) return j;
    return this.frames.length - 1;
  }

  prevHand() {
    for (let j = this.i - 1; j > 0; j--) if (this.frames[j].closed) return j;
    return 0;
  }

  render() {
    const f = this.frames[this.i];
    const game = f.game;
    const hand = this.handOf[this.i];
    const inHand = [];
    this.frames.forEach((x, j) => {
      if (this.handOf[j] === hand && x.last) inHand.push(j);
    });
    const action = inHand.filter((j) => j <= this.i).length;
    this.el.position.textContent = t("replay.position", { hand: hand + 1, hands: this.hands, action, actions: inHand.length });
    this.el.last.textContent = f.last ? `${seatName(this.seats, f.last.seat)}: ${lastLabel(f.last, game)}` : t("replay.deal");
    if (this.asSeat !== null) this.el.last.textContent += ` · ${REVIEW_TEXT.jumped(seatName(this.seats, this.asSeat))}`;
    const last = this.i === this.frames.length - 1;
    this.buttons.forEach((b) => {
      const backwards = ["first", "prev-hand", "prev-trick", "prev"].includes(b.dataset.nav);
      b.disabled = backwards ? this.i === 0 : last;
    });
    const as = this.asSeat;
    const open = as === null ? f.hands : f.hands.map((cards, s) => (s === as ? cards : null));
    // replay: a past game, whose turns are nobody's to take now
    const view = { table: this.table, seats: this.seats, game, you: this.you, replay: true, bottom: as ?? 0, open, previousTricks: (game.tricks || []).length ? null : this.closedTricks[this.i] };
    fill(this.el.felt, renderFelt(view));
    const sheet = game.sheet || [];
    // a hand's end shows its breakdown, the last hand's too, above the game's summary
    const over = last && game.phase === "over";
    const breakdown = f.closed && sheet.length ? renderBreakdown(this.table, this.seats, sheet, sheet.length - 1) : null;
    fill(
      this.el.summary,
      breakdown ? h("div", { class: "notice hand-end-notice" }, breakdown, over ? null : h("span", { class: "muted small", text: t("replay.nextDeal") })) : null,
      over ? renderSummary(this.table, this.seats, game, this.id, { replayLink: false }) : null,
    );
    const sides = this.table.sides.map((_, i) => i);
    const lastTrick = renderLastTrick(view);
    fill(
      this.el.side,
      h(
        "section",
        { class: "box scores" },
        h("h3", { text: `${t("side.scores")}${this.table.hands ? ` · ${lengthText(this.table)}` : this.table.target ? ` · ${t("summary.target", { target: this.table.target })}` : ""}` }),
        h("ul", { class: "score-list" }, sides.map((s) => h("li", {}, h("span", { class: "who", text: sideName(this.table, this.seats, s) }), h("span", { class: "pts", text: String(game.scores[s] ?? 0) })))),
        h("p", { class: "muted small", text: t("side.handDealer", { n: game.hand_index + 1, dealer: seatName(this.seats, game.dealer) }) }),
      ),
      h("section", { class: "box contract" }, h("h3", { text: t("side.thisHand") }), contractLine(view) ? h("p", { class: "contract-line", text: contractLine(view) }) : null, renderCalls(view), renderExchange(view, this.table.dealer_robs)),
      lastTrick ? h("section", { class: "box" }, lastTrick) : null,
      h("section", { class: "box sheet-box" }, h("h3", { text: t("side.sheet") }), h("div", { class: "sheet-scroll" }, renderSheet(this.table, this.seats, game.sheet || [], game.scores))),
    );
    document.body.dataset.seq = String(f.seq);
    document.body.dataset.asSeat = this.asSeat === null ? "" : String(this.asSeat);
    document.body.dataset.phase = game.phase;
    document.body.dataset.turn = "false";
  }
}
