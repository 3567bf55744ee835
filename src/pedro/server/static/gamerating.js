// A finished game's rating, under its result on the table page (GET api/tables/{id}/rating): each
// profile's rating before and after, or why the game was not rated. The server rates a game a
// moment after its end, so the box asks again until it has the answer.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { t } from "./i18n.js";
import { change, rating } from "./ratingtext.js";

const TRIES = 15;
const WAIT_MS = 1000;
const boxes = new Map();

/** The table's rating box (one per table: the page redraws its summary at every message). */
export function gameRatingBox(tableId) {
  let box = boxes.get(tableId);
  if (!box) {
    box = h("section", { class: "game-rating", attrs: { "aria-live": "polite" } }, h("p", { class: "muted small", text: t("rating.waiting") }));
    boxes.set(tableId, box);
    load(tableId, box, TRIES);
  }
  return box;
}

async function load(tableId, box, tries) {
  let game = null;
  try {
    game = await api(`api/tables/${encodeURIComponent(tableId)}/rating`);
  } catch {
    game = null;
  }
  if (game && game.pending && tries > 1) setTimeout(() => load(tableId, box, tries - 1), WAIT_MS);
  else if (game && !game.pending) show(box, game);
  else fill(box, h("p", { class: "muted small", text: t("rating.none") }));
}

function show(box, game) {
  box.dataset.rated = game.rated ? "true" : "false";
  if (!game.rated) {
    const why = t(`rating.reason.${game.reason}`, { n: (game.reason_seat ?? 0) + 1 });
    fill(box, h("h3", { text: t("rating.unrated") }), h("p", { class: "muted small", text: why }));
    return;
  }
  fill(
    box,
    h("h3", { text: t("rating.rated") }),
    h(
      "ul",
      { class: "rating-changes" },
      game.changes.map((c) =>
        h(
          "li",
          {},
          h("a", { href: `profile/${encodeURIComponent(c.profile)}`, text: c.name }),
          ` ${rating(c.before)} → ${rating(c.after)} (${change(c.before, c.after)})`,
        ),
      ),
    ),
  );
}
