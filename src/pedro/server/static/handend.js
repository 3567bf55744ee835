// What the table tells between and around the plays: a finished hand's breakdown (who took High,
// Low, Jack, Game, each Pedro ...), the exchange's public counts ("Bo discarded 6, drew 4"), a
// forced dealer's bid. Shared by the live table and the replay; the words are in TEXT, one place.
import { h, seatName } from "./dom.js";
import { cardText } from "./cards.js";
import { sideName, contractText } from "./sheet.js";
import { t, tIf } from "./i18n.js";

/** The words shown by this module and the table's labels, read when drawn (in the language in use). */
export const TEXT = {
  handOver: (n) => t("handEnd.over", { n }),
  get made() { return t("handEnd.made"); },
  get set() { return t("handEnd.set"); },
  get thrownIn() { return t("handEnd.thrownIn"); },
  get took() { return t("handEnd.took"); },
  get points() { return t("handEnd.points"); },
  get change() { return t("handEnd.change"); },
  get pointsShort() { return t("handEnd.pointsShort"); },
  changeShort: "±",
  get score() { return t("handEnd.score"); },
  nothing: "—",
  get nextHand() { return t("handEnd.nextHand"); },
  nextHandIn: (s) => t("handEnd.nextHandIn", { s }),
  get forced() { return t("handEnd.forced"); },
  get forcedTitle() { return t("handEnd.forcedTitle"); },
  discarded: (n) => t("exchange.discarded", { n }),
  drew: (n) => t("exchange.drew", { n }),
  robbed: (n) => t("exchange.robbed", { n }),
  get exchangeTitle() { return t("exchange.title"); },
  get autoPlay() { return t("prefs.autoPlay"); },
  autoPlaying: (card) => t("prefs.autoPlaying", { card }),
  get rowDiscards() { return t("hand.rowDiscards"); },
  get rowFaceUp() { return t("hand.rowFaceUp"); },
  get rowShown() { return t("hand.rowShown"); },
  get rowSeen() { return t("hand.rowSeen"); },
};

function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

/** "High A♥", "Pedro 5♥ (5)", "card points 7" (the server's English names translated by their key). */
export function tookText(took) {
  const name = tIf(`point.${took.name}`) ?? took.name;
  if (took.card === null || took.card === undefined) return `${name} ${took.points}`;
  return `${name} ${cardText(took.card)}${took.points !== 1 ? ` (${took.points})` : ""}`;
}

/**
 * A finished hand as the score sheet keeps it: the contract made or set, and per side what it
 * took, its points and the score change. `sheet[index]` is the hand; `onNext`, if given, adds a
 * button that moves on (its label counts down while `secondsLeft` is given).
 */
/** A number column's head: its word, and a short form a phone shows instead (the word stays for screen readers). */
function numHead(word, short) {
  return h(
    "th",
    { class: "num", attrs: { scope: "col", title: word } },
    h("span", { class: "long", text: word }),
    h("span", { class: "short", text: short, attrs: { "aria-hidden": "true" } }),
  );
}

export function renderBreakdown(table, seats, sheet, index, { onNext = null, secondsLeft = null } = {}) {
  const row = sheet[index];
  if (!row) return null;
  const before = index > 0 ? sheet[index - 1].score : row.score.map(() => 0);
  const thrown = row.bidder === null || row.bidder === undefined;
  const verdict = thrown ? TEXT.thrownIn : `${contractText(seats, row)} — ${row.made ? TEXT.made : TEXT.set}`;
  const sides = row.score.map((_, i) => i);
  const taken = row.taken || sides.map(() => []);
  const body = sides.map((side) => {
    const change = row.score[side] - before[side];
    return h(
      "tr",
      { dataset: { side: String(side) } },
      h("th", { class: "side", text: sideName(table, seats, side), attrs: { scope: "row", title: sideName(table, seats, side) } }),
      thrown ? null : h("td", { class: "took", text: (taken[side] || []).map(tookText).join(" · ") || TEXT.nothing }),
      thrown ? null : h("td", { class: "num", text: String(row.points[side]) }),
      h("td", { class: `num delta ${change < 0 ? "neg" : ""}`, text: signed(change) }),
      h("td", { class: "num", text: String(row.score[side]) }),
    );
  });
  const head = h(
    "tr",
    {},
    h("th", { class: "side" }),
    thrown ? null : h("th", { text: TEXT.took, attrs: { scope: "col" } }),
    thrown ? null : numHead(TEXT.points, TEXT.pointsShort),
    numHead(TEXT.change, TEXT.changeShort),
    h("th", { class: "num", text: TEXT.score, attrs: { scope: "col" } }),
  );
  const next = onNext
    ? h("button", {
        type: "button",
        class: "primary",
        text: secondsLeft ? TEXT.nextHandIn(secondsLeft) : TEXT.nextHand,
        dataset: { testid: "next-hand" },
        on: { click: onNext },
      })
    : null;
  return h(
    "section",
    { class: `hand-end ${thrown ? "" : row.made ? "made" : "set"}`, dataset: { testid: "hand-end" }, attrs: { "aria-live": "polite" } },
    h("h3", { text: TEXT.handOver(index + 1) }),
    h("p", { class: "verdict", text: verdict }),
    h("table", { class: "breakdown" }, h("thead", {}, head), h("tbody", {}, body)),
    next ? h("div", { class: "buttons" }, next) : null,
  );
}

/** Per seat, the exchange in public counts: "discarded 6, drew 4", or "" when nothing moved. */
export function exchangeWords(game, seat, robs) {
  const out = (game.discarded || [])[seat] || 0;
  const got = (game.drawn || [])[seat] || 0;
  const words = [];
  if (out) words.push(TEXT.discarded(out));
  const robbing = robs && seat === game.dealer;
  // a dealer who took up the pack and is still choosing has not finished: the count comes after
  if (got && !(robbing && game.phase === "exchange" && game.turn === seat)) words.push(robbing ? TEXT.robbed(got) : TEXT.drew(got));
  return words.join(", ");
}

/** The same counts in a few characters, for a phone's seat box: "−6 +4" (the words stay for screen readers). */
export function exchangeShort(game, seat) {
  const out = (game.discarded || [])[seat] || 0;
  const got = (game.drawn || [])[seat] || 0;
  return [out ? `−${out}` : "", got ? `+${got}` : ""].filter(Boolean).join(" ");
}

/** The exchange seat by seat from the dealer's left ("Bo discarded 6, drew 4"), or null before it. */
export function renderExchange(view, robs) {
  const { game, seats } = view;
  const n = view.table.players;
  const lines = [];
  for (let i = 1; i <= n; i++) {
    const seat = (game.dealer + i) % n;
    const words = exchangeWords(game, seat, robs);
    if (words) lines.push(h("li", { dataset: { seat: String(seat) } }, h("span", { class: "who", text: seatName(seats, seat) }), ` ${words}`));
  }
  if (!lines.length) return null;
  return h("div", { class: "exchange-log", dataset: { testid: "exchange" } }, h("h4", { text: TEXT.exchangeTitle }), h("ul", {}, lines));
}
