"""Computer players, chosen by name wherever a player is chosen.

A name may carry a setting after a colon: ``expert:N`` is the expert with
``N`` sampled worlds per card play, always (``expert`` alone: 120 worlds,
fewer for plays with many choices; see ``pedro.players.expert``), and
``expert:bid=heuristic`` (or ``expert:N:bid=heuristic``) the expert with
``heuristic``'s bidder in place of its own (calls and trumps), to measure what
its own bidding is worth with the same card play, and
``expert:exchange=heuristic`` the same for its exchanger: a setting chooses a
part of the player (``pedro.players.parts``).
``cmd:COMMAND`` is a bot program, run and spoken to in JSON lines
(``cmd@SECONDS:COMMAND`` with a time limit per decision; see
``pedro.players.external`` and docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable

from pedro.i18n import N_
from pedro.players.base import Player, RandomPlayer, StateAwarePlayer, choose
from pedro.players.basic import BasicPlayer
from pedro.players.expert import ExpertPlayer
from pedro.players.expert_config import DEFAULT_SAMPLES, MAX_SAMPLES, ExpertConfig
from pedro.players.external import BotSpecError, ExternalPlayer, is_command
from pedro.players.heuristic import HeuristicPlayer
from pedro.players.levels import LEVELS, Level, level_player
from pedro.players.omniscient import OmniscientPlayer
from pedro.players.parts import ComposedPlayer

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
    "random": N_("random legal moves"),
    "basic": N_("simple rules of thumb"),
    "heuristic": N_("strong rules; bids by simulating the hand"),
    "expert": N_("searches sampled deals: the strongest fair player"),
    "omniscient": N_("sees every card: not a fair player, a yardstick"),
}

#: Players that take a setting after a colon, and what it is.
SETTINGS = {
    "expert": (
        f"expert:N with N the worlds sampled per card play, 1 to {MAX_SAMPLES}; "
        "expert:bid=heuristic (or expert:N:bid=heuristic) calls as heuristic does, "
        "expert:exchange=heuristic exchanges as heuristic does (they may go together)"
    ),
    "cmd": "cmd:COMMAND (or cmd@SECONDS:COMMAND) for a bot program, see docs/bots.md",
}


class UnknownPlayerError(ValueError):
    pass


def _allowed() -> str:
    levels = ", ".join(level.name for level in LEVELS)
    return f"players are: {', '.join(PLAYERS)}; levels: {levels}; settings: {'; '.join(SETTINGS.values())}"


def check_player(spec: str) -> None:
    """Raise ``UnknownPlayerError`` (saying what is allowed) unless ``spec`` names a player."""
    make_player(spec, 0)


def samples_of(spec: str) -> int | None:
    """Worlds a valid player spec samples per card play (``expert:N``: N), the measure of its
    cost; None for players that do not sample. Servers cap it (``pedro serve``)."""
    base, _, setting = level_player(spec).partition(":")
    if base != "expert":
        return None
    worlds = [part for part in setting.split(":") if part.strip().isdigit()]
    return int(worlds[0]) if worlds else DEFAULT_SAMPLES


def make_player(name: str, seed: int | str | None = None) -> Player:
    """A computer player by name (see ``PLAYERS``), with an optional setting (``expert:64``), or by
    strength level (``LEVELS``: ``club`` is ``heuristic``).

    A bot program (``cmd:...``) is not started here, only when its game begins.
    """
    name = level_player(name)
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
    return _expert(name, setting, seed)


#: The ``expert`` settings that make it call, or exchange, as ``heuristic`` does.
HEURISTIC_BIDDING = "bid=heuristic"
HEURISTIC_EXCHANGE = "exchange=heuristic"


def _expert(name: str, setting: str, seed: int | str | None) -> ExpertPlayer:
    """``expert:N``, ``expert:bid=heuristic``, ``expert:exchange=heuristic``, or any of them together
    (``expert:N:bid=heuristic:exchange=heuristic``), each at most once."""
    parts = [part.strip() for part in setting.split(":")]
    flags = [part for part in parts if part in (HEURISTIC_BIDDING, HEURISTIC_EXCHANGE)]
    rest = [part for part in parts if part not in flags]
    if len(set(flags)) != len(flags) or len(rest) > 1 or (not rest and not flags):
        raise UnknownPlayerError(f"bad player {name!r}: {SETTINGS['expert']}")
    # each setting puts heuristic's part in place of the expert's own
    bidding, exchange = HEURISTIC_BIDDING in flags, HEURISTIC_EXCHANGE in flags
    if not rest:
        return ExpertPlayer(seed, heuristic_bidding=bidding, heuristic_exchange=exchange)
    text = rest[0]
    if not text.isdigit() or not 1 <= int(text) <= MAX_SAMPLES:
        example = f"{SETTINGS['expert']} (e.g. expert:40), got {text!r}"
        raise UnknownPlayerError(f"bad player {name!r}: {example}")
    config = ExpertConfig.fixed(int(text))
    return ExpertPlayer(seed, config, heuristic_bidding=bidding, heuristic_exchange=exchange)


__all__ = [
    "DESCRIPTIONS",
    "LEVELS",
    "PLAYERS",
    "SETTINGS",
    "BasicPlayer",
    "ComposedPlayer",
    "ExpertConfig",
    "ExpertPlayer",
    "ExternalPlayer",
    "HeuristicPlayer",
    "Level",
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
