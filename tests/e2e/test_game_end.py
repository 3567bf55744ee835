"""End-to-end: a short game played to its end in the browser, its summary, its record and its replay."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, game_over, seat_storage, summary
from tests.e2e.hooks import missing_hooks
from tests.server.replay_helpers import expand_frames
from tests.serving import ServerProcess

from pedro.records import replay
from pedro.variants.options import make_ruleset

#: a short game: cinch to 7 instead of 62 (the first side to reach 7 wins, the bidder's side first)
SHORT = {"target": 7}


@pytest.mark.browser
def test_a_short_game_ends_with_a_summary_a_record_and_a_replay(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    assert make_ruleset("cinch", SHORT).target == 7
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()], options=SHORT)
    tid = table["table"]
    ann = players("ann", storage=seat_storage(server.url, tid, 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    ann.play_until(game_over, random.Random(6), limit=240)
    ann.assert_no_errors()

    # the summary, with the final scores and a link to the record
    final = ann.latest()
    assert final["finished"] and final["game"]["winner"] is not None
    the_summary = ann.page.locator('[data-testid="summary"]')
    the_summary.wait_for()
    assert the_summary.is_visible()
    assert ann.page.evaluate("document.body.dataset.turn") == "false"
    # the last hand's result is shown (for some seconds) beside the summary, with no next hand
    assert ann.page.locator('[data-testid="hand-end"]').is_visible()
    assert ann.page.locator('[data-testid="next-hand"]').count() == 0
    screenshot(ann.page, "game-end-summary", full_page=True)
    over = summary(server.url, tid)
    assert over["finished"] and over["winner"] == final["game"]["winner"]
    hands = len(final["game"]["sheet"])
    assert hands >= 1
    rows = ann.page.locator('[data-testid="sheet"] tbody tr').all_inner_texts()
    assert len([r for r in rows if "No hand finished" not in r]) == hands, rows

    link = ann.page.locator('[data-testid="download"]')
    href = link.get_attribute("href") or ""
    assert href, "the download link has no href"
    served = httpx.get(httpx.URL(server.url).join(href), timeout=10)
    assert served.status_code == 200, served.text
    with ann.page.expect_download() as download_info:
        link.click()
    downloaded = json.loads(Path(download_info.value.path()).read_text())
    assert downloaded == served.json()
    record = replay(downloaded)
    assert downloaded["format"] == "pedro-record/1" and downloaded["variant"] == "cinch"
    assert downloaded["names"][0] == "Ann"
    assert record.finished and record.winner == final["game"]["winner"]
    assert sum(len(h["actions"]) for h in downloaded["hands"]) == final["seq"]

    # the replay: every frame of the game, stepped forward and back (the client rebuilds each
    # frame from the deltas sent, as expand_frames does)
    frames = expand_frames(httpx.get(f"{server.url}/api/tables/{tid}/replay", timeout=10).json()["frames"])
    assert len(frames) == final["seq"] + 1
    ann.page.get_by_role("link", name="Replay the game").click()
    ann.page.wait_for_url(f"**/replay/{tid}")
    page = ann.page

    def at(i: int) -> None:
        page.wait_for_selector(f'body[data-seq="{frames[i]["seq"]}"]', state="attached", timeout=10_000)

    def shows_every_hand(i: int) -> None:
        """Every seat's hand open, exactly the frame's cards in its order."""
        for seat, cards in enumerate(frames[i]["hands"]):
            shown = page.locator(f'[data-seat="{seat}"] .cardrow.open [data-card]')
            codes = [shown.nth(k).get_attribute("data-card") for k in range(shown.count())]
            assert codes == cards, f"frame {i}, seat {seat}: {codes} shown, {cards} held"

    def sheet_rows() -> int:
        return page.locator('.sheet-box [data-testid="sheet"] tbody tr[data-hand]').count()

    at(0)
    shows_every_hand(0)
    assert sheet_rows() == 0
    screenshot(page, "replay-first-deal", full_page=True)

    def press(name: str) -> None:
        page.get_by_role("button", name=name, exact=True).click()

    press("next action")
    at(1)
    press("next action")
    at(2)
    press("previous action")
    at(1)
    page.keyboard.press("ArrowRight")
    at(2)
    page.keyboard.press("ArrowLeft")
    at(1)
    # a replay is no game to take a turn in: Ann's seat is "to play", never "your turn", in the
    # auction's first frames (every seat's turn comes in them)
    for i in range(1, 5):
        assert "your turn" not in page.locator(".felt").inner_text(), f"frame {i}"
        press("next action")
        at(i + 1)
    for _ in range(4):
        press("previous action")
    at(1)

    trick_ends = [
        j for j in range(1, len(frames))
        if frames[j]["closed"] or len(frames[j]["game"]["tricks"]) > len(frames[j - 1]["game"]["tricks"])
    ]  # fmt: skip
    hand_ends = [j for j, f in enumerate(frames) if f["closed"]]
    assert hand_ends and trick_ends
    press("next trick")
    at(trick_ends[0])
    press("next trick")
    at(trick_ends[1])
    shows_every_hand(trick_ends[1])
    screenshot(page, "replay-trick", full_page=True)
    press("previous trick")
    at(trick_ends[0])
    press("next hand")
    at(hand_ends[0])
    shows_every_hand(hand_ends[0])
    assert sheet_rows() == len(frames[hand_ends[0]]["game"]["sheet"]) == 1
    # the hand's breakdown, as at the table: a row per side, with what it took, unless thrown in (the
    # last hand's too, above the game's summary)
    breakdown = page.locator(".hand-end-notice")
    assert breakdown.count() == 1
    sides = len(frames[hand_ends[0]]["game"]["sheet"][0]["score"])
    assert breakdown.locator("tbody tr").count() == sides
    thrown = frames[hand_ends[0]]["game"]["sheet"][0].get("bidder") is None
    assert thrown or breakdown.locator("td.took").count() == sides
    screenshot(page, "replay-hand-end", full_page=True)
    press("previous hand")
    at(0)
    press("last")
    at(len(frames) - 1)
    page.locator('[data-testid="summary"]').wait_for()
    assert sheet_rows() == len(frames[-1]["game"]["sheet"]) == hands
    screenshot(page, "replay-last", full_page=True)
    press("first")
    at(0)
    assert page.get_by_role("button", name="previous action", exact=True).is_disabled()
    assert not ann.page_errors, ann.page_errors


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
