"""Keyboard play and what a screen reader is told: a hand played with the keys alone.

The arrows move between what may be done now (the legal cards, then the buttons), Enter does it, a
number picks that bid, P the pass, S H D C a trump suit; Space selects a card of a set to discard.
Cards are named in words ("five of hearts, playable" / "…, not playable"), calls by their label
("Bid 8", "Pass", "Trumps hearts"). Nicaragua has every kind of decision: bids, trumps, a set of
cards to discard, and plain suits to follow, so some cards are not playable.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.driver import HUMAN, WAIT, Player, computer, create_table, seat_storage
from tests.e2e.hooks import missing_hooks
from tests.serving import ServerProcess

RANKS = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two",
}  # fmt: skip
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

#: what has the keyboard focus, by its hook: "card AH", "bid 8", "pass", "confirm", or None
FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  if (e.dataset.card) return `card ${e.dataset.card}`;
  if (e.dataset.action) return e.dataset.action;
  if (e.dataset.confirm !== undefined) return "confirm";
  return e.tagName;
}"""


def spoken(card: str) -> str:
    """A card as the page names it for screen readers: ``5H`` → ``five of hearts``."""
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


class KeyboardPlayer:
    """Plays a seat's turns with ``page.keyboard`` only, checking what is focused and sent."""

    def __init__(self, player: Player, rng: random.Random) -> None:
        self.p = player
        self.page = player.page
        self.rng = rng
        self.checked_names: set[str] = set()
        #: the keys line seen in each phase the player decided in
        self.keys_lines: dict[str, str] = {}

    def focused(self) -> str | None:
        value: str | None = self.page.evaluate(FOCUSED)
        return value

    def arrow_to(self, target: str, limit: int = 60) -> None:
        for _ in range(limit):
            if self.focused() == target:
                return
            self.page.keyboard.press("ArrowRight")
        raise AssertionError(f"{self.p.name}: the arrows never reached {target!r}")

    def arrow_cycle(self, count: int) -> list[str | None]:
        """Where ``count`` presses of the right arrow go."""
        seen = []
        for _ in range(count):
            self.page.keyboard.press("ArrowRight")
            seen.append(self.focused())
        return seen

    def check_names(self, state: dict[str, Any]) -> None:
        """The accessible names of the hand's cards and of the calls, as the page exposes them."""
        legal, hand = state["game"]["legal"], state["game"]["hand"]
        role = self.page.get_by_role
        if legal["kind"] != "list":
            return
        playable = legal.get("cards") or {}
        for card in hand if playable else []:
            if card in playable:
                name, kind = f"{spoken(card)}, playable", "playable"
                assert role("button", name=name, exact=True).count() == 1, f"no button named {name!r}"
            else:
                name, kind = f"{spoken(card)}, not playable", "not playable"
                assert role("img", name=name, exact=True).count() == 1, f"no card named {name!r}"
            self.checked_names.add(kind)
        for a in legal["actions"]:
            action = a["action"]
            if action in playable.values():
                continue
            if re.fullmatch(r"bid \d+|pass", action):
                name = a["label"]
            elif action.startswith("trump "):
                name = f"Trumps {SUITS[action.split()[1]]}"
            else:
                continue
            assert role("button", name=name, exact=True).count() == 1, f"no button named {name!r}"
            self.checked_names.add(action.split()[0])

    def take_turn(self) -> tuple[int, str]:
        seq = self.p.wait_my_turn()
        state = self.p.state_at(seq)
        legal = state["game"]["legal"]
        self.check_names(state)
        self.check_keys_line(state["game"]["phase"], legal)
        before = len(self.p.acts)
        action = self.list_turn(legal) if legal["kind"] == "list" else self.set_turn(legal)
        self.p.poll(lambda: len(self.p.acts) > before, f"the page to send {action!r}", timeout=10)
        sent = self.p.acts[before]
        assert sent["seq"] == seq and sorted(sent["action"].split()) == sorted(action.split()), (sent, action)
        self.p.poll(lambda: self.p.errors or self.p.dom_seq() > seq, f"the server to accept {action!r}")
        assert not self.p.errors, self.p.errors
        return seq, action

    def check_keys_line(self, phase: str, legal: dict[str, Any]) -> None:
        """The keys line names the keys of this decision only: no bids while playing cards."""
        if legal["kind"] != "list":
            return
        line = self.page.locator('[data-testid="keys"]').inner_text()
        self.keys_lines[phase] = line
        assert ("a number picks that bid" in line) is (phase == "auction"), (phase, line)
        assert ("S H D C" in line) is (phase == "trump"), (phase, line)

    def list_turn(self, legal: dict[str, Any]) -> str:
        actions = [a["action"] for a in legal["actions"]]
        cards = legal.get("cards") or {}
        bids = [a for a in actions if re.fullmatch(r"bid \d+", a)]
        action = self.rng.choice(bids) if bids else self.rng.choice(actions)
        card = next((c for c, a in cards.items() if a == action), None)
        if card is not None:
            # the arrows visit the playable cards and the buttons, nothing else
            expected = {f"card {c}" for c in cards} | {a for a in actions if a not in cards.values()}
            visited = self.arrow_cycle(len(expected) + 1)
            assert set(visited) == expected, f"arrows visited {visited}, legal {sorted(expected)}"
            self.arrow_to(f"card {card}")
        elif action.startswith("bid ") and action in bids:
            for digit in action.split()[1]:
                self.page.keyboard.press(digit)
            assert self.focused() == action, f"typed {action!r}, focus on {self.focused()!r}"
        elif action == "pass":
            self.page.keyboard.press("p")
            assert self.focused() == "pass"
        elif action.startswith("trump "):
            self.page.keyboard.press(action.split()[1].lower())
            assert self.focused() == action, f"pressed for {action!r}, focus on {self.focused()!r}"
        else:
            self.arrow_to(action)
        self.page.keyboard.press("Enter")
        return action

    def set_turn(self, legal: dict[str, Any]) -> str:
        """Select a legal set with the arrows and Space, then confirm with Enter."""
        pool, required = legal["pool"], set(legal["required"])
        if legal.get("sets"):
            chosen = self.rng.choice(legal["sets"]).split()
        else:
            size = min(s for s in legal["sizes"] if s >= len(required))
            free = [c for c in pool if c not in required]
            chosen = list(required) + self.rng.sample(free, size - len(required))
        for card in chosen:
            if card in required:
                continue
            self.arrow_to(f"card {card}")
            self.page.keyboard.press(" ")
            selected = self.page.locator(f'[data-card="{card}"][aria-pressed="true"]')
            selected.wait_for(state="attached", timeout=5000)
            assert self.focused() == f"card {card}", "the focus stays on the card just selected"
        self.arrow_to("confirm")
        self.page.keyboard.press("Enter")
        return " ".join([legal["verb"], *chosen])


@pytest.mark.browser
def test_a_hand_played_with_the_keyboard_only_and_named_for_screen_readers(
    players: Callable[..., Player], server: ServerProcess, screenshot: Callable[..., Path]
) -> None:
    table = create_table(server.url, [HUMAN, computer(), computer(), computer()], variant="nicaragua")
    ann = players("ann-keys", storage=seat_storage(server.url, table["table"], 0, table["secret"], "Ann"))
    ann.goto(table["url"])
    keys = KeyboardPlayer(ann, random.Random(4))
    # no mouse: a click anywhere would be recorded as a pointer event
    ann.page.evaluate("window.__pointer = 0; addEventListener('pointerdown', () => window.__pointer++, true)")
    moves: list[tuple[int, str]] = []
    deadline = time.monotonic() + 180
    while True:
        state = ann.latest()
        hand_done = state["game"]["hand_index"] > 0 or state["finished"]
        if hand_done and "not playable" in keys.checked_names:
            break
        assert state["game"]["hand_index"] < 3, f"no unplayable card in three hands: {keys.checked_names}"
        assert time.monotonic() < deadline, f"{len(moves)} moves in 180 s"
        if ann.my_turn():
            moves.append(keys.take_turn())
            if len(moves) == 2:
                screenshot(ann.page, "keyboard-focus")
        else:
            ann.page.wait_for_function(
                "seq => document.body.dataset.turn === 'true' || document.body.dataset.seq !== seq",
                arg=str(ann.dom_seq()),
                timeout=WAIT * 1000,
            )
    verbs = {action.split()[0] for _, action in moves}
    assert {"bid", "discard", "play"} <= verbs, moves
    assert {"playable", "not playable", "bid"} <= keys.checked_names, keys.checked_names
    assert {"auction", "play"} <= set(keys.keys_lines), keys.keys_lines
    assert ann.page.evaluate("window.__pointer") == 0
    ann.assert_no_errors()


def test_the_client_sets_every_hook_these_tests_drive() -> None:
    """Without a browser, in the fast tier: the served page and its scripts still set every hook the
    browser tests above select (tests/e2e/hooks.py)."""
    assert missing_hooks(__file__) == []
