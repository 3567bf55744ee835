"""Phones: at 375×667 the whole hand and the calls are on the first screen, without scrolling.

The worst cases are the nine-card hands while bidding: Pidro (pass and nine bids) and Sixty-Three
(pass and 63 bids, a row that scrolls sideways by itself). Each of the player's turns of the first
hand, the page is put back at the top and every card of the hand, and the panel of calls, must lie
inside the window.

To be offered every bid the player must call first: she takes the seat left of the dealer, and the
other seats are taken by people who never come, for whom the computer plays after ``AWAY`` seconds.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.e2e.conftest import BOT_DELAY
from tests.e2e.driver import HUMAN, Player, computer, create_table, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess, running_server

PHONE = {"width": 375, "height": 667}
#: seconds before the computer plays for a seat whose player is not there
AWAY = 0.3

#: every box that must be on the first screen: the hand's cards, the panel, and the row of bids
BOXES = """() => {
  const box = (e, what) => {
    const r = e.getBoundingClientRect();
    return { what, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  };
  const out = [...document.querySelectorAll(".hand-slot .hand [data-card]")]
    .map((e) => box(e, `card ${e.dataset.card}`));
  for (const e of document.querySelectorAll(".turn-slot .panel-turn, .turn-slot .bids")) {
    out.push(box(e, e.className));
  }
  return out;
}"""


def outside(boxes: list[dict[str, Any]], width: int, height: int) -> list[str]:
    return [
        f"{b['what']} spans x {b['left']:.0f}–{b['right']:.0f}, y {b['top']:.0f}–{b['bottom']:.0f}"
        for b in boxes
        if b["left"] < -0.5 or b["right"] > width + 0.5 or b["top"] < -0.5 or b["bottom"] > height + 0.5
    ]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """This module's server: the computer stands in for an absent player after ``AWAY`` seconds."""
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with running_server(database, tmp_path, bot_delay=BOT_DELAY, away=AWAY) as s:
        yield s


def first_caller(
    players: Callable[..., Player], server: ServerProcess, variant: str, absent: dict[int, str] | None = None
) -> Player:
    """Ann on a phone, in the seat that calls first in hand 1; the three others absent (their
    secrets go to ``absent``, by seat, when it is given)."""
    table = create_table(server.url, [HUMAN] * 4, seat=None, variant=variant)
    tid = table["table"]
    watcher = players(f"watcher-{variant}")
    watcher.goto(f"{table['url']}?watch")
    dealer = watcher.latest()["game"]["dealer"]
    watcher.page.close()
    ann_seat = (dealer + 1) % 4

    def claim(seat: int, name: str) -> str:
        answer = httpx.post(
            f"{server.url}/api/tables/{tid}/seats", json={"seat": seat, "name": name}, timeout=10
        )
        assert answer.status_code == 200, answer.text
        secret: str = answer.json()["secret"]
        return secret

    # Ann is at the table before the others sit down, so the computer never plays for her
    ann = players(
        f"ann-{variant}",
        storage=seat_storage(server.url, tid, ann_seat, claim(ann_seat, "Ann"), "Ann"),
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    ann.goto(table["url"])
    ann.page.wait_for_selector('body[data-started="false"]', state="attached")
    ann.poll(lambda: any(m.get("type") == "welcome" for m in ann.received), "the seat to be welcomed")
    for seat in range(4):
        if seat != ann_seat:
            secret = claim(seat, f"Absent {seat + 1}")
            if absent is not None:
                absent[seat] = secret
    return ann


ROW = ".bid-row .bids"
#: the row of bids, measured in one go (the page may draw the panel again between two calls)
BID_ROW = f"""() => {{
  const e = document.querySelector("{ROW}");
  return e && {{ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth, scrollLeft: e.scrollLeft }};
}}"""


@pytest.mark.parametrize(("variant", "bids"), [("pidro", 9), ("sixty_three", 63)])
@pytest.mark.browser
def test_the_whole_hand_and_the_calls_fit_a_phone_screen_while_bidding_and_playing(
    players: Callable[..., Player],
    server: ServerProcess,
    screenshot: Callable[..., Path],
    variant: str,
    bids: int,
) -> None:
    ann = first_caller(players, server, variant)
    width, height = PHONE["width"], PHONE["height"]
    problems: list[str] = []
    seen: dict[str, int] = {}

    def fits(seq: int) -> None:
        state = ann.state_at(seq)
        phase = state["game"]["phase"]
        ann.page.evaluate("window.scrollTo(0, 0)")
        boxes = ann.page.evaluate(BOXES)
        cards = [b for b in boxes if b["what"].startswith("card ")]
        assert len(cards) == len(state["game"]["hand"]), f"seq {seq}: {len(cards)} cards shown"
        problems.extend(f"seq {seq} ({phase}): {p}" for p in outside(boxes, width, height))
        scroll = ann.page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            problems.append(f"seq {seq} ({phase}): the page is {scroll} px wide")
        if phase == "auction" and "auction" not in seen:
            # the first call of the hand: nine cards, every bid offered
            assert not state["game"]["calls"], f"Ann does not call first: {state['game']['calls']}"
            offered = ann.page.locator(".bid-row [data-action^='bid ']").count()
            assert len(cards) == 9 and offered == bids, (len(cards), offered)
            if bids > 20:
                # a long row of bids scrolls sideways inside the panel, the page does not
                row = ann.page.evaluate(BID_ROW)
                assert row["scrollWidth"] > row["clientWidth"] + 100, f"the bids do not scroll: {row}"
        if phase not in seen:
            seen[phase] = len(cards)
            screenshot(ann.page, f"phone-{variant}-{phase}")

    def played_a_while(state: dict[str, Any]) -> bool:
        tricks = len(state["game"].get("tricks") or [])
        return state["game"]["hand_index"] > 1 or bool(state["finished"]) or ("play" in seen and tricks >= 3)

    ann.play_until(played_a_while, random.Random(11), check=fits)
    ann.assert_no_errors()
    assert "auction" in seen and "play" in seen, f"turns seen: {seen}"
    assert not problems, "the hand or the calls are not on the first screen:\n" + "\n".join(problems)


#: each card's suit and colour, the hand's cards and a reference card of every suit drawn by cards.js
COLOURS = """async () => {
  const { cardFace } = await import(new URL("static/cards.js", document.baseURI).href);
  let probe = document.getElementById("probe");
  if (!probe) {
    probe = document.createElement("div");
    probe.id = "probe";
    for (const code of ["5S", "5H", "5D", "5C"]) probe.append(cardFace(code));
    document.body.append(probe);
  }
  return [...document.querySelectorAll(".hand [data-card], #probe [data-card]")]
    .map((e) => [e.dataset.card, getComputedStyle(e).color]);
}"""
RED, BLACK, BLUE, GREEN = "rgb(198, 40, 40)", "rgb(27, 27, 27)", "rgb(21, 87, 176)", "rgb(35, 122, 46)"
TWO_COLOURS = {"S": BLACK, "H": RED, "D": RED, "C": BLACK}
FOUR_COLOURS = {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN}


@pytest.mark.browser
def test_the_four_colour_deck_is_a_switch_on_the_page_kept_in_this_browser(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()])
    ann = players("ann-deck", storage=seat_storage(server.url, table["table"], 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    ann.page.locator(".hand [data-card]").first.wait_for()
    switch = ann.page.get_by_role("switch", name=re.compile("Four-colour deck"))

    def colours() -> None:
        shown: list[list[str]] = ann.page.evaluate(COLOURS)
        assert len(shown) > 4, shown
        wrong = {card: colour for card, colour in shown if colour != expected[card[1]]}
        assert not wrong, f"cards not in the {len(set(expected.values()))}-colour deck: {wrong}"

    expected = TWO_COLOURS
    assert not switch.is_checked()
    colours()
    switch.check()
    expected = FOUR_COLOURS
    colours()
    screenshot(ann.page, "four-colour-deck")
    assert ann.page.evaluate("localStorage.getItem('pedro-deck')") == "four"
    # kept in this browser: the page drawn again starts in four colours
    ann.page.reload()
    ann.page.locator(".hand [data-card]").first.wait_for()
    assert switch.is_checked()
    colours()
    switch.uncheck()
    expected = TWO_COLOURS
    colours()
    assert ann.page.evaluate("localStorage.getItem('pedro-deck')") == "two"
    ann.assert_no_errors()


@pytest.mark.browser
def test_the_bids_stay_scrolled_where_the_player_left_them_when_the_turn_is_drawn_again(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    """A seat connecting while Ann looks for her bid among 63 draws her turn again; the row must not
    jump back to the first bid under her thumb."""
    absent: dict[int, str] = {}
    ann = first_caller(players, server, "sixty_three", absent)
    seq = ann.wait_my_turn()
    assert ann.state_at(seq)["game"]["phase"] == "auction"
    # the row as drawn now is marked: the row drawn again has no mark
    mark = "s => { const e = document.querySelector(s); e.scrollLeft = 1000; e.dataset.old = '1'; }"
    ann.page.evaluate(mark, ROW)
    left = ann.page.evaluate(BID_ROW)["scrollLeft"]
    assert left > 500, f"the row did not scroll: {left}"
    tid = ann.page.url.split("?")[0].rstrip("/").split("/")[-1]
    seat, secret = next(iter(absent.items()))
    other = players("back", storage=seat_storage(server.url, tid, seat, secret, "Back"))
    other.goto(f"t/{tid}")
    redrawn = "s => { const e = document.querySelector(s); return e && !e.dataset.old; }"
    ann.page.wait_for_function(redrawn, arg=ROW)
    assert ann.latest()["seq"] == seq, "the turn moved on"
    assert ann.page.evaluate(BID_ROW)["scrollLeft"] == left
    ann.assert_no_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
