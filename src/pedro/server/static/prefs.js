// Display preferences kept in this browser: the language, and the four-colour deck (♠ black, ♥ red,
// ♦ blue, ♣ green), which tells the suits apart at a glance on a small screen. The colours are in
// style.css, under html[data-deck="four"].
import { h } from "./dom.js";
import { loadDeck, saveDeck, loadLang, saveLang } from "./storage.js";
import { WORDS } from "./text.js";
import { LANGUAGES, language, t } from "./i18n.js";

/** Colour the cards as stored; called before the first page is drawn. */
export function applyDeck(deck = loadDeck()) {
  document.documentElement.dataset.deck = deck;
}

/** The language switch: the browser's language until one is chosen; a choice redraws the page in it. */
function languageSelect() {
  const select = h(
    "select",
    {
      name: "language",
      attrs: { "aria-label": t("prefs.language") },
      dataset: { testid: "language" },
      on: {
        change: () => {
          saveLang(select.value);
          location.reload();
        },
      },
    },
    h("option", { value: "", text: t("prefs.languageBrowser") }),
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, text: name, attrs: { lang: code } })),
  );
  select.value = loadLang() ? language() : "";
  return h("label", { class: "check" }, h("span", { text: `${t("prefs.language")}:` }), select);
}

/** The switches for the language and the deck's colours, on every page (below the page). */
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
    languageSelect(),
    h("label", { class: "check" }, box, h("span", { text: WORDS.fourColourDeck }), h("span", { class: "muted small", text: `(${WORDS.fourColourHint})` })),
  );
}
