// The score sheet and the end-of-game summary, shared by the table and the replay viewer.
import { h, seatName } from "./dom.js";
import { suitText } from "./cards.js";
import { t, tn } from "./i18n.js";
import { targetText } from "./text.js";

/** "Ann & Cy" for a partnership, "Ann" for a player alone. */
export function sideName(table, seats, side) {
  const members = (table.sides && table.sides[side]) || [side];
  return members.map((s) => seatName(seats, s)).join(" & ");
}

function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

/** What was bid, without the bidder: "8 ♥", "28-56 ♠", "protect (30) ♣". */
function bidText(row) {
  const call = row.call === "protect" ? t("sheet.protect") : row.call === "double" ? t("sheet.double") : row.call;
  const bid = row.call ? `${call}${row.call === "protect" ? ` (${row.bid})` : ""}` : String(row.bid);
  return `${bid}${row.trump ? " " + suitText(row.trump) : ""}`;
}

/** The contract in words: "Ann: 8 ♥", "Bo: 28-56 ♠", or "thrown in" (the colon keeps a name that ends in a number apart from the bid). */
export function contractText(seats, row) {
  if (row.bidder === null || row.bidder === undefined) return t("sheet.thrownIn");
  return `${seatName(seats, row.bidder)}: ${bidText(row)}`;
}

/** The sheet's contract cell: the bidder and the bid in spans of their own, a colon and weight between. */
function contractCell(seats, row) {
  if (row.bidder === null || row.bidder === undefined) return t("sheet.thrownIn");
  return [h("span", { class: "bidder", text: `${seatName(seats, row.bidder)}:` }), " ", h("span", { class: "bid", text: bidText(row) })];
}

/** One row per finished hand; each side's cell shows its running score and what the hand changed. */
export function renderSheet(table, seats, sheet, scores) {
  const sides = (table.sides || []).map((_, i) => i);
  const head = h(
    "tr",
    {},
    h("th", { text: "#", attrs: { scope: "col" } }),
    h("th", { text: t("sheet.contract"), attrs: { scope: "col", title: t("sheet.contract") } }),
    // a side's names in a span of their own: a name too long for the column ends in "…" (the title holds it whole)
    sides.map((side) => h("th", { attrs: { scope: "col", title: sideName(table, seats, side) }, class: "num" }, h("span", { class: "side-head", text: sideName(table, seats, side) }))),
  );
  let previous = sides.map(() => 0);
  const rows = sheet.map((row, i) => {
    const made = row.bidder === null || row.bidder === undefined ? "" : row.made ? "made" : "set";
    const cells = sides.map((side) => {
      const score = row.score[side];
      const delta = score - previous[side];
      const cell = h(
        "td",
        { class: "num", attrs: { title: t("sheet.pointsTaken", { n: row.points[side] }) } },
        h("span", { class: "score", text: String(score) }),
        " ",
        h("span", { class: `delta ${delta < 0 ? "neg" : ""}`, text: `(${signed(delta)})` }),
      );
      return cell;
    });
    previous = row.score.slice();
    return h(
      "tr",
      { dataset: { hand: String(i) } },
      h("td", { text: String(i + 1) }),
      h(
        "td",
        { class: "contract" },
        contractCell(seats, row),
        made ? h("span", { class: `made ${made}`, text: made === "made" ? " ✓" : " ✗", attrs: { title: t(`sheet.${made}`) } }) : null,
      ),
      cells,
    );
  });
  const total =
    scores && scores.length
      ? h(
          "tr",
          { class: "total" },
          h("td", {}),
          h("td", { text: t("sheet.score") }),
          sides.map((side) => h("td", { class: "num", text: String(scores[side] ?? "") })),
        )
      : null;
  return h(
    "table",
    { class: "sheet", dataset: { testid: "sheet" } },
    h("thead", {}, head),
    h("tbody", {}, rows.length ? rows : h("tr", { class: "empty" }, h("td", { attrs: { colspan: String(2 + sides.length) }, text: t("sheet.empty") }))),
    total ? h("tfoot", {}, total) : null,
  );
}

/** The end of the game: who won, the final scores, and where to keep or watch it again (`links`
 * instead of a served table's, for a game the browser played). */
export function renderSummary(table, seats, game, tableId, { replayLink = true, links = null } = {}) {
  const winner = game.winner;
  const sides = (table.sides || []).map((_, i) => i);
  const title =
    winner === null || winner === undefined
      ? t("summary.over")
      : t((table.sides[winner] || []).length > 1 ? "summary.sideWins" : "summary.playerWins", { name: sideName(table, seats, winner) });
  const hands = (game.sheet || []).length;
  return h(
    "section",
    { class: "summary", dataset: { testid: "summary" } },
    h("h2", { text: title }),
    h(
      "ul",
      { class: "final-scores" },
      sides.map((side) =>
        h(
          "li",
          { class: side === winner ? "winner" : "" },
          h("span", { class: "who", text: sideName(table, seats, side) }),
          h("span", { class: "pts", text: String(game.scores[side]) }),
        ),
      ),
    ),
    h("p", { class: "muted", text: `${tn("summary.handsPlayed", hands)} · ${targetText(table)}` }),
    h(
      "p",
      { class: "links" },
      links ?? [
        h("a", {
          class: "button",
          href: `api/tables/${encodeURIComponent(tableId)}/record`,
          attrs: { download: `pedro-${tableId}.json` },
          dataset: { testid: "download" },
          text: t("summary.download"),
        }),
        replayLink ? h("a", { class: "button", href: `replay/${encodeURIComponent(tableId)}`, text: t("summary.replay") }) : null,
        h("a", { class: "button quiet", href: "./", text: t("page.backToLobby") }),
      ],
    ),
  );
}

/** "Hand 3: Ann 8 ♥ made — Ann & Cy +8, Bo & Di +2". */
export function handResult(table, seats, sheet, index) {
  const row = sheet[index];
  const before = index > 0 ? sheet[index - 1].score : row.score.map(() => 0);
  const changes = row.score.map((score, side) => `${sideName(table, seats, side)} ${signed(score - before[side])}`);
  const outcome = row.bidder === null || row.bidder === undefined ? "" : ` ${t(row.made ? "sheet.made" : "sheet.set")}`;
  return `${t("sheet.hand", { n: index + 1 })}: ${contractText(seats, row)}${outcome} — ${changes.join(", ")}`;
}
