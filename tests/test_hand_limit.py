"""A game of N hands (``GameState(..., hand_limit=N)``): a duplicate tournament's deal is one hand.

The game ends when its N-th hand is scored: phase ``GAME_OVER``, no winner, no
later pack asked of the source of the cards, so a record of it holds exactly
the hands played. The hands it plays are those of the same game without a
limit, and clones and pickles keep the limit.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest
from tests.test_properties import RULESETS, random_action

from pedro.engine.deal import SeededDeals
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.records import record_from_game, replay
from pedro.variants.options import make_ruleset


class CountingDeals(SeededDeals):
    """Seeded packs that note every hand a pack is asked for."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: list[int] = []

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        self.asked.append(hand_index)
        return super().pack(hand_index, deck)


def play_out(state: GameState, seed: int, hands: int = 1000) -> GameState:
    rng = random.Random(seed)
    while not state.is_over and state.hand_index < hands:
        state.apply(random_action(state, rng))
    return state


@pytest.mark.parametrize("name", ["cinch", "pidro", "king_pedro", "sixty_three", "pitch_fives"])
def test_a_one_hand_game_ends_after_its_hand_with_no_winner(name: str) -> None:
    deals = CountingDeals(11)
    state = play_out(GameState(RULESETS[name], deals=deals, hand_limit=1), seed=4)
    assert state.is_over and state.phase == Phase.GAME_OVER and state.winner is None
    assert state.current_player == -1 and state.hand_index == 0
    assert len(state.results) == 1 and len(state.deal_records) == 1
    assert deals.asked == [0], "no pack is asked for after the last hand"
    assert state.hand_limit == 1
    assert state.why_illegal(0) == "the game is over"


@pytest.mark.parametrize("name", ["cinch", "king_pedro_canadian", "eighty_three"])
def test_the_limited_game_plays_the_unlimited_games_hands(name: str) -> None:
    limited = play_out(GameState(RULESETS[name], seed=8, hand_limit=2), seed=2)
    unlimited = play_out(GameState(RULESETS[name], seed=8), seed=2, hands=2)
    assert len(limited.results) == 2 and limited.is_over and limited.winner is None
    assert limited.results == unlimited.results[:2]
    assert limited.hand_actions == unlimited.hand_actions[:2]
    assert unlimited.hand_index == 2 and not unlimited.is_over  # the unlimited game dealt hand 3


def test_a_game_won_before_its_limit_has_its_winner() -> None:
    rules = make_ruleset("cinch")
    limited = play_out(GameState(rules, seed=5, hand_limit=500), seed=5)
    unlimited = play_out(GameState(rules, seed=5), seed=5)
    assert limited.is_over and limited.winner is not None
    assert limited.winner == unlimited.winner and limited.results == unlimited.results


def test_clones_and_pickles_keep_the_limit() -> None:
    state = GameState(make_ruleset("pidro"), seed=3, hand_limit=1)
    rng = random.Random(1)
    for _ in range(12):
        state.apply(random_action(state, rng))
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert copy.hand_limit == 1
        play_out(copy, seed=9)
        assert copy.is_over and len(copy.results) == 1 and copy.winner is None
    assert not state.is_over, "playing the copies left the original as it was"
    assert GameState(make_ruleset("pidro"), seed=3).hand_limit is None


def test_a_one_hand_games_record_holds_one_hand() -> None:
    """No second hand dealt and never played: the record replays as a game stopped after its hand."""
    state = play_out(GameState(make_ruleset("cinch"), seed=21, hand_limit=1), seed=6)
    record = record_from_game(state)
    assert len(record["hands"]) == 1 and record["hands"][0]["actions"]
    result = replay(record)
    assert result.results == state.results


@pytest.mark.parametrize("limit", [0, -1])
def test_a_limit_with_no_hand_is_refused(limit: int) -> None:
    with pytest.raises(ValueError, match="no hand to play"):
        GameState(make_ruleset("cinch"), seed=1, hand_limit=limit)
