// Practice tables: the player may ask for a hint, the expert's value of each legal choice now
// (GET api/tables/{id}/hint with the seat's secret; docs/server.md, "Practice tables"). Such
// tables are unrated and say so. Every user-visible word is in TEXT, one place.
import { h, fill } from "./dom.js";
import { loadSeat } from "./storage.js";

export const TEXT = {
  badge: "Practice · unrated",
  formLabel: " Practice table: hints on request (the game is unrated)",
  title: "Hint",
  about: "A practice table: ask for the expert's value of each of your choices. The game is unrated.",
  ask: "Hint",
  askTitle: "The expert's value of each legal choice now",
  thinking: "The expert is thinking…",
  wait: "Hints are for your turn.",
  units: { score: "expected change of your side's score", points: "points your side takes this hand" },
  best: "best",
  failed: "No hint",
  offline: "Cannot reach the server.",
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
        h("tbody", {}, answer.choices.map((c, i) => h("tr", { class: i === 0 ? "chosen" : "" }, h("td", { text: c.label }), h("td", { class: "num", text: fmt(c.value, answer.unit) })))),
      ),
      answer.not_valued ? h("p", { class: "muted small", text: answer.not_valued }) : null,
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
      else this.error = { seq, message: (data && data.error) || String(response.status) };
    } catch {
      this.error = { seq, message: TEXT.offline };
    }
    this.asking = null;
    this.render(state, state.seq === seq);
  }
}
