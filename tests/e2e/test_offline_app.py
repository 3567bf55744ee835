"""End-to-end: the offline app (``/play/``), pedro's engine and computer players running in the
browser's Web Worker (Pyodide), with no server once its files are cached.

A person opens the app once, the network goes (``context.set_offline``), and the page, loaded
again from its service worker's cache, plays a whole hand of cinch and of Pidro in Finnish by
clicking; a game left in the middle resumes in a new page where it stopped, and its downloaded
record replays with ``pedro replay`` and, opened as a file, in the app. The worker's Python makes
the same decisions as CPython on the same seeded deals. (One test: loading Pyodide is most of its
cost.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext
from tests.e2e.driver import hand_over
from tests.e2e.hooks import missing_hooks
from tests.e2e.solo import SoloPlayer
from tests.serving import ServerProcess
from typer.testing import CliRunner

from pedro.cli.main import app
from pedro.server.offline import worker

#: computers move quickly here (the page's pause before each computer move, in ms); every move of
#: the person is a click (no forced card played for them, which a slow poll could take for a
#: second click's)
SETTINGS = (
    "localStorage.setItem('pedro-solo-pace', '20'); localStorage.setItem('pedro-lang', 'fi');"
    "localStorage.setItem('pedro-prefs', JSON.stringify({autoPlay: false}));"
)


@pytest.fixture
def context(browser: Browser, server: ServerProcess) -> Iterator[BrowserContext]:
    context = browser.new_context(base_url=server.url, accept_downloads=True)
    context.add_init_script(SETTINGS)
    yield context
    context.close()


def open_app(context: BrowserContext, name: str) -> SoloPlayer:
    page = context.new_page()
    player = SoloPlayer(name, page, "")
    page.goto("/play/")
    player.wait_engine()
    return player


@pytest.mark.browser
def test_offline_a_person_plays_in_finnish_resumes_exports_and_the_worker_decides_as_cpython(
    context: BrowserContext, tmp_path: Path
) -> None:
    first = open_app(context, "Aino")
    # the service worker has cached every file of the app once it is ready (it caches on install)
    assert first.page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
    context.set_offline(True)
    first.page.reload()
    first.wait_engine()
    assert "Valmis" in first.page.locator('[data-testid="engine-status"]').inner_text()
    rng = random.Random(5)

    first.start_game("cinch", "Aino")
    first.play_until(hand_over(0), rng)
    assert first.latest()["game"]["hand_index"] >= 1
    first.assert_no_errors()

    # home by the table's own link: the same page, its worker already loaded
    first.page.locator("a.home").click()
    first.start_game("pidro", "Aino")
    first.play_until(hand_over(0), rng)
    first.play_until(lambda state: state["game"]["phase"] == "play", rng)
    left_at = first.wait_my_turn()  # the computers wait for Aino now
    first.poll(lambda: first.stored_actions() == left_at, "the game stored as it stands")
    pidro = first.latest()
    assert pidro["table"]["variant"] == "pidro" and pidro["game"]["hand_index"] == 1
    first.assert_no_errors()
    first.page.close()

    # a new page, still offline: the unfinished game is listed and resumes where it was left
    again = open_app(context, "Aino")
    unfinished = again.page.locator('[data-testid="solo-unfinished"] .solo-game')
    assert unfinished.count() == 2, "both games are kept, unfinished (a game is played to its target)"
    pidro_line = unfinished.first  # the game played last comes first
    assert "Pidro" in pidro_line.inner_text()
    with again.page.expect_download() as download:
        pidro_line.locator('[data-testid="solo-download"]').click()
    record = tmp_path / "pedro-record.json"
    download.value.save_as(record)
    pidro_line.locator('[data-testid="solo-resume"]').click()
    again.wait_seq(left_at)
    assert again.dom_seq() == left_at
    assert again.latest()["game"]["hand_index"] == 1
    again.assert_no_errors()

    replayed = CliRunner().invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(record.read_text())["names"][0] == "Aino"
    assert "Pidro" in replayed.output and "Unfinished game" in replayed.output

    # the record opened as a file, still offline: its replay, every hand open, from its first deal
    again.page.locator("a.home").click()
    again.page.locator('[data-testid="solo-import"]').set_input_files(str(record))
    again.page.wait_for_selector('body[data-page="replay"][data-seq="0"]', state="attached", timeout=20_000)
    first_deal = json.loads(record.read_text())["hands"][0]["deal"][0]
    shown = again.page.locator('[data-seat="0"] .cardrow.open [data-card]')
    shown.first.wait_for()
    assert sorted(shown.nth(k).get_attribute("data-card") or "" for k in range(shown.count())) == sorted(
        first_deal
    )

    # the worker's Python decides as CPython does on the same seeded deals: pedro's rules and players
    for variant in ("cinch", "pidro", "eighty_three"):
        seats = [None, "beginner", "club", "club"]
        setup = json.dumps({"variant": variant, "seats": seats, "name": "A", "seed": "9"})
        assert again.call("fingerprint", setup, 1) == worker.fingerprint(setup, 1), variant
    again.assert_no_page_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
