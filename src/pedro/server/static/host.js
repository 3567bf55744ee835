// The host's box at the table page: shown only in the browser that created the table (it holds the
// host secret, storage.js). Before the start: each seat a person's or a computer level; during the
// game: an away player's seat given to the computer, or given back; at any time: who is watching,
// removing one, the table's chat on or off, and closing the table. The server checks every control (server/tables/host.py).
import { h } from "./dom.js";
import { api } from "./net.js";
import { loadHost } from "./storage.js";
import { t } from "./i18n.js";
import { computerName, levelOf, playerLabel } from "./text.js";

/** The levels a seat may be given, as the server names them (players/levels.py LEVELS). */
const LEVELS = ["beginner", "club", "strong", "expert"];

export class HostBox {
  /** ``chatOn()``: whether the table's chat is on, as its last ``chat_history`` said. */
  constructor(tableId, onError, chatOn) {
    this.id = tableId;
    this.secret = loadHost(tableId);
    this.onError = onError;
    this.chatOn = chatOn;
    /** The spectators last asked for (null: not asked). */
    this.spectators = null;
  }

  get isHost() {
    return !!this.secret;
  }

  /** The box for the table as ``state`` shows it; null in any other browser, or once nothing is left to do. */
  render(state, redraw) {
    if (!this.secret || state.table.closed || state.finished) return null;
    this.redraw = redraw;
    const started = state.started !== false;
    return h(
      "section",
      { class: "box host-box", dataset: { testid: "host-box" } },
      h("h3", { text: t("host.title") }),
      h("p", { class: "muted small", text: t("host.about") }),
      started ? this.awaySeats(state) : this.seatChoices(state),
      this.spectatorList(),
      this.chatSwitch(),
      h("div", { class: "buttons" }, h("button", { type: "button", class: "quiet danger", text: t("host.close"), dataset: { testid: "host-close" }, on: { click: () => this.close() } })),
    );
  }

  seatChoices(state) {
    const rows = state.seats.map((seat) => {
      const select = h(
        "select",
        { dataset: { testid: "host-seat", seat: String(seat.seat) }, attrs: { "aria-label": t("join.seat", { n: seat.seat + 1 }) }, on: { change: () => this.setSeat(seat.seat, select.value) } },
        h("option", { value: "human", text: t("host.person") }),
        // a player that is no level (a table made through the API) stays offered as it is
        seat.kind === "computer" && !levelOf(seat.player) ? h("option", { value: seat.player, text: seat.player }) : null,
        LEVELS.map((level) => h("option", { value: level, text: playerLabel(level) })),
      );
      select.value = seat.kind === "human" ? "human" : levelOf(seat.player) || seat.player;
      const who = seat.kind === "computer" ? computerName(seat.seat, seat.player) : seat.claimed ? seat.name : t("join.free");
      return h("li", {}, h("span", { text: `${t("join.seat", { n: seat.seat + 1 })}: ${who} ` }), select);
    });
    return h("div", {}, h("h4", { text: t("host.seatsBefore") }), h("ul", { class: "host-seats" }, rows));
  }

  awaySeats(state) {
    const rows = state.seats
      .filter((seat) => seat.kind === "human" && (seat.handed || seat.stand_in))
      .map((seat) => {
        const give = seat.handed
          ? h("button", { type: "button", class: "small-button", text: t("host.giveBack"), dataset: { testid: "host-give-back", seat: String(seat.seat) }, on: { click: () => this.handOver(seat.seat, false) } })
          : h("button", { type: "button", class: "small-button", text: t("host.handOver"), dataset: { testid: "host-hand-over", seat: String(seat.seat) }, on: { click: () => this.handOver(seat.seat, true) } });
        return h("li", {}, h("span", { text: `${seat.name}${seat.handed ? ` (${t("host.handedNote")})` : ""} ` }), give);
      });
    return h("div", {}, h("h4", { text: t("host.duringGame") }), rows.length ? h("ul", { class: "host-seats" }, rows) : h("p", { class: "muted small", text: t("host.noAway") }));
  }

  spectatorList() {
    const show = h("button", { type: "button", class: "quiet small-button", text: t("host.showSpectators"), dataset: { testid: "host-spectators" }, on: { click: () => this.loadSpectators() } });
    if (this.spectators === null) return h("div", {}, h("h4", { text: t("host.spectators") }), show);
    const rows = this.spectators.map((s) =>
      h(
        "li",
        {},
        h("span", { text: `${s.name || t("host.anonymous")} ` }),
        h("button", { type: "button", class: "small-button", text: t("host.remove"), dataset: { testid: "host-remove" }, on: { click: () => this.remove(s.viewer) } }),
      ),
    );
    return h("div", {}, h("h4", { text: t("host.spectators") }), rows.length ? h("ul", { class: "host-spectators" }, rows) : h("p", { class: "muted small", text: t("host.noSpectators") }), show);
  }

  chatSwitch() {
    const box = h("input", { type: "checkbox", checked: this.chatOn(), attrs: { role: "switch" }, dataset: { testid: "host-chat" }, on: { change: () => this.post("chat", { on: box.checked }) } });
    return h("label", { class: "pref" }, box, ` ${t("host.chat")}`);
  }

  async setSeat(seat, choice) {
    const body = choice === "human" ? { kind: "human" } : { kind: "computer", player: choice };
    await this.post(`seats/${seat}`, body);
  }

  async handOver(seat, computer) {
    await this.post(`hand-over/${seat}`, { computer });
  }

  async loadSpectators() {
    const answer = await this.post("spectators", {});
    if (answer) this.spectators = answer.spectators;
    this.redraw();
  }

  async remove(viewer) {
    const answer = await this.post("remove", { viewer });
    if (answer) this.spectators = answer.spectators;
    this.redraw();
  }

  async close() {
    if (!confirm(t("host.closeConfirm"))) return;
    await this.post("close", {});
  }

  /** One control; the table's next ``state`` shows its effect, a refusal is shown as the page's error. */
  async post(path, body) {
    try {
      return await api(`api/tables/${encodeURIComponent(this.id)}/host/${path}`, { method: "POST", body: { host: this.secret, ...body } });
    } catch (err) {
      this.onError(err.message);
      if (this.redraw) this.redraw();
      return null;
    }
  }
}
