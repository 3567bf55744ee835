"""Any integer given to ``apply`` is either legal or refused with IllegalActionError, changing nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pedro.engine.choices import CardChoice
from pedro.engine.state import GameState, IllegalActionError
from pedro.variants.catalog import VARIANTS

_MALFORMED = [
    -1,
    99 << 64,  # no such verb
    1 << 200,
    (12 << 64) | (1 << 55),  # a play of card 55, which no pack has
    12 << 64,  # a play of no card
    (12 << 64) | (200 << 56) | 1,  # a nonsense top card
    (6 << 64) | ((1 << 55) - 1),  # discard every card there is
]


def _snapshot(state: GameState) -> tuple[object, ...]:
    return (list(state.hands), state.phase, state.current_player, len(state.actions), list(state.scores))


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10_000), junk=st.integers(-(2**80), 2**80)
)
def test_any_integer_is_refused_cleanly_or_legal(variant: str, seed: int, junk: int) -> None:
    state = GameState(VARIANTS[variant], seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_over:
            break
        for action in [junk, *_MALFORMED]:
            if state.why_illegal(action) is None:
                continue
            before = _snapshot(state)
            with pytest.raises(IllegalActionError) as refused:
                state.apply(action)
            assert refused.value.reason and refused.value.legal
            assert _snapshot(state) == before
        legal = state.legal()
        state.apply(legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal))
