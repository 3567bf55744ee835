"""The one interface every computer player implements: an observation in, an action out."""

from __future__ import annotations

import random
from typing import Protocol

from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation


class Player(Protocol):
    """A computer player. It sees only its seat's ``Observation`` (never the game state)."""

    name: str

    def act(self, obs: Observation) -> int:
        """Choose one of ``obs.legal``."""
        ...


def legal_list(obs: Observation) -> list[int]:
    """The legal actions of an observation as a list (card choices enumerated)."""
    if obs.legal is None:
        raise ValueError("it is not this seat's turn")
    return list(obs.legal)


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
