"""Quick play: one button in the lobby starts a game against computers at once, at an unlisted table.

It repeats the player's last game (its variant, its computers' level), kept in the browser by the
create form and by quick play itself; a newcomer gets Cinch against beginners.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest
from tests.e2e.driver import Player
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

BUTTON = '[data-testid="quick-play"]'
WHAT = '[data-testid="quick-play-what"]'


def table_of(player: Player, server: ServerProcess) -> dict[str, object]:
    player.page.wait_for_url("**/t/*")
    table_id = player.page.url.rsplit("/", 1)[1]
    answer: dict[str, object] = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
    return answer


@pytest.mark.browser
def test_a_newcomer_plays_cinch_against_beginners_at_once(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    ann = players("ann")
    ann.goto("./")
    page = ann.page
    page.locator(WHAT).filter(has_text="Cinch against 3 computers (Beginner)").wait_for()
    # no name, no table: the name field is asked for
    page.locator(BUTTON).click()
    page.locator(".quick-play .form-error").filter(has_text="enter your name").wait_for()
    assert httpx.get(f"{server.url}/api/tables", timeout=10).json()["tables"] == []

    page.locator('input[name="player-name"]').fill("Ann")
    page.locator(BUTTON).click()
    table = table_of(ann, server)
    seats = table["seats"]
    assert isinstance(seats, list)
    assert [s["kind"] for s in seats] == ["human", "computer", "computer", "computer"]
    assert {s["player"] for s in seats[1:]} == {"beginner"}
    assert table["variant"] == "cinch"
    # started at once: the deal is on and the player is asked to bid or waits for a computer
    page.wait_for_selector('body[data-started="true"]', state="attached")
    assert page.locator('[data-seat="0"]').inner_text().count("Ann") == 1
    # nobody else is shown the table
    assert httpx.get(f"{server.url}/api/tables", timeout=10).json()["tables"] == []
    ann.assert_no_errors()


@pytest.mark.browser
def test_quick_play_repeats_the_last_game_the_form_started(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    bo = players("bo")
    bo.goto("./")
    page = bo.page
    page.locator('input[name="player-name"]').fill("Bo")
    form = page.locator(".create-form")
    form.locator('select[name="variant"]').select_option("pidro")
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/t/*")
    last = json.loads(page.evaluate("localStorage.getItem('pedro-last-game')"))
    assert last["variant"] == "pidro"
    # a level chosen by quick play's last game is kept, the variant the form's
    page.evaluate(
        "localStorage.setItem('pedro-last-game', JSON.stringify({ variant: 'pidro', level: 'club' }))"
    )
    bo.goto("./")
    page.locator(WHAT).filter(has_text="Pidro against 3 computers (Club player)").wait_for()
    page.locator(BUTTON).click()
    table = table_of(bo, server)
    assert table["variant"] == "pidro"
    seats = table["seats"]
    assert isinstance(seats, list) and {s["player"] for s in seats[1:]} == {"club"}
    bo.assert_no_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    assert missing_hooks(__file__) == []
