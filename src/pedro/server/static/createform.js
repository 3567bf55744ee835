// The "new table" form: a variant, its house rules, who sits where, and the creator's own seat.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { saveSeat, saveHost, saveName, loadLastGame, saveLastGame } from "./storage.js";
import { profileSecret } from "./myprofile.js";
import { optionName, optionValue, optionHelp } from "./text.js";
import { limitLength } from "./limits.js";
import { t, tServer } from "./i18n.js";
import { TEXT as PRACTICE_TEXT } from "./practice.js";
import { clockField } from "./clock.js";

/** Options drawn outside the house-rules list: they shape the form itself. */
const PROMINENT = new Set(["target", "players", "partnerships"]);

const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** "(1–17)", "(at least 1)", "(at most −1, or empty)". */
function intRange(opt) {
  const lo = opt.minimum ?? null;
  const hi = opt.maximum ?? null;
  let text = lo !== null && hi !== null ? `${lo}–${hi}` : lo !== null ? t("form.atLeast", { n: lo }) : hi !== null ? t("form.atMost", { n: hi }) : "";
  if (opt.nullable) text = text ? t("form.orEmpty", { range: text }) : t("form.empty");
  return text ? ` (${text})` : "";
}

/**
 * The house-rule controls of one variant (GET /api/variants' options): `row(opt)` draws an option's
 * control, `controls` maps each drawn option to `{opt, input, read}`, and `chosen()` gives the options
 * whose value differs from the variant's default (all the server needs). Used by every creation form.
 */
export function optionFields() {
  const controls = new Map();

  function optionControl(opt) {
    const id = `opt-${opt.name}`;
    let input;
    let read;
    if (opt.type === "bool") {
      input = h("input", { type: "checkbox", id, name: opt.name, checked: !!opt.default });
      read = () => input.checked;
    } else if (opt.choices && opt.choices.length) {
      const values = [...opt.choices];
      const blank = opt.nullable || opt.default === null || opt.default === undefined;
      input = h(
        "select",
        { id, name: opt.name },
        blank ? h("option", { value: "", text: opt.nullable ? `(${t("options.none")})` : `(${t("form.variantDefault")})` }) : null,
        values.map((c) => h("option", { value: String(c), text: optionValue(String(c)) })),
      );
      input.value = opt.default === null || opt.default === undefined ? "" : String(opt.default);
      read = () => {
        if (input.value === "") return opt.nullable ? null : opt.default;
        return opt.type === "int" ? Number(input.value) : input.value;
      };
    } else if (opt.type === "int") {
      input = h("input", {
        type: "number",
        id,
        name: opt.name,
        step: 1,
        value: opt.default === null || opt.default === undefined ? "" : String(opt.default),
        attrs: { min: opt.minimum, max: opt.maximum, placeholder: opt.nullable ? t("options.none") : "" },
      });
      read = () => {
        if (input.value.trim() === "") return opt.nullable ? null : opt.default;
        return Number(input.value);
      };
    } else {
      input = h("input", { type: "text", id, name: opt.name, value: opt.default ?? "" });
      read = () => (input.value === "" && opt.nullable ? null : input.value);
    }
    controls.set(opt.name, { opt, input, read });
    return input;
  }

  function optionRow(opt) {
    const input = optionControl(opt);
    const rangeText = opt.type === "int" && !(opt.choices && opt.choices.length) ? intRange(opt) : "";
    return h(
      "div",
      { class: `option ${opt.type}` },
      h(
        "label",
        { attrs: { for: input.id } },
        opt.type === "bool" ? input : null,
        h("span", { class: "opt-name" }, capitalize(optionName(opt.name)), rangeText ? h("span", { class: "muted small", text: rangeText }) : null),
      ),
      opt.type === "bool" ? null : input,
      h("p", { class: "opt-desc muted small", text: optionHelp(opt.description) }),
    );
  }

  /** Options whose value differs from the variant's default: all the server needs. */
  function chosenOptions() {
    const out = {};
    for (const [name, { opt, read }] of controls) {
      const value = read();
      if (typeof value === "number" && Number.isNaN(value)) continue;
      if (value !== opt.default) out[name] = value;
    }
    return out;
  }

  return { controls, row: optionRow, chosen: chosenOptions };
}

/** What each strength level does, under the seats (whole: a select would cut it), weakest first. */
export function levelsHelp(levels) {
  return h(
    "ul",
    { class: "levels-help muted small", dataset: { testid: "levels-help" } },
    levels.map((name) => h("li", {}, h("strong", { text: t(`levelName.${name}`) }), `: ${t(`level.${name}`)}`)),
  );
}

/**
 * `catalog` is GET /api/variants; `nameInput` is the lobby's shared name field.
 * Returns the form element.
 */
export function createForm(catalog, nameInput) {
  const variants = catalog.variants;
  const players = catalog.players || [];
  const descriptions = catalog.player_descriptions || {};
  // strength levels first (a player picks by how strong), then every player by its own name
  const levels = (catalog.levels || []).map((l) => l.name);
  const defaultPlayer = levels.includes("beginner")
    ? "beginner"
    : players.includes("basic") ? "basic" : players[players.length - 1];

  const variantSelect = h(
    "select",
    { name: "variant", attrs: { "aria-label": t("form.variant") } },
    variants.map((v) => h("option", { value: v.id, text: v.name })),
  );
  const summary = h("p", { class: "variant-summary muted" });
  const prominent = h("div", { class: "prominent-options" });
  const seatsBox = h("fieldset", { class: "seats" });
  const rules = h("div", { class: "rules-list" });
  const rulesCount = h("span", { class: "muted" });
  const title = limitLength(h("input", { type: "text", name: "title", attrs: { placeholder: t("form.titlePlaceholder") } }), "title_chars");
  const listed = h("input", { type: "checkbox", name: "listed", checked: true });
  const practice = h("input", { type: "checkbox", name: "practice", checked: false });
  const clock = clockField();
  const error = h("p", { class: "form-error", attrs: { role: "alert", "aria-live": "polite" } });
  const submit = h("button", { type: "submit", class: "primary", text: t("form.create") });

  // each option's control and how to read it back; rebuilt when the variant changes
  let fields = optionFields();
  // seat choices survive a change of the number of players
  let seatChoices = [];
  let mySeat = 0;

  const variant = () => variants.find((v) => v.id === variantSelect.value);

  function playerCount() {
    const c = fields.controls.get("players");
    const n = c ? c.read() : null;
    return Number.isInteger(n) && n > 0 ? n : variant().players;
  }

  function partnerships() {
    const c = fields.controls.get("partnerships");
    return c ? !!c.read() : !!variant().partnerships;
  }

  function renderSeats() {
    const n = playerCount();
    while (seatChoices.length < n) seatChoices.push({ kind: seatChoices.length === 0 ? "human" : "computer", player: defaultPlayer });
    if (mySeat !== null && mySeat >= n) mySeat = 0;
    const rows = [];
    for (let seat = 0; seat < n; seat++) {
      const choice = seatChoices[seat];
      const kind = h(
        "select",
        { name: `kind-${seat}`, attrs: { "aria-label": t("form.kindLabel", { n: seat + 1 }) } },
        h("option", { value: "human", text: t("form.person") }),
        h("option", { value: "computer", text: t("form.computer") }),
      );
      kind.value = choice.kind;
      const player = h(
        "select",
        {
          name: `player-${seat}`,
          // keeps its grid cell when hidden, so the "me" column stays aligned
          class: choice.kind === "computer" ? "" : "invisible",
          disabled: choice.kind !== "computer",
          attrs: { "aria-label": t("form.playerLabel", { n: seat + 1 }) },
        },
        h(
          "optgroup",
          { attrs: { label: t("form.levels") } },
          // the name alone, so a narrow select never cuts it; what each level does is told under the seats
          levels.map((name) => h("option", { value: name, text: t(`levelName.${name}`), attrs: { title: t(`level.${name}`) } })),
        ),
        h(
          "optgroup",
          { attrs: { label: t("form.byName") } },
          players.map((p) => h("option", { value: p, text: p, attrs: descriptions[p] ? { title: tServer(descriptions[p]) } : {} })),
        ),
      );
      player.value = choice.player;
      const me = h("input", { type: "radio", name: "myseat", value: String(seat), checked: mySeat === seat });
      kind.addEventListener("change", () => {
        choice.kind = kind.value;
        if (choice.kind === "computer" && mySeat === seat) mySeat = null;
        renderSeats();
      });
      player.addEventListener("change", () => (choice.player = player.value));
      me.addEventListener("change", () => {
        mySeat = seat;
        choice.kind = "human";
        renderSeats();
      });
      rows.push(
        h(
          "div",
          { class: "seat-row" },
          h("span", { class: "seat-label", text: t("join.seat", { n: seat + 1 }) }),
          kind,
          player,
          h("label", { class: "me" }, me, ` ${t("form.me")}`),
        ),
      );
    }
    const nobody = h("input", { type: "radio", name: "myseat", value: "", checked: mySeat === null });
    nobody.addEventListener("change", () => {
      mySeat = null;
      renderSeats();
    });
    fill(
      seatsBox,
      h("legend", { text: t("form.players") }),
      h("p", {
        class: "muted small",
        text: t(partnerships() && n === 4 ? "form.seatsPartners" : "form.seatsAlone"),
      }),
      rows,
      h("label", { class: "me nobody" }, nobody, ` ${t("form.nobody")}`),
      seatChoices.slice(0, n).some((c) => c.kind === "computer") ? levelsHelp(levels) : null,
    );
  }

  function renderVariant() {
    const v = variant();
    fields = optionFields();
    summary.textContent = tServer(v.summary || "");
    const options = v.options || [];
    const top = options.filter((o) => PROMINENT.has(o.name));
    const rest = options.filter((o) => !PROMINENT.has(o.name));
    fill(prominent, top.map(fields.row));
    fill(rules, rest.map(fields.row));
    rulesCount.textContent = ` (${rest.length})`;
    for (const name of ["players", "partnerships"]) {
      const c = fields.controls.get(name);
      if (c) c.input.addEventListener("change", renderSeats);
    }
    renderSeats();
  }

  async function onSubmit(event) {
    event.preventDefault();
    error.textContent = "";
    const name = nameInput.value.trim();
    const n = playerCount();
    if (mySeat !== null && !name) {
      error.textContent = t("form.needName");
      nameInput.focus();
      return;
    }
    const body = {
      variant: variantSelect.value,
      options: fields.chosen(),
      // the server's default title is English: an untitled table is named in the creator's language
      title: title.value.trim() || t("form.defaultTitle", { variant: variant().name }),
      listed: listed.checked,
      practice: practice.checked,
      clock: clock.read(),
      seats: seatChoices.slice(0, n).map((c) => (c.kind === "computer" ? { kind: "computer", player: c.player } : { kind: "human" })),
      seat: mySeat,
      name: mySeat === null ? null : name,
      profile: mySeat === null ? undefined : profileSecret(),
    };
    submit.disabled = true;
    try {
      const answer = await api("api/tables", { method: "POST", body });
      if (name) saveName(name);
      if (answer.secret && answer.seat !== null && answer.seat !== undefined) saveSeat(answer.table, answer.seat, answer.secret, name);
      saveHost(answer.table, answer.host);
      // quick play repeats this game: its variant, and its computers' level when they have one
      const level = body.seats.find((s) => s.kind === "computer" && levels.includes(s.player))?.player;
      saveLastGame({ ...loadLastGame(), variant: body.variant, ...(level ? { level } : {}) });
      location.href = `t/${encodeURIComponent(answer.table)}`;
    } catch (err) {
      error.textContent = err.message;
      submit.disabled = false;
    }
  }

  variantSelect.addEventListener("change", renderVariant);
  const form = h(
    "form",
    { class: "create-form", on: { submit: onSubmit } },
    h("label", { class: "field" }, h("span", { text: t("form.game") }), variantSelect),
    summary,
    prominent,
    seatsBox,
    h("details", { class: "house-rules" }, h("summary", {}, t("form.houseRules"), rulesCount), rules),
    h("label", { class: "field" }, h("span", { text: t("form.title") }), title),
    h("label", { class: "check" }, listed, ` ${t("form.listed")}`),
    h("label", { class: "check" }, practice, PRACTICE_TEXT.formLabel),
    clock.field,
    h("div", { class: "buttons" }, submit),
    error,
  );
  renderVariant();
  return form;
}
