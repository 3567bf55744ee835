// Playing with the keyboard: the arrows move between what may be done now (the legal cards of the
// hand, then the calls and other buttons), Enter or Space does it, a number picks that bid, P the
// pass and S, H, D, C a trump suit. Picking only moves the focus: Enter confirms, so a stray key
// never bids or plays.

const DIGITS_MS = 1200;
const SUIT_KEYS = { s: "S", h: "H", d: "D", c: "C" };
const HAND_ITEMS = ".hand-slot [role=button][tabindex='0']";
const PANEL_ITEMS = ".turn-slot button:not(:disabled), .turn-slot [role=button][tabindex='0']";

/** What may be done now, in the order the arrows visit it: the hand's cards first, then the panel. */
export function actionable() {
  return [...document.querySelectorAll(HAND_ITEMS), ...document.querySelectorAll(PANEL_ITEMS)];
}

/** A key naming an item across redraws (the page rebuilds its elements on every state). */
export function itemKey(el) {
  if (!el || !el.closest || !el.closest(".hand-slot, .turn-slot")) return null;
  if (el.dataset.card) return `[data-card="${el.dataset.card}"]`;
  if (el.dataset.action) return `[data-action="${el.dataset.action}"]`;
  if (el.dataset.confirm !== undefined) return "[data-confirm]";
  return null;
}

/** Focus the item named by `key` after a redraw, when it is still there and still actionable. */
export function refocus(key) {
  if (!key) return false;
  const el = actionable().find((e) => e.matches(key));
  if (el) el.focus();
  return !!el;
}

let installed = false;
let digits = "";
let digitsTimer = null;
/** True once the player used the keys to play, until the next mouse or touch: focus follows turns. */
export const keyboardUse = { active: false };

function focusFirst(selector) {
  const el = actionable().find((e) => e.matches(selector));
  if (el) el.focus();
  return !!el;
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const items = actionable();
  if (!items.length) return;
  const key = event.key;
  const at = items.indexOf(document.activeElement);
  let next = null;
  if (key === "ArrowRight" || key === "ArrowDown") next = at < 0 ? 0 : (at + 1) % items.length;
  else if (key === "ArrowLeft" || key === "ArrowUp") next = at < 0 ? items.length - 1 : (at - 1 + items.length) % items.length;
  else if (key === "Home") next = 0;
  else if (key === "End") next = items.length - 1;
  if (next !== null) {
    event.preventDefault();
    keyboardUse.active = true;
    items[next].focus();
    return;
  }
  if (/^[0-9]$/.test(key)) {
    // "1" then "4" within a moment picks 14; a number no bid has starts again from this digit
    clearTimeout(digitsTimer);
    digits += key;
    if (!focusFirst(`[data-action="bid ${digits}"]`)) {
      digits = key;
      focusFirst(`[data-action="bid ${digits}"]`);
    }
    digitsTimer = setTimeout(() => (digits = ""), DIGITS_MS);
    keyboardUse.active = true;
    event.preventDefault();
    return;
  }
  const lower = key.toLowerCase();
  if (lower === "p" && focusFirst('[data-action="pass"]')) {
    keyboardUse.active = true;
    event.preventDefault();
  } else if (SUIT_KEYS[lower] && focusFirst(`[data-action="trump ${SUIT_KEYS[lower]}"]`)) {
    keyboardUse.active = true;
    event.preventDefault();
  } else if (key === "Enter" || key === " ") {
    keyboardUse.active = true;
  }
}

/** Listen to the keys once per page. */
export function installKeys() {
  if (installed) return;
  installed = true;
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", () => (keyboardUse.active = false));
}
