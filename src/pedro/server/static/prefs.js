// Display preferences kept in this browser: for now the four-colour deck (♠ black, ♥ red, ♦ blue,
// ♣ green), which tells the suits apart at a glance on a small screen. The colours are in style.css,
// under html[data-deck="four"].
import { h } from "./dom.js";
import { loadDeck, saveDeck } from "./storage.js";
import { WORDS } from "./text.js";

/** Colour the cards as stored; called before the first page is drawn. */
export function applyDeck(deck = loadDeck()) {
  document.documentElement.dataset.deck = deck;
}

/** The switch for the deck's colours, on every page (below the page). */
export function prefsFooter() {
  const box = h("input", {
    type: "checkbox",
    name: "four-colour-deck",
    checked: loadDeck() === "four",
    attrs: { role: "switch" },
    on: {
      change: () => {
        const deck = box.checked ? "four" : "two";
        saveDeck(deck);
        applyDeck(deck);
      },
    },
  });
  return h(
    "footer",
    { class: "prefs" },
    h("label", { class: "check" }, box, h("span", { text: WORDS.fourColourDeck }), h("span", { class: "muted small", text: `(${WORDS.fourColourHint})` })),
  );
}
