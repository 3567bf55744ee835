"""End-to-end: what the table marks, in English, Finnish and Swedish.

- A dealer's bid forced because everyone else passed (``all_pass_action=dealer_forced``) is marked
  "(forced)" in his call bubble, in the hand's auction list, in the contract line and in the line
  that says the last action, on the live table and in the replay viewer, in each language.
- The small rows of cards a player sees beside his hand and on the felt (his discards, the cards he
  has seen, cards face up or shown) each carry a label saying what they are.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from tests.e2e.driver import HUMAN, Player, computer, create_table, game_over, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.server.replay_helpers import expand_frames
from tests.serving import ServerProcess

#: the browser locale that makes the page speak each language
LOCALES = {"en": "en-US", "fi": "fi-FI", "sv": "sv-FI"}
#: the mark of a forced bid, and its tooltip, in each language
FORCED = {
    "en": ("forced", "the dealer had to bid: everyone else passed"),
    "fi": ("pakotettu", "jakajan oli pakko tarjota: kaikki muut passasivat"),
    "sv": ("tvingat", "givaren måste bjuda: alla andra passade"),
}
#: what the forced dealer is told in place of a Pass button
FORCED_WHY = {
    "en": "Everyone else passed: as the dealer you may not pass, and must bid.",
    "fi": "Kaikki muut passasivat: jakajana et voi passata, vaan sinun on tarjottava.",
    "sv": "Alla andra passade: som givare får du inte passa utan måste bjuda.",
}
#: the labels of the rows of small cards, in each language (static/i18n: hand.row*, seat.*)
ROW_LABELS = {
    "en": {
        "discards": "Your discards (face down: not shown to the table)",
        "faceUp": "Your cards laid aside face up",
        "shown": "Your cards shown to the table",
        "seen": "Seen: other cards you have looked at (e.g. the pack), not in your hand",
        "seatFaceUp": "face up",
        "seatShown": "shown",
    },
    "fi": {
        "discards": "Hylkäämäsi kortit (kuvapuoli alaspäin: ei näytetty pöydälle)",
        "faceUp": "Kortit, jotka panit sivuun kuvapuoli ylöspäin",
        "shown": "Pöydälle näyttämäsi kortit",
        "seen": "Nähty: muut kortit, jotka olet nähnyt (esim. pakasta), eivät kädessäsi",
        "seatFaceUp": "kuvapuoli ylöspäin",
        "seatShown": "näytetty",
    },
}


def pass_or_forced(actions: list[str], rng: random.Random) -> str:
    """Pass while passing is allowed; a dealer who may not pass takes the forced (lowest) bid; any
    other decision at random."""
    if "pass" in actions:
        return "pass"
    bids = [a for a in actions if a.startswith("bid ")]
    return min(bids, key=lambda a: int(a.split()[1])) if bids else rng.choice(actions)


def assert_forced_marked(page: Any, dealer: int, lang: str, *, bubble: bool = True) -> None:
    """The page marks the dealer's forced bid, and only it: bubble, auction list, contract line."""
    word, title = FORCED[lang]
    if bubble:
        seat_bubble = page.locator(f'.felt [data-seat="{dealer}"] .bubble.bid')
        seat_bubble.wait_for()
        assert seat_bubble.text_content().endswith(f"({word})"), seat_bubble.text_content()
        assert seat_bubble.get_attribute("title") == title
        assert page.locator(".felt .bubble.pass").count() == 3
    calls = page.locator("ol.calls li")
    assert calls.count() == 4, page.locator("ol.calls").text_content()
    marks = page.locator("ol.calls .forced")
    assert marks.count() == 1
    assert marks.text_content().strip() == f"({word})"
    assert marks.get_attribute("title") == title
    assert calls.nth(3).locator(".forced").count() == 1  # the dealer speaks last
    assert f"({word})" in page.locator(".contract-line").text_content()


@pytest.mark.browser
def test_a_forced_dealer_bid_is_marked_on_the_live_table_in_every_language(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    """Four people at a cinch table, their pages in English, Finnish, Swedish and English: the three
    before the dealer pass, the dealer takes the forced bid, and every page marks it."""
    names = ["Ann", "Bo", "Cy", "Di"]
    langs = ["en", "fi", "sv", "en"]
    made = create_table(server.url, [HUMAN, HUMAN, HUMAN, HUMAN])
    tid, keys = made["table"], {0: made["secret"]}
    for seat in (1, 2, 3):
        claim = httpx.post(
            f"{server.url}/api/tables/{tid}/seats", json={"seat": seat, "name": names[seat]}, timeout=10
        )
        assert claim.is_success, claim.text
        keys[seat] = claim.json()["secret"]
    pages = []
    for seat, name in enumerate(names):
        storage = seat_storage(server.url, tid, seat, keys[seat], name)
        page = players(name.lower(), storage=storage, locale=LOCALES[langs[seat]])
        page.goto(made["url"])
        pages.append(page)
    rng = random.Random(1)
    dealer = pages[0].latest()["game"]["dealer"]
    for turn in range(3):
        pages[(dealer + 1 + turn) % 4].take_turn(rng, choose=pass_or_forced)

    def says_why(seq: int) -> None:
        why = pages[dealer].page.locator('[data-testid="forced-why"]')
        assert why.text_content() == FORCED_WHY[langs[dealer]]
        assert pages[dealer].page.locator('[data-action="pass"]').count() == 0

    pages[dealer].take_turn(rng, choose=pass_or_forced, check=says_why)
    seq = pages[dealer].wait_my_turn()
    state = pages[dealer].state_at(seq)
    assert state["game"]["phase"] == "trump", state["game"]["phase"]
    assert [c.get("forced", False) for c in state["game"]["calls"]] == [False, False, False, True]
    for seat, page in enumerate(pages):
        page.wait_seq(seq)
        assert_forced_marked(page.page, dealer, langs[seat])
        last = page.page.locator(".last-move").text_content() or ""
        assert last.endswith(f"({FORCED[langs[seat]][0]})"), last
        page.assert_no_errors()


@pytest.mark.browser
def test_the_replay_marks_a_forced_dealer_bid_in_every_language(
    players: Callable[..., Player], server: ServerProcess
) -> None:
    """A short cinch game whose bids start at 14, so that the computers pass and the dealer is
    forced; the replay's frame after the forced bid marks it in English, Finnish and Swedish."""
    made = create_table(
        server.url, [HUMAN, computer(), computer(), computer()], options={"min_bid": 14, "target": 7}
    )
    tid = made["table"]
    ann = players("ann", storage=seat_storage(server.url, tid, 0, made["secret"], "Ann"))
    ann.goto(made["url"])
    # the driver clicks every card itself: a lone card played by the page would race its reading
    ann.page.locator('[data-testid="auto-play"]').uncheck()
    ann.play_until(game_over, random.Random(5), limit=240, choose=pass_or_forced)
    ann.assert_no_errors()
    frames = expand_frames(httpx.get(f"{server.url}/api/tables/{tid}/replay", timeout=10).json()["frames"])
    at = next(i for i, f in enumerate(frames) if any(c.get("forced") for c in f["game"].get("calls") or []))
    dealer = frames[at]["game"]["dealer"]
    assert frames[at]["last"]["seat"] == dealer and at == 4, (at, frames[at]["last"])
    for lang in ("en", "fi", "sv"):
        viewer = players(f"viewer-{lang}", locale=LOCALES[lang])
        viewer.goto(f"replay/{tid}")
        page = viewer.page
        page.wait_for_selector(f'body[data-seq="{frames[0]["seq"]}"]', state="attached")
        assert page.locator(".felt .bubble").count() == 0
        for _ in range(at):
            page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'body[data-seq="{frames[at]["seq"]}"]', state="attached")
        assert_forced_marked(page, dealer, lang)
        last = page.locator(".last-action").text_content() or ""
        assert last.endswith(f"({FORCED[lang][0]})"), last
        # a step on (the dealer names trumps), the last action is no bid and has no mark
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'body[data-seq="{frames[at + 1]["seq"]}"]', state="attached")
        assert f"({FORCED[lang][0]})" not in (page.locator(".last-action").text_content() or "")
        assert not viewer.page_errors, viewer.page_errors


@pytest.mark.parametrize(
    ("lang", "variant", "row"),
    [("en", "cinch", "discards"), ("fi", "cinch", "discards"), ("en", "pidro", "faceUp")],
)
@pytest.mark.browser
def test_the_rows_of_small_cards_are_labelled(
    players: Callable[..., Player], server: ServerProcess, lang: str, variant: str, row: str
) -> None:
    """A new player's hand after the exchange: his discards beside his hand are labelled as the
    others see them (cinch's face down, Pidro's face up), and no row of small cards on the page is
    shown without a label saying what it is."""
    made = create_table(server.url, [HUMAN, computer(), computer(), computer()], variant=variant)
    tid = made["table"]
    ann = players(
        "ann", storage=seat_storage(server.url, tid, 0, made["secret"], "Ann"), locale=LOCALES[lang]
    )
    ann.goto(made["url"])
    # the driver clicks every card itself: a lone card played by the page would race its reading
    ann.page.locator('[data-testid="auto-play"]').uncheck()

    def played_after_exchange(state: dict[str, Any]) -> bool:
        game = state["game"]
        return game["phase"] == "play" and game["turn"] == 0 and bool(game["own_discards"])

    ann.play_until(played_after_exchange, random.Random(7), limit=120)
    seq = ann.wait_my_turn()
    game = ann.state_at(seq)["game"]
    page = ann.page
    labels = ROW_LABELS[lang]
    mine = page.locator(".my-hand .cardrow.mine").filter(
        has=page.locator(".rowlabel", has_text=re.compile(f"^{re.escape(labels[row])}$"))
    )
    assert mine.count() == 1
    shown = sorted(c for c in mine.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown == sorted(game["own_discards"])
    mine = page.locator(".my-hand .cardrow.mine")
    if game["seen"]:
        assert labels["seen"] in [
            mine.nth(i).locator(".rowlabel").text_content() for i in range(mine.count())
        ]
    rows = page.locator(".cardrow")
    assert rows.count() >= 1
    for i in range(rows.count()):
        row = rows.nth(i)
        if not row.is_visible():
            continue
        label = row.locator(".rowlabel")
        assert label.count() == 1 and label.is_visible(), row.inner_html()
        assert label.text_content() in labels.values(), label.text_content()
    ann.assert_no_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
