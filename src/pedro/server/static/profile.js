// The profile pages. "/profile" is this browser's own: make a profile (a name chosen once), take one
// over from another browser with its move code, or see it and make such a code. "/profile/{id}" is
// anyone's (the leaderboard links there). Both show the ratings per variant, the rating history as
// an SVG plot drawn here, bids won/made/set and points per hand, and the games with their replays.
import { h, fill } from "./dom.js";
import { api } from "./net.js";
import { limitLength } from "./limits.js";
import { t, tn } from "./i18n.js";
import { loadProfile, saveProfile, forgetProfile } from "./myprofile.js";
import { belief, change, rating, topbar, variantNames } from "./ratingtext.js";

const SVG = "http://www.w3.org/2000/svg";
/** The plot's lines, one per variant, in turn. */
const COLOURS = ["#185c3a", "#b0413e", "#2f5f98", "#a06a00", "#6a3d9a", "#3b7f7a"];

export async function profilePage(root, profileId = null) {
  const held = loadProfile();
  const mine = profileId === null || (held && held.id === profileId);
  document.title = `Pedro — ${t("profile.title").toLowerCase()}`;
  const body = h("div", { class: "profile" }, h("p", { class: "muted", text: t("profile.loading") }));
  fill(root, topbar(t(mine ? "profile.mine" : "profile.title")), body, h("p", {}, h("a", { href: "leaderboard", text: t("board.title") })));
  if (mine && !held) {
    fill(body, startBoxes(root, null));
    return;
  }
  let page;
  try {
    page = mine
      ? await api("api/profiles/me", { method: "POST", body: { secret: held.secret } })
      : await api(`api/profiles/${encodeURIComponent(profileId)}`);
  } catch (err) {
    if (mine && err.status === 403) {
      // moved to another browser (or the server forgot it): this browser holds it no more
      forgetProfile();
      fill(body, startBoxes(root, t("profile.moved")));
    } else fill(body, h("p", { class: "form-error", text: err.message }));
    return;
  }
  const names = await variantNames().catch(() => ({}));
  fill(body, profileView(page, names), mine ? moveBox(held) : null, mine ? renameBox(root, held) : null, mine ? deleteBox(root, held) : null);
}

/** The holder renames the profile: the rules of a new name; the games keep the names they were played under. */
function renameBox(root, held) {
  const input = limitLength(h("input", { type: "text", name: "rename-profile", value: held.name, attrs: { autocomplete: "nickname", "aria-label": t("profile.name") } }), "name_chars");
  const error = h("p", { class: "form-error", attrs: { role: "alert" } });
  const rename = async (e) => {
    e.preventDefault();
    try {
      const answer = await api("api/profiles/rename", { method: "POST", body: { secret: held.secret, name: input.value } });
      saveProfile({ ...held, name: answer.name });
      profilePage(root);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  return h(
    "section",
    { class: "box rename-profile" },
    h("h2", { text: t("profile.rename") }),
    h("p", { class: "muted small", text: t("profile.renameAbout") }),
    h("form", { on: { submit: rename } }, h("label", { class: "field" }, h("span", { text: t("profile.name") }), input), h("div", { class: "buttons" }, h("button", { type: "submit", text: t("profile.renameButton") })), error),
  );
}

/** The holder deletes the profile, after a second click: the browser then forgets its secret. */
function deleteBox(root, held) {
  const error = h("p", { class: "form-error", attrs: { role: "alert" } });
  const confirm = h("button", { type: "button", class: "danger", text: t("profile.deleteConfirm"), attrs: { hidden: "" } });
  const ask = h("button", { type: "button", text: t("profile.deleteButton") });
  ask.addEventListener("click", () => {
    confirm.hidden = false;
    ask.hidden = true;
    confirm.focus();
  });
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    try {
      await api("api/profiles/delete", { method: "POST", body: { secret: held.secret } });
      forgetProfile();
      fill(root.querySelector(".profile"), startBoxes(root, t("profile.deleted")));
    } catch (err) {
      error.textContent = err.message;
      confirm.disabled = false;
    }
  });
  return h("section", { class: "box delete-profile" }, h("h2", { text: t("profile.delete") }), h("p", { class: "muted small", text: t("profile.deleteAbout") }), h("div", { class: "buttons" }, ask, confirm), error);
}

/** No profile here: make one, or take one over with a code. */
function startBoxes(root, note) {
  const nameInput = limitLength(h("input", { type: "text", name: "profile-name", value: localStorage.getItem("pedro-name") || "", attrs: { autocomplete: "nickname", "aria-label": t("profile.name") } }), "name_chars");
  const codeInput = h("input", { type: "text", name: "move-code", attrs: { autocomplete: "off", placeholder: "XXXXX-XXXXX", "aria-label": t("profile.code") } });
  const createError = h("p", { class: "form-error", attrs: { role: "alert" } });
  const adoptError = h("p", { class: "form-error", attrs: { role: "alert" } });
  const done = (answer) => {
    saveProfile(answer);
    profilePage(root);
  };
  const create = async (e) => {
    e.preventDefault();
    try {
      done(await api("api/profiles", { method: "POST", body: { name: nameInput.value } }));
    } catch (err) {
      createError.textContent = err.message;
    }
  };
  const adopt = async (e) => {
    e.preventDefault();
    try {
      done(await api("api/profiles/adopt", { method: "POST", body: { code: codeInput.value.trim() } }));
    } catch (err) {
      adoptError.textContent = err.message;
    }
  };
  return [
    note ? h("p", { class: "box notice", text: note }) : null,
    h(
      "section",
      { class: "box new-profile" },
      h("h2", { text: t("profile.create") }),
      h("p", { class: "muted small", text: t("profile.createAbout") }),
      h("form", { on: { submit: create } }, h("label", { class: "field" }, h("span", { text: t("profile.name") }), nameInput), h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", text: t("profile.createButton") })), createError),
    ),
    h(
      "section",
      { class: "box adopt-profile" },
      h("h2", { text: t("profile.adopt") }),
      h("p", { class: "muted small", text: t("profile.adoptAbout") }),
      h("form", { on: { submit: adopt } }, h("label", { class: "field" }, h("span", { text: t("profile.code") }), codeInput), h("div", { class: "buttons" }, h("button", { type: "submit", text: t("profile.adoptButton") })), adoptError),
    ),
  ];
}

function table(cls, heads, rows) {
  return h("div", { class: "sheet-scroll" }, h("table", { class: `sheet ${cls}` }, h("thead", {}, h("tr", {}, heads.map((x) => h("th", { text: x })))), h("tbody", {}, rows)));
}

function profileView(page, names) {
  const variant = (id) => names[id] || id;
  const perHand = (x) => (x.hands ? (x.points / x.hands).toFixed(2) : "–");
  return [
    h(
      "section",
      { class: "box profile-head", dataset: { profile: page.id } },
      h("h2", { class: "profile-name", text: page.name }),
      page.kind === "computer" ? h("p", { class: "muted small", text: t("profile.computer") }) : null,
      page.ratings.length
        ? table(
            "profile-ratings",
            [t("profile.variant"), t("board.rating"), t("board.belief"), t("board.games")],
            page.ratings.map((r) => h("tr", { dataset: { variant: r.variant } }, h("td", { text: variant(r.variant) }), h("td", { class: "num rating", text: rating(r.rating) }), h("td", { class: "num", text: belief(r.mu, r.sigma) }), h("td", { class: "num", text: String(r.games) }))),
          )
        : h("p", { class: "muted", text: t("profile.noRatings") }),
    ),
    page.history.length ? h("section", { class: "box" }, h("h2", { text: t("profile.history") }), historyPlot(page.history, variant)) : null,
    page.totals.length
      ? h(
          "section",
          { class: "box" },
          h("h2", { text: t("profile.bids") }),
          table(
            "profile-totals",
            [t("profile.variant"), t("board.games"), t("profile.hands"), t("profile.perHand"), t("profile.bidsWon"), t("profile.bidsMade"), t("profile.bidsSet")],
            page.totals.map((x) => h("tr", {}, [variant(x.variant), x.games, x.hands, perHand(x), x.bids_won, x.bids_made, x.bids_set].map((v, i) => h("td", { class: i ? "num" : "", text: String(v) })))),
          ),
        )
      : null,
    h(
      "section",
      { class: "box" },
      h("h2", { text: t("profile.games") }),
      page.games.length
        ? table(
            "profile-games",
            [t("profile.when"), t("profile.game"), t("profile.variant"), t("profile.place"), t("profile.perHand"), t("profile.ratingChange")],
            page.games.map((g) =>
              h(
                "tr",
                { dataset: { table: g.table } },
                h("td", { text: new Date(g.at).toLocaleDateString() }),
                h("td", {}, h("a", { href: `replay/${encodeURIComponent(g.table)}`, text: g.title || g.table })),
                h("td", { text: variant(g.variant) }),
                h("td", { text: t("profile.placeOf", { place: g.place, sides: g.sides }) }),
                h("td", { class: "num", text: perHand(g) }),
                h("td", { class: "num", text: g.rated ? `${rating(g.before)} → ${rating(g.after)} (${change(g.before, g.after)})` : t("profile.unrated") }),
              ),
            ),
          )
        : h("p", { class: "muted", text: t("profile.noGames") }),
    ),
  ];
}

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The rating after each rated game, one line per variant, in the order the games ended. */
function historyPlot(history, variant) {
  const W = 600;
  const H = 220;
  const pad = { left: 44, right: 12, top: 12, bottom: 26 };
  const values = history.map((p) => p.rating);
  let lo = Math.min(0, ...values);
  let hi = Math.max(...values);
  if (hi - lo < 1) hi = lo + 1;
  const x = (i) => pad.left + (history.length === 1 ? (W - pad.left - pad.right) / 2 : (i * (W - pad.left - pad.right)) / (history.length - 1));
  const y = (v) => pad.top + ((hi - v) * (H - pad.top - pad.bottom)) / (hi - lo);
  const plot = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "history-plot", role: "img", "aria-label": t("profile.history") });
  plot.append(svg("line", { x1: pad.left, y1: pad.top, x2: pad.left, y2: H - pad.bottom, stroke: "#9aa8a0" }));
  plot.append(svg("line", { x1: pad.left, y1: H - pad.bottom, x2: W - pad.right, y2: H - pad.bottom, stroke: "#9aa8a0" }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    plot.append(svg("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#5d6b64" }, v.toFixed(1)));
    plot.append(svg("line", { x1: pad.left, y1: y(v), x2: W - pad.right, y2: y(v), stroke: "#e4eae6" }));
  }
  plot.append(svg("text", { x: (W + pad.left) / 2, y: H - 6, "text-anchor": "middle", "font-size": 11, fill: "#5d6b64" }, tn("profile.ratedGames", history.length)));
  const variants = [...new Set(history.map((p) => p.variant))];
  const legend = h("ul", { class: "plot-legend" });
  variants.forEach((id, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const points = history.map((p, i) => [p, i]).filter(([p]) => p.variant === id);
    plot.append(svg("polyline", { points: points.map(([p, i]) => `${x(i)},${y(p.rating)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2, class: "history-line" }));
    for (const [p, i] of points) plot.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, fill: colour }));
    legend.append(h("li", {}, h("span", { class: "swatch", attrs: { style: `background:${colour}` } }), variant(id)));
  });
  return h("figure", { class: "history" }, plot, legend);
}

/** The holder's own: a one-time code that moves the profile to another browser. */
function moveBox(held) {
  const out = h("div", { attrs: { "aria-live": "polite" } });
  const make = async (button) => {
    button.disabled = true;
    try {
      const answer = await api("api/profiles/code", { method: "POST", body: { secret: held.secret } });
      const until = new Date(answer.expires).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      fill(out, h("p", {}, h("strong", { class: "move-code", text: answer.code })), h("p", { class: "muted small", text: t("profile.codeAbout", { time: until }) }));
    } catch (err) {
      fill(out, h("p", { class: "form-error", text: err.message }));
    }
    button.disabled = false;
  };
  return h(
    "section",
    { class: "box move-profile" },
    h("h2", { text: t("profile.move") }),
    h("p", { class: "muted small", text: t("profile.moveAbout") }),
    h("div", { class: "buttons" }, h("button", { type: "button", text: t("profile.moveButton"), on: { click: (e) => make(e.currentTarget) } })),
    out,
  );
}
