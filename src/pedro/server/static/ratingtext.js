// How ratings read, the same on every page: openskill's ordinal (mu − 3 sigma) with one decimal, and
// the model's belief as "mu ± sigma" (src/pedro/ratings.py).
import { h } from "./dom.js";
import { api } from "./net.js";

export const rating = (x) => (x === null || x === undefined ? "–" : Number(x).toFixed(1));
export const belief = (mu, sigma) => `${Number(mu).toFixed(1)} ± ${Number(sigma).toFixed(1)}`;
/** A change, "+2.4" or "−1.3". */
export const change = (before, after) => {
  const d = Number(after) - Number(before);
  return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)}`;
};

let variants = null;
/** Each variant's name by its id, read once (api/variants). */
export async function variantNames() {
  if (!variants) {
    variants = api("api/variants").then((catalog) => Object.fromEntries(catalog.variants.map((v) => [v.id, v.name])));
  }
  return variants;
}

/** The page's top bar, as the lobby's. */
export function topbar(title, subtitle = "") {
  return h(
    "header",
    { class: "topbar" },
    h("a", { href: "./", class: "home", text: "♠ Pedro" }),
    h("div", { class: "heading" }, h("h1", { class: "title", text: title }), h("span", { class: "subtitle muted", text: subtitle })),
  );
}
