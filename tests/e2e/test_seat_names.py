"""End-to-end: how the page names seats and computer players, and how the score sheet sets them apart.

Every seat number a person reads counts from 1; a computer seat is named by its seat first
("2 · Aloittelija"), so two computers of one level read apart on a phone where names are cut; a
computer's level has one translated name on the lobby and the table, a player that is no level is
named by its spec; the score sheet keeps a bidder's name apart from the bid.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, seat_storage, summary
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

from pedro import server as server_package

CATALOGS = Path(server_package.__file__).parent / "static" / "i18n"
FI = json.loads((CATALOGS / "fi.json").read_text(encoding="utf-8"))
EN = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
PHONE = {"width": 360, "height": 740}


@pytest.mark.browser
def test_a_finnish_page_names_computer_seats_from_one_by_their_translated_level(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    beginner = FI["levelName.beginner"]
    # "basic" is the beginner level's player, "beginner" the level's name: both read as the level
    table = create_table(server.url, [HUMAN, computer("basic"), computer("beginner"), computer("random")])
    tid = table["table"]
    storage = seat_storage(server.url, tid, 0, table["secret"], "Ann")
    ann = players("ann", storage=storage, locale="fi-FI", viewport=PHONE)

    ann.goto("/")
    card = ann.page.locator(f'.table-card[data-table="{tid}"]')
    card.wait_for()
    chips = card.locator(".seat-chip")
    assert chips.locator(".seat-num").all_inner_texts() == ["1", "2", "3", "4"]
    assert chips.locator(".chip-name").all_inner_texts()[1:] == [beginner, beginner, "random"]

    ann.goto(table["url"])
    ann.page.wait_for_selector('.seat[data-seat="3"] .name')
    names = [ann.page.locator(f'.seat[data-seat="{s}"] .name').first.inner_text() for s in (1, 2, 3)]
    assert names == [f"2 · {beginner}", f"3 · {beginner}", "4 · random"]
    info = ann.page.locator('.seat[data-seat="1"] .kind-info').first.inner_text()
    assert info == f"{FI['seat.computer']} · {beginner}"
    assert "beginner" not in ann.page.locator("main").inner_text().lower()
    screenshot(ann.page, "seat-names-finnish-phone")
    ann.assert_no_errors()

    # a visitor without a seat reads the same names on the page that lists the seats
    bo = players("bo", locale="fi-FI", viewport=PHONE)
    bo.goto(table["url"])
    listed = bo.page.locator(".seat-list li")
    listed.first.wait_for()
    assert listed.nth(1).inner_text().endswith(f"2 · {beginner} ({FI['seat.computer']})"), (
        listed.all_inner_texts()
    )


@pytest.mark.browser
def test_the_score_sheet_sets_a_bidder_apart_from_the_bid_and_keeps_its_head_words_whole(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    table = create_table(server.url, [computer()] * 4, seat=None, options={"target": 7})
    tid = table["table"]
    deadline = time.monotonic() + 120
    while not summary(server.url, tid)["finished"]:
        assert time.monotonic() < deadline, "the computers did not finish the game"
        time.sleep(0.2)
    bo = players("bo", viewport=PHONE)
    bo.goto(f"{table['url']}?watch")
    sheet = bo.page.locator('[data-testid="sheet"]').first
    sheet.wait_for()
    made = sheet.locator("td.contract:has(.bid)")
    assert made.count() >= 1
    bidder = made.first.locator(".bidder").inner_text()
    bid = made.first.locator(".bid").inner_text()
    # "2 · Beginner:" then "7 ♦": the name ends in its seat's level, the bid stands on its own
    assert bidder.endswith(":") and bidder[0] in "1234" and " · " in bidder, bidder
    assert bid and bid[0].isdigit(), bid
    # the head's words are never split: each header's text is as many lines as it has words at most
    heads = sheet.locator("thead th")
    for i in range(heads.count()):
        lines, words = heads.nth(i).evaluate(
            """(th) => {
              const range = document.createRange();
              range.selectNodeContents(th);
              const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              return [tops.size, th.textContent.trim().split(/\\s+/).length];
            }"""
        )
        assert lines <= words, (heads.nth(i).inner_text(), lines, words)
        if i > 0:  # the contract and each side: a title holds the whole text
            assert heads.nth(i).get_attribute("title") == heads.nth(i).inner_text().replace("\n", " ")
    screenshot(bo.page, "sheet-phone", full_page=True)
    bo.assert_no_errors()


@pytest.mark.browser
@pytest.mark.parametrize("locale", ["en-US", "fi-FI"])
def test_the_create_form_names_levels_and_house_rules_as_people_read_them(
    players: Callable[..., Player], server: ServerProcess, locale: str
) -> None:
    catalog = EN if locale == "en-US" else FI
    ann = players("ann", locale=locale, viewport=PHONE)
    ann.goto("/")
    ann.page.wait_for_selector(".opt-desc")
    helps = ann.page.locator(".opt-desc").all_inner_texts()
    engine_words = [text for text in helps if re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", text)]
    assert not engine_words, engine_words
    target = ann.page.locator(".option:has(#opt-target) .opt-desc").inner_text()
    assert catalog["houseRule.value.first_to_target_bidder_priority"] in target, target
    # the levels first, by their names alone; the other players apart
    player = ann.page.locator('select[name="player-1"]')
    groups = player.locator("optgroup")
    assert groups.nth(0).get_attribute("label") == catalog["form.levels"]
    levels = ["beginner", "club", "strong", "expert"]
    assert groups.nth(0).locator("option").all_inner_texts() == [catalog[f"levelName.{lv}"] for lv in levels]
    assert groups.nth(1).get_attribute("label") == catalog["form.byName"]
    # what each level does, whole, under the seats
    told = ann.page.locator('[data-testid="levels-help"] li').all_inner_texts()
    assert told == [f"{catalog[f'levelName.{lv}']}: {catalog[f'level.{lv}']}" for lv in levels]


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
