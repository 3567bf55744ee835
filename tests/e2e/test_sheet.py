"""The score sheet on a phone: its head wraps between words only, and a contract's bidder and call
read apart ("club 3" then "7 ♦", never "club 3 7 ♦" run together).

A table of four computers, whose game is over in moments, is watched at 375 px.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from tests.e2e.driver import Player, computer, create_table
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

PHONE = {"width": 375, "height": 667}
#: per head cell of the sheet: its words, and the lines its text takes (a word cut in two adds one)
HEAD_LINES = """() => [...document.querySelectorAll('[data-testid="sheet"] thead th')].map((th) => {
  const range = document.createRange();
  range.selectNodeContents(th);
  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
  return { text: th.textContent, words: th.textContent.trim().split(/\\s+/).length, lines: tops.size };
})"""
#: each contract cell of the sheet: its bidder, its call, and the lines the call takes
CONTRACTS = """() => [...document.querySelectorAll('[data-testid="sheet"] tbody td.contract')].map((td) => {
  const bidder = td.querySelector(".bidder");
  const call = td.querySelector(".call");
  return {
    bidder: bidder ? bidder.textContent : null,
    call: call ? call.textContent : null,
    callLines: call ? new Set([...call.getClientRects()].map((r) => Math.round(r.top))).size : 0,
  };
})"""
CALL = re.compile(r"^(\d+|28-56|.+ \(\d+\))( [♠♥♦♣])?$")


@pytest.mark.browser
def test_the_sheet_on_a_phone_keeps_words_whole_and_names_apart_from_calls(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    made = create_table(server.url, [computer(), computer(), computer(), computer()], seat=None, name=None)
    viewer = players("viewer", viewport=PHONE)
    viewer.goto(made["url"])
    page = viewer.page
    page.get_by_role("button", name="Just watch").click()
    page.locator('[data-testid="sheet"] tbody tr[data-hand="2"]').wait_for(state="attached", timeout=60_000)
    heads = page.evaluate(HEAD_LINES)
    assert all(cell["lines"] >= 1 for cell in heads), heads  # shown, so the count means something
    for cell in heads:
        assert cell["lines"] <= cell["words"], cell
    seats = [s["name"] for s in viewer.latest()["seats"]]
    # read at once: the page redraws the sheet with every state of the game going on
    contracts = page.evaluate(CONTRACTS)
    bidders = [c for c in contracts if c["bidder"] is not None]
    for contract in bidders:
        assert contract["bidder"] in seats, contract
        assert CALL.match(contract["call"]), contract
        # the call is one box: its number and suit on one line
        assert contract["callLines"] == 1, contract
    assert bidders
    viewer.assert_no_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    assert missing_hooks(__file__) == []
