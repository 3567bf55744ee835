// What the browser remembers: a seat's secret per table (the only key to act for it), the host
// secret of each table it created ("pedro-host:" and the id), its id as a spectator
// ("pedro-viewer"), the player's name, the display preferences, the last game started and the
// people muted in the chat (kept under "pedro-name", "pedro-deck", "pedro-lang", "pedro-prefs",
// "pedro-last-game" and "pedro-muted", which cannot be a table's key: those are "pedro:" and the
// table's id).

const key = (tableId) => `pedro:${tableId}`;

/** `{seat, secret, name}` for this table, or null. */
export function loadSeat(tableId) {
  try {
    const value = JSON.parse(localStorage.getItem(key(tableId)) || "null");
    return value && typeof value.secret === "string" ? value : null;
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat, secret, name) {
  // `since` orders "my tables", the latest seat first
  localStorage.setItem(key(tableId), JSON.stringify({ seat, secret, name, since: Date.now() }));
  if (name) saveName(name);
}

/** Every table this browser holds a seat at, `{id, seat, name, since}`, the latest first. */
export function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith("pedro:")) continue;
    const id = k.slice("pedro:".length);
    const value = loadSeat(id);
    if (value) seats.push({ id, seat: value.seat, name: value.name, since: value.since || 0 });
  }
  return seats.sort((a, b) => b.since - a.since || a.id.localeCompare(b.id));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(key(tableId));
}

/** The host secret of a table this browser created (``pedro-host:{id}``), or null. */
export function loadHost(tableId) {
  try {
    return localStorage.getItem(`pedro-host:${tableId}`);
  } catch {
    return null;
  }
}

export function saveHost(tableId, secret) {
  if (secret) localStorage.setItem(`pedro-host:${tableId}`, secret);
}

/** This browser's id as a spectator (made once), by which a table's host may remove it. */
export function viewerId() {
  let id = localStorage.getItem("pedro-viewer");
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("pedro-viewer", id);
  }
  return id;
}

export function loadName() {
  return localStorage.getItem("pedro-name") || "";
}

export function saveName(name) {
  localStorage.setItem("pedro-name", name);
}

/** The card deck's colours: "four" (♦ blue, ♣ green) or "two" (the default: red and black). */
export function loadDeck() {
  return localStorage.getItem("pedro-deck") === "four" ? "four" : "two";
}

export function saveDeck(deck) {
  localStorage.setItem("pedro-deck", deck);
}

/** The language chosen in the page ("fi"), or "" to follow the browser's. */
export function loadLang() {
  try {
    return localStorage.getItem("pedro-lang") || "";
  } catch {
    return "";
  }
}

export function saveLang(lang) {
  try {
    if (lang) localStorage.setItem("pedro-lang", lang);
    else localStorage.removeItem("pedro-lang");
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** The player's table preferences: { autoPlay: true } by default. */
export function loadPrefs() {
  try {
    return { autoPlay: true, ...JSON.parse(localStorage.getItem("pedro-prefs") || "{}") };
  } catch {
    return { autoPlay: true };
  }
}

export function savePrefs(prefs) {
  try {
    localStorage.setItem("pedro-prefs", JSON.stringify(prefs));
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** The last game this browser started: `{variant, level}` (either may be missing). */
export function loadLastGame() {
  try {
    const value = JSON.parse(localStorage.getItem("pedro-last-game") || "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

export function saveLastGame(game) {
  try {
    localStorage.setItem("pedro-last-game", JSON.stringify(game));
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** The people muted in the chat, `[{key, name}]` (`key`: "p:" a player's name, "s:" a spectator's). */
export function loadMuted() {
  try {
    const value = JSON.parse(localStorage.getItem("pedro-muted") || "[]");
    return Array.isArray(value) ? value.filter((m) => m && typeof m.key === "string" && typeof m.name === "string") : [];
  } catch {
    return [];
  }
}

export function saveMuted(muted) {
  try {
    localStorage.setItem("pedro-muted", JSON.stringify(muted));
  } catch {
    // private mode: the choice lasts for this page only
  }
}
