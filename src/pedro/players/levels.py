"""Strength levels: the computer players a person picks by how strong they are.

Each level is a built-in player under a name a player understands, from a
beginner who still plays legal, sensible cards to the full expert. A level's
name stands wherever a player name stands (``pedro play --players``, the lobby,
tournaments, records), and each level is measured against the one below it on
duplicate deals (docs/strength.md, "Strength levels"), so that the steps are real.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A strength level: its name, the player it is, and what it does, for menus and help."""

    name: str
    player: str
    description: str


#: The levels, weakest first.
LEVELS: tuple[Level, ...] = (
    Level("beginner", "basic", "plays sensible legal cards and bids what its cards count to"),
    Level("club", "heuristic", "counts cards, saves its points, bids by playing the hand out"),
    Level("strong", "expert:3:bid=heuristic", "the expert's card play on three sampled deals; bids as club"),
    Level("expert", "expert", "searches many sampled deals and bids by solving them: the strongest"),
)

_BY_NAME = {level.name: level for level in LEVELS}


def level_player(name: str) -> str:
    """The player spec a level name stands for; any other name unchanged.

    >>> level_player("club"), level_player("heuristic")
    ('heuristic', 'heuristic')
    """
    level = _BY_NAME.get(name)
    return level.player if level is not None else name


_BY_PLAYER = {level.player: level for level in LEVELS}


def level_of(player: str) -> str:
    """The level a player spec is, by the level's name or the spec it stands for; any other spec
    unchanged, so a person reads one name per level wherever a computer is shown.

    >>> level_of("basic"), level_of("club"), level_of("expert:3")
    ('beginner', 'club', 'expert:3')
    """
    if player in _BY_NAME:
        return player
    level = _BY_PLAYER.get(player)
    return level.name if level is not None else player
