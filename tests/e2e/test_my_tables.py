""" "My tables" in the lobby: the tables this browser sits at, kept in its local storage.

A player who closed the tab finds the way back to a listed table and to a private one (reached by
its link). A finished game stays listed, with its replay, until forgotten; a table the server does
not know any more is dropped, with the seat's secret, which can no longer open anything.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.e2e.conftest import BOT_DELAY
from tests.e2e.driver import HUMAN, Player, computer, create_table, summary
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess, running_server

#: seconds before the computer plays for a seat whose player has gone: the tables play on
AWAY = 0.3
#: a short game: cinch to 7
SHORT = {"target": 7}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """This module's server: the computer stands in for an absent player after ``AWAY`` seconds."""
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with running_server(database, tmp_path, bot_delay=BOT_DELAY, away=AWAY) as s:
        yield s


def private_table(base_url: str, title: str) -> dict[str, Any]:
    """A table not listed in the lobby, with nobody seated yet: only its link leads there."""
    body = {"variant": "cinch", "title": title, "listed": False, "seats": [HUMAN] + [computer()] * 3}
    response = httpx.post(f"{base_url}/api/tables", json=body, timeout=10)
    assert response.is_success, response.text
    answer: dict[str, Any] = response.json()
    return answer


def my_tables(ann: Player) -> list[dict[str, str]]:
    """What the lobby's "My tables" box shows: each table's id, title, status line and link."""
    rows: list[dict[str, str]] = ann.page.locator(".my-tables [data-my-table]").evaluate_all(
        """els => els.map(e => ({
          id: e.dataset.myTable,
          title: e.querySelector("h3").textContent,
          status: e.querySelector("p").textContent,
          link: (e.querySelector("a") || {}).getAttribute ? e.querySelector("a").getAttribute("href") : "",
          label: (e.querySelector("a") || {}).textContent || "",
        }))"""
    )
    return rows


def stored_tables(ann: Player) -> list[str]:
    keys: list[str] = ann.page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('pedro:')).map(k => k.slice(6)).sort()"
    )
    return keys


@pytest.mark.browser
def test_the_lobby_lists_my_tables_with_a_way_back_finished_ones_with_their_replay(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    listed = create_table(server.url, [HUMAN] + [computer()] * 3, seat=None, title="Monday club")
    hidden = private_table(server.url, "Tuesday club")
    # a short game at which this browser sat before; the computer plays for the absent player
    short = create_table(server.url, [HUMAN] + [computer()] * 3, options=SHORT, title="Quick one")

    ann = players("ann-lobby")
    ann.goto("/")
    assert ann.page.locator(".my-tables").is_hidden(), "no table yet, no box"
    ann.page.get_by_label("your name").fill("Ann")
    ann.page.locator(f'[data-table="{listed["table"]}"] [data-join="0"]').click()
    ann.page.wait_for_url(f"**{listed['url']}")
    ann.page.locator(".hand [data-card]").first.wait_for()

    ann.goto(hidden["url"])  # the private table, by its link: the join form
    ann.page.get_by_role("button", name="Take the seat").click()
    ann.page.locator(".hand [data-card]").first.wait_for()

    entries = {
        short["table"]: {"seat": 0, "secret": short["secret"], "name": "Ann", "since": 1},
        "no-such-table": {"seat": 1, "secret": "stale", "name": "Ann", "since": 2},
    }
    for tid, value in entries.items():
        ann.page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"pedro:{tid}", json.dumps(value)])
    deadline = time.monotonic() + 180
    while not summary(server.url, short["table"])["finished"]:
        assert time.monotonic() < deadline, "the short game did not end in 180 s"
        time.sleep(0.5)

    ann.goto("/")
    ann.page.locator(".my-tables [data-my-table]").nth(2).wait_for()
    screenshot(ann.page, "lobby-my-tables", full_page=True)
    rows = my_tables(ann)
    # the latest seat first; the game that ended last (its seat the oldest here)
    assert [r["id"] for r in rows] == [hidden["table"], listed["table"], short["table"]], rows
    assert [r["title"] for r in rows] == ["Tuesday club", "Monday club", "Quick one"]
    for row, table in zip(rows[:2], (hidden, listed), strict=True):
        assert row["link"] == table["url"].lstrip("/") and row["label"] == "Back to your seat", row
        assert row["status"].startswith("seat 1 as Ann · "), row
    over = rows[2]
    assert "game over" in over["status"] and " won" in over["status"], over
    assert over["link"] == f"replay/{short['table']}" and over["label"] == "Replay", over
    # the vanished table is gone from the list and from this browser
    assert "no-such-table" not in stored_tables(ann)

    # back to a seat: the table, playing, without being asked to sit down again
    ann.page.locator(f'[data-my-table="{hidden["table"]}"] a').click()
    ann.page.wait_for_url(f"**{hidden['url']}")
    ann.page.locator(".hand [data-card]").first.wait_for()
    assert ann.page.locator(".join").is_hidden()
    assert ann.page.locator('[data-seat="0"] .name').inner_text() == "Ann (you)"

    # a finished game is forgotten on request
    ann.goto("/")
    forget = ann.page.get_by_role("button", name="forget Quick one")
    forget.click()
    assert forget.count() == 0
    assert short["table"] not in stored_tables(ann)
    assert sorted(stored_tables(ann)) == sorted([hidden["table"], listed["table"]])
    assert not ann.page_errors, ann.page_errors  # (the 404 of the vanished table is logged by the browser)


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
