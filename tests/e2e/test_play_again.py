"""Play again in the browser: at a finished game, one player asks for the next game and goes to it;
the other is told it is set up, goes too, and the next game starts with both in their seats."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from tests.e2e.driver import Player, computer, create_table, seat_storage, summary
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess
from websockets.sync.client import ClientConnection, connect

#: Pitch with fives asks for no card sets, so a random legal move is one of the listed ones.
VARIANT = "pitch_fives"


def finish_over_sockets(url: str, table: str, secrets: list[str]) -> None:
    """Both people pick random legal moves until the game is over (faster than two pages)."""
    rng = random.Random(2)
    ws_url = url.replace("http", "ws", 1) + f"/ws/{table}"
    with ExitStack() as stack:
        sockets: list[ClientConnection] = [stack.enter_context(connect(ws_url)) for _ in secrets]
        for ws, secret in zip(sockets, secrets, strict=True):
            ws.send(json.dumps({"type": "join", "secret": secret}))
        deadline = time.monotonic() + 120
        finished = False
        while not finished:
            assert time.monotonic() < deadline, "the game did not end"
            for ws in sockets:
                try:
                    message: dict[str, Any] = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if message["type"] != "state":
                    continue
                finished = finished or message["finished"]
                legal = message["game"]["legal"]
                if legal is not None and not message["finished"]:
                    action = rng.choice(legal["actions"])["action"]
                    ws.send(json.dumps({"type": "act", "action": action, "seq": message["seq"]}))


@pytest.mark.browser
def test_both_players_accept_and_the_next_game_starts(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    made = create_table(
        server.url,
        [{"kind": "human"}, {"kind": "human"}, computer("random"), computer("random")],
        variant=VARIANT,
        options={"target": 1},
    )
    table = made["table"]
    claimed = httpx.post(f"{server.url}/api/tables/{table}/seats", json={"seat": 1, "name": "Bo"}, timeout=10)
    bo_secret = claimed.json()["secret"]
    finish_over_sockets(server.url, table, [made["secret"], bo_secret])
    ann = players("ann", storage=seat_storage(server.url, table, 0, made["secret"], "Ann"))
    bo = players("bo", storage=seat_storage(server.url, table, 1, bo_secret, "Bo"))
    for player in (ann, bo):
        player.goto(f"t/{table}")
    ann.page.locator('[data-testid="play-again"]').click()
    ann.page.wait_for_url(lambda url: "/t/" in url and table not in url)
    following = ann.page.url.rsplit("/", 1)[1]
    assert following != table
    # Ann is at the next table, waiting for Bo, whose page was told the next game is set up
    ann.page.locator(".panel-turn").filter(has_text="Waiting for Bo").wait_for()
    again = bo.page.locator('[data-testid="again"]')
    again.filter(has_text="The next game is set up").wait_for()
    again.locator('[data-testid="play-again"]').click()
    bo.page.wait_for_url(f"**/t/{following}")
    for player in (ann, bo):
        player.page.wait_for_selector('body[data-started="true"]', state="attached")
    assert [s["claimed"] for s in summary(server.url, following)["seats"]] == [True] * 4
    assert summary(server.url, table)["next"] == following
    ann.assert_no_errors()
    bo.assert_no_errors()
    # "My tables" follows: the lobby lists the next game, and the finished one leads on to it
    bo.goto("./")
    bo.page.locator(f'[data-my-table="{following}"]').wait_for()
    bo.page.locator(f'[data-my-table="{table}"] [data-testid="next-game"]').wait_for()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
