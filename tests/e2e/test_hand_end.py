"""End-to-end: what the table tells between the plays (handend.js).

A cinch hand's exchange is announced in public counts ("Bo discarded 6, drew 3"), and when the
hand ends its breakdown (who took High, Low, Jack, Game, the Pedros; the points and the score
change) holds the table until "Next hand".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, hand_over, seat_storage
from tests.serving import ServerProcess

from pedro.cards import parse_card, pretty_card

pytestmark = pytest.mark.browser


def test_a_cinch_exchange_is_announced_and_the_hand_end_shows_its_breakdown(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()])
    tid = table["table"]
    ann = players("ann", storage=seat_storage(server.url, tid, 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    exchange: list[str] = []

    def in_play(seq: int) -> None:
        if not exchange and ann.page.evaluate("document.body.dataset.phase") == "play":
            box = ann.page.locator('[data-testid="exchange"]')
            box.wait_for()
            exchange.append(box.inner_text())
            screenshot(ann.page, "table-exchange-counts")

    ann.play_until(hand_over(0), random.Random(3), check=in_play)
    ann.assert_no_errors()

    # the exchange, seat by seat in public counts, matching what the server sent
    assert exchange, "the play began without the page showing the exchange"
    played = next(s for s in ann.states if s["game"]["phase"] == "play")
    game = played["game"]
    names = [s["name"] or f"Seat {s['seat'] + 1}" for s in played["seats"]]
    dealer = game["dealer"]
    for seat in range(4):
        out, got = game["discarded"][seat], game["drawn"][seat]
        if out:
            assert f"{names[seat]} discarded {out}" in exchange[0], exchange
        if got and seat != dealer:
            assert f"drew {got}" in exchange[0], exchange
    assert any(game["discarded"]) and any(game["drawn"])
    if game["drawn"][dealer]:
        assert f"robbed the pack and kept {game['drawn'][dealer]}" in exchange[0], exchange

    # the hand's end: its breakdown stays on the table, with what each side took
    panel = ann.page.locator('[data-testid="hand-end"]')
    panel.wait_for()
    text = panel.inner_text()
    screenshot(ann.page, "table-hand-end")
    row = ann.latest()["game"]["sheet"][0]
    assert "Hand 1 is over" in text
    assert "made it" in text or "went set" in text or "thrown in" in text
    took = [t for side in row["taken"] for t in side]
    if row["bidder"] is not None:
        assert took, row
    for t in took:
        assert t["name"] in text, (t, text)
        if t["card"]:
            assert pretty_card_text(t["card"]) in text, (t, text)
    # the next hand is not offered while the result is shown; "Next hand" moves on
    assert ann.page.evaluate("document.body.dataset.turn") == "false"
    ann.page.locator('[data-testid="next-hand"]').click()
    panel.wait_for(state="detached")
    ann.assert_no_errors()


def pretty_card_text(code: str) -> str:
    """A card as the page writes it: ``AH`` → ``A♥``, ``TD`` → ``10♦``."""
    return pretty_card(parse_card(code))
