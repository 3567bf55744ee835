// Turn clocks (docs/server.md, "Turn clocks"): the create form's choice, the bar that runs down at the seat to act, and the player's notes (time ran out, away).
// The server sends the seconds left when it sends a state (`clock_left`); the page counts down from
// the moment it got it, on its own clock, so a client whose clock is off still shows the right time.
// (The table's clock in words, for the lobby and the table's subtitle, is text.js's clockText.)
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { serverLimits } from "./limits.js";

const seconds = (s) => String(Math.round(s * 10) / 10);

/** The create form's clock: off by default, else one of the server's lengths (GET /api/limits). */
export function clockField() {
  const select = h("select", { name: "clock", dataset: { testid: "clock-select" }, attrs: { "aria-describedby": "clock-help" } }, h("option", { value: "", text: t("clock.off") }));
  serverLimits().then((limits) => {
    for (const s of limits.clocks || []) select.append(h("option", { value: String(s), text: t("clock.choice", { s: seconds(s) }) }));
  });
  const field = h(
    "div",
    { class: "clock-field" },
    h("label", { class: "field" }, h("span", { text: t("clock.label") }), select),
    h("p", { class: "muted small", text: t("clock.help"), attrs: { id: "clock-help" } }),
  );
  return { field, read: () => (select.value === "" ? null : Number(select.value)) };
}

/** The clock of the decision to make, as the page last heard of it. */
export class TurnClock {
  constructor() {
    this.until = null;
    this.length = null;
  }

  /** A state arrived: its deadline, on this page's clock. */
  update(state) {
    const left = state.clock_left;
    this.until = left === null || left === undefined ? null : Date.now() + left * 1000;
    this.length = state.table.clock || null;
  }

  /** Put the bar that runs down at the seat to act (`felt`: the drawn felt; drawn anew each time). */
  place(felt, state) {
    if (this.until === null || !this.length) return;
    const seat = felt.querySelector(`.seat[data-seat="${state.game.turn}"]`);
    if (!seat) return;
    const left = Math.max(0, (this.until - Date.now()) / 1000);
    const fill = h("span", { class: "turn-clock-fill" });
    // one CSS animation over the clock's length; a decision that waits for a hand's result starts
    // it later (a positive delay), one under way joins it part-way (a negative one)
    fill.style.animationDuration = `${this.length}s`;
    fill.style.animationDelay = `${left - this.length}s`;
    seat.append(
      h("div", { class: "turn-clock", dataset: { testid: "turn-clock" }, attrs: { role: "timer", title: t("clock.left", { s: Math.ceil(left) }) } }, fill),
    );
  }
}

/** The note of a decision the clock's running out made, for the seat whose it was ("" if none). */
export function timedOutText(state, previousSeq) {
  if (!state.timed_out || !state.last || state.seq === previousSeq) return "";
  return state.last.seat === state.you ? t("clock.timedOutYou") : "";
}

/** The player its clock counted as away is told so, with a button to come back (else null). */
export function awayBox(state, back) {
  const you = state.you;
  if (you === null || you === undefined || state.finished || !state.table.clock) return null;
  const seat = state.seats[you];
  if (!seat || !seat.stand_in) return null;
  return h(
    "div",
    { class: "clock-away", dataset: { testid: "clock-away" }, attrs: { role: "status" } },
    h("p", { text: t("clock.away") }),
    h("button", { type: "button", class: "primary", text: t("clock.back"), dataset: { testid: "im-back" }, on: { click: back } }),
  );
}
