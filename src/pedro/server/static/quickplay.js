// Quick play: one button in the lobby starts a game at once, the player against computers, at a
// table nobody else sees. It repeats the player's last game (variant and computer level, kept in
// this browser by the create form and by itself), or Cinch against beginners for a newcomer.
import { h } from "./dom.js";
import { api } from "./net.js";
import { saveName, saveSeat, saveHost, loadLastGame, saveLastGame } from "./storage.js";
import { t, tn } from "./i18n.js";
import { profileSecret } from "./myprofile.js";

/** What a newcomer gets: the first variant of the catalog (Cinch) against the gentlest level. */
const FIRST_LEVEL = "beginner";

/** The last game if this server still offers it, else the newcomer's. */
export function quickGame(catalog, last = loadLastGame()) {
  const variants = catalog.variants;
  const levels = (catalog.levels || []).map((l) => l.name);
  const variant = variants.find((v) => v.id === last.variant) || variants[0];
  const level = levels.includes(last.level) ? last.level : levels.includes(FIRST_LEVEL) ? FIRST_LEVEL : levels[0];
  return { variant, level };
}

/** The lobby's quick-play box: the button, what it will start, and its refusal if any. */
export function quickPlayBox(catalog, nameInput) {
  const { variant, level } = quickGame(catalog);
  const error = h("p", { class: "form-error", attrs: { role: "alert" } });
  const opponents = variant.players - 1;
  const button = h("button", {
    type: "button",
    class: "primary",
    dataset: { testid: "quick-play" },
    text: t("quick.button"),
    on: { click: () => start() },
  });

  async function start() {
    error.textContent = "";
    const name = nameInput.value.trim();
    if (!name) {
      error.textContent = t("form.needName");
      nameInput.focus();
      return;
    }
    button.disabled = true;
    const body = {
      variant: variant.id,
      title: t("form.defaultTitle", { variant: variant.name }),
      listed: false,
      seats: [{ kind: "human" }, ...Array.from({ length: opponents }, () => ({ kind: "computer", player: level }))],
      seat: 0,
      name,
      profile: profileSecret(),
    };
    try {
      const answer = await api("api/tables", { method: "POST", body });
      saveName(name);
      saveSeat(answer.table, answer.seat, answer.secret, name);
      saveHost(answer.table, answer.host);
      saveLastGame({ variant: variant.id, level });
      location.href = `t/${encodeURIComponent(answer.table)}`;
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  }

  return h(
    "section",
    { class: "box quick-play" },
    button,
    h("p", {
      class: "muted small",
      dataset: { testid: "quick-play-what" },
      text: tn("quick.what", opponents, { variant: variant.name, level: t(`levelName.${level}`) }),
    }),
    error,
  );
}
