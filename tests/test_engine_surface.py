"""The engine's public surface is the documented one, and reading it cannot change a game, so that a
bot or a server reading the state can never alter the play.

docs/engine.md's "State" table lists every public member of ``GameState``; everything
else is ``_``-private. The properties give immutable values (or copies), so a caller
holding one cannot reach into the state.
"""

from __future__ import annotations

import random
import re
import types
from pathlib import Path

import pytest
from tests.test_engine_clone import is_immutable
from tests.test_properties import random_action

from pedro.engine.phases import Phase
from pedro.engine.state import _SLOTS, GameState
from pedro.variants.options import make_ruleset

DOC = Path(__file__).resolve().parents[1] / "docs" / "engine.md"


def documented_members() -> set[str]:
    """The names in the first column of docs/engine.md's "State" table."""
    text = DOC.read_text()
    table = text.split("## State", 1)[1].split("\n\n", 3)[2]
    names: set[str] = set()
    for line in table.splitlines()[2:]:
        first = line.split("|")[1]
        for code in re.findall(r"`([^`]+)`", first):
            name = re.sub(r"^GameState\.", "", code.split("(")[0])
            if name.isidentifier() and name not in ("GameState", "repr"):
                names.add(name)
    return names


def public_members() -> set[str]:
    return {name for name in dir(GameState) if not name.startswith("_")}


def test_every_public_member_is_documented_and_every_documented_one_exists() -> None:
    assert public_members() == documented_members()


def is_property(member: object) -> bool:
    """A property: Python's, or the attribute descriptor mypyc compiles one into."""
    return isinstance(member, property | types.GetSetDescriptorType)


def test_no_public_attribute_is_a_plain_field() -> None:
    """Every public data member is a read-only property: nothing outside the engine writes the state."""
    state = GameState(make_ruleset("cinch"), seed=1)
    for name in public_members():
        member = getattr(GameState, name)
        assert callable(member) or is_property(member), name
        if is_property(member):
            with pytest.raises(AttributeError):
                setattr(state, name, getattr(state, name))


def test_properties_give_immutable_values_or_copies() -> None:
    rules = make_ruleset("cinch")
    state = GameState(rules, seed=5)
    rng = random.Random(5)
    checked = 0
    while not state.is_over and state.hand_index < 2:
        if state.phase == Phase.PLAY or rng.random() < 0.2:
            for name in public_members():
                member = getattr(GameState, name)
                if is_property(member) and name != "deals":  # the source of chance is shared
                    assert is_immutable(getattr(state, name)), name
            receivers = state.later_receivers()
            receivers[0] = -5
            assert state.later_receivers().get(0) != -5
            checked += 1
        state.apply(random_action(state, rng))
    assert checked > 10


def test_the_state_keeps_its_fields_to_itself() -> None:
    """The fields of ``GameState`` are all private: its slots (its native attributes, compiled) name no
    public field."""
    assert _SLOTS and all(name.startswith("_") for name in _SLOTS)
