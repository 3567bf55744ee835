"""End-to-end: what the table tells between the plays (handend.js), and the plays it makes itself.

A cinch hand's exchange is announced in public counts ("Bo discarded 6, drew 3"), and when the
hand ends its breakdown (who took High, Low, Jack, Game, the Pedros; the points and the score
change) holds the table until "Next hand", the next auction's calls with it. A lone legal card
is played for the player after a moment, unless the player turns that off.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, hand_over, page_name, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

from pedro.cards import parse_card, pretty_card


@pytest.mark.browser
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
    names = [page_name(s) for s in played["seats"]]
    dealer = game["dealer"]
    for seat in range(4):
        out, got = game["discarded"][seat], game["drawn"][seat]
        if out:
            assert f"{names[seat]} discarded {out}" in exchange[0], exchange
        if got and seat != dealer:
            assert f"drew {got}" in exchange[0], exchange
    assert any(game["discarded"]) and any(game["drawn"])
    if game["drawn"][dealer]:
        assert f"robbed the pack: took {game['drawn'][dealer]}" in exchange[0], exchange

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
    # the next hand is not offered while the result is shown, nor are its calls; "Next hand" moves on
    assert ann.page.evaluate("document.body.dataset.turn") == "false"
    bubbles = ann.page.locator(".seat .bubble.bid, .seat .bubble.pass")
    calls_waiting = bool(ann.latest()["game"]["calls"]) and ann.latest()["game"]["hand_index"] == 1
    assert bubbles.count() == 0, "the next auction's calls show under the last hand's result"
    ann.page.locator('[data-testid="next-hand"]').click()
    panel.wait_for(state="detached")
    if calls_waiting:
        bubbles.first.wait_for()
    ann.assert_no_errors()


def only_play(state: dict[str, Any]) -> str | None:
    """The viewer's one legal play when it is its turn in the card play with no other choice."""
    game = state["game"]
    legal = game.get("legal")
    if game["phase"] != "play" or state["you"] != game["turn"] or not legal or legal["kind"] != "list":
        return None
    actions = [a["action"] for a in legal["actions"]]
    return actions[0] if len(actions) == 1 and actions[0].startswith("play ") else None


@pytest.mark.browser
def test_a_lone_legal_card_is_played_for_the_player_after_a_visible_moment_unless_turned_off(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    """A cinch hand's last trick leaves each player one card: the page plays it (on by default)."""
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()])
    ann = players("ann", storage=seat_storage(server.url, table["table"], 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    ann.play_until(lambda s: only_play(s) is not None, random.Random(4))
    seq = ann.dom_seq()
    card = only_play(ann.state_at(seq))
    assert card is not None
    # said first, then played without a click
    assert ann.page.locator(".auto-note").inner_text()
    ann.wait_seq(seq + 1)
    played = next(s for s in ann.states if s["seq"] == seq + 1)
    assert played["last"]["seat"] == 0 and played["last"]["action"] == card, played["last"]

    # turned off, the page waits for the player
    ann.page.locator('[data-testid="auto-play"]').uncheck()
    ann.play_until(lambda s: only_play(s) is not None and s["seq"] > seq + 1, random.Random(5))
    waiting = ann.dom_seq()
    ann.page.wait_for_timeout(2000)  # more than twice the auto-play delay
    assert ann.dom_seq() == waiting and ann.my_turn()
    notes = ann.page.locator(".auto-note")
    assert notes.count() == 0, notes.all_inner_texts()  # (a note left from before the switch, once)
    ann.assert_no_errors()


def pretty_card_text(code: str) -> str:
    """A card as the page writes it: ``AH`` → ``A♥``, ``TD`` → ``10♦``."""
    return pretty_card(parse_card(code))


@pytest.mark.browser
def test_a_robbing_dealers_count_is_said_once_the_dealer_has_chosen(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    """The dealer took up the pack (10 cards) and laid 3 aside so far: while still choosing, the
    table says only what was laid aside; once play begins, what the dealer took."""
    page = players("ann").page
    page.goto("./")
    # The page may not have loaded its catalog yet; load English here so no text is a bare key.
    words = """async ([phase, turn]) => {
      await (await import("./static/i18n.js")).loadLanguage("en");
      const { exchangeWords } = await import("./static/handend.js");
      const game = { discarded: [2, 0, 1, 3], drawn: [2, 0, 1, 10], dealer: 3, phase, turn };
      return [0, 3].map((seat) => exchangeWords(game, seat, true));
    }"""
    assert page.evaluate(words, ["exchange", 3]) == ["discarded 2, drew 2", "discarded 3"]
    assert page.evaluate(words, ["play", 0]) == [
        "discarded 2, drew 2",
        "discarded 3, robbed the pack: took 10",
    ]


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
