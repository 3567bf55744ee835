// Game review: each decision of one seat valued by the expert as that seat could see it
// (GET api/tables/{id}/review/{seat}, POST api/review for an uploaded record; docs/server.md,
// "Game review"). In the replay viewer each entry jumps to its moment, the hand shown as the
// seat saw it. Every user-visible word is in TEXT, one place, through the
// catalogs (static/i18n); the server's English action labels are translated from their words.
import { h, fill } from "./dom.js";
import { actionLabel, cardFace } from "./cards.js";
import { t, tIf, tn, tServer } from "./i18n.js";
import { loadSeat } from "./storage.js";

export const TEXT = {
  get title() { return t("review.title"); },
  get intro() { return t("review.intro"); },
  seat: (n) => t("review.seat", { n }),
  get start() { return t("review.start"); },
  working: (done, total) => t("review.working", { done, total }),
  queued: (place) => t("review.queued", { place }),
  get failed() { return t("review.failed"); },
  get lost() { return t("review.lost"); },
  get partsHead() { return [t("review.head.hand"), t("review.head.bidding"), t("review.head.exchange"), t("review.head.play")]; },
  get total() { return t("review.total"); },
  get units() { return t("review.units"); },
  get mistakes() { return t("review.mistakes"); },
  get noMistakes() { return t("review.noMistakes"); },
  get allDecisions() { return t("review.allDecisions"); },
  hand: (n) => t("review.hand", { n }),
  against: (action, cost, best) => t("review.against", { action, cost, best }),
  bestWas: (action, best, cost) => t("review.bestWas", { action, best, cost }),
  get choices() { return t("review.choices"); },
  get chosen() { return t("review.chosen"); },
  more: (n) => tn("review.more", n),
  sawHand: (who) => t("review.sawHand", { who }),
  get seatHand() { return t("review.seatHand"); },
  get notValued() { return t("review.notValued"); },
  get notOver() { return t("review.notOver"); },
  jumped: (who) => t("review.jumped", { who }),
  get upload() { return t("review.upload"); },
  get uploadHelp() { return t("review.uploadHelp"); },
  get file() { return t("review.file"); },
  get badFile() { return t("review.badFile"); },
  get pickSeat() { return t("review.pickSeat"); },
  phase: (p) => ({ call: t("review.phase.call"), trump: t("review.phase.trump"), exchange: t("review.phase.exchange"), play: t("review.phase.play") })[p] || p,
  /** The server's English verdict (analysis.Review.verdict) in the language in use; a cost's is never shown alone. */
  verdict: (v) =>
    ({
      best: t("review.verdict.best"),
      "best of those valued": t("review.verdict.bestOfValued"),
      "not valued": t("review.verdict.notValued"),
      "this choice not valued": t("review.verdict.thisNotValued"),
      "only this choice valued": t("review.verdict.onlyThis"),
    })[v] || v,
  get offline() { return t("review.offline"); },
  /** A review endpoint's error by its code (server/reviews/routes.py MESSAGES), else the server's English. */
  error: (data, status) => (data && data.code && tIf(`review.error.${data.code}`, serverFields(data.fields))) || (data && data.error) || `${t("review.failed")} (${status})`,
};

/** An error's fields as the page says them: an English text of the server's (a failure's why)
 * translated, and seats counted from 1 as people count them (the API counts from 0). */
function serverFields(fields) {
  const shown = (name, value) => (typeof value === "string" ? tServer(value) : (name === "seat" || name === "last") && typeof value === "number" ? value + 1 : value);
  return Object.fromEntries(Object.entries(fields || {}).map(([name, value]) => [name, shown(name, value)]));
}

/** How soon the page asks again about a review being made: soon at first, then less often while
 * nothing changes (a review waiting behind others may take minutes). */
const POLL_FIRST_MS = 800;
const POLL_MAX_MS = 8000;
const POLL_GROWTH = 1.5;

/** GET or POST with the seat's secret; resolves {status, data}, throws on a network failure. */
async function ask(path, { body, secret } = {}) {
  const headers = { Accept: "application/json" };
  if (secret) headers["X-Pedro-Secret"] = secret;
  const init = { method: body === undefined ? "GET" : "POST", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { status: response.status, data };
}

/** Ask until the review is made, showing progress in `slot`; the review, or null after an error shown. */
async function fetchReview(slot, path, options) {
  let delay = POLL_FIRST_MS;
  let last = null;
  for (;;) {
    let answer;
    try {
      answer = await ask(path, options);
    } catch {
      fill(slot, h("p", { class: "form-error", text: TEXT.offline }));
      return null;
    }
    const { status, data } = answer;
    if (status === 200) return data;
    if (status !== 202) {
      fill(slot, h("p", { class: "form-error", dataset: { testid: "review-error" }, text: TEXT.error(data, status) }));
      return null;
    }
    if (data.id) {
      // an upload: asked about by its id from now on, not sent again
      path = `api/review/${encodeURIComponent(data.id)}/${data.seat}`;
      options = {};
    }
    const text = data.place > 0 ? TEXT.queued(data.place) : TEXT.working(data.done, data.total);
    fill(
      slot,
      h("p", { class: "muted", dataset: { testid: "review-progress" }, text }),
      h("progress", { max: String(Math.max(1, data.total)), value: String(data.done) }),
    );
    const now = `${data.place}/${data.done}`;
    delay = now === last ? Math.min(POLL_MAX_MS, delay * POLL_GROWTH) : POLL_FIRST_MS;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

const fmt = (x) => (Math.round(x * 100) / 100).toFixed(2);

/** The one line an entry is listed by: "Bid 9: −3.40 against Pass", "Play K♥: best was Play 2♥, +1.80". */
export function entryLine(e) {
  const action = actionLabel(e.words || "", e.action);
  if (e.cost === null || e.cost <= 1e-9 || !e.best) return `${action}: ${TEXT.verdict(e.verdict)}`;
  const best = actionLabel(e.best_words || "", e.best);
  return e.unit === "score" ? TEXT.against(action, fmt(e.cost), best) : TEXT.bestWas(action, best, fmt(e.cost));
}

function partsRow(label, lost) {
  return h("tr", {}, h("th", { text: label }), ["bidding", "exchange", "play"].map((p) => h("td", { class: "num", text: fmt(lost[p] || 0) })));
}

/** The review: totals per part, per hand, the costliest decisions, then every decision by hand. */
export function renderReview(review, { onJump } = {}) {
  const name = review.names[review.seat] || TEXT.seat(review.seat + 1);
  const entryButton = (e) =>
    h(
      "li",
      {},
      h(
        "button",
        { type: "button", class: "link review-entry", dataset: { testid: "review-entry", index: String(e.index) }, on: { click: () => showEntry(detail, e, name, onJump) } },
        h("span", { class: "muted small", text: `${TEXT.hand(e.hand)} · ${TEXT.phase(e.phase)} · ` }),
        h("span", { text: entryLine(e) }),
      ),
    );
  const detail = h("div", { class: "review-detail", dataset: { testid: "review-detail" } });
  const mistakes = review.summary.mistakes;
  return h(
    "div",
    { class: "review-body", dataset: { testid: "review" } },
    review.over ? null : h("p", { class: "notice", text: TEXT.notOver }),
    h("h4", { text: `${TEXT.lost} · ${name}` }),
    h(
      "table",
      { class: "review-parts" },
      h("thead", {}, h("tr", {}, TEXT.partsHead.map((t) => h("th", { text: t })))),
      h("tbody", {}, review.hands.map((hand) => partsRow(TEXT.hand(hand.hand), hand.lost)), partsRow(TEXT.total, review.summary.lost)),
    ),
    h("p", { class: "muted small", text: TEXT.units }),
    h("h4", { text: TEXT.mistakes }),
    mistakes.length ? h("ol", { class: "review-mistakes" }, mistakes.map(entryButton)) : h("p", { class: "muted", text: TEXT.noMistakes }),
    detail,
    h(
      "details",
      { class: "review-all" },
      h("summary", { text: TEXT.allDecisions }),
      review.hands.map((hand) => h("div", {}, h("h5", { text: TEXT.hand(hand.hand) }), h("ul", {}, hand.entries.map(entryButton)))),
    ),
  );
}

function showEntry(slot, e, name, onJump) {
  fill(
    slot,
    h("h4", { text: `${TEXT.hand(e.hand)} · ${entryLine(e)}` }),
    h("p", { class: "muted small", text: onJump ? TEXT.jumped(name) : TEXT.seatHand }),
    h("div", { class: "cardrow" }, h("span", { class: "rowlabel", text: TEXT.sawHand(name) }), e.seen.hand.map((c) => cardFace(c, { size: "mini" }))),
    e.not_valued ? h("p", { class: "muted small", text: `${TEXT.notValued}: ${tServer(e.not_valued)}` }) : null,
    h(
      "table",
      { class: "review-choices" },
      h("caption", { class: "muted small", text: TEXT.choices }),
      h("tbody", {}, e.choices.map((c) => h("tr", { class: c.chosen ? "chosen" : "" }, h("td", { text: actionLabel(c.words || "", c.action) }), h("td", { class: "num", text: fmt(c.value) }), h("td", { class: "muted small", text: c.chosen ? TEXT.chosen : "" })))),
    ),
    e.more ? h("p", { class: "muted small", text: TEXT.more(e.more) }) : null,
  );
  if (onJump) onJump(e);
}

/** The review panel under the replay viewer: pick a seat (yours by default), review, jump. */
export function mountReview(viewer, tableId) {
  const mine = loadSeat(tableId);
  const select = h(
    "select",
    { attrs: { "aria-label": TEXT.pickSeat }, dataset: { testid: "review-seat" } },
    viewer.seats.map((s) => h("option", { value: String(s.seat), text: s.name, selected: mine ? mine.seat === s.seat : s.seat === 0 })),
  );
  const out = h("div", {});
  const button = h("button", { type: "button", class: "button", text: TEXT.start, dataset: { testid: "review-start" } });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const seat = Number(select.value);
    const secret = mine && mine.seat === seat ? mine.secret : null;
    const review = await fetchReview(out, `api/tables/${encodeURIComponent(tableId)}/review/${seat}`, { secret });
    button.disabled = false;
    if (!review) return;
    fill(out, renderReview(review, { onJump: (e) => viewer.showAs(e.index, seat) }));
  });
  const section = h(
    "section",
    { class: "box review", dataset: { testid: "review-panel" } },
    h("h3", { text: TEXT.title }),
    h("p", { class: "muted small", text: TEXT.intro }),
    h("p", { class: "buttons" }, h("label", {}, `${TEXT.pickSeat} `, select), button),
    out,
  );
  viewer.body.append(section);
  return section;
}

/** The page /review: upload a record, pick a seat, read its review (no replay to jump into). */
export function reviewPage(root) {
  document.title = `${TEXT.upload} — Pedro`;
  const out = h("div", {});
  const input = h("input", { type: "file", accept: ".json,application/json", attrs: { "aria-label": TEXT.file }, dataset: { testid: "review-file" } });
  const select = h("select", { attrs: { "aria-label": TEXT.pickSeat }, dataset: { testid: "review-seat" } });
  const button = h("button", { type: "button", class: "button", text: TEXT.start, disabled: true, dataset: { testid: "review-start" } });
  let record = null;
  input.addEventListener("change", async () => {
    record = null;
    button.disabled = true;
    fill(select);
    fill(out);
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      record = JSON.parse(await file.text());
    } catch {
      fill(out, h("p", { class: "form-error", text: TEXT.badFile }));
      return;
    }
    const names = Array.isArray(record.names) ? record.names : [];
    names.forEach((n, s) => select.append(h("option", { value: String(s), text: String(n) })));
    button.disabled = !names.length;
  });
  button.addEventListener("click", async () => {
    button.disabled = true;
    const review = await fetchReview(out, "api/review", { body: { record, seat: Number(select.value) } });
    button.disabled = false;
    if (review) fill(out, renderReview(review));
  });
  fill(
    root,
    h("header", { class: "topbar" }, h("a", { href: "./", class: "home", text: "♠ Pedro" }), h("div", { class: "heading" }, h("h1", { class: "title", text: TEXT.upload }))),
    h(
      "section",
      { class: "box review" },
      h("p", { class: "muted small", text: `${TEXT.intro} ${TEXT.uploadHelp}` }),
      h("p", { class: "buttons" }, input, h("label", {}, `${TEXT.pickSeat} `, select), button),
      out,
    ),
  );
}
