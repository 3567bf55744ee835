// The lobby "/": open tables to join or watch, and the form to start a new one.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { loadName, saveName, loadSeat, saveSeat } from "./storage.js";
import { createForm } from "./createform.js";
import { quickPlayBox } from "./quickplay.js";
import { limitLength } from "./limits.js";
import { optionsText, lengthText, playerLabel } from "./text.js";
import { myTablesBox } from "./mytables.js";
import { t, tn } from "./i18n.js";
import { loadProfile, profileSecret } from "./myprofile.js";

const REFRESH_MS = 4000;

export function lobbyPage(root) {
  document.title = `Pedro — ${t("lobby.title").toLowerCase()}`;
  const nameInput = limitLength(
    h("input", {
      type: "text",
      name: "player-name",
      value: loadName(),
      attrs: { placeholder: t("join.yourName"), autocomplete: "nickname", "aria-label": t("join.yourName") },
    }),
    "name_chars",
  );
  nameInput.addEventListener("change", () => saveName(nameInput.value.trim()));
  // a profile's name is the seat's: it is not typed
  const profile = loadProfile();
  if (profile) {
    nameInput.value = profile.name;
    nameInput.readOnly = true;
  }
  const profileLinks = h(
    "p",
    { class: "small profile-links" },
    h("a", { href: "profile", text: profile ? t("lobby.profileOf", { name: profile.name }) : t("lobby.makeProfile") }),
    " · ",
    h("a", { href: "leaderboard", text: t("board.title") }),
    " · ",
    // the offline app (/play/): the computer players in this browser, installable, no network needed
    h("a", { href: "play/", text: t("lobby.playOffline"), attrs: { title: t("lobby.playOfflineHelp") } }),
  );
  const tablesBox = h("div", { class: "tables" }, h("p", { class: "muted", text: t("lobby.loadingTables") }));
  const tablesError = h("p", { class: "form-error", attrs: { role: "alert" } });
  const formBox = h("div", {}, h("p", { class: "muted", text: t("lobby.loadingGames") }));
  const quickBox = h("div", {});
  const mine = myTablesBox();

  fill(
    root,
    h(
      "header",
      { class: "topbar" },
      h("a", { href: "./", class: "home", text: "♠ Pedro" }),
      h("div", { class: "heading" }, h("h1", { class: "title", text: t("lobby.title") }), h("span", { class: "subtitle muted", text: t("lobby.subtitle") })),
    ),
    h("div", { class: "lobby" },
      h("section", { class: "box you-box" }, h("label", { class: "field inline" }, h("span", { text: t("join.yourName") }), nameInput), profileLinks),
      quickBox,
      mine.box,
      h("section", { class: "box open-tables" }, h("h2", { text: t("lobby.openTables") }), tablesError, tablesBox),
      h("section", { class: "box new-table" }, h("h2", { text: t("lobby.newTable") }), formBox),
      h("section", { class: "box new-tournament-link" }, h("a", { class: "button quiet", href: "d/new", text: t("lobby.tournament") }), h("p", { class: "muted small", text: t("lobby.tournamentHelp") })),
    ),
  );

  const refresh = async () => {
    try {
      const { tables } = await api("api/tables");
      tablesError.textContent = "";
      fill(tablesBox, tables.length ? tables.map((table) => tableCard(table, nameInput, tablesError)) : h("p", { class: "muted", text: t("lobby.noTables") }));
    } catch (err) {
      tablesError.textContent = err.message;
    }
  };
  refresh();
  mine.refresh();
  // the list changes as people sit down; a slow poll is enough for a lobby
  setInterval(() => {
    if (document.hidden) return;
    refresh();
    mine.refresh();
  }, REFRESH_MS);

  api("api/variants")
    .then((catalog) => {
      fill(quickBox, quickPlayBox(catalog, nameInput));
      fill(formBox, createForm(catalog, nameInput));
    })
    .catch((err) => fill(formBox, h("p", { class: "form-error", text: err.message })));
}

function tableCard(table, nameInput, errorEl) {
  const mine = loadSeat(table.id);
  const url = `t/${encodeURIComponent(table.id)}`;
  const num = (s) => h("span", { class: "seat-num", text: String(s.seat + 1) });
  const seats = table.seats.map((s) => {
    const label = (text) => h("span", { class: "chip-name", text, attrs: { title: text } });
    if (s.kind === "computer") return h("li", { class: "seat-chip bot" }, num(s), label(playerLabel(s.player)));
    if (s.claimed) return h("li", { class: `seat-chip taken ${s.connected ? "online" : ""}` }, num(s), label(s.name || t("join.taken")));
    if (mine) return h("li", { class: "seat-chip free" }, num(s), t("join.free"));
    return h(
      "li",
      { class: "seat-chip free" },
      h("button", {
        type: "button",
        class: "small-button",
        text: t("lobby.sit", { n: s.seat + 1 }),
        dataset: { join: String(s.seat) },
        on: { click: (e) => claim(table.id, s.seat, nameInput, errorEl, e.currentTarget) },
      }),
    );
  });
  const free = (table.free_seats || []).length;
  return h(
    "article",
    { class: "table-card", dataset: { table: table.id } },
    h(
      "div",
      { class: "tc-head" },
      h("h3", { text: table.title || table.name, attrs: { title: table.title || table.name } }),
      h("span", { class: "muted small", text: `${table.title ? table.name + " · " : ""}${tn("lobby.freeSeats", free)} · ${table.phase === "waiting" ? t("lobby.waiting") : t("lobby.hand", { n: table.hand_index + 1 })} · ${table.rated ? t("rating.badge") : t("rating.unratedBadge")}` }),
    ),
    h("p", { class: "muted small", text: `${lengthText(table)} · ${optionsText(table.options, ["target"])}` }),
    h("ul", { class: "seat-chips" }, seats),
    h(
      "div",
      { class: "buttons" },
      mine ? h("a", { class: "button primary", href: url, text: t("words.backToSeat") }) : null,
      h("a", { class: "button quiet", href: `${url}?watch`, text: t("lobby.watch"), dataset: { watch: table.id } }),
    ),
  );
}

async function claim(tableId, seat, nameInput, errorEl, button) {
  const name = nameInput.value.trim();
  if (!name) {
    errorEl.textContent = t("lobby.needName");
    nameInput.focus();
    return;
  }
  button.disabled = true;
  try {
    const answer = await api(`api/tables/${encodeURIComponent(tableId)}/seats`, { method: "POST", body: { seat, name, profile: profileSecret() } });
    saveSeat(tableId, answer.seat, answer.secret, answer.name || name);
    location.href = `t/${encodeURIComponent(tableId)}`;
  } catch (err) {
    errorEl.textContent = err.message;
    button.disabled = false;
  }
}
