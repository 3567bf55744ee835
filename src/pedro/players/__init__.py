"""Computer players, chosen by name wherever a player is chosen.

A name may carry a setting after a colon: ``expert:N`` is the expert with
``N`` sampled worlds per card play, always (``expert`` alone: 120 worlds,
fewer for plays with many choices; see ``pedro.players.expert``).
``cmd:COMMAND`` is a bot program, run and spoken to in JSON lines
(``cmd@SECONDS:COMMAND`` with a time limit per decision; see
``pedro.players.external`` and docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable

from pedro.players.base import Player, RandomPlayer, StateAwarePlayer, choose
from pedro.players.basic import BasicPlayer
from pedro.players.expert import DEFAULT_SAMPLES, MAX_SAMPLES, ExpertPlayer
from pedro.players.external import BotSpecError, ExternalPlayer, is_command
from pedro.players.heuristic import HeuristicPlayer
from pedro.players.omniscient import OmniscientPlayer

PlayerFactory = Callable[[int | str | None], Player]

#: Name -> factory taking a seed.
PLAYERS: dict[str, PlayerFactory] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
    "heuristic": HeuristicPlayer,
    "expert": ExpertPlayer,
    "omniscient": OmniscientPlayer,
}

#: What each player is, in a few words, for menus (the lobby) and help texts.
DESCRIPTIONS: dict[str, str] = {
    "random": "random legal moves",
    "basic": "simple rules of thumb",
    "heuristic": "strong rules; bids by simulating the hand",
    "expert": "searches sampled deals: the strongest fair player",
    "omniscient": "sees every card: not a fair player, a yardstick",
}

#: Players that take a setting after a colon, and what it is.
SETTINGS = {
    "expert": f"expert:N with N the worlds sampled per card play, 1 to {MAX_SAMPLES}",
    "cmd": "cmd:COMMAND (or cmd@SECONDS:COMMAND) for a bot program, see docs/bots.md",
}


class UnknownPlayerError(ValueError):
    pass


def _allowed() -> str:
    return f"players are: {', '.join(PLAYERS)}; settings: {'; '.join(SETTINGS.values())}"


def check_player(spec: str) -> None:
    """Raise ``UnknownPlayerError`` (saying what is allowed) unless ``spec`` names a player."""
    make_player(spec, 0)


def samples_of(spec: str) -> int | None:
    """Worlds a valid player spec samples per card play (``expert:N``: N), the measure of its
    cost; None for players that do not sample. Servers cap it (``pedro serve``)."""
    base, colon, setting = spec.partition(":")
    if base != "expert":
        return None
    return int(setting) if colon else DEFAULT_SAMPLES


def make_player(name: str, seed: int | str | None = None) -> Player:
    """A computer player by name (see ``PLAYERS``), with an optional setting (``expert:64``).

    A bot program (``cmd:...``) is not started here, only when its game begins.
    """
    if is_command(name):
        try:
            return ExternalPlayer(name, seed)
        except BotSpecError as exc:
            raise UnknownPlayerError(str(exc)) from None
    base, colon, setting = name.partition(":")
    factory = PLAYERS.get(base)
    if factory is None:
        raise UnknownPlayerError(f"unknown player {name!r}; {_allowed()}")
    if not colon:
        return factory(seed)
    if base != "expert":
        raise UnknownPlayerError(f"player {base!r} takes no setting (got {name!r}); {_allowed()}")
    text = setting.strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_SAMPLES:
        raise UnknownPlayerError(
            f"bad player {name!r}: {SETTINGS['expert']} (e.g. expert:40), got {setting!r}"
        )
    return ExpertPlayer(seed, samples=int(text), max_solves=None)


__all__ = [
    "DESCRIPTIONS",
    "PLAYERS",
    "SETTINGS",
    "BasicPlayer",
    "ExpertPlayer",
    "ExternalPlayer",
    "HeuristicPlayer",
    "OmniscientPlayer",
    "Player",
    "RandomPlayer",
    "StateAwarePlayer",
    "UnknownPlayerError",
    "check_player",
    "choose",
    "is_command",
    "make_player",
    "samples_of",
]
