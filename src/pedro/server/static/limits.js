// What the server accepts (GET /api/limits): forms take their lengths from here, so the page
// and the server never hold two different numbers for the same limit.
import { api } from "./net.js";

let pending = null;

/** The server's limits, fetched once per page; `{}` while the server cannot be reached. */
export function serverLimits() {
  if (!pending) {
    pending = api("api/limits").catch(() => {
      pending = null; // ask again next time; the server checks lengths anyway
      return {};
    });
  }
  return pending;
}

/** Give a text field the length the server allows for `key` ("name_chars", "title_chars"). */
export function limitLength(input, key) {
  serverLimits().then((limits) => {
    if (Number.isInteger(limits[key])) input.maxLength = limits[key];
  });
  return input;
}
