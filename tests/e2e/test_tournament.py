"""Duplicate tournaments in the browser: a director creates one, a player joins it by its link,
plays its deals at the tables it is sent to, and reads the standings and the results side by side."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.e2e.driver import Player, game_over
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess


@pytest.mark.browser
def test_a_player_joins_a_tournament_by_its_link_and_plays_its_deals(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    director = players("Director")
    page = director.page
    director.goto("/")
    page.get_by_role("link", name="Start a duplicate tournament").click()
    page.wait_for_selector(".tournament-form")
    page.fill('input[name="deals"]', "2")
    # one person, at table 1 seat 1; computers everywhere else (beginners: quick)
    for table in range(2):
        for seat in range(4):
            choice = "human" if (table, seat) == (0, 0) else "beginner"
            page.select_option(f'select[name="seat-{table}-{seat}"]', choice)
    page.fill('input[name="title"]', "Friday duplicate")
    screenshot(page, "tournament-new", full_page=True)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/d/[^/]+$"))
    link = page.locator(".join-link").text_content()
    assert link is not None and link.startswith(server.url) and "/d/" in link
    tournament = link.rsplit("/", 1)[1]
    # the director sees where each deal table stands (table 2, computers only, starts at once), but
    # no link to a deal some table has not played: its table would show the cards
    page.wait_for_selector(".tournament-director li[data-table='1'][data-deal='0']")
    assert page.locator(".tournament-director a").count() == 0

    ann = players("Ann")
    ann.page.goto(link)
    ann.page.fill('input[name="player-name"]', "Ann")
    ann.page.locator('[data-join-table="0"][data-join-seat="0"]').click()
    ann.page.wait_for_selector(".tournament-me")
    assert "You play at table 1, seat 1" in (ann.page.locator(".tournament-me h3").text_content() or "")
    rng = random.Random(16)
    for deal in range(2):
        button = ann.page.locator(f'[data-play-deal="{deal}"]')
        button.wait_for()
        if deal == 0:
            # table 2 has played deal 1 (or soon will): its cards stay hidden while Ann plays them
            hidden = ann.page.locator('.deal-result.hidden-deal[data-deal="0"]')
            assert hidden.count() == 1 and hidden.locator("a").count() == 0
        button.click()
        ann.page.wait_for_url(re.compile(r"/t/[^/]+$"))
        ann.page.wait_for_selector(".subtitle:has-text('tournament deal · one hand')")
        ann.play_until(game_over, rng)
        ann.assert_no_errors()
        back = ann.page.get_by_role("link", name="Back to the tournament")
        back.wait_for()
        if deal == 1:
            screenshot(ann.page, "tournament-deal-over")
        back.click()
        ann.page.wait_for_url(re.compile(rf"/d/{tournament}$"))

    ann.page.wait_for_selector("body[data-tournament='finished']", timeout=60_000)
    page.reload()
    page.wait_for_selector(".tournament-director li[data-state='played']")
    assert page.locator(".tournament-director li[data-state='played']").count() == 4
    assert "Table 1, deal 2: played" in (page.locator(".tournament-director").text_content() or "")
    ann.page.wait_for_selector(".tournament-standings tr.yours")
    results = ann.page.locator(".deal-result:not(.hidden-deal)")
    assert results.count() == 2
    assert ann.page.locator(".deal-result a[href^='replay/']").count() == 4  # each table, each deal
    summary = httpx.get(f"{server.url}/api/tournaments/{tournament}", timeout=10).json()
    assert summary["finished"]
    shown = ann.page.locator(".tournament-standings tbody tr").all_text_contents()
    assert len(shown) == 4 and any("Ann" in row for row in shown)
    screenshot(ann.page, "tournament", full_page=True)


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
