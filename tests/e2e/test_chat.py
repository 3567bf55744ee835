"""The table's chat in the browser: two players and a spectator talk, each reads in their own language.

Ann plays in English at a desktop, Bo in Finnish on a phone (375×667), where the chat folds away
under the table and a badge counts what he has not read. A line of markup shows as text; a quick
phrase shows in each reader's language; Ann mutes Bo for herself, and it is remembered; a
spectator needs a name to chat, and the players do not read the spectators during a hand.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

IMG = '<img src=x onerror="document.body.dataset.pwned=1">'
LOG = '[data-testid="chat-log"]'
INPUT = '[data-testid="chat-input"]'
SEND = '[data-testid="chat-send"]'
PHONE = {"width": 375, "height": 667}


def line_in(player: Player, text: str) -> None:
    player.page.locator(f"{LOG} .chat-line").filter(has_text=text).first.wait_for()


def say(player: Player, text: str) -> None:
    player.page.locator(INPUT).fill(text)
    player.page.locator(SEND).click()


@pytest.mark.browser
def test_two_players_and_a_spectator_chat_at_a_table(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    made = create_table(server.url, [HUMAN, HUMAN, computer(), computer()])
    table = made["table"]
    bo_claim = httpx.post(
        f"{server.url}/api/tables/{table}/seats", json={"seat": 1, "name": "Bo"}, timeout=10
    )
    assert bo_claim.is_success, bo_claim.text
    ann = players("ann", storage=seat_storage(server.url, table, 0, made["secret"], "Ann"))
    bo = players(
        "bo",
        storage=seat_storage(server.url, table, 1, bo_claim.json()["secret"], "Bo"),
        viewport=PHONE,
        locale="fi-FI",
        is_mobile=True,
        has_touch=True,
    )
    ann.goto(f"t/{table}")
    bo.goto(f"t/{table}")
    for player in (ann, bo):
        player.page.locator('[data-testid="chat"]').wait_for()
    # the text box takes its length from the server
    assert ann.page.locator(INPUT).evaluate("el => el.maxLength") == 200
    ann.page.locator('[data-testid="chat-count"]').filter(has_text="0/200").wait_for()

    # markup is shown as text: no element is made of it
    say(ann, IMG)
    line_in(ann, IMG)
    # Bo's phone: the chat is folded away, and the top bar counts what he has not read
    assert bo.page.locator(LOG).is_hidden()
    bo.page.locator('[data-testid="chat-badge"]').filter(has_text="1").wait_for()
    bo.page.locator('[data-testid="chat-toggle"]').click()
    line_in(bo, IMG)
    for player in (ann, bo):
        assert player.page.locator(f"{LOG} img").count() == 0
        assert player.page.evaluate("document.body.dataset.pwned") is None
    assert bo.page.locator('[data-testid="chat-badge"]').is_hidden()
    assert bo.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # a quick phrase is read in each reader's language
    bo.page.locator('[data-phrase="gg"]').click()
    line_in(ann, "Good game!")
    line_in(bo, "Hyvä peli!")
    screenshot(bo.page, "chat-phone", full_page=True)
    assert {"type": "chat", "phrase": "gg"} in bo.sent

    # Ann mutes Bo for herself: his lines go from her page only, and it is remembered
    ann.page.locator(f"{LOG} .chat-line").filter(has_text="Good game!").locator(
        '[data-testid="chat-mute"]'
    ).click()
    ann.page.locator('[data-testid="chat-muted"]').filter(has_text="Muted (1)").wait_for()
    assert ann.page.locator(f"{LOG} .chat-line").filter(has_text="Good game!").count() == 0
    say(bo, "hei Ann")
    line_in(bo, "hei Ann")
    ann.poll(lambda: any(m.get("text") == "hei Ann" for m in ann.received), "Bo's line at Ann's page")
    assert ann.page.locator(f"{LOG} .chat-line").filter(has_text="hei Ann").count() == 0
    ann.goto(f"t/{table}")
    line_in(ann, IMG)
    assert ann.page.locator(f"{LOG} .chat-line").filter(has_text="hei Ann").count() == 0
    ann.page.locator('[data-testid="chat-muted"] summary').click()
    ann.page.locator('[data-testid="chat-unmute"]').click()
    line_in(ann, "hei Ann")

    # a spectator is asked for a name, and the players do not read it while a hand is played
    cy = players("cy")
    cy.goto(f"t/{table}?watch")
    cy.page.locator('[data-testid="chat-name"]').fill("Cy")
    cy.page.locator('[data-testid="chat-name-save"]').click()
    say(cy, "Ann has the jack")
    line_in(cy, "Ann has the jack")
    line_in(cy, "hei Ann")  # spectators read the players
    screenshot(cy.page, "chat-spectator")
    bo.page.wait_for_timeout(300)
    assert not any(m.get("text") == "Ann has the jack" for m in ann.received + bo.received)
    for player in (ann, bo, cy):
        assert not player.page_errors and not player.errors, player.describe()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    assert missing_hooks(__file__) == []
