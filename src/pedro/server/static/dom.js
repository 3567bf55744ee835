// Tiny DOM helpers: the client builds its pages from plain elements, no framework.
import { t } from "./i18n.js";
import { computerName } from "./text.js";

/**
 * Create an element. `props` keys: `class`, `text`, `dataset` (object), `on` (event map),
 * `attrs` (plain attributes), anything else is set as a property (e.g. `type`, `value`).
 * Children may be nodes, strings, or null/false (skipped), nested arrays are flattened.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) el.dataset[k] = v;
    } else if (key === "on") {
      for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
    } else if (key === "attrs") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? "" : v);
    } else el[key] = value;
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace all children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Text for a person: "Ann", "Seat 3" when the seat has no name yet, a computer "2 · Beginner" in the page's language. */
export function seatName(seats, seat) {
  const s = seats && seats[seat];
  if (s && s.kind === "computer") return computerName(seat, s.player);
  return (s && s.name) || t("join.seat", { n: seat + 1 });
}
