// Card codes ("AH", "TD", "JK") turned into what people read ("A♥", "10♦", "Joker") and into card faces.
import { h } from "./dom.js";

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const JOKERS = {
  JK: { rank: "Jkr", suit: "★", name: "Joker", red: false },
  BJ: { rank: "BJ", suit: "★", name: "Big joker", red: true },
  SJ: { rank: "SJ", suit: "☆", name: "Small joker", red: false },
};
/** Ranks as a screen reader says them: "five of hearts", not "5♥" ("five black heart suit"). */
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

/** `{rank, suit, red, text}` for a card code; `text` is the short form people read ("10♥"). */
export function cardInfo(code) {
  const joker = JOKERS[code];
  if (joker) return { rank: joker.rank, suit: joker.suit, red: joker.red, text: joker.name, joker: true };
  const r = code[0];
  const s = code[1];
  const rank = r === "T" ? "10" : r;
  const suit = SUIT_SYMBOLS[s] || s;
  return { rank, suit, red: s === "H" || s === "D", text: rank + suit, joker: false };
}

export function cardText(code) {
  return cardInfo(code).text;
}

/** A card in words, for screen readers: "five of hearts", "ten of diamonds", "big joker". */
export function cardName(code) {
  const joker = JOKERS[code];
  if (joker) return joker.name.toLowerCase();
  return `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[code[1]] || code[1]}`;
}

/** An action in words, its cards named: "play AH KH" → "Play ace of hearts, king of hearts"; else `label`. */
export function actionName(action, label) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "trump" && SUIT_NAMES[rest[0]]) return `Trumps ${SUIT_NAMES[rest[0]]}`;
  const cards = rest.filter((w) => /^([2-9TJQKA][SHDC]|JK|BJ|SJ)$/.test(w));
  if (!cards.length || cards.length !== rest.length) return label;
  return `${verb[0].toUpperCase()}${verb.slice(1)} ${cards.map(cardName).join(", ")}`;
}

/** A suit letter as "♥ hearts"; null stays empty. */
export function suitText(letter, long = false) {
  if (!letter) return "";
  return long ? `${SUIT_SYMBOLS[letter]} ${SUIT_NAMES[letter]}` : SUIT_SYMBOLS[letter];
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
    { class: "backs", attrs: { title: `${count} card${count === 1 ? "" : "s"}`, "aria-label": `${count} cards` } },
    backs,
    h("span", { class: "count", text: String(count) }),
  );
}

/** Cards as a compact inline string: "A♥ 10♥ 5♦". */
export function cardsText(codes) {
  return codes.map(cardText).join(" ");
}
