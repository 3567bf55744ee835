// Words shared by several pages.
import { t, tn, tIf, tServer } from "./i18n.js";

export const humanize = (name) => name.replaceAll("_", " ");

/** A house rule's name ("keep_nontrumps") in the page's language; one the catalogs lack, in words. */
export const optionName = (name) => tIf(`houseRule.${name}`) ?? humanize(name);

/** One of a house rule's values ("keep_and_bury") in the page's language; one the catalogs lack, in words. */
export const optionValue = (value) => tIf(`houseRule.value.${value}`) ?? humanize(value);

/** "clock 20 s a move" for a table with a turn clock (clock.js); "" without. */
export const clockText = (table) => (table && table.clock ? t("clock.badge", { s: String(Math.round(table.clock * 10) / 10) }) : "");

/** How long a table's game is: "to 62", or a tournament's deal's "tournament deal · one hand · target 62" (its hand scores to the target); and its turn clock, if it has one ("clock 20 s a move"). */
export const lengthText = (table) =>
  (table.hands
    ? `${tn("tournament.hands", table.hands)}${table.target ? ` · ${t("summary.target", { target: table.target })}` : ""}`
    : t("table.to", { target: table.target })) + (clockText(table) ? ` · ${clockText(table)}` : "");

/** The target beside the scores ("target 62"); a tournament deal's length instead, as it has none. */
export const targetText = (table) => (table.hands ? lengthText(table) : t("summary.target", { target: table.target ?? "?" }));

/**
 * A house rule's help (option_table.py's description, written for `--option name=value`) as the page
 * shows it: translated, and every option or value it names by the label the form shows, so "unless
 * end_rule is given" reads "unless end of the game is given" and "excess_trumps=must_discard_to_6"
 * reads "excess trumps “must discard to 6”".
 */
export function optionHelp(text) {
  const label = (id) => (tIf(`houseRule.${id}`) !== null ? optionName(id) : `“${optionValue(id)}”`);
  return tServer(text || "").replace(/\b([a-z0-9]+(?:_[a-z0-9]+)+)(?:=([a-z0-9_]+))?/g, (all, id, value) =>
    value === undefined ? label(id) : `${optionName(id)} “${optionValue(value)}”`,
  );
}

/**
 * A table's options in a line: "target 11, slam, no keep nontrumps"; none is "standard rules".
 * `omit`: option names told elsewhere (e.g. "target", shown from the table's own `target`).
 * (The options' names and values as the house rules list has them.)
 */
export function optionsText(options, omit = []) {
  const entries = Object.entries(options || {}).filter(([k]) => !omit.includes(k));
  if (!entries.length) return t("options.standard");
  return entries
    .map(([k, v]) =>
      v === true
        ? optionName(k)
        : v === false
          ? t("options.no", { name: optionName(k) })
          : `${optionName(k)} ${v === null ? t("options.none") : optionValue(String(v))}`,
    )
    .join(", ");
}

/**
 * The words of the phone, keyboard, deck and "my tables" features (read when drawn, in the language in use).
 * Functions take what varies ("five of hearts" + PLAYABLE → "five of hearts, playable").
 */
export const WORDS = {
  get playable() { return t("words.playable"); },
  get notPlayable() { return t("words.notPlayable"); },
  get required() { return t("words.required"); },
  get notChoosable() { return t("words.notChoosable"); },
  get bidRow() { return t("words.bidRow"); },
  get fourColourDeck() { return t("words.fourColourDeck"); },
  get fourColourHint() { return t("words.fourColourHint"); },
  get myTables() { return t("words.myTables"); },
  get noTables() { return t("words.noTables"); },
  get backToSeat() { return t("words.backToSeat"); },
  seatOf: (seat, name) => t("words.seatOf", { seat: seat + 1, name }),
  get gameOver() { return t("words.gameOver"); },
  get replay() { return t("words.replay"); },
  get forget() { return t("words.forget"); },
  forgetLabel: (title) => t("words.forgetLabel", { title }),
  get unreachable() { return t("words.unreachable"); },
};

/**
 * The level a computer player is, by the level's name or the player it stands for (players/levels.py
 * LEVELS: the server names its computer seats by the same table); null for any other player.
 */
const LEVEL_OF = { beginner: "beginner", basic: "beginner", club: "club", heuristic: "club", strong: "strong", "expert:3:bid=heuristic": "strong", expert: "expert" };

/** The level ("club") a computer player is, or null for a player that is no level's. */
export const levelOf = (player) => (player && LEVEL_OF[player]) || null;

/** A computer player as people read it: its level's name in the page's language, any other player as its spec. */
export const playerLabel = (player) => (levelOf(player) ? t(`levelName.${levelOf(player)}`) : player || t("seat.computer"));

/** A computer seat's name: "2 · Beginner", the seat first (from 1) so two computers read apart even when cut. */
export const computerName = (seat, player) => t("seat.computerName", { n: seat + 1, level: playerLabel(player) });
