// The table page /t/{id}: take a seat or watch, then keep the page in step with the server's states.
import { h, fill, seatName } from "./dom.js";
import { api, TableSocket } from "./net.js";
import { loadSeat, saveSeat, forgetSeat, loadName, loadPrefs, savePrefs, viewerId } from "./storage.js";
import { renderFelt, renderLastTrick, renderCalls, contractLine, lastLabel } from "./tableview.js";
import { renderSheet, renderSummary, sideName } from "./sheet.js";
import { renderBreakdown, renderExchange, TEXT } from "./handend.js";
import { Controls } from "./controls.js";
import { optionsText, lengthText, targetText, computerName } from "./text.js";
import { limitLength } from "./limits.js";
import { t, tn, tIf } from "./i18n.js";
import { cardText } from "./cards.js";
import { HintBox, TEXT as PRACTICE_TEXT } from "./practice.js";
import { tournamentLink } from "./tournament.js";
import { loadProfile, profileSecret } from "./myprofile.js";
import { gameRatingBox } from "./gamerating.js";
import { TurnAlerts, allowNotifications, notificationsSupported } from "./alerts.js";
import { HostBox } from "./host.js";
import { AgainBox } from "./again.js";
import { ChatPanel } from "./chat.js";
import { TurnClock, awayBox, timedOutText } from "./clock.js";

const ERROR_SHOWN_MS = 6000;
const SEATS_REFRESH_MS = 4000;
/** How long a hand's result and last trick stay before the next hand is offered (or "Next hand"). */
const HAND_END_HOLD_MS = 6000;
/** The delay before a play with exactly one legal card is made for the player (when wanted). */
const AUTO_PLAY_MS = 900;

/**
 * The table page. `solo` (the offline app) draws a game the browser's engine plays instead of a
 * server's: {connect(handlers) → a socket like TableSocket, links(state) → the summary's links}.
 */
export function tablePage(root, tableId, solo = null) {
  const page = new TablePage(root, tableId, solo);
  page.start();
  return page;
}

class TablePage {
  constructor(root, tableId, solo = null) {
    this.root = root;
    this.id = tableId;
    this.solo = solo;
    this.state = null;
    this.socket = null;
    this.seatRefresh = null;
    this.errorTimer = null;
    this.sheetLength = null;
    /** The seq of the state last drawn: a redraw of the same turn keeps the bids' sideways scroll. */
    this.drawnSeq = null;
    this.prefs = loadPrefs();
    this.alerts = new TurnAlerts();
    this.handEnd = null;
    this.clock = new TurnClock();
    this.controls = new Controls((action) => this.sendAct(action));
    this.hints = new HintBox(tableId);
    this.host = new HostBox(tableId, (message) => this.showError(message), () => !!this.chat && this.chat.on);
    this.again = new AgainBox(tableId, (message) => this.showError(message));
    // a game the browser plays has nobody to chat with
    this.chat = solo ? null : new ChatPanel((message) => !!this.socket && this.socket.send(message));
    this.build();
  }

  build() {
    const inviteUrl = new URL(`t/${encodeURIComponent(this.id)}`, document.baseURI).href;
    this.el = {
      title: h("h1", { class: "title", text: t("table.title") }),
      subtitle: h("span", { class: "subtitle muted" }),
      conn: h("span", { class: "conn", attrs: { role: "status" } }),
      invite: h("a", { href: inviteUrl, text: inviteUrl, dataset: { testid: "invite" }, class: "invite-link" }),
      error: h("div", { class: "error-toast", dataset: { error: "" }, attrs: { role: "alert" }, hidden: true }),
      notice: h("div", { class: "notice", hidden: true, attrs: { role: "status" } }),
      join: h("section", { class: "join card-panel", hidden: true }),
      summary: h("div", { class: "summary-slot" }),
      felt: h("div", { class: "felt-slot" }),
      hand: h("div", { class: "hand-slot" }),
      panel: h("div", { class: "turn-slot" }),
      side: h("div", { class: "side-boxes" }),
    };
    const copy = h("button", {
      type: "button",
      class: "quiet small-button",
      text: t("table.copy"),
      on: { click: () => copyText(inviteUrl, copy) },
    });
    fill(
      this.root,
      h(
        "header",
        { class: "topbar" },
        h("a", { href: "./", class: "home", text: "♠ Pedro", attrs: { title: t("table.homeTitle") } }),
        h("div", { class: "heading" }, this.el.title, this.el.subtitle),
        this.chat && this.chat.badge,
        this.el.conn,
      ),
      this.solo ? null : h("div", { class: "invite" }, h("span", { class: "muted", text: `${t("table.invite")} ` }), this.el.invite, copy),
      this.el.error,
      this.el.notice,
      this.el.join,
      this.el.summary,
      h("div", { class: "table-layout" }, h("div", { class: "main-col" }, this.el.felt, this.el.panel, this.el.hand), h("aside", { class: "side" }, this.el.side, this.chat && this.chat.el)),
    );
  }

  start() {
    if (this.solo) return this.connect({ type: "join", secret: "", chat: false });
    const mine = loadSeat(this.id);
    if (mine) this.connect({ type: "join", secret: mine.secret, chat: true });
    else if (new URLSearchParams(location.search).has("watch")) this.connect(watchHello());
    else this.showJoin();
  }

  // ---- taking a seat -------------------------------------------------------------------------

  async showJoin(message) {
    this.el.join.hidden = false;
    await this.refreshJoin(message);
    clearInterval(this.seatRefresh);
    // others take seats meanwhile; keep the offer honest
    this.seatRefresh = setInterval(() => this.refreshJoin(), SEATS_REFRESH_MS);
  }

  /** The table's variant, length and whether its game will be rated (the tooltip says why not:
   * the server's reason code, by the rule the game's end applies). */
  showSubtitle(table) {
    const reason = table.practice || table.rated || !table.unrated ? "" : t(`rating.reason.${table.unrated}`, { n: (table.unrated_seat ?? 0) + 1 });
    const rating = table.practice ? PRACTICE_TEXT.badge : table.rated ? t("rating.badge") : t("rating.unratedBadge");
    this.el.subtitle.textContent = `${table.title ? table.name + " · " : ""}${lengthText(table)} · ${rating}`;
    this.el.subtitle.title = reason;
  }

  async refreshJoin(message) {
    let summary;
    try {
      summary = await api(`api/tables/${encodeURIComponent(this.id)}`);
    } catch (err) {
      if (err.status === 404 || err.status === 410) clearInterval(this.seatRefresh);
      fill(this.el.join, h("h2", { text: err.status === 404 ? t("table.noSuch") : t("table.title") }), h("p", { class: "form-error", text: err.message }), h("p", {}, h("a", { href: "./", text: t("page.backToLobby") })));
      return;
    }
    this.el.title.textContent = this.el.title.title = summary.title || summary.name || t("table.title");
    this.showSubtitle(summary);
    document.title = `${summary.title || summary.name} — Pedro`;
    const freeSeats = new Set(summary.free_seats || []);
    const free = summary.seats.filter((s) => freeSeats.has(s.seat));
    // a re-render must not wipe what the player is typing
    const nameInput = this.el.join.querySelector("input[name=name]");
    const profile = loadProfile();
    const typed = profile ? profile.name : nameInput ? nameInput.value : loadName();
    const chosen = this.el.join.querySelector("input[name=seat]:checked");
    const errorText = message ?? (this.el.join.querySelector(".form-error") || {}).textContent ?? "";
    const name = limitLength(h("input", { name: "name", type: "text", value: typed, readOnly: !!profile, attrs: { autocomplete: "nickname", placeholder: t("join.yourName"), required: true } }), "name_chars");
    const seatChoices = free.map((s, i) =>
      h(
        "label",
        { class: "seat-choice" },
        h("input", { type: "radio", name: "seat", value: String(s.seat), checked: chosen ? chosen.value === String(s.seat) : i === 0 }),
        ` ${t("join.seat", { n: s.seat + 1 })}`,
        h("span", { class: "muted", text: summary.partnerships ? partnerNote(summary, s.seat) : "" }),
      ),
    );
    const errorEl = h("p", { class: "form-error", text: errorText, attrs: { role: "alert" } });
    const form = h(
      "form",
      { class: "join-form", on: { submit: (e) => (e.preventDefault(), this.claim(form, errorEl)) } },
      h("label", { class: "field" }, h("span", { text: t("join.yourName") }), name),
      h("fieldset", {}, h("legend", { text: t("join.freeSeats") }), seatChoices),
      h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", text: t("join.take") })),
    );
    const seatsList = h(
      "ul",
      { class: "seat-list" },
      summary.seats.map((s) =>
        h("li", {}, h("strong", { text: `${t("join.seat", { n: s.seat + 1 })}: ` }), seatLabel(s)),
      ),
    );
    const hadFocus = document.activeElement === nameInput;
    fill(
      this.el.join,
      h("h2", { text: summary.finished ? t("join.over") : t("join.title") }),
      h("p", { class: "muted", text: `${summary.name} · ${lengthText(summary)} · ${optionsText(summary.options, ["target"])}` }),
      seatsList,
      summary.finished
        ? h("p", {}, h("a", { class: "button", href: `replay/${encodeURIComponent(this.id)}`, text: t("summary.replay") }))
        : free.length
          ? form
          : h("p", { class: "muted", text: t("join.noFree") }),
      errorEl,
      h("div", { class: "buttons" }, h("button", { type: "button", class: "quiet", text: t("join.watch"), on: { click: () => this.watch() } })),
    );
    if (hadFocus) {
      name.focus();
      name.setSelectionRange(name.value.length, name.value.length);
    }
  }

  async claim(form, errorEl) {
    const name = form.elements.name.value.trim();
    const seatInput = form.querySelector("input[name=seat]:checked");
    if (!name) {
      errorEl.textContent = t("join.needName");
      return;
    }
    if (!seatInput) {
      errorEl.textContent = t("join.needSeat");
      return;
    }
    const seat = Number(seatInput.value);
    form.querySelector("button[type=submit]").disabled = true;
    try {
      const answer = await api(`api/tables/${encodeURIComponent(this.id)}/seats`, { method: "POST", body: { seat, name, profile: profileSecret() } });
      saveSeat(this.id, answer.seat, answer.secret, answer.name || name);
      this.hideJoin();
      this.connect({ type: "join", secret: answer.secret, chat: true });
    } catch (err) {
      form.querySelector("button[type=submit]").disabled = false;
      await this.refreshJoin(err.message);
    }
  }

  watch() {
    this.hideJoin();
    history.replaceState(null, "", `${location.pathname}?watch`);
    this.connect(watchHello());
  }

  hideJoin() {
    clearInterval(this.seatRefresh);
    this.el.join.hidden = true;
  }

  // ---- the live connection ---------------------------------------------------------------------

  connect(hello) {
    this.stopSocket();
    const handlers = {
      hello: () => hello,
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => this.onStatus(status),
    };
    this.socket = this.solo ? this.solo.connect(handlers) : new TableSocket(this.id, handlers);
    this.socket.start();
  }

  onStatus(status) {
    const text = ["connecting", "reconnecting", "restarting"].includes(status) ? t(`conn.${status}`) : "";
    this.el.conn.textContent = text || "";
    this.el.conn.className = `conn ${status}`;
    document.body.dataset.connection = status;
    if (status !== "open") {
      this.controls.unlock();
      this.welcomed = false;
    }
  }

  onMessage(msg) {
    if (msg.type === "welcome") this.welcomed = true;
    else if (msg.type === "state") this.onState(msg);
    else if (msg.type === "error") this.onError(msg);
    else if (msg.type === "chat" || msg.type === "chat_history") {
      if (this.chat) this.chat.onMessage(msg);
      // the host's chat switch shows whether the chat is on
      if (msg.type === "chat_history" && this.host.isHost && this.state) this.render();
    }
    // pong needs nothing
  }

  onError(msg) {
    if (this.chat && this.chat.onError(msg)) return;
    if (msg.code === "replaced") {
      // the seat was opened in another window (the server closes this connection): stand down
      // instead of taking it back, or two windows would keep throwing each other out
      this.stopSocket();
      this.showElsewhere(errorText(msg));
      return;
    }
    if (msg.code === "removed") {
      this.stopSocket();
      this.clearTable();
      fill(this.el.join, h("h2", { text: t("table.title") }), h("p", { class: "form-error", text: errorText(msg) }), h("p", {}, h("a", { href: "./", text: t("page.backToLobby") })));
      this.el.join.hidden = false;
      return;
    }
    if ((msg.code === "auth" || msg.code === "seat_changed") && loadSeat(this.id)) {
      // the stored secret is no good here (e.g. the database was reset): offer the seats again
      forgetSeat(this.id);
      this.stopSocket();
      this.state = null;
      this.clearTable();
      this.showJoin(errorText(msg));
      return;
    }
    if (msg.code === "not_found" || msg.code === "table_broken") {
      this.stopSocket();
      this.clearTable();
      fill(this.el.join, h("h2", { text: msg.code === "not_found" ? t("table.noSuch") : t("table.title") }), h("p", { class: "form-error", text: errorText(msg) }), h("p", {}, h("a", { href: "./", text: t("page.backToLobby") })));
      this.el.join.hidden = false;
      return;
    }
    this.controls.unlock();
    this.showError(errorText(msg));
    if (this.state) this.render();
  }

  /** The page is left without a new load (the offline app's views): nothing of it runs on. */
  stop() {
    this.stopped = true;
    this.stopSocket();
    for (const timer of [this.handEndTimer, this.seatRefresh]) clearInterval(timer);
    for (const timer of [this.autoTimer, this.errorTimer, this.noticeTimer]) clearTimeout(timer);
  }

  stopSocket() {
    if (this.socket) this.socket.stop();
    this.socket = null;
    this.welcomed = false;
  }

  clearTable() {
    clearInterval(this.handEndTimer);
    clearTimeout(this.autoTimer);
    this.handEnd = null;
    for (const key of ["felt", "hand", "panel", "side", "summary"]) fill(this.el[key]);
  }

  showElsewhere(message) {
    const button = h("button", {
      type: "button",
      class: "primary",
      text: t("elsewhere.play"),
      on: {
        click: () => {
          this.el.join.hidden = true;
          this.start();
        },
      },
    });
    this.clearTable();
    fill(this.el.join, h("h2", { text: t("elsewhere.title") }), h("p", { text: message || t("error.replaced") }), h("div", { class: "buttons" }, button));
    this.el.join.hidden = false;
    this.el.conn.textContent = "";
  }

  showError(text) {
    const el = this.el.error;
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => (el.hidden = true), ERROR_SHOWN_MS);
  }

  showNotice(text) {
    const el = this.el.notice;
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => (el.hidden = true), 8000);
  }

  sendAct(action) {
    if (!this.state || !this.socket) return false;
    const sent = this.socket.send({ type: "act", action, seq: this.state.seq });
    if (!sent) this.showError(t("error.notConnected"));
    return sent;
  }

  sendBack() {
    if (this.socket && !this.socket.send({ type: "back" })) this.showError(t("error.notConnected"));
  }

  onState(state) {
    const previous = this.state;
    this.state = state;
    this.clock.update(state);
    const timedOut = timedOutText(state, previous ? previous.seq : null);
    if (timedOut) this.showNotice(timedOut);
    const sheet = state.game.sheet || [];
    const handEnded = previous && this.sheetLength !== null && sheet.length > this.sheetLength;
    this.sheetLength = sheet.length;
    this.holdHandEnd(handEnded, sheet.length - 1);
    this.render();
    this.autoPlay();
  }

  /** Whether the previous hand's result still holds the table (the next hand is not offered yet). */
  holding() {
    return !!this.handEnd && Date.now() < this.handEnd.until;
  }

  /** The hand's result stays, with its last trick, until "Next hand" or HAND_END_HOLD_MS. */
  holdHandEnd(handEnded, index) {
    if (!handEnded) return;
    clearInterval(this.handEndTimer);
    this.handEnd = { index, until: Date.now() + HAND_END_HOLD_MS };
    this.handEndTimer = setInterval(() => {
      if (!this.holding()) this.releaseHandEnd();
      else if (this.state) this.render();
    }, 1000);
  }

  releaseHandEnd() {
    clearInterval(this.handEndTimer);
    this.handEnd = null;
    if (this.state) {
      this.render();
      this.autoPlay();
    }
  }

  /** A play with exactly one legal card is made for the player after a short, visible delay. */
  autoPlay() {
    clearTimeout(this.autoTimer);
    const said = this.autoNote !== null;
    this.autoNote = null;
    const state = this.state;
    const legal = state && state.game.legal;
    const only = legal && legal.kind === "list" && legal.actions.length === 1 ? legal.actions[0] : null;
    if (!state || !this.prefs.autoPlay || this.holding() || state.game.phase !== "play" || !only || !only.action.startsWith("play ")) {
      if (said && state) this.render(); // the note of a play no longer made goes too
      return;
    }
    const seq = state.seq;
    this.autoNote = TEXT.autoPlaying(only.action.split(" ").slice(1).map(cardText).join(" "));
    this.autoTimer = setTimeout(() => {
      this.autoNote = null;
      if (this.state && this.state.seq === seq && this.controls.pendingSeq !== seq) this.controls.act(this.state, only.action);
    }, AUTO_PLAY_MS);
    this.render();
  }

  // ---- drawing -----------------------------------------------------------------------------------

  render() {
    if (this.stopped) return;
    const state = this.state;
    const { table, seats, game } = state;
    const you = state.you;
    const started = state.started !== false;
    const holding = this.holding();
    const holdLastTrick = holding;
    const view = { table, seats, game, you, started, holdLastTrick };
    this.el.title.textContent = this.el.title.title = table.title || table.name;
    this.showSubtitle(table);
    const myTurn = started && !holding && you !== null && you !== undefined && game.turn === you && !!game.legal;
    this.myTurn = myTurn;
    this.alerts.update(myTurn, table.title || table.name, this.prefs);

    fill(this.el.felt, renderFelt(view));
    this.clock.place(this.el.felt, state);
    if (table.closed) {
      fill(this.el.hand, you === null || you === undefined ? null : this.controls.render(state, () => this.render()).hand);
      fill(this.el.panel, h("div", { class: "panel-turn waiting" }, h("p", { class: "prompt", dataset: { testid: "closed" }, text: t("host.closed") })));
    } else if (!started) {
      fill(this.el.panel, waitingForPlayers(state));
      fill(this.el.hand, you === null || you === undefined ? null : this.controls.render(state, () => this.render()).hand);
    } else if (you === null || you === undefined) {
      fill(this.el.hand);
      fill(this.el.panel, spectatorPanel(state));
    } else {
      const { hand, panel } = this.controls.render(state, () => this.render());
      // a long row of bids scrolled sideways stays where the player left it when the same turn is
      // drawn again (a seat connects or leaves meanwhile)
      const scrolled = this.el.panel.querySelector(".bid-row .bids");
      const keep = scrolled && this.drawnSeq === state.seq ? scrolled.scrollLeft : 0;
      fill(this.el.hand, hand);
      fill(this.el.panel, awayBox(state, () => this.sendBack()), holding ? null : panel, this.autoNote ? h("p", { class: "muted auto-note", text: this.autoNote }) : null);
      const bids = this.el.panel.querySelector(".bid-row .bids");
      if (bids && keep) bids.scrollLeft = keep;
    }
    this.drawnSeq = state.seq;
    const over = state.finished || game.phase === "over";
    if (holding && started) {
      const seconds = Math.max(1, Math.ceil((this.handEnd.until - Date.now()) / 1000));
      const sheet = game.sheet || [];
      // the game's last hand has no next one: its result stands beside the game's summary
      const next = over ? {} : { onNext: () => this.releaseHandEnd(), secondsLeft: seconds };
      this.el.panel.prepend(renderBreakdown(table, seats, sheet, this.handEnd.index, next));
    }
    this.el.panel.classList.toggle("my-turn", myTurn);

    const summary = () =>
      this.solo
        ? [renderSummary(table, seats, game, this.id, { links: this.solo.links(state) })]
        : [tournamentLink(this.id), this.again.render(state), renderSummary(table, seats, game, this.id), gameRatingBox(this.id)];
    fill(this.el.summary, over ? summary() : null);
    fill(this.el.side, this.renderSide(view));
    if (this.chat) this.chat.update(state);

    const body = document.body.dataset;
    body.seq = String(state.seq);
    body.phase = game.phase;
    body.turn = myTurn ? "true" : "false";
    body.started = started ? "true" : "false";
  }

  renderSide(view) {
    const { table, seats, game } = view;
    const state = this.state;
    const sides = (table.sides || []).map((_, i) => i);
    const lastTrick = renderLastTrick(view);
    const yourSide = view.you === null || view.you === undefined ? -1 : sides.find((s) => table.sides[s].includes(view.you));
    return [
      this.host.render(state, () => this.render()),
      this.hints.render(state, !!this.myTurn),
      h(
        "section",
        { class: "box scores" },
        h("h3", { text: `${t("side.scores")} · ${targetText(table)}` }),
        h(
          "ul",
          { class: "score-list" },
          sides.map((side) =>
            h(
              "li",
              { class: side === yourSide ? "yours" : "" },
              h("span", { class: "who", text: sideName(table, seats, side) }),
              h("span", { class: "pts", text: String(game.scores[side] ?? 0) }),
            ),
          ),
        ),
        h("p", { class: "muted small", text: t("side.handDealer", { n: game.hand_index + 1, dealer: seatName(seats, game.dealer) }) }),
      ),
      h(
        "section",
        { class: "box contract" },
        h("h3", { text: t("side.thisHand") }),
        contractLine(view) ? h("p", { class: "contract-line", text: contractLine(view) }) : null,
        renderCalls(view),
        renderExchange(view, table.dealer_robs),
        state.last ? h("p", { class: "muted small last-move", text: `${t("side.last")}: ${seatName(seats, state.last.seat)} — ${lastLabel(state.last, game)}${state.timed_out ? ` (${t("clock.timedOut")})` : ""}` }) : null,
      ),
      lastTrick ? h("section", { class: "box" }, lastTrick) : null,
      h("section", { class: "box sheet-box" }, h("h3", { text: t("side.sheet") }), h("div", { class: "sheet-scroll" }, renderSheet(table, seats, game.sheet || [], game.scores))),
      h("section", { class: "box rules muted small" }, h("p", { text: `${table.name}: ${optionsText(table.options)}` }), this.prefsBox()),
    ];
  }

  /** The player's preferences at this table (kept in the browser). */
  prefsBox() {
    if (this.state.you === null || this.state.you === undefined) return null;
    const keep = (change) => {
      this.prefs = { ...this.prefs, ...change };
      savePrefs(this.prefs);
    };
    const autoPlay = prefSwitch("auto-play", !!this.prefs.autoPlay, TEXT.autoPlay, (on) => {
      keep({ autoPlay: on });
      this.autoPlay();
    });
    const sound = prefSwitch("turn-sound", !!this.prefs.turnSound, t("prefs.turnSound"), (on) => {
      keep({ turnSound: on });
      if (on) this.alerts.chime();
    });
    const why = h("span", { class: "muted small", dataset: { testid: "notify-why" } });
    const notify = prefSwitch("turn-notify", !!this.prefs.turnNotify, t("prefs.turnNotify"), async (on, box) => {
      // off until the browser allows them: a refusal leaves the switch off, with the reason
      const allowed = on && (await allowNotifications());
      box.checked = allowed;
      why.textContent = on && !allowed ? t("prefs.notifyBlocked") : "";
      keep({ turnNotify: allowed });
    });
    if (!notificationsSupported()) {
      notify.querySelector("input").disabled = true;
      why.textContent = t("prefs.notifyUnsupported");
    }
    return h("div", {}, autoPlay, sound, notify, why);
  }
}

/** One remembered switch of the table's preferences; ``change(on, box)`` runs when it is flipped. */
function prefSwitch(testid, checked, label, change) {
  const box = h("input", {
    type: "checkbox",
    checked,
    attrs: { role: "switch" },
    dataset: { testid },
    on: { change: () => change(box.checked, box) },
  });
  return h("label", { class: "pref" }, box, ` ${label}`);
}

function spectatorPanel(state) {
  const game = state.game;
  if (state.finished || game.phase === "over") return null;
  const who = game.turn === null || game.turn === undefined ? "" : seatName(state.seats, game.turn);
  return h(
    "div",
    { class: "panel-turn waiting" },
    h("p", { class: "prompt" }, t("watch.watching"), who ? [" ", ...waitingWords(who)] : null),
  );
}

/** A spectator's hello: this browser's id (by which the host may remove it) and the player's name. */
function watchHello() {
  return { type: "watch", viewer: viewerId(), name: loadName() || undefined, chat: true };
}

/** Before the first deal is played: who is still missing, and how to bring them. */
function waitingForPlayers(state) {
  const free = state.seats.filter((s) => s.kind === "human" && !s.claimed);
  const pending = state.seats.filter((s) => s.pending).map((s) => s.name);
  return h(
    "div",
    { class: "panel-turn waiting" },
    free.length || !pending.length ? h("p", { class: "prompt", text: tn("start.waiting", free.length) }) : null,
    pending.length ? h("p", { class: "prompt", text: t("start.pending", { names: pending.join(", ") }) }) : null,
    free.length ? h("p", { class: "muted small", text: t("start.invite") }) : null,
  );
}

/** A seat in the list of seats: "Bo (computer)", the player's name, "taken" or "free". */
function seatLabel(s) {
  // the name every page gives a computer ("2 · Aloittelija"), not the server's English one
  if (s.kind === "computer") return `${computerName(s.seat, s.player)} (${t("seat.computer")})`;
  return s.claimed ? s.name || t("join.taken") : t("join.free");
}

/** "Waiting for <b>Bo</b>.", the name where the language puts it. */
function waitingWords(who) {
  const [before, after = ""] = t("watch.waitingFor").split("{name}");
  return [before, h("strong", { text: who }), after];
}

/**
 * A refusal from the server in the player's words: its code has a translation ("turn", "stale" ...);
 * the server's English message is the fallback for a code the catalog does not know.
 */
function errorText(msg) {
  return tIf(`error.${msg.code}`) ?? msg.message ?? msg.code;
}

/** " — partner: Bo (computer)" for a seat that plays in a side of several seats, else "". */
function partnerNote(summary, seat) {
  const side = (summary.sides || []).find((members) => members.includes(seat)) || [];
  const partners = side.filter((s) => s !== seat).map((s) => summary.seats[s]).filter(Boolean);
  if (!partners.length) return "";
  return ` — ${tn("join.partners", partners.length, { names: partners.map(seatLabel).join(", ") })}`;
}

async function copyText(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    // clipboard API needs a secure context; fall back to a hidden text field
    const field = h("textarea", { value: text });
    document.body.append(field);
    field.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    field.remove();
  }
  const old = button.textContent;
  button.textContent = ok ? t("table.copied") : t("table.copyFailed");
  setTimeout(() => (button.textContent = old), 1500);
}
