// Card codes ("AH", "TD", "JK") turned into what people read ("A♥", "10♦", "Joker") and into card faces.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const JOKERS = {
  JK: { rank: "Jkr", suit: "★", red: false },
  BJ: { rank: "BJ", suit: "★", red: true },
  SJ: { rank: "SJ", suit: "☆", red: false },
};
const RANKS = "AKQJT98765432";

/** A suit's name in the language in use: "hearts", "hertta", "hjärter". */
export function suitName(letter) {
  return t(`suit.${letter}`);
}

/** A joker's name: "Joker", "Big joker". */
function jokerName(code) {
  return t(`joker.${code}`);
}

/** `{rank, suit, red, text}` for a card code; `text` is the short form people read ("10♥"). */
export function cardInfo(code) {
  const joker = JOKERS[code];
  if (joker) return { rank: joker.rank, suit: joker.suit, red: joker.red, text: jokerName(code), joker: true };
  const r = code[0];
  const s = code[1];
  const rank = r === "T" ? "10" : r;
  const suit = SUIT_SYMBOLS[s] || s;
  return { rank, suit, red: s === "H" || s === "D", text: rank + suit, joker: false };
}

export function cardText(code) {
  return cardInfo(code).text;
}

/**
 * A card in words, for screen readers: "five of hearts", "viisi herttaa", "hjärter fem", "big joker"
 * (each language puts rank and suit in its own order, the suit in the form the phrase needs).
 */
export function cardName(code) {
  if (JOKERS[code]) return jokerName(code).toLowerCase();
  if (!RANKS.includes(code[0]) || !SUIT_SYMBOLS[code[1]]) return code;
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit.in.${code[1]}`) });
}

/**
 * The words on an action's button, from the action's words (the server's English `label` is the
 * fallback): "bid 8" → "Bid 8" / "Tarjoa 8", "play AH" → "Play A♥", "trump H" → "Trump ♥".
 */
export function actionLabel(action, label = action) {
  const [verb, ...rest] = action.split(" ");
  const cards = rest.filter((w) => /^([2-9TJQKA][SHDC]|JK|BJ|SJ)$/.test(w));
  if (verb === "pass" || verb === "fold") return t(`act.${verb}`);
  if (verb === "protect") return t("act.protect", { n: (label.match(/\d+/) || [""])[0] });
  if (verb === "bid" && /^\d+$/.test(rest[0] || "")) return t("act.bid", { n: rest[0] });
  if (verb === "bid" && /^\d+-double$/.test(rest[0] || "")) return t("act.double", { n: rest[0].split("-")[0] });
  if (verb === "bid" && rest[0] === "28-56") return t("act.bid", { n: rest[0] });
  if (verb === "trump" && SUIT_SYMBOLS[rest[0]]) return t("act.trump", { suit: SUIT_SYMBOLS[rest[0]] });
  if (cards.length && cards.length === rest.length) return t(`act.${verb}`, { cards: cards.map(cardText).join(" ") });
  return label;
}

/** An action in words, its cards named: "play AH KH" → "Play ace of hearts, king of hearts"; else its label. */
export function actionName(action, label) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "trump" && SUIT_SYMBOLS[rest[0]]) return t("act.trumpName", { suit: suitName(rest[0]) });
  const cards = rest.filter((w) => /^([2-9TJQKA][SHDC]|JK|BJ|SJ)$/.test(w));
  if (!cards.length || cards.length !== rest.length) return actionLabel(action, label);
  return t(`act.${verb}`, { cards: cards.map(cardName).join(", ") });
}

/** A suit letter as "♥ hearts"; null stays empty. */
export function suitText(letter, long = false) {
  if (!letter) return "";
  return long ? `${SUIT_SYMBOLS[letter]} ${suitName(letter)}` : SUIT_SYMBOLS[letter];
}

/**
 * A card face: `data-card` is the test hook, the visible text is for people, the accessible name
 * ("five of hearts") for screen readers. `suit-H` etc. colour it in the four-colour deck (style.css).
 */
export function cardFace(code, { size = "", extraClass = "" } = {}) {
  const info = cardInfo(code);
  const suitClass = info.joker ? "" : `suit-${code[1]}`;
  const cls = ["card", info.red ? "red" : "black", suitClass, info.joker ? "joker" : "", size, extraClass]
    .filter(Boolean)
    .join(" ");
  return h(
    "div",
    { class: cls, dataset: { card: code }, attrs: { title: info.text, role: "img", "aria-label": cardName(code) } },
    h("span", { class: "idx" }, h("span", { class: "rank", text: info.rank }), h("span", { class: "suit", text: info.suit })),
    h("span", { class: "pip", text: info.suit }),
  );
}

/** A row of small card backs for a hidden hand, with the count for screen readers and tiny seats. */
export function cardBacks(count) {
  const shown = Math.min(count, 16);
  const backs = [];
  for (let i = 0; i < shown; i++) backs.push(h("span", { class: "back" }));
  return h(
    "div",
    { class: "backs", attrs: { title: tn("cards.count", count), "aria-label": tn("cards.count", count) } },
    backs,
    h("span", { class: "count", text: String(count) }),
  );
}

/** Cards as a compact inline string: "A♥ 10♥ 5♦". */
export function cardsText(codes) {
  return codes.map(cardText).join(" ");
}
