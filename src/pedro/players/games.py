"""Whole games between computer players, shared by ``simulate`` and ``tournament``.

Each seat's player is seeded from the game's seed and the seat, so any game
can be replayed alone from its seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from pedro.engine.deal import DealError
from pedro.engine.state import GameState, IllegalActionError
from pedro.players import Player, choose, make_player
from pedro.variants.model import Ruleset


class GameFailure(Exception):
    """A game could not go on: a player chose an illegal action or the engine refused a deal."""


def play_game(rules: Ruleset, names: Sequence[str], game_seed: int, max_hands: int) -> GameState:
    """One game, stopped unfinished once ``max_hands`` hands have been played."""
    state = GameState(rules, seed=game_seed)
    seats: list[Player] = [make_player(name, game_seed * 16 + s) for s, name in enumerate(names)]
    while not state.is_over and len(state.results) < max_hands:
        seat = state.current_player
        action = choose(seats[seat], state)
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise GameFailure(
                f"game with seed {game_seed}, hand {state.hand_index + 1}: player {names[seat]!r} "
                f"(seat {seat}) chose an illegal action: {exc}"
            ) from None
        except DealError as exc:
            raise GameFailure(f"game with seed {game_seed}: {exc}") from None
    return state
