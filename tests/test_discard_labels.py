"""What the table page says about a player's own laid-aside cards is what the other seats see.

The page lists a seat's own discards under "face up" when they are in its public ``face_up``
row, and under "face down: not shown to the table" otherwise. Both labels must be true under every
variant and every house rule on which cards lie face up: a card called face down appears
nowhere in what everyone is sent, and a card called face up is in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pedro.engine.state import GameState
from pedro.observation_json import private_json, public_json
from pedro.players import choose, make_player
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset

#: the house rules that turn laid-aside cards face up or down
FACE_OPTIONS = ("discards_face_up", "trump_discards_face_up", "cold_cards_face_up")
CASES = [
    pytest.param(variant, {option: value}, id=f"{variant}-{option}={value}")
    for variant in VARIANTS
    for option in FACE_OPTIONS
    for value in (True, False)
]
HANDS = 2
#: where everyone is sent this hand's cards: laid aside face up, shown, played
ON_SHOW = ("face_up", "shown", "trick", "tricks")


def card_codes(value: Any) -> Iterator[str]:
    """Every string anywhere in a JSON value (its card codes among them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_codes(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_codes(item)


def page_rows(game: dict[str, Any], seat: int) -> tuple[set[str], set[str]]:
    """The page's two rows of a seat's own discards: (said face up, said face down)."""
    own = set(game["own_discards"])
    up = set(game["face_up"][seat])
    return own & up, own - up


def labelled(rules: Ruleset, seeds: int = 3) -> Iterator[tuple[set[str], set[str], set[str]]]:
    """Each seat's two rows at each moment of a few seeded hands, with the cards on show then."""
    for seed in range(seeds):
        state = GameState(rules, seed=f"labels-{seed}")
        players = [make_player("basic", seed=f"{seed}-{s}") for s in range(rules.players)]
        while not state.is_over and len(state.results) < HANDS:
            everyone = public_json(state.observation(0))
            # this hand's cards on show (the trumps' ranking and the sheet name cards of no seat)
            public = set(card_codes([everyone[key] for key in ON_SHOW]))
            for seat in range(rules.players):
                obs = state.observation(seat)
                said_up, said_down = page_rows(public_json(obs) | private_json(obs.secrets, obs), seat)
                yield said_up, said_down, public
            state.apply(choose(players[state.current_player], state))


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_own_discards_are_labelled_as_the_other_seats_see_them(
    variant: str, options: dict[str, bool]
) -> None:
    try:
        rules = make_ruleset(variant, options)
    except OptionError:
        pytest.skip(f"{variant} refuses {options}")
    for said_up, said_down, public in labelled(rules):
        assert said_up <= public, said_up - public
        assert not said_down & public, said_down & public


@pytest.mark.parametrize(("variant", "up"), [("pidro", True), ("cinch", False)])
def test_pidros_discards_are_said_face_up_and_cinchs_face_down(variant: str, up: bool) -> None:
    rows = list(labelled(VARIANTS[variant], seeds=1))
    said_up = set().union(*(r[0] for r in rows))
    said_down = set().union(*(r[1] for r in rows))
    assert (said_up, said_down) != (set(), set()), "nobody discarded"
    assert bool(said_up) is up and bool(said_down) is not up
