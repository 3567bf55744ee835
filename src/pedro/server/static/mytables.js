// "My tables" in the lobby: every table this browser holds a seat at (storage.js), so a player who
// closed the tab finds the way back, private tables too. A finished game stays, with its replay,
// until forgotten; a table the server no longer knows (404: the link cannot open it again) is
// dropped with its useless secret.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { mySeats, forgetSeat } from "./storage.js";
import { sideName } from "./sheet.js";
import { WORDS } from "./text.js";
import { t } from "./i18n.js";

/** At most this many tables are asked about on each refresh (the latest seats). */
const SHOWN = 20;

/** The lobby's "My tables" box: hidden while this browser sits at no table. */
export function myTablesBox() {
  const list = h("div", { class: "tables my-tables-list" });
  const box = h("section", { class: "box my-tables", hidden: true }, h("h2", { text: WORDS.myTables }), list);
  const refresh = async () => {
    const seats = mySeats().slice(0, SHOWN);
    const rows = await Promise.all(seats.map(describe));
    const shown = rows.filter(Boolean);
    box.hidden = !shown.length;
    fill(list, shown);
  };
  return { box, refresh };
}

async function describe(mine) {
  let summary = null;
  try {
    summary = await api(`api/tables/${encodeURIComponent(mine.id)}`);
  } catch (err) {
    if (err.status === 404) {
      forgetSeat(mine.id);
      return null;
    }
  }
  const url = `t/${encodeURIComponent(mine.id)}`;
  const title = summary ? summary.title || summary.name : mine.id;
  const seat = WORDS.seatOf(mine.seat, mine.name || "?");
  let status;
  if (!summary) status = WORDS.unreachable;
  else if (summary.finished) {
    const winner = summary.winner === null || summary.winner === undefined ? "" : ` · ${t("mine.won", { name: sideName(summary, summary.seats, summary.winner) })}`;
    status = `${WORDS.gameOver}${winner}`;
  } else status = summary.phase === "waiting" ? t("lobby.waiting") : `${t("lobby.hand", { n: summary.hand_index + 1 })} · ${summary.scores.join("–")}`;
  const row = h(
    "article",
    { class: `table-card my-table ${summary && summary.finished ? "finished" : ""}`, dataset: { myTable: mine.id } },
    h("div", { class: "tc-head" }, h("h3", { text: title, attrs: { title } }), h("span", { class: "muted small", text: summary ? summary.name : "" })),
    h("p", { class: "muted small one-line", text: `${seat} · ${status}`, attrs: { title: `${seat} · ${status}` } }),
    h(
      "div",
      { class: "buttons" },
      summary && summary.finished
        ? h("a", { class: "button", href: `replay/${encodeURIComponent(mine.id)}`, text: WORDS.replay })
        : h("a", { class: "button primary", href: url, text: WORDS.backToSeat }),
      // a next game set up by play again: the way on from the finished one
      summary && summary.next ? h("a", { class: "button", href: `t/${encodeURIComponent(summary.next)}`, text: t("again.nextGame"), dataset: { testid: "next-game" } }) : null,
      summary && summary.finished
        ? h("button", {
            type: "button",
            class: "quiet small-button",
            text: WORDS.forget,
            attrs: { "aria-label": WORDS.forgetLabel(title) },
            on: {
              click: () => {
                forgetSeat(mine.id);
                row.remove();
              },
            },
          })
        : null,
    ),
  );
  return row;
}
