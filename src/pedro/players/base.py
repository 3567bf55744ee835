"""The one interface every computer player implements: an observation in, an action out.

A player sees only its seat's ``Observation``. The single exception is a
``StateAwarePlayer`` (the ``omniscient`` ceiling, which reads every hand): it
also offers ``act_on_state``. Whatever asks a player for its move goes
through ``choose``, which hands the state only to a player that declares it
wants it.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.state import GameState


class Player(Protocol):
    """A computer player. It sees only its seat's ``Observation`` (never the game state)."""

    name: str

    def act(self, obs: Observation) -> int:
        """Choose one of ``obs.legal``."""
        ...


@runtime_checkable
class StateAwarePlayer(Protocol):
    """A player that is shown the whole game state (not a fair player: it sees hidden cards)."""

    name: str

    def act(self, obs: Observation) -> int: ...

    def act_on_state(self, state: GameState, seat: int) -> int:
        """Choose the action of ``seat``, whose turn it is in ``state``."""
        ...


def choose(player: Player, state: GameState) -> int:
    """The move of the player whose turn it is: every caller asks a player through this."""
    seat = state.current_player
    if isinstance(player, StateAwarePlayer):
        return player.act_on_state(state, seat)
    return player.act(state.observation(seat))


class RandomPlayer:
    """Chooses uniformly among the legal actions (card-set choices: a random legal set)."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        if legal is None:
            raise ValueError("it is not this seat's turn")
        if isinstance(legal, CardChoice):
            return legal.sample(self.rng)
        return self.rng.choice(legal)
