"""Long titles and names never widen a page: one long word is cut with an ellipsis, not scrolled to.

The lobby once grew to 2,104 px for a table titled with one 100-character word.
The forms take their length limits from ``/api/limits``, the numbers the server enforces.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.e2e.driver import HUMAN, Player, computer, create_table, hand_over, overbid, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

WIDTHS = (375, 1280)


def limits(server: ServerProcess) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{server.url}/api/limits", timeout=10).json()
    return answer


def overflow(player: Player) -> list[str]:
    """Where the page is wider than its window: the document, and any element past its right edge."""
    found: list[str] = player.page.evaluate(
        """() => {
          const width = window.innerWidth;
          const out = [];
          const doc = document.documentElement.scrollWidth;
          if (doc > width) out.push(`document ${doc} px wide in a ${width} px window`);
          for (const el of document.querySelectorAll("body *")) {
            const r = el.getBoundingClientRect();
            const parent = el.parentElement ? `${el.parentElement.className} > ` : "";
            const name = `${parent}${el.tagName}.${el.className}`;
            if (r.width && r.right > width + 0.5) out.push(`${name} ends at ${r.right}`);
          }
          return out.slice(0, 10);
        }"""
    )
    return found


def is_cut(player: Player, selector: str) -> bool | None:
    """Whether the element ``selector`` shows its text cut (None: no such element), asked in one go of
    the element the page shows then: the lobby and the table may draw it again between two calls."""
    cut: bool | None = player.page.evaluate(
        "s => { const e = document.querySelector(s); return e ? e.scrollWidth > e.clientWidth : null; }",
        selector,
    )
    return cut


def max_length(field: Locator, wanted: int) -> bool:
    """Whether the field's length limit becomes ``wanted``: the page sets it once its request for
    the server's limits is answered, so the check waits for it (up to 5 s) rather than racing it."""
    try:
        field.page.wait_for_function(
            "([e, n]) => e.maxLength === n", arg=[field.element_handle(), wanted], timeout=5000
        )
    except PlaywrightTimeoutError:
        return False
    return True


@pytest.mark.browser
def test_a_one_word_title_of_the_longest_length_fits_the_lobby_and_the_table(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    allowed = limits(server)
    assert allowed["title_chars"] >= 100, allowed
    title = "W" * 100  # one word: nothing to break it at
    name = "N" * allowed["name_chars"]
    table = create_table(server.url, [HUMAN, HUMAN, computer(), computer()], name=name, title=title)
    for width in WIDTHS:
        visitor = players(f"visitor-{width}", viewport={"width": width, "height": 800})
        visitor.goto("/")
        heading = visitor.page.locator(f'[data-table="{table["table"]}"] h3')
        heading.wait_for()
        assert heading.inner_text() == title, "the lobby shows the title, cut only by the eye"
        assert heading.get_attribute("title") == title, "the whole title is one hover away"
        cut = is_cut(visitor, f'[data-table="{table["table"]}"] h3')
        assert cut, "a title wider than its card is ellipsized"
        screenshot(visitor.page, f"lobby-long-title-{width}")
        assert overflow(visitor) == [], f"lobby at {width} px"
        # the form takes its lengths from the server: one limit, not two
        assert max_length(visitor.page.get_by_label("Title"), allowed["title_chars"])
        assert max_length(visitor.page.get_by_label("your name"), allowed["name_chars"])

        for path in (table["url"], f"{table['url']}?watch"):  # the join panel, then the table itself
            visitor.goto(path)
            visitor.page.locator("h1.title").filter(has_text=title).wait_for()
            if path.endswith("?watch"):
                visitor.page.locator("[data-seat] .name").filter(has_text=name).first.wait_for()
            else:
                visitor.page.locator(".seat-list").filter(has_text=name).wait_for()
                assert max_length(visitor.page.locator("input[name=name]"), allowed["name_chars"])
            screenshot(visitor.page, f"table-long-title-{width}{'-watch' if 'watch' in path else ''}")
            assert overflow(visitor) == [], f"{path} at {width} px"


@pytest.mark.browser
def test_a_longest_name_and_title_at_a_phone_table_and_in_my_tables_are_cut_not_scrolled(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    """At 375 px, through a whole hand: the felt, the calls, the scores, the last trick, the sheet."""
    allowed = limits(server)
    title = "T" * allowed["title_chars"]
    name = "N" * allowed["name_chars"]
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()], name=name, title=title)
    ann = players(
        "ann-long-375",
        storage=seat_storage(server.url, table["table"], 0, table["secret"], name),
        viewport={"width": 375, "height": 667},
    )
    ann.goto(table["url"])
    problems: list[str] = []

    def fits(seq: int) -> None:
        phase = ann.page.evaluate("document.body.dataset.phase")
        problems.extend(f"seq {seq} ({phase}): {p}" for p in overflow(ann))

    # Ann bids the most she may, so her name is the contract's in the banner and on the sheet
    ann.play_until(hand_over(0), random.Random(3), check=fits, choose=overbid)
    ann.page.locator('[data-testid="sheet"] tbody tr[data-hand]').first.wait_for()
    problems.extend(f"after the hand: {p}" for p in overflow(ann))
    screenshot(ann.page, "table-long-name-375", full_page=True)
    assert not problems, "\n".join(problems[:20])
    # the name is cut where it stands in a line of its own: on the felt and in the scores
    # (asked of the element the page shows when asked: the next hand may redraw the felt meanwhile)
    for selector in ('[data-seat="0"] .name', ".score-list li.yours .who"):
        cut = is_cut(ann, selector)
        assert cut, f"{selector} is not ellipsized ({cut})"
    ann.assert_no_errors()

    ann.goto("/")
    mine = ann.page.locator(f'[data-my-table="{table["table"]}"]')
    mine.wait_for()
    assert is_cut(ann, f'[data-my-table="{table["table"]}"] h3'), "my table's title is not cut"
    screenshot(ann.page, "lobby-my-tables-long-title-375")
    assert overflow(ann) == [], "lobby with my tables at 375 px"
    assert not ann.page_errors, ann.page_errors


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
