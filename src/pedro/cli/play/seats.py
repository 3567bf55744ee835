"""Who sits where in ``pedro play``: each seat's player, its name, and how the record names it."""

from __future__ import annotations

from collections.abc import Sequence

from pedro.i18n import N_
from pedro.players import LEVELS, PLAYERS, UnknownPlayerError, check_player, is_command

HUMAN = "human"
#: The computer player of every other seat when ``--players`` is not given.
DEFAULT_PLAYER = "basic"
#: The human's name when ``--name`` is not given (the game then says "You bid", not "You bids").
DEFAULT_NAME = N_("You")
#: Names of the computer players, seat by seat.
COMPUTER_NAMES = ("Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def seat_players(players: str | None, n: int) -> list[str]:
    """Player kinds per seat: n-1 computer players (the human in the first seat), or n with one ``human``."""
    if not players:
        return [HUMAN] + [DEFAULT_PLAYER] * (n - 1)
    # a bot program's command keeps its case; a built-in player's name does not need it
    parts = [p.strip() for p in players.split(",") if p.strip()]
    names = [p if is_command(p) else p.lower() for p in parts]
    if len(names) == 1 and HUMAN not in names:  # one player (or level) for every other seat
        names *= n - 1
    if len(names) == n - 1 and HUMAN not in names:
        names = [HUMAN, *names]
    if len(names) != n or names.count(HUMAN) != 1:
        raise ValueError(
            f"--players needs {n - 1} computer players for seats 2 to {n} "
            f"(e.g. {','.join(['basic'] * (n - 1))}), "
            f"or {n} names with 'human' at your seat; got {players!r}; players are: {', '.join(PLAYERS)}; "
            f"levels: {', '.join(level.name for level in LEVELS)}"
        )
    for kind in names:
        if kind != HUMAN:
            check_player(kind)
    return names


def seat_names(kinds: Sequence[str], human_name: str) -> list[str]:
    """The human's name at the human's seat, the computer players' names at the others."""
    pool = [n for n in COMPUTER_NAMES if n.lower() != human_name.lower()]
    names = []
    k = 0
    for kind in kinds:
        if kind == HUMAN:
            names.append(human_name)
        else:
            names.append(pool[k % len(pool)])
            k += 1
    return names


def record_name(name: str, kind: str) -> str:
    """A seat's name in the record: ``Bo (basic)`` for a computer player, the human's name alone.

    The record's ``names`` are free text; writing each computer player's kind
    there says who played, and lets ``--resume`` seat the same players again.
    """
    return name if kind == HUMAN else f"{name} ({kind})"


def split_record_name(text: str) -> tuple[str, str | None]:
    """``("Bo", "basic")`` from ``Bo (basic)``; ``(text, None)`` when no player is named in it."""
    name, sep, rest = text.partition(" (")
    if not sep or not rest.endswith(")"):
        return text, None
    kind = rest[:-1]
    try:
        check_player(kind)
    except UnknownPlayerError:
        return text, None
    return name, kind


def check_name(name: str) -> None:
    """Refuse a human's name that the record would read as a computer player's (``Al (basic)``)."""
    if not name.strip():
        raise ValueError("--name must not be empty")
    if split_record_name(name)[1] is not None:
        raise ValueError(
            f"--name {name!r} would read as a computer player in the game record; "
            "leave out the player in parentheses"
        )
