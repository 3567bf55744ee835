// The table's chat: the lines the server sends (chat_history, chat), quick phrases and emotes, a text
// box as long as the server allows, and muting. Players talk on the "table" channel; spectators on
// "spectators", which the players read only before and after the game (docs/server.md, "Chat").
// Every text is put in as text (h's `text`), never as markup. Muting is this browser's own: the
// muted people's lines are hidden here only (storage.js keeps them). On a phone the chat folds
// away under the table, and a badge in the top bar counts the lines not read yet.
import { h, fill, seatName } from "./dom.js";
import { t, tn } from "./i18n.js";
import { serverLimits } from "./limits.js";
import { loadName, saveName, loadMuted, saveMuted } from "./storage.js";

/** The quick phrases, each shown in the reader's language (`chat.phrase.<code>`). */
export const PHRASES = ["gg", "wp", "sorry", "thinking", "gl", "thanks"];
/** The emotes, the same emoji in every language (`chat.emote.<code>` names them for screen readers). */
export const EMOTES = { smile: "🙂", laugh: "😂", wow: "😮", sad: "😢", thumbs_up: "👍", clap: "👏" };
/** The refusals of a chat line: shown in the chat, the line kept in the box to send again. */
const CHAT_CODES = new Set(["chat_off", "chat_rate", "chat_name"]);
/** Refusals that may answer a chat line as well as anything else (while one was just sent). */
const MAYBE_CHAT = new Set(["bad_message", "rate", "too_big", "restarting", "unavailable"]);
const PENDING_MS = 5000;
const PHONE = "(max-width: 699px)";

/** Who said a line, as muting knows them: a seat's player or a spectator, by name. */
function speaker(line) {
  return `${line.seat === null || line.seat === undefined ? "s" : "p"}:${line.name}`;
}

export class ChatPanel {
  /** `send(message)`: sends on the table's socket, false when it is not open. */
  constructor(send) {
    this.send = send;
    this.lines = new Map();
    this.on = false;
    this.seats = [];
    this.you = null;
    this.inHand = false;
    this.unread = 0;
    this.pending = null;
    this.muted = new Map(loadMuted().map((m) => [m.key, m.name]));
    this.open = !window.matchMedia(PHONE).matches;
    this.build();
  }

  build() {
    this.count = h("span", { class: "chat-count muted small", dataset: { testid: "chat-count" } });
    this.input = h("input", {
      type: "text",
      name: "chat",
      attrs: { autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder"), enterkeyhint: "send" },
      dataset: { testid: "chat-input" },
      on: { input: () => this.showCount() },
    });
    serverLimits().then((limits) => {
      if (Number.isInteger(limits.chat_chars)) this.input.maxLength = limits.chat_chars;
      this.showCount();
    });
    this.form = h(
      "form",
      { class: "chat-form", on: { submit: (e) => (e.preventDefault(), this.sendText()) } },
      this.input,
      this.count,
      h("button", { type: "submit", class: "small-button", text: t("chat.send"), dataset: { testid: "chat-send" } }),
    );
    this.nameInput = h("input", { type: "text", name: "chat-name", attrs: { autocomplete: "nickname", required: true }, dataset: { testid: "chat-name" } });
    this.nameForm = h(
      "form",
      { class: "chat-form chat-name-form", on: { submit: (e) => (e.preventDefault(), this.takeName()) } },
      h("label", {}, h("span", { class: "muted small", text: t("chat.nameLabel") }), " ", this.nameInput),
      h("button", { type: "submit", class: "small-button", text: t("chat.nameSave"), dataset: { testid: "chat-name-save" } }),
    );
    const phrases = h(
      "div",
      { class: "chat-phrases", attrs: { role: "group", "aria-label": t("chat.phrases") } },
      PHRASES.map((code) => h("button", { type: "button", class: "small-button quiet", text: t(`chat.phrase.${code}`), dataset: { phrase: code }, on: { click: () => this.sendPhrase(code) } })),
      Object.entries(EMOTES).map(([code, emoji]) =>
        h("button", { type: "button", class: "small-button quiet emote", text: emoji, dataset: { phrase: code }, attrs: { "aria-label": t(`chat.emote.${code}`), title: t(`chat.emote.${code}`) }, on: { click: () => this.sendPhrase(code) } }),
      ),
    );
    this.log = h("ol", { class: "chat-log", dataset: { testid: "chat-log" }, attrs: { "aria-live": "polite" } });
    this.note = h("p", { class: "muted small chat-note" });
    this.error = h("p", { class: "form-error chat-error", dataset: { testid: "chat-error" }, attrs: { role: "alert" } });
    this.mutedBox = h("details", { class: "chat-muted small", dataset: { testid: "chat-muted" } });
    this.unreadEl = h("span", { class: "chat-unread", dataset: { testid: "chat-unread" } });
    this.toggle = h(
      "button",
      { type: "button", class: "chat-toggle", dataset: { testid: "chat-toggle" }, on: { click: () => this.setOpen(!this.open) } },
      h("span", { text: `💬 ${t("chat.title")}` }),
      " ",
      this.unreadEl,
    );
    this.body = h("div", { class: "chat-body" }, this.log, this.note, phrases, this.form, this.nameForm, this.error, this.mutedBox);
    this.el = h("section", { class: "box chat", dataset: { testid: "chat" }, hidden: true }, this.toggle, this.body);
    // the top bar's count of lines not read yet, for a phone whose chat is folded away below
    this.badge = h("button", {
      type: "button",
      class: "chat-badge",
      dataset: { testid: "chat-badge" },
      hidden: true,
      on: {
        click: () => {
          this.setOpen(true);
          this.el.scrollIntoView({ block: "nearest" });
        },
      },
    });
    this.setOpen(this.open);
  }

  setOpen(open) {
    this.open = open;
    this.body.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) this.unread = 0;
    this.showUnread();
    if (open) this.scrollDown();
  }

  showUnread() {
    const n = this.open ? 0 : this.unread;
    this.unreadEl.textContent = n ? String(n) : "";
    this.unreadEl.title = n ? tn("chat.unread", n) : "";
    this.badge.textContent = `💬 ${n}`;
    this.badge.title = n ? tn("chat.unread", n) : "";
    this.badge.setAttribute("aria-label", n ? tn("chat.unread", n) : t("chat.title"));
    this.badge.hidden = !n || !this.on;
  }

  showCount() {
    const max = this.input.maxLength > 0 ? this.input.maxLength : null;
    this.count.textContent = max ? `${this.input.value.length}/${max}` : "";
  }

  /** At every state: the names the table shows, whose lines are "yours", and the channel's note. */
  update(state) {
    this.seats = state.seats;
    this.you = state.you ?? null;
    this.inHand = state.started !== false && !state.finished && state.game.phase !== "over";
    this.render();
  }

  /** A chat_history or chat message. */
  onMessage(msg) {
    if (msg.type === "chat_history") {
      this.on = msg.on;
      this.lines = new Map(msg.lines.map((line) => [line.seq, line]));
    } else if (msg.type === "chat") {
      if (this.lines.has(msg.seq)) return;
      this.lines.set(msg.seq, msg);
      if (this.isMine(msg)) {
        if (this.pending !== null) this.pending = null;
      } else if (!this.muted.has(speaker(msg)) && !this.open) {
        this.unread += 1;
      }
    }
    this.render();
  }

  /** A refusal from the server: true when it is about a chat line (shown here, the line kept). */
  onError(msg) {
    const sentLately = this.pending && Date.now() - this.pending.at < PENDING_MS;
    if (!CHAT_CODES.has(msg.code) && !(sentLately && MAYBE_CHAT.has(msg.code))) return false;
    const text = msg.code === "bad_message" ? t("chat.refused") : t(`error.${msg.code}`);
    this.showError(text);
    // nothing is lost: the refused text goes back into the box to send again
    if (this.pending && this.pending.text && !this.input.value) {
      this.input.value = this.pending.text;
      this.showCount();
    }
    this.pending = null;
    return true;
  }

  showError(text) {
    this.error.textContent = text;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => (this.error.textContent = ""), 8000);
  }

  isMine(line) {
    if (this.you !== null) return line.seat === this.you;
    return (line.seat === null || line.seat === undefined) && line.name === loadName();
  }

  spectatorName() {
    return this.you === null ? loadName() : "";
  }

  sendLine(fields, text) {
    const name = this.spectatorName();
    const message = { type: "chat", ...fields, ...(this.you === null && name ? { name } : {}) };
    if (!this.send(message)) {
      this.showError(t("error.notConnected"));
      return false;
    }
    this.error.textContent = "";
    this.pending = { text, at: Date.now() };
    return true;
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.sendLine({ text }, text)) {
      this.input.value = "";
      this.showCount();
    }
  }

  sendPhrase(code) {
    this.sendLine({ phrase: code }, "");
  }

  takeName() {
    const name = this.nameInput.value.trim();
    if (!name) return;
    saveName(name);
    this.render();
    this.input.focus();
  }

  mute(line) {
    this.muted.set(speaker(line), line.name);
    this.saveMuted();
  }

  unmute(key) {
    this.muted.delete(key);
    this.saveMuted();
  }

  saveMuted() {
    saveMuted([...this.muted].map(([key, name]) => ({ key, name })));
    this.render();
  }

  /** A line's words: free text as it is, a phrase in this reader's language, an emote as its emoji. */
  said(line) {
    if (line.text !== null && line.text !== undefined) return line.text;
    return EMOTES[line.phrase] ?? t(`chat.phrase.${line.phrase}`);
  }

  render() {
    this.el.hidden = !this.on;
    const needName = this.you === null && !loadName();
    this.form.hidden = needName;
    this.nameForm.hidden = !needName;
    this.note.textContent = !this.inHand ? "" : this.you === null ? t("chat.spectatorsHidden") : t("chat.playersHidden");
    const shown = [...this.lines.values()].sort((a, b) => a.seq - b.seq).filter((line) => !this.muted.has(speaker(line)));
    fill(this.log, shown.length ? shown.map((line) => this.renderLine(line)) : h("li", { class: "muted small", text: t("chat.empty") }));
    this.renderMuted();
    this.showUnread();
    this.scrollDown();
  }

  renderLine(line) {
    const spectator = line.seat === null || line.seat === undefined;
    const name = spectator ? line.name : seatName(this.seats, line.seat);
    const mine = this.isMine(line);
    const at = new Date(line.at);
    return h(
      "li",
      { class: `chat-line ${spectator ? "from-spectator" : ""} ${mine ? "mine" : ""}`, dataset: { chatSeq: String(line.seq) }, attrs: { title: Number.isNaN(at.getTime()) ? null : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) } },
      mine
        ? null
        : h("button", {
            type: "button",
            class: "chat-mute quiet",
            text: "🔇",
            dataset: { testid: "chat-mute" },
            attrs: { "aria-label": t("chat.mute", { name }), title: t("chat.mute", { name }) },
            on: { click: () => this.mute(line) },
          }),
      h("span", { class: "who", text: name, attrs: { title: name } }),
      spectator ? h("span", { class: "muted small", text: ` (${t("chat.spectator")})` }) : null,
      h("span", { class: "said", text: `: ${this.said(line)}` }),
    );
  }

  renderMuted() {
    const muted = [...this.muted];
    this.mutedBox.hidden = !muted.length;
    fill(
      this.mutedBox,
      h("summary", { text: t("chat.muted", { n: muted.length }) }),
      h(
        "ul",
        {},
        muted.map(([key, name]) =>
          h("li", {}, h("span", { text: `${name} ` }), h("button", { type: "button", class: "small-button quiet", text: t("chat.unmute"), dataset: { testid: "chat-unmute" }, on: { click: () => this.unmute(key) } })),
        ),
      ),
    );
  }

  scrollDown() {
    if (!this.body.hidden) this.log.scrollTop = this.log.scrollHeight;
  }
}
