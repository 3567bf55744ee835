"""End-to-end: a table's turn clock runs down at the seat to act, and when it runs out the computer
makes the move for the player, and the page says so (clock.js); twice in a row, and the page offers
"I'm back".

The server here offers a short clock (``pedro serve --turn-clocks``): a request can only choose one
the server offers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from tests.e2e.conftest import BOT_DELAY
from tests.e2e.driver import HUMAN, Player, computer, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess, running_server

CLOCK = 1.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A ``pedro serve`` that offers a clock of ``CLOCK`` seconds a move."""
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with running_server(database, tmp_path, bot_delay=BOT_DELAY, args=("--turn-clocks", f"{CLOCK:g}")) as s:
        yield s


@pytest.mark.browser
def test_the_clock_runs_down_and_the_computer_moves_for_the_player_until_they_are_back(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    body = {"variant": "cinch", "seats": [HUMAN] + [computer("random")] * 3, "seat": 0, "name": "Ann"}
    response = httpx.post(f"{server.url}/api/tables", json=body | {"clock": CLOCK}, timeout=10)
    assert response.status_code == 201, response.text
    table = response.json()
    ann = players("ann", storage=seat_storage(server.url, table["table"], 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    ann.wait_my_turn()
    assert f"clock {CLOCK:g} s a move" in ann.page.locator(".subtitle").inner_text()
    bar = ann.page.locator('.seat[data-seat="0"] [data-testid="turn-clock"]')
    bar.wait_for()
    assert ann.page.locator('[data-testid="turn-clock"]').count() == 1, "one clock: the seat to act's"
    screenshot(ann.page, "table-turn-clock")
    # Ann does nothing: the clock runs out, the computer moves for her, and the page says so
    notice = ann.page.locator(".notice")
    ann.poll(lambda: "Your time ran out" in (notice.text_content() or ""), "the page to say the time ran out")
    assert any(s["timed_out"] and s["last"]["seat"] == 0 for s in ann.states)
    assert not any(m.get("type") == "act" for m in ann.sent), "the page moved for the player itself"
    # a second time in a row: the seat counts as away, and the page offers to come back
    back = ann.page.locator('[data-testid="im-back"]')
    back.wait_for()
    screenshot(ann.page, "table-turn-clock-away")
    back.click()
    back.wait_for(state="detached")
    # the sent frame's event may reach the test after the page's answer to it: wait for it
    ann.poll(lambda: {"type": "back"} in ann.sent, "the page to send that Ann is back")
    ann.assert_no_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
