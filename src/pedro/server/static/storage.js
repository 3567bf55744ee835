// What the browser remembers: a seat's secret per table (the only key to act for it) and the player's name (kept under "pedro-name", which cannot be a table's key).

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
  localStorage.setItem(key(tableId), JSON.stringify({ seat, secret, name }));
  if (name) saveName(name);
}

export function forgetSeat(tableId) {
  localStorage.removeItem(key(tableId));
}

export function loadName() {
  return localStorage.getItem("pedro-name") || "";
}

export function saveName(name) {
  localStorage.setItem("pedro-name", name);
}
