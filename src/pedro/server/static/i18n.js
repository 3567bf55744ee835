// The player's language: one JSON catalog per language (static/i18n/<lang>.json, English the source),
// loaded before the first page is drawn. `t("key", {name: value})` gives the text in the language in
// use with its {name} fields filled; `tn("key", n)` picks the singular ("key.one") or the plural
// ("key.other") form. The language is the one chosen in the page (kept in this browser), else the
// first of the browser's languages the client has, else English.
// The server's texts stay English (they are also the bots' wire format); the client translates
// what it shows from their keys: action words ("bid 8"), error codes, phase names, point names.
import { loadLang } from "./storage.js";

/** Every language with a catalog, each named in its own language. */
export const LANGUAGES = { en: "English", fi: "suomi", sv: "svenska" };
export const DEFAULT_LANGUAGE = "en";

let current = DEFAULT_LANGUAGE;
let messages = {};
let english = {};
// the gettext catalog's texts (GET api/texts/<lang>): the server's English texts made in Python
let serverTexts = {};
let serverTemplates = [];

/** The first of `wanted` (stored choice, then the browser's languages) that has a catalog. */
export function chooseLanguage(stored, browser = navigator.languages || [navigator.language]) {
  for (const code of [stored, ...browser]) {
    const base = String(code || "").toLowerCase().split(/[-_]/)[0];
    if (base in LANGUAGES) return base;
  }
  return DEFAULT_LANGUAGE;
}

async function catalog(lang) {
  const response = await fetch(new URL(`static/i18n/${lang}.json`, document.baseURI));
  if (!response.ok) throw new Error(`no catalog for ${lang}: ${response.status}`);
  return response.json();
}

/** Load the catalogs (English always: it stands in for a text a catalog lacks) and mark the page's language. */
export async function loadLanguage(lang = chooseLanguage(loadLang())) {
  english = await catalog(DEFAULT_LANGUAGE);
  current = lang;
  try {
    messages = lang === DEFAULT_LANGUAGE ? english : await catalog(lang);
  } catch {
    current = DEFAULT_LANGUAGE;
    messages = english;
  }
  await loadServerTexts(current);
  document.documentElement.lang = current;
  return current;
}

/** The language in use ("en", "fi", "sv"). */
export function language() {
  return current;
}

/** The text of `key` in the language in use, its `{name}` fields filled from `params`. */
export function t(key, params = {}) {
  const text = messages[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The singular (`key.one`) or plural (`key.other`) text for `n`, with `{n}` and `params` filled. */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...params });
}

/** `key` when the catalogs have it, else null: for server texts with a translation by their key. */
export function tIf(key, params = {}) {
  return key in english ? t(key, params) : null;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The server's catalog of Python texts for `lang` (none for English); without it they stay English. */
async function loadServerTexts(lang) {
  serverTexts = {};
  serverTemplates = [];
  if (lang === DEFAULT_LANGUAGE) return;
  try {
    const response = await fetch(new URL(`api/texts/${lang}`, document.baseURI));
    if (!response.ok) return;
    const data = await response.json();
    serverTexts = data.texts || {};
    // each template as a pattern that reads its fields back out of an English text, in the server's order
    serverTemplates = (data.templates || []).map((id) => {
      const parts = id.split(/\{(\w+)\}/);
      const source = parts.map((part, k) => (k % 2 === 0 ? escapeRegExp(part) : `(?<${part}>[\\s\\S]+?)`)).join("");
      return { id, pattern: new RegExp(`^${source}$`) };
    });
  } catch {
    // offline or an old server: the texts stay English
  }
}

/**
 * An English text the server made in Python (a card choice's rule, a hint's note, a house rule's
 * description) in the page's language, as `pedro.i18n.translate` does it for the terminal: the text
 * looked up whole, else read back into the first template that makes it, its fields translated the
 * same way. A text the catalog does not make stays as it is.
 */
export function tServer(text) {
  if (!text || current === DEFAULT_LANGUAGE) return text;
  const whole = serverTexts[text];
  if (whole !== undefined) return whole;
  for (const { id, pattern } of serverTemplates) {
    const match = pattern.exec(text);
    if (match) {
      const fields = match.groups || {};
      return serverTexts[id].replace(/\{(\w+)\}/g, (all, name) => (name in fields ? tServer(fields[name]) : all));
    }
  }
  return text;
}
