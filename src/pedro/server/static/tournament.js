// Duplicate tournaments: the director's form /d/new, and the tournament page /d/{id} where players join
// by its link, find the table of the deal they are to play, and everyone follows the standings and,
// deal by deal once every table has played it, the results side by side.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { loadName, saveName, saveSeat } from "./storage.js";
import { optionFields, levelsHelp } from "./createform.js";
import { limitLength } from "./limits.js";
import { optionsText, playerLabel } from "./text.js";
import { t, tn } from "./i18n.js";

const REFRESH_MS = 2500;
const PROMINENT = new Set(["target", "players", "partnerships"]);
const MAX_TABLES = 8;
const MAX_DEALS = 32;

// what the browser keeps: the player's secret per tournament, the director's, and each deal table's
// tournament (so the table page links back)
const playerKey = (id) => `pedro-tournament:${id}`;
const directorKey = (id) => `pedro-director:${id}`;
const backKey = (tableId) => `pedro-back:${tableId}`;

function loadJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

export function tournamentPage(root, id) {
  if (id === "new") newTournamentPage(root);
  else new TournamentView(root, id).start();
}

/** "Back to the tournament", on the table page of a tournament's deal once it is over; else null. */
export function tournamentLink(tableId) {
  const back = loadJson(backKey(tableId));
  if (!back || typeof back.tournament !== "string") return null;
  return h("p", { class: "tournament-back" }, h("a", { class: "button primary", href: `d/${encodeURIComponent(back.tournament)}`, text: t("tour.back") }));
}

function topbar(title, subtitle) {
  return h(
    "header",
    { class: "topbar" },
    h("a", { href: "./", class: "home", text: "♠ Pedro" }),
    h("div", { class: "heading" }, h("h1", { class: "title", text: title }), subtitle ? h("span", { class: "subtitle muted", text: subtitle }) : null),
  );
}

// ---------------------------------------------------------------------------- the director's form

function newTournamentPage(root) {
  document.title = `Pedro — ${t("tour.newTitle").toLowerCase()}`;
  const box = h("section", { class: "box new-tournament" }, h("p", { class: "muted", text: t("lobby.loadingGames") }));
  fill(root, topbar(t("tour.newTitle"), t("tour.subtitle")), h("div", { class: "lobby" }, box));
  api("api/variants")
    .then((catalog) => fill(box, h("h2", { text: t("tour.newTitle") }), h("p", { class: "muted small", text: t("tour.explain") }), tournamentForm(catalog)))
    .catch((err) => fill(box, h("p", { class: "form-error", text: err.message })));
}

function tournamentForm(catalog) {
  const variants = catalog.variants;
  const levels = (catalog.levels || []).map((l) => l.name);
  const variantSelect = h("select", { name: "variant", attrs: { "aria-label": t("form.variant") } }, variants.map((v) => h("option", { value: v.id, text: v.name })));
  const summary = h("p", { class: "variant-summary muted" });
  const prominent = h("div", { class: "prominent-options" });
  const rules = h("div", { class: "rules-list" });
  const title = limitLength(h("input", { type: "text", name: "title", attrs: { placeholder: t("form.titlePlaceholder") } }), "title_chars");
  const deals = h("input", { type: "number", name: "deals", value: "4", step: 1, attrs: { min: 1, max: MAX_DEALS } });
  const tables = h("input", { type: "number", name: "tables", value: "2", step: 1, attrs: { min: 2, max: MAX_TABLES } });
  const seatsBox = h("fieldset", { class: "seats tournament-seats" });
  const error = h("p", { class: "form-error", attrs: { role: "alert", "aria-live": "polite" } });
  const submit = h("button", { type: "submit", class: "primary", text: t("tour.create") });
  let fields = optionFields();
  // per table, per seat: "human" or a level name; kept when the numbers change
  const choices = [];

  const variant = () => variants.find((v) => v.id === variantSelect.value);
  const playerCount = () => {
    const c = fields.controls.get("players");
    const n = c ? c.read() : null;
    return Number.isInteger(n) && n > 0 ? n : variant().players;
  };
  const tableCount = () => Math.min(MAX_TABLES, Math.max(2, Number(tables.value) || 2));

  function renderSeats() {
    const n = playerCount();
    const rows = [];
    for (let table = 0; table < tableCount(); table++) {
      choices[table] = choices[table] || [];
      const seats = [];
      for (let seat = 0; seat < n; seat++) {
        if (!choices[table][seat]) choices[table][seat] = seat % 2 === 0 ? "human" : levels.includes("club") ? "club" : levels[0];
        const select = h(
          "select",
          { name: `seat-${table}-${seat}`, attrs: { "aria-label": t("tour.seatLabel", { table: table + 1, seat: seat + 1 }) } },
          h("option", { value: "human", text: t("form.person") }),
          levels.map((name) => h("option", { value: name, text: `${t("form.computer")}: ${t(`levelName.${name}`)}` })),
        );
        select.value = choices[table][seat];
        select.addEventListener("change", () => (choices[table][seat] = select.value));
        seats.push(h("label", { class: "seat-row" }, h("span", { class: "seat-label", text: t("join.seat", { n: seat + 1 }) }), select));
      }
      rows.push(h("div", { class: "tournament-table" }, h("h4", { text: t("tour.table", { n: table + 1 }) }), seats));
    }
    fill(seatsBox, h("legend", { text: t("form.players") }), h("p", { class: "muted small", text: t("tour.seatsHelp") }), rows, levelsHelp(levels));
  }

  function renderVariant() {
    const v = variant();
    fields = optionFields();
    summary.textContent = v.summary || "";
    const options = v.options || [];
    fill(prominent, options.filter((o) => PROMINENT.has(o.name)).map(fields.row));
    fill(rules, options.filter((o) => !PROMINENT.has(o.name)).map(fields.row));
    const players = fields.controls.get("players");
    if (players) players.input.addEventListener("change", renderSeats);
    renderSeats();
  }

  async function onSubmit(event) {
    event.preventDefault();
    error.textContent = "";
    const n = playerCount();
    const body = {
      variant: variantSelect.value,
      options: fields.chosen(),
      title: title.value.trim(),
      deals: Number(deals.value),
      seats: choices.slice(0, tableCount()).map((table) => table.slice(0, n).map((c) => (c === "human" ? { kind: "human" } : { kind: "computer", level: c }))),
    };
    submit.disabled = true;
    try {
      const answer = await api("api/tournaments", { method: "POST", body });
      localStorage.setItem(directorKey(answer.tournament), JSON.stringify({ secret: answer.director_secret }));
      location.href = `d/${encodeURIComponent(answer.tournament)}`;
    } catch (err) {
      error.textContent = err.message;
      submit.disabled = false;
    }
  }

  variantSelect.addEventListener("change", renderVariant);
  tables.addEventListener("change", renderSeats);
  const form = h(
    "form",
    { class: "create-form tournament-form", on: { submit: onSubmit } },
    h("label", { class: "field" }, h("span", { text: t("form.game") }), variantSelect),
    summary,
    prominent,
    h("details", { class: "house-rules" }, h("summary", {}, t("form.houseRules")), rules),
    h("div", { class: "field-pair" },
      h("label", { class: "field" }, h("span", { text: t("tour.deals") }), deals),
      h("label", { class: "field" }, h("span", { text: t("tour.tables") }), tables),
    ),
    seatsBox,
    h("label", { class: "field" }, h("span", { text: t("form.title") }), title),
    h("div", { class: "buttons" }, submit),
    error,
  );
  renderVariant();
  return form;
}

// ---------------------------------------------------------------------------- the tournament page

class TournamentView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.summary = null;
    this.me = null;
    this.director = null;
    this.nameInput = limitLength(
      h("input", { type: "text", name: "player-name", value: loadName(), attrs: { placeholder: t("join.yourName"), autocomplete: "nickname", "aria-label": t("join.yourName") } }),
      "name_chars",
    );
    this.nameInput.addEventListener("change", () => saveName(this.nameInput.value.trim()));
    this.error = h("p", { class: "form-error", attrs: { role: "alert" } });
    this.body = h("div", { class: "tournament" }, h("p", { class: "muted", text: t("tour.loading") }));
  }

  start() {
    document.title = `Pedro — ${t("tour.title").toLowerCase()}`;
    fill(this.root, topbar(t("tour.title"), t("tour.subtitle")), this.body);
    this.refresh();
    setInterval(() => {
      if (!document.hidden && !(this.summary && this.summary.finished && this.shownFinished)) this.refresh();
    }, REFRESH_MS);
  }

  async refresh() {
    try {
      this.summary = await api(`api/tournaments/${encodeURIComponent(this.id)}`);
      const mine = loadJson(playerKey(this.id));
      this.me = mine ? await api(`api/tournaments/${encodeURIComponent(this.id)}/me`, { method: "POST", body: { secret: mine.secret } }).catch(() => null) : null;
      const directing = loadJson(directorKey(this.id));
      this.director = directing ? await api(`api/tournaments/${encodeURIComponent(this.id)}/director`, { method: "POST", body: { secret: directing.secret } }).catch(() => null) : null;
      this.error.textContent = "";
      this.render();
      this.shownFinished = this.summary.finished;
    } catch (err) {
      if (!this.summary) fill(this.body, h("section", { class: "box" }, h("p", { class: "form-error", text: err.message }), h("p", {}, h("a", { href: "./", text: t("page.toLobby") }))));
      else this.error.textContent = err.message;
    }
  }

  render() {
    const s = this.summary;
    document.title = `Pedro — ${s.title}`;
    document.body.dataset.tournament = s.finished ? "finished" : "running";
    fill(
      this.body,
      h(
        "section",
        { class: "box tournament-head" },
        h("h2", { text: s.title }),
        h("p", { class: "muted", text: `${s.name} · ${tn("tour.dealsCount", s.deals)} · ${tn("tour.tablesCount", s.tables)}${s.target ? ` · ${t("summary.target", { target: s.target })}` : ""}` }),
        h("p", { class: "muted small", text: t("tour.endsAfter", { n: s.deals }) }),
        Object.keys(s.options || {}).filter((k) => k !== "target").length ? h("p", { class: "muted small", text: optionsText(s.options, ["target"]) }) : null,
        h("p", { class: "small" }, `${t("tour.link")} `, h("code", { class: "join-link", text: location.href.split("?")[0] })),
        this.error,
      ),
      this.renderMine(),
      this.renderSeats(),
      this.renderStandings(),
      this.renderResults(),
      this.renderDirector(),
    );
  }

  renderMine() {
    const me = this.me;
    if (!me) return null;
    const current = me.current;
    let action;
    if (current) {
      action = h("a", {
        class: "button primary",
        href: `t/${encodeURIComponent(current.table_id)}`,
        text: t("tour.play", { n: current.deal + 1 }),
        dataset: { playDeal: String(current.deal) },
        on: { click: () => this.enter(current) },
      });
    } else {
      const progress = this.summary.progress[me.table];
      action = h("p", { class: "muted", text: progress.played === this.summary.deals ? t("tour.youAreDone") : t("tour.waitStart") });
    }
    return h(
      "section",
      { class: "box tournament-me" },
      h("h3", { text: t("tour.youPlay", { table: me.table + 1, seat: me.seat + 1 }) }),
      action,
    );
  }

  enter(current) {
    const mine = loadJson(playerKey(this.id));
    saveSeat(current.table_id, current.seat, mine.secret, mine.name);
    localStorage.setItem(backKey(current.table_id), JSON.stringify({ tournament: this.id }));
  }

  renderSeats() {
    const s = this.summary;
    const joined = !!this.me;
    const tables = s.seats.map((seats, table) => {
      const progress = s.progress[table];
      const status = !progress.started
        ? t("tour.waitingPlayers")
        : progress.played === s.deals
          ? t("tour.tableDone")
          : t("tour.playingDeal", { n: progress.deal + 1, of: s.deals });
      const chips = seats.map((seat) => {
        const num = h("span", { class: "seat-num", text: String(seat.seat + 1) });
        if (seat.kind === "computer") return h("li", { class: "seat-chip bot" }, num, h("span", { class: "chip-name", text: playerLabel(seat.level) }));
        if (seat.claimed) return h("li", { class: "seat-chip taken" }, num, h("span", { class: "chip-name", text: seat.name }));
        if (joined || s.finished) return h("li", { class: "seat-chip free" }, num, t("join.free"));
        return h(
          "li",
          { class: "seat-chip free" },
          h("button", {
            type: "button",
            class: "small-button",
            text: t("lobby.sit", { n: seat.seat + 1 }),
            dataset: { joinTable: String(table), joinSeat: String(seat.seat) },
            on: { click: (e) => this.join(table, seat.seat, e.currentTarget) },
          }),
        );
      });
      return h("article", { class: "table-card", dataset: { tournamentTable: String(table) } },
        h("div", { class: "tc-head" }, h("h3", { text: t("tour.table", { n: table + 1 }) }), h("span", { class: "muted small", text: status })),
        h("ul", { class: "seat-chips" }, chips),
      );
    });
    return h(
      "section",
      { class: "box tournament-seats" },
      h("h3", { text: t("tour.tablesTitle") }),
      joined || s.finished || !s.free_seats.length ? null : h("label", { class: "field inline" }, h("span", { text: t("join.yourName") }), this.nameInput),
      h("div", { class: "tables" }, tables),
    );
  }

  async join(table, seat, button) {
    const name = this.nameInput.value.trim();
    if (!name) {
      this.error.textContent = t("lobby.needName");
      this.nameInput.focus();
      return;
    }
    button.disabled = true;
    try {
      const answer = await api(`api/tournaments/${encodeURIComponent(this.id)}/seats`, { method: "POST", body: { table, seat, name } });
      localStorage.setItem(playerKey(this.id), JSON.stringify({ secret: answer.secret, name }));
      saveName(name);
      await this.refresh();
    } catch (err) {
      this.error.textContent = err.message;
      button.disabled = false;
    }
  }

  /** "3 · Ann & Beginner": the entrant's number, then its players (a computer by its level) in their home seats' order. */
  entrantName(entrant) {
    const seats = this.summary.seats.flat().filter((s) => s.entrant === entrant);
    const names = seats.map((s) => (s.kind === "computer" ? playerLabel(s.level) : s.name || t("join.free")));
    return `${entrant + 1} · ${names.join(" & ")}`;
  }

  renderStandings() {
    const s = this.summary;
    const complete = s.results.filter((r) => r.complete).length;
    const rows = s.standings.map((st, i) =>
      h(
        "tr",
        { class: this.me && this.me.entrant === st.entrant ? "yours" : "", dataset: { entrant: String(st.entrant) } },
        h("td", { text: String(i + 1) }),
        h("td", { text: this.entrantName(st.entrant) }),
        h("td", { class: "num", text: formatPoints(st.total) }),
        h("td", { class: "num", text: st.most ? `${Math.round(st.share * 100)} %` : "–" }),
      ),
    );
    return h(
      "section",
      { class: "box tournament-standings" },
      h("h3", { text: s.finished ? t("tour.final") : t("tour.standings") }),
      h("p", { class: "muted small", text: t("tour.dealsScored", { n: complete, of: s.deals }) }),
      h(
        "table",
        { class: "standings" },
        h("thead", {}, h("tr", {}, h("th", { text: "#" }), h("th", { text: t("tour.entrant") }), h("th", { text: t("tour.mp") }), h("th", { text: t("tour.share") }))),
        h("tbody", {}, rows),
      ),
    );
  }

  renderResults() {
    const s = this.summary;
    const deals = s.results.map((r) => {
      if (!r.complete) {
        return h("article", { class: "deal-result hidden-deal", dataset: { deal: String(r.deal) } },
          h("h4", { text: t("tour.deal", { n: r.deal + 1 }) }),
          h("p", { class: "muted small", text: t("tour.dealHidden", { n: r.played.length, of: s.tables }) }),
        );
      }
      const sides = r.tables[0].entrants.map((_, side) => side);
      return h(
        "article",
        { class: "deal-result", dataset: { deal: String(r.deal) } },
        h("h4", { text: t("tour.deal", { n: r.deal + 1 }) }),
        h(
          "table",
          { class: "deal-table" },
          h("thead", {}, h("tr", {}, h("th", { text: t("tour.tableCol") }), sides.map((side) => h("th", { text: t("tour.cardsOf", { n: side + 1 }) })), h("th", { text: t("tour.replay") }))),
          h(
            "tbody",
            {},
            r.tables.map((row) =>
              h(
                "tr",
                {},
                h("td", { text: String(row.table + 1) }),
                sides.map((side) =>
                  h("td", {},
                    h("span", { class: "who", text: this.entrantName(row.entrants[side]) }),
                    h("span", { class: "change", text: ` ${signed(row.change[side])}` }),
                    h("span", { class: "mp muted small", text: ` · ${t("tour.mpShort", { n: formatPoints(row.matchpoints[side]) })}` }),
                  ),
                ),
                h("td", {}, h("a", { href: `replay/${encodeURIComponent(row.table_id)}`, text: t("tour.replay") })),
              ),
            ),
          ),
        ),
      );
    });
    return h("section", { class: "box tournament-results" }, h("h3", { text: t("tour.results") }), h("p", { class: "muted small", text: t("tour.resultsHelp") }), deals);
  }

  renderDirector() {
    const d = this.director;
    if (!d) return null;
    // a deal's tables are not named (nor watched) until every table has played it: only where each stands
    const live = d.deals.filter((x) => !x.played);
    const state = (x) => (x.played ? "played" : "playing");
    return h(
      "section",
      { class: "box tournament-director" },
      h("h3", { text: t("tour.director") }),
      h("p", { class: "muted small", text: t("tournament.directorHelp") }),
      live.length ? null : h("p", { class: "muted", text: t("tour.nothingLive") }),
      d.deals.length
        ? h("ul", {}, d.deals.map((x) => h("li", { dataset: { state: state(x), table: String(x.table), deal: String(x.deal) }, text: t(`tournament.${state(x)}`, { table: x.table + 1, deal: x.deal + 1 }) })))
        : null,
    );
  }
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const formatPoints = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
