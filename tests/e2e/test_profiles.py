"""End-to-end: a profile made in the browser, a short rated game played under it, its rating on the
table, the profile page and the leaderboard, and the profile moved to another browser with a code."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, game_over
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

#: the shortest game a rating counts: a variant played to its own target, the lowest (31)
SHORT_RATED = "pitch_fives"


def ann_with_a_profile(players: Callable[..., Player]) -> Player:
    """Ann's browser, which has just made the profile "Ann" on the profile page."""
    ann = players("ann")
    ann.goto("/profile")
    ann.page.locator("input[name=profile-name]").fill("Ann")
    ann.page.get_by_role("button", name="Make my profile").click()
    ann.page.locator(".profile-name").wait_for()
    return ann


@pytest.mark.browser
def test_a_profile_plays_a_rated_game_and_sees_its_rating(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    ann = ann_with_a_profile(players)
    page = ann.page
    assert page.locator(".profile-name").inner_text() == "Ann"
    assert "Not rated yet" in page.locator(".profile-head").inner_text()
    held = json.loads(page.evaluate("localStorage.getItem('pedro-profile')"))
    secret = held["secret"]

    # a table with a free seat against three computer levels; Ann sits down from the lobby
    table = create_table(
        server.url,
        [HUMAN, computer("basic"), computer("heuristic"), computer("basic")],
        seat=None,
        variant=SHORT_RATED,
    )
    tid = table["table"]
    ann.goto("/")
    card = page.locator(f'[data-table="{tid}"]')
    assert "rated" in card.inner_text()
    name = page.locator("input[name=player-name]")
    assert name.input_value() == "Ann" and name.evaluate("el => el.readOnly")
    card.locator('[data-join="0"]').click()
    page.wait_for_url(f"**/t/{tid}")
    ann.play_until(game_over, random.Random(3), limit=240)
    ann.assert_no_errors()
    assert "rated" in page.locator(".subtitle").inner_text()

    # the game's rating under its result, as the server applied it
    box = page.locator('.game-rating[data-rated="true"]')
    box.wait_for(timeout=30_000)
    rating = httpx.get(f"{server.url}/api/tables/{tid}/rating", timeout=10).json()
    assert rating["rated"] and {c["name"] for c in rating["changes"]} == {"Ann", "beginner", "club"}
    mine = next(c for c in rating["changes"] if c["name"] == "Ann")
    assert f"{mine['before']:.1f} → {mine['after']:.1f}" in box.inner_text()
    assert box.locator("li").count() == 3, "a level with two seats is listed once"
    screenshot(page, "profile-game-rating", full_page=True)

    # the profile page: the rating, its history plot, the bids and the game with its replay
    ann.goto("/profile")
    page.locator(".profile-ratings").wait_for()
    assert f"{mine['after']:.1f}" in page.locator(".profile-ratings").inner_text()
    assert page.locator("svg.history-plot polyline.history-line").count() == 1
    assert page.locator("svg.history-plot circle").count() == 1
    assert page.locator(f'.profile-games tr[data-table="{tid}"] a[href="replay/{tid}"]').count() == 1
    totals = page.locator(".profile-totals tbody tr").inner_text()
    assert "Pitch" in totals
    assert secret not in page.content()
    screenshot(page, "profile-page", full_page=True)

    # the leaderboard: Ann among the computer levels, which are marked
    ann.goto(f"/leaderboard?variant={SHORT_RATED}")
    rows = page.locator(".board-table tbody tr")
    rows.first.wait_for()
    assert rows.count() == 3
    computers = page.locator(".board-table tbody tr.computer")
    assert computers.count() == 2 and "computer" in computers.first.inner_text().lower()
    assert "Ann" in page.locator(f'.board-table tr[data-profile="{held["id"]}"]').inner_text()
    assert secret not in page.content()
    screenshot(page, "leaderboard", full_page=True)

    # moved to another browser with a one-time code
    ann.goto("/profile")
    page.get_by_role("button", name="Make a move code").click()
    code = page.locator(".move-code").inner_text()
    bo = players("bo")
    bo.goto("/profile")
    bo.page.locator("input[name=move-code]").fill(code)
    bo.page.get_by_role("button", name="Take over the profile").click()
    bo.page.locator(".profile-name").wait_for()
    assert bo.page.locator(".profile-name").inner_text() == "Ann"
    assert json.loads(bo.page.evaluate("localStorage.getItem('pedro-profile')"))["id"] == held["id"]
    ann.goto("/profile")
    page.locator(".notice").wait_for()
    assert "no longer holds" in page.locator(".notice").inner_text()
    assert page.evaluate("localStorage.getItem('pedro-profile')") is None
    assert not ann.page_errors and not bo.page_errors, (ann.page_errors, bo.page_errors)


@pytest.mark.browser
def test_a_profile_is_renamed_and_deleted_in_the_browser(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    httpx.post(f"{server.url}/api/profiles", json={"name": "Bo"}, timeout=10).raise_for_status()
    ann = ann_with_a_profile(players)
    page = ann.page
    profile_id = json.loads(page.evaluate("localStorage.getItem('pedro-profile')"))["id"]

    # a name another profile has is refused, as at creation; a free one is taken
    rename = page.locator(".rename-profile")
    rename.locator("input[name=rename-profile]").fill("bo")
    rename.get_by_role("button", name="Rename").click()
    rename.locator(".form-error").wait_for()
    assert "taken" in rename.locator(".form-error").inner_text()
    rename.locator("input[name=rename-profile]").fill("Annie")
    rename.get_by_role("button", name="Rename").click()
    page.wait_for_selector(".profile-name:text-is('Annie')")
    assert json.loads(page.evaluate("localStorage.getItem('pedro-profile')"))["name"] == "Annie"
    assert httpx.get(f"{server.url}/api/profiles/{profile_id}", timeout=10).json()["name"] == "Annie"

    # deleting asks twice; then the profile is gone and this browser forgets it
    box = page.locator(".delete-profile")
    box.get_by_role("button", name="Delete my profile").click()
    assert httpx.get(f"{server.url}/api/profiles/{profile_id}", timeout=10).status_code == 200
    box.get_by_role("button", name="Yes, delete it for good").click()
    page.locator(".new-profile").wait_for()
    assert "was deleted" in page.locator(".profile").inner_text()
    assert page.evaluate("localStorage.getItem('pedro-profile')") is None
    assert httpx.get(f"{server.url}/api/profiles/{profile_id}", timeout=10).status_code == 404
    assert not ann.page_errors, ann.page_errors  # (the refused name's 409 is in the console)


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
