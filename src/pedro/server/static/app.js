// Entry point: every page path serves the same index.html, so the route is read from the address.
import { lobbyPage } from "./lobby.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { reviewPage } from "./review.js";
import { tournamentPage } from "./tournament.js";
import { profilePage } from "./profile.js";
import { leaderboardPage } from "./leaderboard.js";
import { h, fill } from "./dom.js";
import { applyDeck, prefsFooter } from "./prefs.js";
import { loadLanguage, t } from "./i18n.js";

/** The address's path below the page's base (the server's root path, "/" unless served under a sub-path). */
function pagePath() {
  const base = new URL(document.baseURI).pathname;
  const path = location.pathname.startsWith(base) ? `/${location.pathname.slice(base.length)}` : location.pathname;
  return path.replace(/\/+$/, "") || "/";
}

function route() {
  const root = document.getElementById("app");
  const path = pagePath();
  let m;
  if (path === "/") {
    document.body.dataset.page = "lobby";
    lobbyPage(root);
  } else if ((m = path.match(/^\/t\/([^/]+)$/))) {
    document.body.dataset.page = "table";
    tablePage(root, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/replay\/([^/]+)$/))) {
    document.body.dataset.page = "replay";
    replayPage(root, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/d\/([^/]+)$/))) {
    document.body.dataset.page = "tournament";
    tournamentPage(root, decodeURIComponent(m[1]));
  } else if (path.match(/^\/review$/)) {
    document.body.dataset.page = "review";
    reviewPage(root);
  } else if ((m = path.match(/^\/profile(?:\/([^/]+))?$/))) {
    document.body.dataset.page = "profile";
    profilePage(root, m[1] ? decodeURIComponent(m[1]) : null);
  } else if (path.match(/^\/leaderboard$/)) {
    document.body.dataset.page = "leaderboard";
    leaderboardPage(root);
  } else {
    document.body.dataset.page = "missing";
    fill(root, h("section", { class: "box" }, h("h1", { text: t("page.missing") }), h("p", {}, h("a", { href: "./", text: t("page.toLobby") }))));
  }
}

applyDeck();
// every text goes through the catalog: it is loaded before anything is drawn
await loadLanguage();
route();
// outside #app, which each page fills as it likes
document.body.append(prefsFooter());
