// The offline app (play.html): one person against computer players, the game played by pedro's
// own Python in a Web Worker (soloengine.js), with no server. Its views, by the address's hash:
//   (none)               new game, the games kept in this browser, a record to open
//   #game/<id>           a game, drawn by the served table's page (table.js)
//   #replay/game/<id>    a kept game's replay; #replay/record/<id> an opened record's
import { h, fill } from "./dom.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { optionFields } from "./createform.js";
import { engine, SoloSocket } from "./soloengine.js";
import { listGames, loadGame, deleteGame, saveGame, saveRecord, loadRecord } from "./solostore.js";
import { loadName, saveName } from "./storage.js";
import { applyDeck, prefsFooter } from "./prefs.js";
import { loadLanguage, t, tServer } from "./i18n.js";

const root = document.getElementById("app");
/** The view shown now, stopped when another is shown (a game's connection to the worker). */
let leave = () => {};

function route() {
  leave();
  leave = () => {};
  const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
  let m;
  if ((m = hash.match(/^game\/(.+)$/))) gameView(m[1]);
  else if ((m = hash.match(/^replay\/(game|record)\/(.+)$/))) replayView(m[1], m[2]);
  else homeView();
}

// ---- the engine's state ------------------------------------------------------------------------

function engineStatus() {
  const line = h("p", { class: "muted engine-status", dataset: { testid: "engine-status", state: "loading" }, attrs: { role: "status" } });
  engine().onStatus((status) => {
    if (status.type === "ready") {
      line.dataset.state = "ready";
      line.textContent = t("solo.ready");
    } else if (status.type === "failed") {
      line.dataset.state = "failed";
      line.className = "form-error engine-status";
      line.textContent = t("solo.failed", { why: status.error });
    } else {
      line.textContent = t(`solo.loading.${status.stage}`);
    }
  });
  return line;
}

// ---- home: a new game, the kept games, a record to open ----------------------------------------

async function homeView() {
  document.body.dataset.page = "solo-home";
  document.title = `${t("solo.title")} — Pedro`;
  const form = h("div", { class: "box solo-new" }, h("h2", { text: t("solo.newGame") }), h("p", { class: "muted", text: t("solo.waitForEngine") }));
  const games = h("div", { class: "solo-games" });
  fill(
    root,
    h("header", { class: "topbar" }, h("span", { class: "home", text: "♠ Pedro" }), h("div", { class: "heading" }, h("h1", { class: "title", text: t("solo.title") }), h("span", { class: "subtitle muted", text: t("solo.subtitle") }))),
    engineStatus(),
    form,
    games,
    importBox(),
  );
  showGames(games);
  try {
    await engine().ready;
    fill(form, h("h2", { text: t("solo.newGame") }), newGameForm(await engine().json("catalog")));
  } catch {
    fill(form, h("h2", { text: t("solo.newGame") }), h("p", { class: "form-error", text: t("solo.noEngine") }));
  }
}

function newGameForm(catalog) {
  const variants = catalog.variants;
  const levels = catalog.levels.map((l) => l.name);
  const variantSelect = h("select", { name: "variant", attrs: { "aria-label": t("form.variant") } }, variants.map((v) => h("option", { value: v.id, text: v.name })));
  const summary = h("p", { class: "variant-summary muted" });
  const rules = h("div", { class: "rules-list" });
  const seatsBox = h("fieldset", { class: "seats" });
  const name = h("input", { type: "text", name: "name", value: loadName(), attrs: { autocomplete: "nickname", placeholder: t("join.yourName"), maxlength: "24", required: true } });
  const error = h("p", { class: "form-error", attrs: { role: "alert" } });
  let fields = optionFields();
  let seats = [];

  const variant = () => variants.find((v) => v.id === variantSelect.value);

  function renderSeats() {
    const n = variant().players;
    seats = Array.from({ length: n }, (_, i) => seats[i] ?? (i === 0 ? null : levels[levels.length - 1]));
    if (!seats.includes(null)) seats[0] = null;
    fill(
      seatsBox,
      h("legend", { text: t("form.players") }),
      seats.map((player, seat) => {
        const choice = h(
          "select",
          { name: `seat-${seat}`, attrs: { "aria-label": t("form.playerLabel", { n: seat + 1 }) } },
          h("option", { value: "", text: t("solo.you") }),
          levels.map((level) => h("option", { value: level, text: t(`levelName.${level}`), attrs: { title: t(`level.${level}`) } })),
        );
        choice.value = player ?? "";
        choice.addEventListener("change", () => {
          // one seat is the person's: taking another gives the old one to a computer
          if (!choice.value) seats = seats.map((p) => p ?? levels[levels.length - 1]);
          seats[seat] = choice.value || null;
          renderSeats();
        });
        return h("label", { class: "seat-row" }, h("span", { class: "seat-label", text: t("join.seat", { n: seat + 1 }) }), choice);
      }),
      h("ul", { class: "levels-help muted small" }, levels.map((level) => h("li", {}, h("strong", { text: t(`levelName.${level}`) }), `: ${t(`level.${level}`)}`))),
      h("p", { class: "muted small", text: t("solo.serverLevels") }),
    );
  }

  function renderVariant() {
    const v = variant();
    fields = optionFields();
    summary.textContent = tServer(v.summary || "");
    fill(rules, (v.options || []).filter((o) => o.name !== "players" && o.name !== "partnerships").map(fields.row));
    renderSeats();
  }

  async function start(event) {
    event.preventDefault();
    error.textContent = "";
    const person = name.value.trim();
    if (!person) {
      error.textContent = t("solo.needName");
      return;
    }
    saveName(person);
    const setup = { variant: variantSelect.value, options: fields.chosen(), seats, name: person };
    const opened = await engine().json("open_game", JSON.stringify({ setup }));
    if (opened.type === "error") {
      error.textContent = opened.message;
      return;
    }
    await saveGame(opened);
    location.hash = `game/${encodeURIComponent(opened.setup.id)}`;
  }

  variantSelect.addEventListener("change", renderVariant);
  renderVariant();
  return h(
    "form",
    { class: "create-form", dataset: { testid: "solo-form" }, on: { submit: start } },
    h("label", { class: "field" }, h("span", { text: t("form.variant") }), variantSelect),
    summary,
    h("label", { class: "field" }, h("span", { text: t("join.yourName") }), name),
    seatsBox,
    h("details", { class: "house-rules" }, h("summary", { text: t("form.houseRules") }), rules),
    error,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", dataset: { testid: "solo-start" }, text: t("solo.start") })),
  );
}

async function showGames(box) {
  const games = await listGames();
  const line = (saved) => {
    const id = saved.setup.id;
    const scores = saved.scores.join(" – ");
    const when = new Date(saved.at).toLocaleString();
    return h(
      "li",
      { class: "solo-game", dataset: { game: id } },
      h("strong", { text: saved.table.name }),
      ` · ${saved.finished ? t("solo.finishedLine", { scores }) : t("solo.handLine", { n: saved.hand, scores })} · `,
      h("span", { class: "muted small", text: when }),
      " ",
      saved.finished
        ? h("a", { class: "button", href: `#replay/game/${encodeURIComponent(id)}`, dataset: { testid: "solo-replay" }, text: t("summary.replay") })
        : h("a", { class: "button primary", href: `#game/${encodeURIComponent(id)}`, dataset: { testid: "solo-resume" }, text: t("solo.resume") }),
      " ",
      h("button", { type: "button", class: "quiet", dataset: { testid: "solo-download" }, text: t("summary.download"), on: { click: () => downloadRecord(saved) } }),
      " ",
      h("button", {
        type: "button",
        class: "quiet",
        text: t("solo.delete"),
        on: {
          click: async () => {
            if (!confirm(t("solo.deleteConfirm"))) return;
            await deleteGame(id);
            showGames(box);
          },
        },
      }),
    );
  };
  const unfinished = games.filter((g) => !g.finished);
  const finished = games.filter((g) => g.finished);
  fill(
    box,
    unfinished.length ? h("section", { class: "box", dataset: { testid: "solo-unfinished" } }, h("h2", { text: t("solo.unfinished") }), h("ul", { class: "solo-list" }, unfinished.map(line))) : null,
    finished.length ? h("section", { class: "box", dataset: { testid: "solo-finished" } }, h("h2", { text: t("solo.finished") }), h("ul", { class: "solo-list" }, finished.map(line))) : null,
  );
}

/** A kept game's record, downloaded as a pedro-record/1 file. */
async function downloadRecord(saved) {
  await engine().json("open_game", JSON.stringify(saved));
  const text = await engine().call("record");
  const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), attrs: { download: `pedro-${saved.setup.variant}-${saved.setup.id}.json` } });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** A record file to watch (a bad one is refused by the replay, which says why). */
function importBox() {
  const input = h("input", {
    type: "file",
    accept: ".json,application/json",
    dataset: { testid: "solo-import" },
    on: {
      change: async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        const text = await file.text();
        const id = `r${Date.now().toString(36)}`;
        await saveRecord(id, text, file.name);
        location.hash = `replay/record/${encodeURIComponent(id)}`;
      },
    },
  });
  return h("section", { class: "box" }, h("h2", { text: t("solo.openRecord") }), h("p", { class: "muted small", text: t("solo.openRecordHelp") }), input);
}

// ---- a game ------------------------------------------------------------------------------------

async function gameView(id) {
  document.body.dataset.page = "table";
  const saved = await loadGame(id);
  if (!saved) {
    fill(root, h("section", { class: "box" }, h("h1", { text: t("solo.noGame") }), h("p", {}, h("a", { href: "./", text: t("solo.toHome") }))));
    return;
  }
  const page = tablePage(root, id, {
    connect: (handlers) => new SoloSocket({ setup: saved.setup, actions: saved.actions }, handlers),
    links: () => [
      h("button", { type: "button", class: "button", dataset: { testid: "download" }, text: t("summary.download"), on: { click: async () => downloadRecord(await loadGame(id)) } }),
      h("a", { class: "button", href: `#replay/game/${encodeURIComponent(id)}`, text: t("summary.replay") }),
      h("a", { class: "button quiet", href: "./", text: t("solo.toHome") }),
    ],
  });
  leave = () => page.stop();
}

// ---- a replay ----------------------------------------------------------------------------------

function replayView(kind, id) {
  document.body.dataset.page = "replay";
  replayPage(root, id, async () => {
    let text;
    if (kind === "game") {
      const saved = await loadGame(id);
      if (!saved) throw new Error(t("solo.noGame"));
      await engine().json("open_game", JSON.stringify(saved));
      text = await engine().call("record");
    } else {
      const kept = await loadRecord(id);
      if (!kept) throw new Error(t("solo.noRecord"));
      text = kept.text;
    }
    const answer = await engine().json("replay", text);
    if (answer.type === "error") throw new Error(t("solo.badRecord", { why: answer.message }));
    return answer;
  });
}

// ---- start -------------------------------------------------------------------------------------

/** A link to the app's own page (the table's "♠ Pedro", "Back to my games") shows the home view
 * in this page: leaving it would start the worker's Python again, some seconds. */
function stayInPage(event) {
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href);
  const home = new URL("./", document.baseURI);
  if (url.origin !== home.origin || url.pathname !== home.pathname || url.hash) return;
  event.preventDefault();
  if (location.hash) location.hash = "";
  else route();
}

applyDeck();
engine(); // the worker's Python starts loading now, while the page fetches its language
await loadLanguage();
addEventListener("hashchange", route);
document.addEventListener("click", stayInPage);
route();
document.body.append(prefsFooter());
if ("serviceWorker" in navigator) {
  // the app's files kept for offline use (sw.js); a page served from a file has none
  navigator.serviceWorker.register("sw.js").catch(() => {});
}
