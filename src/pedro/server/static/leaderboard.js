// The leaderboard "/leaderboard?variant=cinch": a variant's players by rating, computer levels among
// them as reference points (GET api/leaderboard/{variant}).
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { t } from "./i18n.js";
import { belief, rating, topbar, variantNames } from "./ratingtext.js";
import { loadProfile } from "./myprofile.js";

export async function leaderboardPage(root) {
  document.title = `Pedro — ${t("board.title").toLowerCase()}`;
  const select = h("select", { name: "variant", attrs: { "aria-label": t("board.variant") } });
  const body = h("div", { class: "board" }, h("p", { class: "muted", text: t("board.loading") }));
  fill(
    root,
    topbar(t("board.title"), t("board.subtitle")),
    h(
      "section",
      { class: "box" },
      h("label", { class: "field inline" }, h("span", { text: t("board.variant") }), select),
      h("p", { class: "muted small", text: t("board.about") }),
      body,
    ),
    h("p", {}, h("a", { href: "profile", text: t("profile.mine") })),
  );
  let names = {};
  try {
    names = await variantNames();
  } catch (err) {
    fill(body, h("p", { class: "form-error", text: err.message }));
    return;
  }
  const wanted = new URLSearchParams(location.search).get("variant");
  for (const [id, name] of Object.entries(names)) select.append(h("option", { value: id, text: name, selected: id === wanted }));
  const show = async () => {
    history.replaceState(null, "", `leaderboard?variant=${encodeURIComponent(select.value)}`);
    try {
      const board = await api(`api/leaderboard/${encodeURIComponent(select.value)}`);
      fill(body, boardTable(board.rows));
    } catch (err) {
      fill(body, h("p", { class: "form-error", text: err.message }));
    }
  };
  select.addEventListener("change", show);
  show();
}

function boardTable(rows) {
  if (!rows.length) return h("p", { class: "muted", text: t("board.empty") });
  const mine = loadProfile();
  return h(
    "div",
    { class: "sheet-scroll" },
    h(
      "table",
      { class: "sheet board-table" },
      h("thead", {}, h("tr", {}, [t("board.rank"), t("board.player"), t("board.rating"), t("board.belief"), t("board.games")].map((x) => h("th", { text: x })))),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            { class: `${row.kind === "computer" ? "computer" : ""} ${mine && mine.id === row.profile ? "me" : ""}`, dataset: { profile: row.profile } },
            h("td", { text: String(row.rank) }),
            h(
              "td",
              {},
              h("a", { href: `profile/${encodeURIComponent(row.profile)}`, text: row.name }),
              row.kind === "computer" ? h("span", { class: "badge up", text: t("board.computer") }) : null,
            ),
            h("td", { class: "num", text: rating(row.rating) }),
            h("td", { class: "num", text: belief(row.mu, row.sigma) }),
            h("td", { class: "num", text: String(row.games) }),
          ),
        ),
      ),
    ),
  );
}
