// The viewer's own hand and what they may do with it: click a card to play, press a button to bid,
// or pick a set of cards to discard / keep / kill / give / claim.
import { h, seatName } from "./dom.js";
import { cardFace, cardName, actionName, actionLabel, cardsText } from "./cards.js";
import { WORDS } from "./text.js";
import { TEXT } from "./handend.js";
import { installKeys, itemKey, refocus, actionable, keyboardUse } from "./keyboard.js";
import { t, tServer } from "./i18n.js";

/** The verbs of a card choice's button ("Discard"), by the server's verb word. */
const VERBS = new Set(["discard", "keep", "kill", "give", "claim"]);

const setKey = (codes) => [...codes].sort().join(" ");

/** Make an element act as a button for mouse, touch and keyboard. */
function clickable(el, onActivate, label) {
  el.setAttribute("role", "button");
  el.tabIndex = 0;
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("click", onActivate);
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onActivate();
    }
  });
  return el;
}

export class Controls {
  /** `send(action)` sends an act message for the current state and returns whether it went out. */
  constructor(send) {
    this.send = send;
    this.selection = new Set();
    this.selectionSeq = null;
    this.pendingSeq = null;
    installKeys();
  }

  /** A refusal or a dropped connection: let the player try again on the same state. */
  unlock() {
    this.pendingSeq = null;
  }

  act(state, action) {
    if (this.pendingSeq === state.seq) return;
    if (this.send(action)) {
      this.pendingSeq = state.seq;
      this.rerender();
    }
  }

  /**
   * Returns {hand, panel} for this state. `rerender` is called when a click changes only
   * local things (the selection, the waiting state) so the page can redraw without a new state.
   */
  render(state, rerender) {
    this.rerender = rerender;
    const game = state.game;
    const legal = game.legal;
    if (this.selectionSeq !== state.seq) {
      // a new state is a new question: start from what it requires
      this.selection = new Set(legal && legal.kind === "cards" ? legal.required : []);
      this.selectionSeq = state.seq;
    }
    if (this.pendingSeq !== null && this.pendingSeq !== state.seq) this.pendingSeq = null;
    const pending = this.pendingSeq === state.seq;
    // the page replaces these elements once they are returned: keep the keyboard's place
    const focused = itemKey(document.activeElement);
    queueMicrotask(() => {
      if (refocus(focused)) return;
      // a keyboard player whose focused card or button went with the redraw: on to the next choice
      const lost = !document.activeElement || document.activeElement === document.body;
      const items = actionable();
      if (keyboardUse.active && lost && items.length) items[0].focus();
    });
    if (legal && legal.kind === "cards") return this.renderChoice(state, legal, pending);
    return this.renderList(state, legal, pending);
  }

  renderList(state, legal, pending) {
    const game = state.game;
    const playable = (legal && legal.cards) || {};
    const anyPlayable = Object.keys(playable).length > 0;
    const hand = game.hand.map((code) => {
      const action = playable[code];
      if (action && !pending) {
        return clickable(cardFace(code, { extraClass: "legal" }), () => this.act(state, action), `${cardName(code)}, ${WORDS.playable}`);
      }
      const el = cardFace(code, { extraClass: action ? "legal" : anyPlayable ? "inactive" : "" });
      if (anyPlayable) el.setAttribute("aria-label", `${cardName(code)}, ${action ? WORDS.playable : WORDS.notPlayable}`);
      return el;
    });
    let panel;
    if (legal) {
      const cardActions = new Set(Object.values(playable));
      const rest = legal.actions.filter((a) => !cardActions.has(a.action));
      const multi = rest.filter((a) => isMultiPlay(a.action));
      const button = (a, text) =>
        h("button", {
          class: `act ${actionClass(a.action)}`,
          type: "button",
          text: text || actionLabel(a.action, a.label),
          disabled: pending,
          dataset: { action: a.action },
          attrs: { "aria-label": actionName(a.action, a.label) },
          on: { click: () => this.act(state, a.action) },
        });
      const single = rest.filter((a) => !isMultiPlay(a.action));
      // plain bids are a row of numbers of their own (a long one scrolls sideways on a phone)
      const bids = single.filter((a) => PLAIN_BID.test(a.action));
      const buttons = single.filter((a) => !PLAIN_BID.test(a.action)).map((a) => button(a));
      panel = h(
        "div",
        { class: "panel-turn" },
        h("p", { class: "prompt", text: promptText(state) + (anyPlayable && !pending ? ` — ${t("turn.clickCard")}` : "") }),
        forcedWhy(game, legal),
        buttons.length ? h("div", { class: "buttons" }, buttons) : null,
        bids.length ? bidRow(bids, button) : null,
        multi.length ? multiPlays(multi, button) : null,
        pending ? h("p", { class: "muted", text: t("turn.sent") }) : h("p", { class: "keys muted small", dataset: { testid: "keys" }, text: keysHint(game.phase) }),
      );
    } else {
      panel = waitingPanel(state);
    }
    return { hand: handBox(state, hand), panel };
  }

  renderChoice(state, legal, pending) {
    const game = state.game;
    const pool = new Set(legal.pool);
    const required = new Set(legal.required);
    const inHand = new Set(game.hand);
    const toggle = (code) => {
      if (required.has(code) || pending) return;
      if (this.selection.has(code)) this.selection.delete(code);
      else this.selection.add(code);
      this.rerender();
    };
    const face = (code) => {
      if (!pool.has(code)) {
        const el = cardFace(code, { extraClass: "inactive" });
        el.setAttribute("aria-label", `${cardName(code)}, ${WORDS.notChoosable}`);
        return el;
      }
      const selected = this.selection.has(code);
      const cls = ["selectable", selected ? "selected" : "", required.has(code) ? "locked" : ""].filter(Boolean).join(" ");
      const el = cardFace(code, { extraClass: cls });
      el.setAttribute("aria-pressed", String(selected));
      if (required.has(code)) {
        el.setAttribute("aria-label", `${cardName(code)}, ${WORDS.required}`);
        return el;
      }
      return clickable(el, () => toggle(code), cardName(code));
    };
    const hand = game.hand.map(face);
    const others = legal.pool.filter((c) => !inHand.has(c));
    const chosen = legal.pool.filter((c) => this.selection.has(c));
    const valid = isValidChoice(legal, chosen);
    const verbWord = VERBS.has(legal.verb) ? t(`choice.${legal.verb}`) : legal.verb;
    const sizes = legal.sizes.length === 1 ? `${legal.sizes[0]}` : describeSizes(legal.sizes);
    const panel = h(
      "div",
      { class: "panel-turn choice" },
      h("p", { class: "prompt", text: choicePrompt(legal) }),
      others.length
        ? h("div", { class: "pool" }, h("span", { class: "rowlabel", text: t("choice.pool") }), h("div", { class: "cards" }, others.map(face)))
        : null,
      h(
        "p",
        { class: "chosen" },
        `${t("choice.chosen", { n: chosen.length, sizes })}: `,
        h("strong", { text: chosen.length ? cardsText(chosen) : t("choice.none") }),
      ),
      h(
        "div",
        { class: "buttons" },
        h("button", {
          class: "act primary",
          type: "button",
          text: `${verbWord}${chosen.length ? " " + cardsText(chosen) : ""}`,
          disabled: !valid || pending,
          dataset: { confirm: "" },
          on: { click: () => valid && this.act(state, `${legal.verb} ${chosen.join(" ")}`) },
        }),
        legal.alternatives.map((a) =>
          h("button", {
            class: `act ${actionClass(a.action)}`,
            type: "button",
            text: actionLabel(a.action, a.label),
            disabled: pending,
            dataset: { action: a.action },
            on: { click: () => this.act(state, a.action) },
          }),
        ),
        chosen.length > required.size
          ? h("button", {
              class: "act quiet",
              type: "button",
              text: t("choice.clear"),
              disabled: pending,
              on: {
                click: () => {
                  this.selection = new Set(legal.required);
                  this.rerender();
                },
              },
            })
          : null,
      ),
      pending ? h("p", { class: "muted", text: t("turn.sent") }) : null,
    );
    return { hand: handBox(state, hand), panel };
  }
}

const PLAIN_BID = /^bid \d+$/;

/**
 * What the seat is asked, by the phase (the server's English prompt says the same): "Your call",
 * "Your lead" ...
 */
function promptText(state) {
  const game = state.game;
  const actions = (game.legal && game.legal.actions) || [];
  if (game.phase === "auction") return t("prompt.auction");
  if (game.phase === "trump") return t("prompt.trump");
  if (game.phase === "play") return game.trick && game.trick.plays.length ? t("prompt.play") : t("prompt.lead");
  if (actions.some((a) => a.action === "fold")) return t("prompt.fold");
  return t("prompt.decision");
}

/**
 * Why a dealer has no Pass: in an auction only the forced dealer may not pass (everyone else did).
 * The bids offered are the buttons below (under some house rules not one run of numbers).
 */
function forcedWhy(game, legal) {
  if (game.phase !== "auction" || legal.actions.some((a) => a.action === "pass")) return null;
  return h("p", { class: "forced-why", dataset: { testid: "forced-why" }, text: t("auction.forcedWhy") });
}

/** The keys that do something in this phase: a play's line does not list bids. */
function keysHint(phase) {
  return t(["auction", "trump", "play"].includes(phase) ? `keys.${phase}` : "keys.decision");
}

/** A card choice's question ("Choose the cards to discard"), then its rule (the server's English, translated). */
function choicePrompt(legal) {
  const ask = VERBS.has(legal.verb) ? t(`prompt.${legal.verb}`) : legal.prompt;
  return legal.rule ? `${ask}: ${tServer(legal.rule)}` : ask;
}

/** The plain bids as a row of numbers ("Bid: 7 8 9 …"); each button's accessible name is its label ("Bid 7"). */
function bidRow(bids, button) {
  const many = bids.length > 9 ? " many" : "";
  return h(
    "div",
    { class: `bid-row${many}`, attrs: { role: "group", "aria-label": WORDS.bidRow } },
    h("span", { class: "rowlabel", text: WORDS.bidRow, attrs: { "aria-hidden": "true" } }),
    h("div", { class: "bids" }, bids.map((a) => button(a, a.action.split(" ")[1]))),
  );
}

const isMultiPlay = (action) => action.startsWith("play ") && action.split(" ").length > 2;

/**
 * Several cards to the first trick: one row per top card (the card that counts), one button per
 * choice of buried cards under it — far easier to read than a flat list of every combination.
 */
function multiPlays(actions, button) {
  const byTop = new Map();
  for (const a of actions) {
    const [, top, ...buried] = a.action.split(" ");
    if (!byTop.has(top)) byTop.set(top, []);
    byTop.get(top).push({ a, buried });
  }
  return h(
    "div",
    { class: "multi-plays" },
    h("p", { class: "muted small", text: t("multi.explain") }),
    [...byTop].map(([top, choices]) =>
      h(
        "div",
        { class: "multi-row" },
        h("span", { class: "multi-top" }, cardFace(top, { size: "mini" }), ` ${t("multi.bury")}`),
        h("div", { class: "buttons" }, choices.map(({ a, buried }) => button(a, cardsText(buried)))),
      ),
    ),
  );
}

/** Size in `sizes`, `required` included, and one of `sets` when the server listed them. */
export function isValidChoice(legal, chosen) {
  if (!legal.sizes.includes(chosen.length)) return false;
  if (!legal.required.every((c) => chosen.includes(c))) return false;
  if (legal.sets) {
    const key = setKey(chosen);
    return legal.sets.some((s) => setKey(s.split(" ").filter(Boolean)) === key);
  }
  return true;
}

function describeSizes(sizes) {
  const sorted = [...sizes].sort((a, b) => a - b);
  const contiguous = sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1);
  return contiguous && sorted.length > 2 ? `${sorted[0]}–${sorted[sorted.length - 1]}` : sorted.join(` ${t("choice.or")} `);
}

function actionClass(action) {
  const verb = action.split(" ")[0];
  if (verb === "trump") return `trump suit-${action.split(" ")[1]}`;
  return verb;
}

function handBox(state, cards) {
  const game = state.game;
  const you = state.you;
  if (you === null || you === undefined) return null;
  // the felt leaves out the viewer's own laid-aside cards; they are all listed here: those in the
  // seat's public face-up row as face up (everyone sees them), the other discards as face down
  const faceUp = (game.face_up || [])[you] || [];
  const discards = (game.own_discards || []).filter((c) => !faceUp.includes(c));
  const row = (label, codes) =>
    codes && codes.length ? h("div", { class: "cardrow mine" }, h("span", { class: "rowlabel", text: label }), codes.map((c) => cardFace(c, { size: "mini" }))) : null;
  return h(
    "div",
    { class: "my-hand" },
    h("div", { class: `hand cards n${cards.length}`, attrs: { style: `--n: ${Math.max(cards.length, 1)}` } }, cards.length ? cards : h("span", { class: "muted", text: t("hand.empty") })),
    row(TEXT.rowDiscards, discards),
    row(TEXT.rowFaceUp, faceUp),
    row(TEXT.rowShown, (game.shown || [])[you]),
    row(TEXT.rowSeen, game.seen),
  );
}

/** Not the viewer's turn: say who we wait for, and whether a person or the computer is thinking. */
function waitingPanel(state) {
  const game = state.game;
  // the summary above the table says it all
  if (state.finished || game.phase === "over") return null;
  if (game.turn === null || game.turn === undefined) return h("div", { class: "panel-turn" }, h("p", { class: "muted", text: "…" }));
  const seat = state.seats[game.turn];
  const who = seatName(state.seats, game.turn);
  let how = "";
  if (seat && seat.kind === "computer") how = ` (${t("waiting.computer")})`;
  else if (seat && seat.stand_in) how = ` (${t("waiting.away")})`;
  else if (seat && !seat.claimed) how = ` — ${t("waiting.free")}`;
  else if (seat && !seat.connected) how = ` (${t("seat.offline")})`;
  const what = ["auction", "trump", "exchange", "play"].includes(game.phase) ? t(`waiting.${game.phase}`) : "";
  // "Waiting for {name} to call": the name is bold, wherever the language puts it
  const [before, after = ""] = t("waiting.for", { what }).split("{name}");
  return h("div", { class: "panel-turn waiting" }, h("p", { class: "prompt" }, before, h("strong", { text: who }), `${after}${how}`));
}
