"""The observation vector: its layout, its values, what it shows and what it must not show."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.helpers import with_hands

from pedro.cards import cards_of
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.envs.encoding import ObservationEncoder, markdown_table
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

DOCS = Path(__file__).resolve().parent.parent / "docs" / "environments.md"


def _random_states(variant: str, seed: int, options: dict[str, object] | None = None) -> list[GameState]:
    """Copies of one random game at every decision of its first two hands."""
    rules = make_ruleset(variant, options)
    state = GameState(rules, seed=seed)
    rng = random.Random(seed)
    states = []
    while not state.is_over and state.hand_index < 2:
        states.append(state.clone())
        legal = state.legal()
        state.apply(legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal))
    states.append(state)
    return states


def _ones(encoder: ObservationEncoder, vector: np.ndarray, name: str) -> list[int]:
    part = vector[encoder.slice(name).indices()]
    return [int(i) for i in np.flatnonzero(part)]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_layout_is_contiguous_and_every_value_lies_in_0_1(variant: str) -> None:
    encoder = ObservationEncoder(make_ruleset(variant))
    n = encoder.rules.players
    starts = [s.start for s in encoder.slices]
    ends = [s.start + s.size for s in encoder.slices]
    assert starts[0] == 0 and starts[1:] == ends[:-1] and ends[-1] == encoder.size
    assert len({s.name for s in encoder.slices}) == len(encoder.slices)
    assert encoder.slice("played").size == n * 55
    for state in _random_states(variant, 1)[::3]:
        for seat in range(n):
            vector = encoder.encode(state.observation(seat))
            assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
            assert float(vector.min()) >= 0.0 and float(vector.max()) <= 1.0
            for name in ("trump", "phase", "current_player", "bidder", "trick_leader", "winner"):
                assert vector[encoder.slice(name).indices()].sum() == 1.0, name


def test_hand_selection_and_relative_seats() -> None:
    rules = make_ruleset("cinch")
    encoder = ObservationEncoder(rules)
    state = GameState(rules, seed=3)
    seat = (state.current_player + 1) % 4  # the seat after the one to act
    obs = state.observation(seat)
    vector = encoder.encode(obs, selection=(obs.hand[0], obs.hand[2]))
    assert _ones(encoder, vector, "hand") == list(obs.hand)
    assert _ones(encoder, vector, "selection") == [obs.hand[0], obs.hand[2]]
    assert _ones(encoder, vector, "current_player") == [3]  # the player to act sits to my right
    assert _ones(encoder, vector, "dealer") == [(state.dealer - seat) % 4]
    assert _ones(encoder, vector, "phase") == [int(Phase.AUCTION)]
    assert _ones(encoder, vector, "trump") == [4] and _ones(encoder, vector, "bidder") == [4]
    assert _ones(encoder, vector, "calls") == [0, 6, 12, 18]  # nobody has called yet
    sizes = vector[encoder.slice("hand_sizes").indices()]
    assert list(sizes) == pytest.approx([9 / 26] * 4)
    assert list(vector[encoder.slice("scores").indices()]) == [0.5, 0.5]


def test_tricks_calls_and_contract_of_a_hand_in_play() -> None:
    rules = make_ruleset("cinch")
    encoder = ObservationEncoder(rules)
    state = next(
        s
        for s in _random_states("cinch", 5)
        if s.phase == Phase.PLAY and s.observation(0).tricks and s.observation(0).trick
    )
    seat = 0
    obs = state.observation(seat)
    vector = encoder.encode(obs)
    assert state.contract is not None
    assert _ones(encoder, vector, "bidder") == [(state.contract.bidder - seat) % 4]
    assert vector[encoder.slice("bid").start] == pytest.approx(state.contract.value / 15)
    assert _ones(encoder, vector, "trump") == [state.trump]
    played = vector[encoder.slice("played").indices()].reshape(4, 55)
    for s in range(4):
        mine = sum((1 << c) for t in obs.tricks for p, cards in t.plays if p == s for c in cards)
        assert obs.trick is not None
        mine |= sum((1 << c) for p, cards in obs.trick.plays if p == s for c in cards)
        assert [int(c) for c in np.flatnonzero(played[(s - seat) % 4])] == cards_of(mine)
    tricks_done = vector[encoder.slice("tricks_done").start]
    assert tricks_done == pytest.approx(len(obs.tricks) / 9)
    assert _ones(encoder, vector, "trick_leader") == [(obs.trick.leader - seat) % 4]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_other_seats_hidden_cards_do_not_change_my_vector(variant: str) -> None:
    """Swap a hidden card between two other seats' hands in the card play: my vector stays the same,
    theirs change (the swapped position is built from the position text, which covers the card play)."""
    rules = make_ruleset(variant)
    encoder = ObservationEncoder(rules)
    n = rules.players
    rng = random.Random(7)
    swapped = 0
    for state in _random_states(variant, 2):
        if state.phase != Phase.PLAY:
            continue
        for seat in range(n):
            shown = state.observation(0).shown
            others = [s for s in range(n) if s != seat and state.hands[s] and not shown[s]]
            if len(others) < 2:
                continue
            a, b = rng.sample(others, 2)
            ca = rng.choice(cards_of(state.hands[a]))
            cb = rng.choice(cards_of(state.hands[b]))
            obs = state.observation(seat)
            if ca in obs.seen or cb in obs.seen:
                continue  # a card this seat has seen (it gave it, or saw the stock) is not hidden from it
            before = encoder.encode(obs)
            other_before = encoder.encode(state.observation(a))
            hands = list(state.hands)
            hands[a] ^= (1 << ca) | (1 << cb)
            hands[b] ^= (1 << ca) | (1 << cb)
            try:
                changed = with_hands(state, hands)
            except ValueError:
                continue  # with the swapped cards an earlier play would have been illegal
            assert np.array_equal(encoder.encode(changed.observation(seat)), before)
            assert not np.array_equal(encoder.encode(changed.observation(a)), other_before)
            swapped += 1
    assert swapped > 5


def test_docs_print_the_cinch_layout() -> None:
    table = markdown_table(ObservationEncoder(make_ruleset("cinch")))
    assert table in DOCS.read_text(encoding="utf-8"), "regenerate the table in docs/environments.md"
