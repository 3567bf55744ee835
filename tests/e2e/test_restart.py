"""End-to-end: the server restarts (SIGTERM) under a person's page; the page says so and comes back."""

from __future__ import annotations

import random
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess


@pytest.mark.browser
def test_the_page_shows_the_restart_and_reconnects_to_the_new_process(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()], name="Ann")
    storage = seat_storage(server.url, table["table"], 0, table["secret"], "Ann")
    ann = players("ann", storage=storage)
    ann.goto(table["url"])
    seq = ann.wait_my_turn()  # the computers wait for Ann: nothing moves while the server is away

    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    ann.page.wait_for_selector('body[data-connection="restarting"]', state="attached")
    assert "restarting" in (ann.page.locator(".conn").text_content() or "")
    screenshot(ann.page, "restart-notice")
    assert server.process.wait(60) == 0
    assert {"type": "restart", "message": "the server is restarting; reconnecting ..."} in ann.received

    server.start()  # the same port: the page's backoff finds the new process
    ann.page.wait_for_selector('body[data-connection="open"]', state="attached", timeout=60_000)
    assert ann.wait_my_turn() == seq
    new_seq, _ = ann.take_turn(random.Random(1))
    assert new_seq > seq
    assert not ann.page_errors and not ann.errors and ann.error_text() == ""
    # while no process listened, the browser logged its refused connection attempts, and nothing else
    errors = [c for c in ann.console if c.startswith("error:")]
    assert all("ERR_CONNECTION_REFUSED" in c for c in errors), errors


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
