"""End-to-end: a practice table says it is unrated, and on your turn a hint lists the value of each choice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess


def practice_table(server: ServerProcess, title: str) -> dict[str, Any]:
    """A practice cinch table made through the API, Ann at seat 0 against three computers."""
    body = {
        "variant": "cinch",
        "options": {},
        "title": title,
        "listed": False,
        "seats": [HUMAN, computer(), computer(), computer()],
        "seat": 0,
        "name": "Ann",
        "practice": True,
    }
    made: dict[str, Any] = httpx.post(f"{server.url}/api/tables", json=body, timeout=10).json()
    return made


@pytest.mark.browser
def test_a_hint_on_your_turn_at_a_practice_table(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    made = practice_table(server, "practice")
    tid = made["table"]
    ann = players("ann", storage=seat_storage(server.url, tid, 0, made["secret"], "Ann"))
    ann.goto(made["url"])
    page = ann.page
    page.wait_for_selector('body[data-turn="true"]', state="attached")
    assert "Practice · unrated" in page.locator(".subtitle").inner_text()
    page.locator('[data-testid="hint"]').click()
    values = page.locator('[data-testid="hint-values"] tr')
    page.locator('[data-testid="hint-values"]').wait_for(timeout=60_000)
    seq = int(page.evaluate("document.body.dataset.seq"))
    hint = httpx.get(f"{server.url}/api/tables/{tid}/hint", headers={"X-Pedro-Secret": made["secret"]}).json()
    assert hint["seq"] == seq and values.count() == len(hint["choices"]) == hint["legal"] > 1
    assert values.first.inner_text().startswith(hint["choices"][0]["label"])
    screenshot(page, "practice-hint", full_page=True)
    assert not ann.page_errors, ann.page_errors


@pytest.mark.browser
def test_a_finnish_browser_gets_its_hint_in_finnish(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    made = practice_table(server, "harjoitus")
    tid = made["table"]
    ann = players("ann", storage=seat_storage(server.url, tid, 0, made["secret"], "Ann"), locale="fi-FI")
    ann.goto(made["url"])
    page = ann.page
    page.wait_for_selector('body[data-turn="true"]', state="attached")
    assert "Harjoitus · ei rankingia" in page.locator(".subtitle").inner_text()
    box = page.locator('[data-testid="hint-box"]')
    assert box.locator("h3").text_content() == "Vihje"
    assert "Harjoituspöytä" in box.inner_text()
    page.locator('[data-testid="hint"]').click()
    page.locator('[data-testid="hint-values"]').wait_for(timeout=60_000)
    hint = httpx.get(f"{server.url}/api/tables/{tid}/hint", headers={"X-Pedro-Secret": made["secret"]}).json()
    units = {
        "score": "puolesi pistetilanteen odotettu muutos",
        "points": "pisteet, jotka puolesi saa tässä jaossa",
    }
    text = box.inner_text()
    assert units[hint["unit"]] in text and "expected" not in text and "points your side" not in text
    # every choice in Finnish: the first decision of a cinch hand is a call
    finnish = {"pass": "Passi"} | {
        c["action"]: f"Tarjoa {c['action'].split()[1]}" for c in hint["choices"] if c["action"] != "pass"
    }
    cells = box.locator('[data-testid="hint-values"] tr td:first-child')
    assert [cells.nth(k).inner_text() for k in range(cells.count())] == [
        finnish[c["action"]] for c in hint["choices"]
    ]
    screenshot(page, "practice-hint-fi", full_page=True)
    assert not ann.page_errors, ann.page_errors


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
