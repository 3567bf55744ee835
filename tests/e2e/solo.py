"""Driving the offline app (``/play/``): a ``Player`` whose table messages go through the page's
Web Worker instead of a WebSocket.

The page talks to the worker's Python with calls (``soloengine.js``); an init script wraps the
page's ``Worker`` to note the table messages those calls carry both ways (``receive`` sends one,
``receive`` and ``computer_move`` answer a list), so the ``Player`` methods that read what the
page was sent and what it sent work on a solo game as they do on a served table.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page
from tests.e2e.driver import WAIT, Player

#: Notes each table message the page sends to its worker and each it gets back.
CAPTURE_SCRIPT = """
(() => {
  const Native = window.Worker;
  window.__soloSent = [];
  window.__soloReceived = [];
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      const calls = new Map();
      const post = this.postMessage.bind(this);
      this.postMessage = (msg) => {
        if (msg && msg.call) {
          calls.set(msg.id, msg.call);
          if (msg.call === "receive") window.__soloSent.push(JSON.parse(msg.args[0]));
        }
        post(msg);
      };
      // added before the page's own onmessage: the messages are noted before the page draws them
      this.addEventListener("message", (event) => {
        const answer = event.data;
        const call = answer && calls.get(answer.id);
        if (!call) return;
        calls.delete(answer.id);
        if ((call === "receive" || call === "computer_move") && typeof answer.result === "string") {
          window.__soloReceived.push(...JSON.parse(answer.result));
        }
      });
    }
  };
})();
"""


class SoloPlayer(Player):
    """A person at the offline app, in one page."""

    def __init__(self, name: str, page: Page, base_url: str) -> None:
        page.add_init_script(CAPTURE_SCRIPT)
        super().__init__(name, page, base_url)

    @property  # type: ignore[override]
    def received(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("window.__soloReceived || []"))

    @received.setter
    def received(self, value: list[dict[str, Any]]) -> None:
        """The page keeps them (set by Player's constructor: nothing to keep here)."""

    @property  # type: ignore[override]
    def sent(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("window.__soloSent || []"))

    @sent.setter
    def sent(self, value: list[dict[str, Any]]) -> None:
        """As ``received``."""

    def wait_engine(self, timeout: float = 60.0) -> None:
        """The worker's Python is loaded and pedro imported."""
        self.page.wait_for_selector(
            '[data-testid="engine-status"][data-state="ready"]', state="attached", timeout=timeout * 1000
        )

    def start_game(self, variant: str, name: str) -> None:
        """A new game from the home page's form: the variant, the person's name, the form's seats."""
        form = self.page.locator('[data-testid="solo-form"]')
        form.wait_for(timeout=WAIT * 1000)
        form.locator("select[name=variant]").select_option(variant)
        form.locator("input[name=name]").fill(name)
        form.locator('[data-testid="solo-start"]').click()
        self.page.wait_for_selector(
            'body[data-page="table"][data-seq]:not([data-seq=""])', timeout=WAIT * 1000
        )

    def assert_no_page_errors(self) -> None:
        """No uncaught error and no console error (away from a table, which ``assert_no_errors`` needs)."""
        assert not self.page_errors, f"{self.name}: uncaught errors in the page: {self.page_errors}"
        console_errors = [c for c in self.console if c.startswith("error:")]
        assert not console_errors, f"{self.name}: errors in the console: {console_errors}"

    def stored_actions(self) -> int:
        """How many actions of the game on the page the browser has stored (IndexedDB)."""
        return int(
            self.page.evaluate(
                """() => import('./static/solostore.js').then(async (m) => {
                  const game = await m.loadGame(decodeURIComponent(location.hash.slice('#game/'.length)));
                  return game ? game.actions.length : -1;
                })"""
            )
        )

    def call(self, name: str, *args: Any) -> Any:
        """Call the worker's function ``name`` from the page, as the page does."""
        return self.page.evaluate(
            "([name, args]) => import('./static/soloengine.js').then((m) => m.engine().call(name, ...args))",
            [name, list(args)],
        )
