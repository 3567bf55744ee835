// Words shared by several pages.

export const humanize = (name) => name.replaceAll("_", " ");

/**
 * A table's options in a line: "target 11, slam, no keep nontrumps"; none is "standard rules".
 * `omit`: option names told elsewhere (e.g. "target", shown from the table's own `target`).
 */
export function optionsText(options, omit = []) {
  const entries = Object.entries(options || {}).filter(([k]) => !omit.includes(k));
  if (!entries.length) return "standard rules";
  return entries
    .map(([k, v]) => (v === true ? humanize(k) : v === false ? `no ${humanize(k)}` : `${humanize(k)} ${v === null ? "none" : humanize(String(v))}`))
    .join(", ");
}

/**
 * The words of the phone, keyboard, deck and "my tables" features, in one place for translation.
 * Functions take what varies ("five of hearts" + PLAYABLE → "five of hearts, playable").
 */
export const WORDS = {
  playable: "playable",
  notPlayable: "not playable",
  required: "must be chosen",
  notChoosable: "cannot be chosen",
  bidRow: "Bid",
  keysHint: "Keys: ← → to choose, Enter to play, a number picks a bid, P pass, S H D C a trump suit",
  fourColourDeck: "Four-colour deck",
  fourColourHint: "♦ blue, ♣ green",
  myTables: "My tables",
  noTables: "You sit at no table in this browser yet.",
  backToSeat: "Back to your seat",
  seatOf: (seat, name) => `seat ${seat + 1} as ${name}`,
  gameOver: "game over",
  replay: "Replay",
  forget: "Forget",
  forgetLabel: (title) => `forget ${title}`,
  unreachable: "cannot be reached right now",
};
