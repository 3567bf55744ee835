"""Computer players, chosen by name wherever a player is chosen."""

from __future__ import annotations

from collections.abc import Callable

from pedro.players.base import Player, RandomPlayer
from pedro.players.basic import BasicPlayer
from pedro.players.heuristic import HeuristicPlayer

PlayerFactory = Callable[[int | str | None], Player]

#: Name -> factory taking a seed.
PLAYERS: dict[str, PlayerFactory] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
    "heuristic": HeuristicPlayer,
}


class UnknownPlayerError(ValueError):
    pass


def make_player(name: str, seed: int | str | None = None) -> Player:
    """A computer player by name (see ``PLAYERS``)."""
    factory = PLAYERS.get(name)
    if factory is None:
        raise UnknownPlayerError(f"unknown player {name!r}; players are: {', '.join(PLAYERS)}")
    return factory(seed)


__all__ = [
    "PLAYERS",
    "BasicPlayer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "UnknownPlayerError",
    "make_player",
]
