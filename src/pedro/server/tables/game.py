"""A table's game, and what is told of it when it ends.

A table's game is played from its first deal by its rules and seed (``table_game``); a room plays
it live, a worker process plays it again from the stored actions. When it ends, the room that
committed its last action tells the game-over listeners (``GameOver``) what they need: the finished
game for its record and replay (``FinishedGame``) and the end for its rating (``GameEnd``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pedro.engine.deal import SeededDeals
from pedro.engine.state import GameState, HandResult
from pedro.variants.options import make_ruleset


def table_game(variant: str, options: Mapping[str, Any], seed: str, hands: int | None) -> GameState:
    """A table's game from its first deal. A table of ``hands`` hands (a duplicate tournament's deal:
    one) is a game of that many hands, which ends after them with no winner and deals no more."""
    return GameState(make_ruleset(variant, dict(options)), seed=seed, hand_limit=hands)


def seed_dealing_first(players: int, dealer: int) -> str:
    """A new random seed whose game ``dealer`` deals first (play again: the deal moves on a seat).
    Drawn until one fits, about ``players`` draws; the deals stay as random as any seed's, as the
    first dealer is drawn apart from them."""
    while True:
        seed = secrets.token_hex(16)
        if SeededDeals(seed).first_dealer(players) == dealer:
            return seed


@dataclass(frozen=True)
class FinishedGame:
    """What a finished table's record and replay are made of."""

    table_id: str
    variant: str
    options: dict[str, Any]
    seed: str
    actions: tuple[str, ...]
    #: the names the seats played under, for the record
    names: tuple[str, ...]
    #: the table's summary (``Room.summary``) as the game ended, for the replay viewer
    summary: dict[str, Any]
    #: the table's number of hands (a tournament deal's: 1), None: played to the game's end
    hands: int | None = None
    #: the actions (numbers, all hands together) the stand-in made as a turn clock ran out
    timed_out: tuple[int, ...] = ()

    def filename(self) -> str:
        """The record's file name when downloaded."""
        return f"pedro-{self.variant}-{self.table_id[:8]}.json"


@dataclass(frozen=True)
class GameEnd:
    """What a finished game's rating needs, as the room has it when the game ends."""

    table_id: str
    variant: str
    options: Mapping[str, Any]
    practice: bool
    #: the table's number of hands: a duplicate tournament's deal (scored by matchpoints, not rated)
    hands: int | None
    scores: tuple[int, ...]  # per side
    winner: int | None
    results: tuple[HandResult, ...]
    actions: tuple[str, ...]  # record text, "<seat> <words>"


@dataclass(frozen=True)
class GameOver:
    """A game that has just ended, told by the process that committed its last action."""

    game: FinishedGame
    end: GameEnd


#: Told of each game as it ends, once (``RoomSettings.game_over`` lists them all).
GameOverListener = Callable[[GameOver], None]


class HiddenDeals(Protocol):
    """Which tables play a tournament's deal not yet played at every table (``tournaments``): only
    their seated players may watch them, or read their record, replay or reviews."""

    async def hidden_deal(self, table_id: str) -> bool: ...
