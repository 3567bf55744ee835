"""The one card-play turn order (``pedro.engine.turns``): the sampler replays what the engine plays.

``GameState`` and the sampler's ``PlayMachine`` both run ``PlayTurns``; the
machine starts from masks and statuses alone (no ``GameState``), so a random
game of every variant and option set, replayed from the true hands at each
turn, must reach the engine's seat to play, leader, statuses and legal plays.
"""

from __future__ import annotations

import random

import pytest
from tests.test_properties import RULESET_IDS, RULESETS, random_action

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.sampling import replay

#: Hands of each random game checked.
HANDS = 3


@pytest.mark.parametrize("name", RULESET_IDS)
def test_the_sampler_replays_random_games_as_the_engine_plays_them(name: str) -> None:
    checked = 0
    for seed in range(2):
        state = GameState(RULESETS[name], seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.hand_index < HANDS:
            if state.phase == Phase.PLAY:
                assert state._trick is not None
                m = replay(state.observation(state.current_player), state.hands)
                assert m is not None and m.trick is not None
                assert (m.current_player, m.trick.leader, m.status, m._active) == (
                    state.current_player,
                    state._trick.leader,
                    state._status,
                    state._active,
                )
                assert m.legal() == state.legal_actions()
                checked += 1
            state.apply(random_action(state, rng))
    assert checked > 0
