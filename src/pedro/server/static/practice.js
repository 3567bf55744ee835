// Practice tables: the player may ask for a hint, the expert's value of each legal choice now
// (GET api/tables/{id}/hint with the seat's secret; docs/server.md, "Practice tables"). Such
// tables are unrated and say so. Every user-visible word is in TEXT, one place, through the catalogs (static/i18n).
import { h, fill } from "./dom.js";
import { actionLabel } from "./cards.js";
import { t, tIf, tServer } from "./i18n.js";
import { loadSeat } from "./storage.js";

export const TEXT = {
  get badge() { return t("practice.badge"); },
  get formLabel() { return ` ${t("practice.formLabel")}`; },
  get title() { return t("practice.title"); },
  get about() { return t("practice.about"); },
  get ask() { return t("practice.ask"); },
  get askTitle() { return t("practice.askTitle"); },
  get thinking() { return t("practice.thinking"); },
  get wait() { return t("practice.wait"); },
  get units() { return { score: t("practice.unit.score"), points: t("practice.unit.points") }; },
  get failed() { return t("practice.failed"); },
  get offline() { return t("practice.offline"); },
  /** A hint's error by its code (server/reviews/hints.py MESSAGES), else the server's English. */
  error: (data, status) => (data && data.code && tIf(`practice.error.${data.code}`)) || (data && data.error) || String(status),
};

function fmt(value, unit) {
  const x = (Math.round(value * 100) / 100).toFixed(2);
  return unit === "score" && value > 0 ? `+${x}` : x;
}

/** The hint box of a practice table's side bar: a button on your turn, then the values. */
export class HintBox {
  constructor(tableId) {
    this.tableId = tableId;
    this.answer = null; // {seq, unit, choices, not_valued} for the state it was asked at
    this.asking = null; // the seq being asked about
    this.error = null;
    this.el = h("section", { class: "box hint-box", dataset: { testid: "hint-box" } });
  }

  /** The box for `state`; null unless the table is a practice table and you have a seat. */
  render(state, myTurn) {
    if (!state.table.practice || state.you === null || state.you === undefined) return null;
    const seq = state.seq;
    const answer = this.answer && this.answer.seq === seq ? this.answer : null;
    const button = h("button", {
      type: "button",
      class: "small-button",
      text: TEXT.ask,
      disabled: !myTurn || this.asking === seq,
      attrs: { title: TEXT.askTitle },
      dataset: { testid: "hint" },
      on: { click: () => this.ask(state) },
    });
    fill(
      this.el,
      h("h3", { text: TEXT.title }),
      h("p", { class: "muted small", text: TEXT.about }),
      answer ? this.values(answer) : h("p", { class: "buttons" }, button, myTurn ? null : h("span", { class: "muted small", text: TEXT.wait })),
      this.asking === seq ? h("p", { class: "muted small", text: TEXT.thinking }) : null,
      this.error && this.error.seq === seq ? h("p", { class: "form-error", text: `${TEXT.failed}: ${this.error.message}` }) : null,
    );
    return this.el;
  }

  values(answer) {
    const unit = TEXT.units[answer.unit] || "";
    return h(
      "div",
      { dataset: { testid: "hint-values" } },
      h("p", { class: "muted small", text: unit }),
      h(
        "table",
        { class: "review-choices" },
        h("tbody", {}, answer.choices.map((c, i) => h("tr", { class: i === 0 ? "chosen" : "" }, h("td", { text: actionLabel(c.action, c.label) }), h("td", { class: "num", text: fmt(c.value, answer.unit) })))),
      ),
      answer.not_valued ? h("p", { class: "muted small", text: tServer(answer.not_valued) }) : null,
    );
  }

  async ask(state) {
    const seat = loadSeat(this.tableId);
    const seq = state.seq;
    this.asking = seq;
    this.error = null;
    this.render(state, true);
    try {
      const response = await fetch(`api/tables/${encodeURIComponent(this.tableId)}/hint`, {
        headers: { Accept: "application/json", "X-Pedro-Secret": (seat && seat.secret) || "" },
      });
      const data = await response.json().catch(() => null);
      if (response.ok) this.answer = data;
      else this.error = { seq, message: TEXT.error(data, response.status) };
    } catch {
      this.error = { seq, message: TEXT.offline };
    }
    this.asking = null;
    this.render(state, state.seq === seq);
  }
}
