"""End-to-end: a finished game's review in the replay viewer, and a jump to one of its mistakes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, game_over, overbid, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.helpers import played_record
from tests.server.replay_helpers import expand_frames
from tests.serving import ServerProcess

#: a short game: cinch to 7
SHORT = {"target": 7}


#: the review of a short game with the default expert takes a few seconds (more on a busy machine)
REVIEW_TIMEOUT = 120_000


@pytest.mark.browser
def test_open_a_review_and_jump_to_a_mistake(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()], options=SHORT)
    tid = table["table"]
    ann = players("ann", storage=seat_storage(server.url, tid, 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    # Ann bids the most she may, then plays at random: a mistake to find in any deal (random play
    # alone once made none the expert's estimates could see, on a table's random deals)
    ann.play_until(game_over, random.Random(11), limit=240, choose=overbid)
    ann.assert_no_errors()
    frames = expand_frames(httpx.get(f"{server.url}/api/tables/{tid}/replay", timeout=10).json()["frames"])

    page = ann.page
    page.goto(f"replay/{tid}")
    panel = page.locator('[data-testid="review-panel"]')
    panel.wait_for()
    assert page.locator('[data-testid="review-seat"]').input_value() == "0"  # Ann's own seat
    page.locator('[data-testid="review-start"]').click()
    page.locator('[data-testid="review"]').wait_for(timeout=REVIEW_TIMEOUT)

    review = httpx.get(f"{server.url}/api/tables/{tid}/review/0", timeout=10).json()
    assert review["status"] == "done"
    mistakes = review["summary"]["mistakes"]
    assert mistakes, "random play made no mistake by the expert's estimates"
    listed = page.locator('.review-mistakes [data-testid="review-entry"]')
    assert listed.count() == len(mistakes)
    first = mistakes[0]
    assert listed.first.get_attribute("data-index") == str(first["index"])
    assert first["best"] in listed.first.inner_text()

    # the jump: the replay at the frame before the mistake, only Ann's hand open, as she saw it
    listed.first.click()
    page.wait_for_selector(f'body[data-seq="{first["index"]}"][data-as-seat="0"]', state="attached")
    shown = page.locator('[data-seat="0"] .cardrow.open [data-card]')
    codes = [shown.nth(k).get_attribute("data-card") for k in range(shown.count())]
    assert codes == frames[first["index"]]["hands"][0] and sorted(codes) == sorted(first["seen"]["hand"])
    for seat in (1, 2, 3):
        assert page.locator(f'[data-seat="{seat}"] .cardrow.open').count() == 0
    detail = page.locator('[data-testid="review-detail"]')
    assert first["action"] in detail.inner_text() and "ann's hand then" in detail.inner_text().lower()
    assert page.locator('[data-seat="0"] .name').inner_text() == "Ann (you)"  # her own seat
    screenshot(page, "review-jump", full_page=True)

    # a spectator jumping to Ann's seat sees the table from there, but it is not "you": nobody is
    bo = players("bo")
    bo.page.goto(f"{server.url}/replay/{tid}")
    bo.page.locator('[data-testid="review-seat"]').select_option("0")
    bo.page.locator('[data-testid="review-start"]').click()
    bo.page.locator('.review-mistakes [data-testid="review-entry"]').first.click(timeout=REVIEW_TIMEOUT)
    bo.page.wait_for_selector(f'body[data-seq="{first["index"]}"][data-as-seat="0"]', state="attached")
    assert bo.page.locator('[data-seat="0"] .name').inner_text() == "Ann"
    assert bo.page.locator(".seat.you").count() == 0
    assert "(you)" not in bo.page.locator(".felt").inner_text()
    assert not bo.page_errors, bo.page_errors

    # any move of the viewer shows every hand again
    page.get_by_role("button", name="next action", exact=True).click()
    page.wait_for_selector(f'body[data-seq="{first["index"] + 1}"][data-as-seat=""]', state="attached")
    assert page.locator('[data-seat="1"] .cardrow.open').count() == 1
    assert not ann.page_errors, ann.page_errors


@pytest.mark.browser
def test_review_an_uploaded_record(
    players: Callable[..., Player], server: ServerProcess, tmp_path: Path
) -> None:
    record = played_record("cinch", seed=4, hands=1, player="basic", names=("Ann", "Bo", "Cy", "Di"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    ann = players("ann")
    page = ann.page
    page.goto("review")
    page.locator('[data-testid="review-file"]').set_input_files(str(path))
    page.locator('[data-testid="review-seat"]').select_option("1")
    page.locator('[data-testid="review-start"]').click()
    page.locator('[data-testid="review"]').wait_for(timeout=REVIEW_TIMEOUT)
    assert "Bo" in page.locator('[data-testid="review"]').inner_text()
    entries = page.locator('[data-testid="review-entry"]')
    reviewed = httpx.post(f"{server.url}/api/review", json={"record": record, "seat": 1}, timeout=10).json()
    assert reviewed["status"] == "done"
    listed = len(reviewed["summary"]["mistakes"]) + sum(len(h["entries"]) for h in reviewed["hands"])
    assert entries.count() == listed > 0
    assert not ann.page_errors, ann.page_errors


@pytest.mark.browser
def test_a_finnish_browser_reviews_a_record_in_finnish(
    players: Callable[..., Player], server: ServerProcess, tmp_path: Path, screenshot: Callable[..., Path]
) -> None:
    record = played_record("cinch", seed=4, hands=1, player="basic", names=("Ann", "Bo", "Cy", "Di"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    ann = players("ann", locale="fi-FI")
    page = ann.page
    page.goto("review")
    assert page.locator("h1").inner_text() == "Arvioi pelitallenne"
    assert page.locator('[data-testid="review-start"]').inner_text() == "Arvioi tämä paikka"
    page.locator('[data-testid="review-file"]').set_input_files(str(path))
    page.locator('[data-testid="review-seat"]').select_option("1")
    page.locator('[data-testid="review-start"]').click()
    review = page.locator('[data-testid="review"]')
    review.wait_for(timeout=REVIEW_TIMEOUT)
    text = review.inner_text()
    for finnish in (
        "Menetetty näiden arvioiden mukaan · Bo",
        "Tarjoukset",
        "Pelaaminen",
        "Jako 1",
        "Kaikki päätökset",
    ):
        assert finnish in text, finnish
    assert "Kalleimmat päätökset" in text
    for english in ("Lost by", "Bidding", "Card play", "Every decision", "Costliest"):
        assert english not in text, english
    # an entry names its action and phase in Finnish ("Jako 1 · tarjous · Passi: …")
    reviewed = httpx.post(f"{server.url}/api/review", json={"record": record, "seat": 1}, timeout=10).json()
    calls = [e for h in reviewed["hands"] for e in h["entries"] if e["phase"] == "call"]
    assert calls, "seat 1 made no call in the hand"
    page.locator("details.review-all summary").click()
    entry = page.locator(f'.review-all [data-testid="review-entry"][data-index="{calls[0]["index"]}"]')
    words = calls[0]["words"]
    expected = "Passi" if words == "pass" else f"Tarjoa {words.split()[1]}"
    assert (entry.text_content() or "").startswith(f"Jako 1 · tarjous · {expected}:"), entry.text_content()
    screenshot(page, "review-fi", full_page=True)
    assert not ann.page_errors, ann.page_errors


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
