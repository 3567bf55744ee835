// Play again, under a finished game's result: a player asks for the next game (the first to ask
// sets it up: server/tables/again.py) and goes to it with the same seat; once it is set up, each
// other player is told, and goes too or leaves; a spectator may watch it.
import { h } from "./dom.js";
import { api } from "./net.js";
import { loadSeat, saveSeat, loadHost, saveHost } from "./storage.js";
import { t } from "./i18n.js";

export class AgainBox {
  constructor(tableId, onError) {
    this.id = tableId;
    this.onError = onError;
    /** This player gave up the seat kept at the next game. */
    this.left = false;
  }

  /** The box for a finished game's page; null before the end, at a closed table or a tournament deal. */
  render(state) {
    const table = state.table;
    if (!state.finished || table.closed || table.hands !== null) return null;
    const mine = loadSeat(this.id);
    const seated = state.you !== null && state.you !== undefined && mine;
    if (!seated) {
      if (!table.next) return null;
      return h("section", { class: "box again" }, h("a", { class: "button", href: `t/${encodeURIComponent(table.next)}?watch`, text: t("again.watchNext"), dataset: { testid: "again-watch" } }));
    }
    if (this.left) return h("section", { class: "box again" }, h("p", { class: "muted", text: t("again.left") }));
    const play = h("button", { type: "button", class: "primary", text: t("again.play"), dataset: { testid: "play-again" }, on: { click: () => this.play(mine, play) } });
    const leave = table.next ? h("button", { type: "button", class: "quiet", text: t("again.leave"), dataset: { testid: "again-leave" }, on: { click: () => this.leave(table.next, mine) } }) : null;
    return h(
      "section",
      { class: "box again", dataset: { testid: "again" } },
      h("p", { class: table.next ? "" : "muted small", text: table.next ? t("again.set") : t("again.about") }),
      h("div", { class: "buttons" }, play, leave),
    );
  }

  /** Ask for the next game (or take up the seat kept there) and go to it with the same seat. */
  async play(mine, button) {
    button.disabled = true;
    try {
      const answer = await api(`api/tables/${encodeURIComponent(this.id)}/again`, { method: "POST", body: { secret: mine.secret } });
      saveSeat(answer.table, answer.seat, mine.secret, mine.name);
      // the next table has this one's host
      const host = loadHost(this.id);
      if (host) saveHost(answer.table, host);
      location.assign(new URL(`t/${encodeURIComponent(answer.table)}`, document.baseURI));
    } catch (err) {
      button.disabled = false;
      this.onError(err.message);
    }
  }

  async leave(next, mine) {
    try {
      await api(`api/tables/${encodeURIComponent(next)}/leave`, { method: "POST", body: { secret: mine.secret } });
      this.left = true;
    } catch (err) {
      this.onError(err.message);
    }
  }
}
