"""Clones that stay cheap and results that cannot be corrupted, since search clones states by the
thousand and a shared mutable field would leak one line of play into another.

``GameState.clone`` copies only the fields it names (``_COPIED``) and shares
every other one, so a field added later and left out would silently be shared
by the copies. These tests walk every field of states in the middle of random
games of every variant and house-rule set: each must be immutable all the way
down, or copied with no mutable part left in common, or shared on purpose
(``_SHARED``). Playing a clone to the end must leave the original as it was;
what a player is given (an observation, the legal actions) holds plain values
only; and an ``apply`` that the source of the cards makes fail changes nothing.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator, Sequence
from enum import Enum
from types import BuiltinFunctionType, FunctionType, ModuleType
from typing import Any

import orjson
import pytest
from tests.test_properties import RULESET_CASES, RULESET_IDS, RULESETS, random_action

from pedro.cli.version_cmd import is_extension
from pedro.engine import state as state_module
from pedro.engine.choices import CardChoice
from pedro.engine.deal import SeededDeals
from pedro.engine.observation import Observation
from pedro.engine.scoring import Contract
from pedro.engine.state import GameState, PlayedTrick
from pedro.engine.turns import TurnOrder
from pedro.observation_json import observation_json
from pedro.records import record_from_game
from pedro.variants.model import OutOfTrumps
from pedro.variants.options import make_ruleset
from pedro.variants.tables import AuctionRules, TrumpTables

#: hands played per game (enough for finished hands to pile up)
HANDS = 3


#: The engine's immutable native classes: ``Final`` fields, pickled by ``__reduce__``.
FINAL_CLASSES = (TurnOrder, TrumpTables, AuctionRules, Contract, PlayedTrick, CardChoice)


def is_immutable(value: object) -> bool:
    """Immutable all the way down: plain values, tuples of them, frozen dataclasses, plain functions."""
    if value is None or isinstance(value, int | float | str | bytes | Enum):
        return True
    if isinstance(value, tuple | frozenset):
        return all(is_immutable(v) for v in value)
    if isinstance(value, FunctionType):
        return value.__closure__ is None  # a module function; a closure holds cells
    if isinstance(value, BuiltinFunctionType):  # the compiled build's module function (not a closure)
        return isinstance(value.__self__, ModuleType)
    if isinstance(value, FINAL_CLASSES):  # ``Final`` fields: read-only compiled, by mypy in pure Python
        return all(is_immutable(v) for v in value.__reduce__()[1])  # its constructor's arguments
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = type(value).__dataclass_params__  # type: ignore[attr-defined]
        extra = getattr(value, "__dict__", {})  # cached properties
        return (
            params.frozen
            and all(is_immutable(getattr(value, f.name)) for f in dataclasses.fields(value))
            and all(is_immutable(v) for v in extra.values())
        )
    return False


def parts(value: object) -> Iterator[object]:
    """Everything ``value`` holds directly."""
    if isinstance(value, list | tuple | set | frozenset):
        yield from value
    elif isinstance(value, dict):
        yield from value.keys()
        yield from value.values()
    elif isinstance(value, FunctionType):
        yield from (cell.cell_contents for cell in value.__closure__ or ())
    elif dataclasses.is_dataclass(value):
        yield from (getattr(value, f.name) for f in dataclasses.fields(value))
        yield from getattr(value, "__dict__", {}).values()


def mutable_parts(value: object) -> dict[int, object]:
    """Every mutable object reachable from ``value``, by id."""
    found: dict[int, object] = {}
    todo = [value]
    while todo:
        v = todo.pop()
        if is_immutable(v) or id(v) in found:
            continue
        found[id(v)] = v
        todo.extend(parts(v))
    return found


def reachable(value: object) -> Iterator[object]:
    """``value`` and everything reachable from it."""
    seen: set[int] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        yield v
        todo.extend(parts(v))


def walk(name: str, seed: int, hands: int = HANDS) -> Iterator[GameState]:
    """The states of a random game, one per decision."""
    state = GameState(RULESETS[name], seed=seed)
    rng = random.Random(seed)
    while not state.is_over and state.hand_index < hands:
        yield state
        state.apply(random_action(state, rng))
    yield state


def seen_by_all(state: GameState) -> bytes:
    """Everything the state shows: each seat's observation, the legal actions, the record."""
    views = [observation_json(state.observation(s), private=True) for s in range(state.players)]
    legal = repr(state.legal()) if not state.is_over else None
    return orjson.dumps([views, legal, state.scores, state.hand_index, record_from_game(state)])


def test_a_turn_order_pickles_whole_and_compiled_refuses_changes() -> None:
    """``TurnOrder`` is shared by every state of a ruleset and trump: its attributes are ``Final``."""
    order = TurnOrder.of(make_ruleset("pidro"), 0b1111)
    copy = pickle.loads(pickle.dumps(order))
    assert copy.__reduce__() == order.__reduce__() and copy.up == order.up
    if is_extension("pedro.engine.turns"):
        with pytest.raises(AttributeError):
            order.up = not order.up  # type: ignore[misc]


def test_trump_tables_pickle_whole_and_compiled_refuse_changes() -> None:
    """A ruleset's ``TrumpTables`` are shared by every state and player: their attributes are ``Final``."""
    rules = make_ruleset("pidro")
    tables = rules.tables(2)
    copy = pickle.loads(pickle.dumps(tables))
    assert copy.__reduce__() == tables.__reduce__()
    assert copy.trump == 2 and copy.cold_on_turn == (rules.out_of_trumps == OutOfTrumps.COLD_ON_TURN)
    if is_extension("pedro.variants.tables"):
        with pytest.raises(AttributeError):
            tables.low_card = -1  # type: ignore[misc]


def test_the_field_lists_name_real_fields_once() -> None:
    slots = set(state_module._SLOTS)  # the slots, or the compiled build's native fields
    assert slots >= state_module._COPIED | state_module._SHARED
    assert not state_module._COPIED & state_module._SHARED


@pytest.mark.parametrize("name", ["cinch", "nicaragua", "king_pedro_canadian"])
def test_a_clone_sets_every_field(name: str) -> None:
    """``clone`` copies field by field: a field left out would be missing from the copy."""
    for state in walk(name, seed=7, hands=2):
        clone = state.clone()
        missing = [field for field in state_module._SLOTS if not hasattr(clone, field)]
        assert not missing, f"{name}: clone() leaves {missing} unset"


@pytest.mark.parametrize("name", RULESET_CASES)
def test_every_field_is_immutable_copied_or_shared_on_purpose(name: str) -> None:
    checked = 0
    for step, state in enumerate(walk(name, seed=17)):
        if step % 5:
            continue
        clone = state.clone()
        for field in state_module._SLOTS:
            if field in state_module._SHARED:
                continue
            mine, theirs = getattr(state, field), getattr(clone, field)
            if field in state_module._COPIED:
                common = mutable_parts(mine).keys() & mutable_parts(theirs).keys()
                assert not common, f"{name}: clone() leaves part of {field} shared: {mine!r}"
            else:
                assert is_immutable(mine), f"{name}: {field} is neither immutable nor copied: {mine!r}"
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", RULESET_CASES)
def test_playing_a_clone_to_the_end_leaves_the_original_as_it_was(name: str) -> None:
    rng = random.Random(5)
    for step, state in enumerate(walk(name, seed=23)):
        if step % 11:
            continue
        before = seen_by_all(state)
        clone = state.clone()
        while not clone.is_over and clone.hand_index < state.hand_index + 2:
            clone.apply(random_action(clone, rng))
        assert seen_by_all(state) == before, f"{name}: playing a clone changed the original"


def test_a_clone_plays_on_exactly_as_the_original_would() -> None:
    """Same seed, same choices: a clone taken mid-game ends the game as the original does."""
    for name in ("cinch", "nicaragua", "king_pedro_canadian", "pidro"):
        original = GameState(RULESETS[name], seed=3)
        rng = random.Random(3)
        while original.hand_index < 2:
            original.apply(random_action(original, rng))
        clone = original.clone()
        for game in (original, clone):
            moves = random.Random(9)
            while not game.is_over and game.hand_index < 5:
                game.apply(random_action(game, moves))
        assert record_from_game(clone) == record_from_game(original)
        assert clone.results == original.results


@pytest.mark.parametrize("name", RULESET_CASES)
def test_a_state_pickles_at_every_step_and_its_copy_plays_on_as_the_original(name: str) -> None:
    """A state goes to another process whole (both builds: compiled, a native class pickles only
    with a ``__reduce__`` or when its ``__new__`` runs no ``__init__``)."""
    for step, state in enumerate(walk(name, seed=31)):
        copy = pickle.loads(pickle.dumps(state))
        assert seen_by_all(copy) == seen_by_all(state), f"{name}, step {step}"
        if step % 17 == 0:
            clone = state.clone()
            for game in (clone, copy):
                moves = random.Random(step)
                while not game.is_over and game.hand_index < state.hand_index + 1:
                    game.apply(random_action(game, moves))
            assert record_from_game(copy) == record_from_game(clone), f"{name}, step {step}"


@pytest.mark.parametrize("name", RULESET_CASES)
def test_the_legal_actions_and_finished_hands_cannot_be_changed_from_outside(name: str) -> None:
    for state in walk(name, seed=29):
        if state.is_over:
            break
        legal = state.legal()
        assert isinstance(legal, tuple | CardChoice)
        assert isinstance(state.legal_actions(), tuple)
    assert state.results
    with pytest.raises(AttributeError):  # a named tuple
        state.results[0].points = (0, 0)  # type: ignore[misc]
    assert is_immutable(state.results[0])


@pytest.mark.parametrize("name", RULESET_CASES)
def test_an_observation_holds_plain_values_only(name: str) -> None:
    """Every seat's observation at every step pickles, and no function in it closes over anything."""
    for state in walk(name, seed=31, hands=2):
        for seat in range(state.players):
            check_plain(state.observation(seat))


def check_plain(obs: Observation) -> None:
    assert pickle.loads(pickle.dumps(obs)) == obs
    for part in reachable(obs):
        assert not isinstance(part, GameState), f"{obs.variant}: an observation reaches the state"
        if isinstance(part, FunctionType):
            assert part.__closure__ is None, f"{obs.variant}: {part.__qualname__} closes over something"


def test_every_kind_of_card_choice_holds_plain_values() -> None:
    """The rarer card choices (gifts to partner, the cheapest trumps laid aside) come up and are plain."""
    kinds: set[str] = set()
    for name in RULESET_IDS:
        for seed in range(6):
            for state in walk(name, seed, hands=3):
                legal = None if state.is_over else state.legal()
                if isinstance(legal, CardChoice):
                    kinds.add(type(legal.check).__name__)
                    check_plain(state.observation(state.current_player))
    assert {"NontrumpsOut", "GiveLimits", "CheapestTrumps"} <= kinds


# ---------------------------------------------------------------- a source of cards that fails


class DealsOutage(Exception):
    """The source of cards cannot answer (a record's next deal missing, say)."""


class FailingDeals(SeededDeals):
    """Seeded deals that raise, while ``failing``, for packs from hand ``from_hand`` on and for washes."""

    def __init__(self, seed: int, from_hand: int, washes: bool) -> None:
        super().__init__(seed)
        self.from_hand = from_hand
        self.washes = washes
        self.failing = True

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        if self.failing and hand_index >= self.from_hand:
            raise DealsOutage(f"no pack for hand {hand_index + 1}")
        return super().pack(hand_index, deck)

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        if self.failing and self.washes:
            raise DealsOutage(f"no wash for hand {hand_index + 1}")
        return super().wash(hand_index, pile)


def play_until_the_source_fails(state: GameState, deals: FailingDeals, seed: int) -> tuple[int, bytes]:
    """Play randomly until an apply raises; that action and the state's views before it."""
    rng = random.Random(seed)
    while not state.is_over:
        action = random_action(state, rng)
        before = seen_by_all(state)
        try:
            state.apply(action)
        except DealsOutage:
            return action, before
    raise AssertionError("the source never failed")


def check_failed_apply(rules: Any, seed: int, from_hand: int, washes: bool) -> None:
    deals = FailingDeals(seed, from_hand, washes)
    state = GameState(rules, deals=deals)
    action, before = play_until_the_source_fails(state, deals, seed)
    assert seen_by_all(state) == before, "a failed apply changed the state"
    deals.failing = False
    state.apply(action)  # the retry with a source that answers
    # the game goes on as a game whose source never failed
    reference = GameState(rules, seed=seed)
    for history in state.hand_actions:
        for _seat, a in history:
            reference.apply(a)
    assert seen_by_all(state) == seen_by_all(reference)
    rng = random.Random(1)
    while not state.is_over and state.hand_index < from_hand + 2:
        state.apply(random_action(state, rng))


@pytest.mark.parametrize("name", ["cinch", "king_pedro", "nicaragua", "pidro"])
def test_an_apply_that_cannot_deal_the_next_hand_changes_nothing(name: str) -> None:
    check_failed_apply(RULESETS[name], seed=4, from_hand=1, washes=False)


def test_an_apply_that_cannot_shuffle_the_wash_changes_nothing() -> None:
    rules = make_ruleset("cinch", {"discards_face_up": True})
    for seed in range(40):
        game = GameState(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.hand_index < 1 and not game._wash_dealt:
            game.apply(random_action(game, rng))
        if game._wash_dealt:
            check_failed_apply(rules, seed, from_hand=99, washes=True)
            return
    raise AssertionError("no wash in 40 games")
