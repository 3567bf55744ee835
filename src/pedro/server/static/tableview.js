// Drawing the table itself from a `game` object: seats around the felt and the trick in the middle.
// Used live (table.js, hidden hands as card backs) and by the replay (every hand open).
import { h, seatName } from "./dom.js";
import { cardFace, cardBacks, suitText, actionLabel } from "./cards.js";
import { exchangeWords, exchangeShort, TEXT } from "./handend.js";
import { t, tn } from "./i18n.js";
import { playerLabel } from "./text.js";

/** How many of the other seats go to the left column, the top row and the right column. */
const GROUPS = { 0: [0, 0, 0], 1: [0, 1, 0], 2: [1, 0, 1], 3: [1, 1, 1], 4: [1, 2, 1], 5: [2, 1, 2], 6: [2, 2, 2] };

/**
 * Where each seat sits: the viewer at the bottom, the others clockwise up the left side, across
 * the top and down the right side, so in a 4-player game the partner is opposite.
 * Returns, per seat, its area ("bottom" | "left" | "top" | "right") and the direction (radians,
 * screen coordinates) in which its card lies in the trick.
 */
export function seatLayout(players, viewer) {
  const [left, top, right] = GROUPS[players - 1] || GROUPS[6];
  const spread = (count, i, from, to) => (count === 1 ? (from + to) / 2 : from + ((to - from) * i) / (count - 1));
  const deg = Math.PI / 180;
  const layout = [];
  for (let offset = 0; offset < players; offset++) {
    const seat = (viewer + offset) % players;
    let area;
    let angle;
    if (offset === 0) [area, angle] = ["bottom", 90];
    else if (offset <= left) [area, angle] = ["left", spread(left, offset - 1, 155, 205)];
    else if (offset <= left + top) [area, angle] = ["top", spread(top, offset - left - 1, 235, 305)];
    else [area, angle] = ["right", spread(right, offset - left - top - 1, 335, 385)];
    layout[seat] = { area, angle: angle * deg, order: offset };
  }
  return layout;
}

function place(el, angle, rx, ry) {
  const x = 50 + rx * Math.cos(angle);
  const y = 50 + ry * Math.sin(angle);
  // left: X% with translate(-X%) keeps the box inside the felt at every position
  el.style.left = `${x}%`;
  el.style.top = `${y}%`;
  el.style.transform = `translate(${-x}%, ${-y}%)`;
  return el;
}

/** A call as the table says it ("Pass", "Bid 8"), from its action words. */
export function callLabel(call) {
  return call.action ? actionLabel(call.action, call.label) : hiddenLabel(call);
}

/**
 * The last action's words, as the auction list says them: a forced dealer's bid (the hand's last
 * call, marked `forced` by the server) with its "(forced)".
 */
export function lastLabel(last, game) {
  const calls = (game && game.calls) || [];
  const call = calls[calls.length - 1];
  const forced = call && call.forced && call.seat === last.seat && call.action === last.action;
  return callLabel(last) + (forced ? ` (${TEXT.forced})` : "");
}

/**
 * An action told only as a count ("Discard 6 cards": cards face down), from the server's English
 * words; else the server's label as it is.
 */
export function hiddenLabel(last) {
  const m = /^(Discard|Keep|Kill|Give|Claim) (\d+) cards?$/.exec(last.label || "");
  return m ? tn(`hidden.${m[1].toLowerCase()}`, Number(m[2])) : last.label;
}

/** The last call each seat made in this hand's auction. */
function lastCalls(calls) {
  const bySeat = new Map();
  for (const call of calls || []) bySeat.set(call.seat, call);
  return bySeat;
}

function seatInfo(seat) {
  if (!seat) return "";
  if (seat.kind === "computer") return `${t("seat.computer")} · ${playerLabel(seat.player)}`;
  if (!seat.claimed) return t("seat.free");
  if (seat.stand_in) return t("seat.away");
  return seat.connected ? "" : t("seat.offline");
}

function connectionClass(seat) {
  if (!seat) return "";
  if (seat.kind === "computer") return "bot";
  if (!seat.claimed) return "free";
  if (seat.stand_in) return "standin";
  return seat.connected ? "online" : "offline";
}

function cardRow(codes, label, cls) {
  if (!codes || !codes.length) return null;
  return h("div", { class: `cardrow ${cls}` }, label ? h("span", { class: "rowlabel", text: label }) : null, codes.map((c) => cardFace(c, { size: "mini" })));
}

/**
 * One seat's area. `open` is the seat's cards when everyone's hand is shown (replay), else null.
 * `compact` leaves out the hand (the viewer's own hand is drawn large below the felt).
 */
function renderSeat(view, seat, { open, compact }) {
  const { game, seats } = view;
  const info = seats[seat];
  const status = (game.statuses || [])[seat] || "";
  // while the live page holds the last hand's result, the next auction's calls are not shown yet
  const call = view.holdLastTrick ? undefined : lastCalls(game.calls).get(seat);
  const isTurn = game.turn === seat && game.phase !== "over" && view.started !== false;
  const isBidder = game.bidder === seat && game.bid !== null && game.bid !== undefined;
  const classes = ["seat", isTurn ? "turn" : "", status ? `status-${status}` : "", seat === view.you ? "you" : ""];
  const auction = game.phase === "auction" || game.phase === "trump";
  let bubble = null;
  if (isBidder && !auction) {
    bubble = h("span", { class: "bubble contract", text: `${game.bid}${game.trump ? " " + suitText(game.trump) : ""}`, attrs: { title: t("table.theContract") } });
  } else if (call && auction) {
    bubble = h("span", { class: `bubble ${call.action === "pass" ? "pass" : "bid"}`, text: callLabel(call) + (call.forced ? ` (${TEXT.forced})` : ""), attrs: call.forced ? { title: TEXT.forcedTitle } : {} });
  }
  const hand = compact
    ? null
    : open
      ? cardRow(open, "", "open")
      : (game.hand_sizes || [])[seat] > 0
        ? cardBacks(game.hand_sizes[seat])
        : null;
  const faceUp = (game.face_up || [])[seat] || [];
  // the exchange in public counts ("discarded 6, drew 4"): what people count trumps by
  const moved = exchangeWords(game, seat, view.table.dealer_robs);
  return h(
    "div",
    { class: classes.filter(Boolean).join(" "), dataset: { seat: String(seat) } },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: `dot ${connectionClass(info)}`, attrs: { title: seatInfo(info) || t("seat.connected") } }),
      h("span", { class: "name", text: seatName(seats, seat) + (seat === view.you ? ` (${t("seat.you")})` : ""), attrs: { title: seatName(seats, seat) } }),
    ),
    h(
      "div",
      { class: "seat-sub" },
      game.dealer === seat ? h("span", { class: "chip dealer", text: t("seat.dealerChip"), attrs: { title: t("seat.dealer") } }) : null,
      bubble,
      status ? h("span", { class: `badge ${status}`, text: t(`status.${status}`) }) : null,
      seatInfo(info) ? h("span", { class: info.kind === "computer" ? "muted kind-info" : "alert-info", text: seatInfo(info) }) : null,
      isTurn ? h("span", { class: "thinking", text: seat === view.you && !view.replay ? t("seat.yourTurn") : t("seat.toPlay") }) : null,
    ),
    hand,
    // the viewer's own laid-aside cards are listed under the hand instead
    compact ? null : cardRow(faceUp, t("seat.faceUp"), "faceup"),
    compact ? null : cardRow((game.shown || [])[seat], t("seat.shown"), "shown"),
    moved
      ? h(
          "div",
          { class: "muted small exchange-counts", dataset: { testid: "exchange-counts" }, attrs: { title: moved } },
          h("span", { class: "long", text: moved }),
          h("span", { class: "short", text: exchangeShort(game, seat), attrs: { "aria-hidden": "true" } }),
        )
      : null,
  );
}

/**
 * The finished tricks the viewer may still want to look at: this hand's, or, before the first trick
 * of a new hand, the previous hand's (`previous`). The live page has the latest one as
 * `game.last_trick` (the server keeps it past the next deal); the replay passes the closed hand's
 * tricks as `view.previousTricks`.
 */
function finishedTricks(view) {
  const game = view.game;
  const tricks = game.tricks || [];
  if (tricks.length) return { tricks, previous: false };
  if (view.previousTricks && view.previousTricks.length) return { tricks: view.previousTricks, previous: true };
  if (game.last_trick) return { tricks: [game.last_trick], previous: true };
  return { tricks: [], previous: false };
}

/** What the middle of the felt shows: the trick being played, else the trick that just ended. */
function centerTrick(view) {
  const { game } = view;
  if (game.trick && game.trick.plays.length) return { trick: game.trick, done: false };
  const { tricks, previous } = finishedTricks(view);
  if (!tricks.length) return null;
  // the last card of a trick would vanish at once; keep the trick until the next lead, and a hand's
  // final trick until the next auction starts (the live page holds it a moment longer: holdLastTrick)
  const keep = previous
    ? game.phase === "over" || !(game.calls || []).length || !!view.holdLastTrick
    : game.phase === "play" || game.phase === "over";
  return keep ? { trick: tricks[tricks.length - 1], done: true, previous } : null;
}

/** The trick on the felt: each card pushed toward the seat that played it. `shown`: centerTrick(view). */
function renderTrick(view, shown) {
  const trick = shown && shown.trick;
  const box = h("div", { class: `trick ${shown && shown.done ? "done" : ""}` });
  if (!trick) {
    box.append(h("div", { class: "center-note", text: centerNote(view) }));
    return box;
  }
  trick.plays.forEach((play, order) => {
    const angle = view.layout[play.seat].angle;
    const cards = play.cards.map((c, i) => cardFace(c, { extraClass: i > 0 ? "buried" : "" }));
    const el = h(
      "div",
      {
        class: `play ${trick.winner === play.seat ? "winning" : ""}`,
        dataset: { trickSeat: String(play.seat) },
        attrs: { title: `${seatName(view.seats, play.seat)}${play.cards.length > 1 ? ` (${t("trick.buried")})` : ""}` },
      },
      cards,
    );
    el.style.zIndex = String(order + 1);
    box.append(place(el, angle, 50, 50));
  });
  return box;
}

/**
 * The caption of a finished trick on the felt ("won by Ann"), or null. It is a grid item of the felt
 * of its own (.trick-note, always there so nothing moves when it comes and goes): on a wide felt it
 * lies over the middle of the trick, on a phone, where the trick has no room to spare between its
 * cards, in a row of its own under it (style.css).
 */
function trickLabel(view, shown) {
  if (!shown || !shown.done) return null;
  const trick = shown.trick;
  const won = trick.winner !== null && trick.winner !== undefined ? t("trick.wonBy", { name: seatName(view.seats, trick.winner) }) : "";
  const text = shown.previous ? `${t("trick.handsLast")}${won ? " · " + won : ""}` : won;
  return text ? h("div", { class: "trick-label", text, attrs: { title: text } }) : null;
}

function centerNote(view) {
  const { game, seats } = view;
  if (game.phase === "over") return t("center.over");
  if (view.started === false) return t("center.waiting");
  const yours = game.turn === view.you && !view.replay;
  const who = game.turn === null || game.turn === undefined ? "" : yours ? t("seat.yourTurn") : seatName(seats, game.turn);
  const verb = ["auction", "trump", "exchange", "play"].includes(game.phase) ? t(`phase.${game.phase}`) : game.phase;
  // the discards gathered face down when the stock ran dry: only their number is public
  const wash = game.wash ? ` · ${tn("center.wash", game.wash)}` : "";
  return (who ? `${verb} · ${who}` : verb) + wash;
}

/**
 * The felt with every seat. `view`: {table, seats, game, you, bottom?, open?: [[cards]...]}.
 * `you` is the seat this browser holds (named "you"), or null. The seat drawn at the bottom is
 * `bottom` if given (the replay's seat a review jumps to: seen from there, but not "you"), else
 * `you`, else seat 0 (spectators).
 */
export function renderFelt(view) {
  const players = view.table.players;
  const viewer = [view.bottom, view.you].find((s) => s !== null && s !== undefined) ?? 0;
  const layout = seatLayout(players, viewer);
  const v = { ...view, viewer, layout };
  const areas = { top: [], left: [], right: [], bottom: [] };
  const bySeatOrder = [...Array(players).keys()].sort((a, b) => layout[a].order - layout[b].order);
  for (const seat of bySeatOrder) {
    const own = seat === view.you && !view.open;
    areas[layout[seat].area].push(renderSeat(v, seat, { open: view.open ? view.open[seat] : null, compact: own }));
  }
  // the left column is filled clockwise, i.e. from the bottom up
  areas.left.reverse();
  const shown = centerTrick(v);
  return h(
    "section",
    { class: `felt players-${players}`, attrs: { "aria-label": t("table.felt") } },
    h("div", { class: "area top" }, areas.top),
    h("div", { class: "area left" }, areas.left),
    h("div", { class: "area center" }, renderTrick(v, shown)),
    h("div", { class: "area right" }, areas.right),
    h("div", { class: "trick-note" }, trickLabel(v, shown)),
    h("div", { class: "area bottom" }, areas.bottom),
  );
}

/** The latest finished trick the felt does not show (any more), small, for the side panel. */
export function renderLastTrick(view) {
  const { tricks, previous } = finishedTricks(view);
  const shown = centerTrick(view);
  const trick = tricks[tricks.length - (shown && shown.done ? 2 : 1)];
  if (!trick) return null;
  const won = trick.winner !== null && trick.winner !== undefined ? ` · ${t("trick.wonBy", { name: seatName(view.seats, trick.winner) })}` : "";
  return h(
    "div",
    { class: "last-trick" },
    h("h3", { text: `${previous ? t("trick.lastOfPrevious") : t("trick.last")}${won}` }),
    h(
      "div",
      { class: "last-plays" },
      trick.plays.map((p) =>
        h(
          "div",
          { class: `lp ${p.seat === trick.winner ? "winning" : ""}` },
          h("span", { class: "who", text: seatName(view.seats, p.seat) }),
          p.cards.map((c) => cardFace(c, { size: "mini" })),
        ),
      ),
    ),
  );
}

/** This hand's auction in order: "Bo: Pass, Cy: Bid 8". */
export function renderCalls(view) {
  const calls = view.game.calls || [];
  if (!calls.length) return null;
  return h(
    "ol",
    { class: "calls" },
    calls.map((c) =>
      h(
        "li",
        { class: c.action === "pass" ? "pass" : "bid" },
        h("span", { class: "who", text: seatName(view.seats, c.seat) }),
        " ",
        callLabel(c),
        c.forced ? h("span", { class: "muted forced", text: ` (${TEXT.forced})`, attrs: { title: TEXT.forcedTitle } }) : null,
      ),
    ),
  );
}

/** "Ann bid 8 · trumps ♥ hearts", or where the auction stands. */
export function contractLine(view) {
  const { game, seats } = view;
  if (game.bidder === null || game.bidder === undefined) {
    return game.phase === "auction" ? t("contract.auction") : "";
  }
  const trump = game.trump ? t("contract.trumps", { suit: suitText(game.trump, true) }) : t("contract.noTrumps");
  const forced = (game.calls || []).some((c) => c.forced) ? ` (${TEXT.forced})` : "";
  return `${t("contract.bid", { name: seatName(seats, game.bidder), bid: game.bid })}${forced} · ${trump}`;
}
