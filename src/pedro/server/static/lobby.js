// The lobby "/": open tables to join or watch, and the form to start a new one.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { loadName, saveName, loadSeat, saveSeat } from "./storage.js";
import { createForm } from "./createform.js";
import { limitLength } from "./limits.js";
import { optionsText } from "./text.js";
import { myTablesBox } from "./mytables.js";

const REFRESH_MS = 4000;

export function lobbyPage(root) {
  document.title = "Pedro — lobby";
  const nameInput = limitLength(
    h("input", {
      type: "text",
      name: "player-name",
      value: loadName(),
      attrs: { placeholder: "Your name", autocomplete: "nickname", "aria-label": "your name" },
    }),
    "name_chars",
  );
  nameInput.addEventListener("change", () => saveName(nameInput.value.trim()));
  const tablesBox = h("div", { class: "tables" }, h("p", { class: "muted", text: "Loading tables…" }));
  const tablesError = h("p", { class: "form-error", attrs: { role: "alert" } });
  const formBox = h("div", {}, h("p", { class: "muted", text: "Loading games…" }));
  const mine = myTablesBox();

  fill(
    root,
    h(
      "header",
      { class: "topbar" },
      h("a", { href: "./", class: "home", text: "♠ Pedro" }),
      h("div", { class: "heading" }, h("h1", { class: "title", text: "Lobby" }), h("span", { class: "subtitle muted", text: "Cinch, Pidro, King Pedro and friends" })),
    ),
    h("div", { class: "lobby" },
      h("section", { class: "box you-box" }, h("label", { class: "field inline" }, h("span", { text: "Your name" }), nameInput)),
      mine.box,
      h("section", { class: "box open-tables" }, h("h2", { text: "Open tables" }), tablesError, tablesBox),
      h("section", { class: "box new-table" }, h("h2", { text: "New table" }), formBox),
    ),
  );

  const refresh = async () => {
    try {
      const { tables } = await api("api/tables");
      tablesError.textContent = "";
      fill(tablesBox, tables.length ? tables.map((t) => tableCard(t, nameInput, tablesError)) : h("p", { class: "muted", text: "No open table right now — create one below." }));
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
    .then((catalog) => fill(formBox, createForm(catalog, nameInput)))
    .catch((err) => fill(formBox, h("p", { class: "form-error", text: err.message })));
}

function tableCard(t, nameInput, errorEl) {
  const mine = loadSeat(t.id);
  const url = `t/${encodeURIComponent(t.id)}`;
  const num = (s) => h("span", { class: "seat-num", text: String(s.seat + 1) });
  const seats = t.seats.map((s) => {
    const label = (text) => h("span", { class: "chip-name", text, attrs: { title: text } });
    if (s.kind === "computer") return h("li", { class: "seat-chip bot" }, num(s), label(s.name || `computer (${s.player})`));
    if (s.claimed) return h("li", { class: `seat-chip taken ${s.connected ? "online" : ""}` }, num(s), label(s.name || "taken"));
    if (mine) return h("li", { class: "seat-chip free" }, num(s), "free");
    return h(
      "li",
      { class: "seat-chip free" },
      h("button", {
        type: "button",
        class: "small-button",
        text: `Sit at seat ${s.seat + 1}`,
        dataset: { join: String(s.seat) },
        on: { click: (e) => claim(t.id, s.seat, nameInput, errorEl, e.currentTarget) },
      }),
    );
  });
  const free = (t.free_seats || []).length;
  return h(
    "article",
    { class: "table-card", dataset: { table: t.id } },
    h(
      "div",
      { class: "tc-head" },
      h("h3", { text: t.title || t.name, attrs: { title: t.title || t.name } }),
      h("span", { class: "muted small", text: `${t.title ? t.name + " · " : ""}${free} free seat${free === 1 ? "" : "s"}${t.phase === "waiting" ? " · waiting for players" : ` · hand ${t.hand_index + 1}`}` }),
    ),
    h("p", { class: "muted small", text: `to ${t.target} · ${optionsText(t.options, ["target"])}` }),
    h("ul", { class: "seat-chips" }, seats),
    h(
      "div",
      { class: "buttons" },
      mine ? h("a", { class: "button primary", href: url, text: "Back to your seat" }) : null,
      h("a", { class: "button quiet", href: `${url}?watch`, text: "Watch", dataset: { watch: t.id } }),
    ),
  );
}

async function claim(tableId, seat, nameInput, errorEl, button) {
  const name = nameInput.value.trim();
  if (!name) {
    errorEl.textContent = "Enter your name first, then pick a seat.";
    nameInput.focus();
    return;
  }
  button.disabled = true;
  try {
    const answer = await api(`api/tables/${encodeURIComponent(tableId)}/seats`, { method: "POST", body: { seat, name } });
    saveSeat(tableId, answer.seat, answer.secret, name);
    location.href = `t/${encodeURIComponent(tableId)}`;
  } catch (err) {
    errorEl.textContent = err.message;
    button.disabled = false;
  }
}
