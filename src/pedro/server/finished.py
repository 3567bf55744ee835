"""The bodies of a finished game's record and replay: built once, off the event loop, and kept compressed.

A finished game never changes, so its record and replay are built once, as
the gzip-compressed bytes of their JSON. Building a long game's replay takes
half a second or more of pure Python, so it runs in a worker process (see
``pedro.server.workers``): everything here is a plain function of plain
values, which crosses to a worker by pickling and imports nothing of the web
server. (A table that is not loaded is read and built by ``pedro.server.stored``.)
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState
from pedro.records import record_from_game
from pedro.server.replay_frames import replay_frames
from pedro.variants.options import make_ruleset


def table_game(variant: str, options: Mapping[str, Any], seed: str, hands: int | None) -> GameState:
    """A table's game from its first deal. A table of ``hands`` hands (a duplicate tournament's deal:
    one) is a game of that many hands, which ends after them with no winner and deals no more."""
    return GameState(make_ruleset(variant, dict(options)), seed=seed, hand_limit=hands)


#: zlib's default: within a few percent of the smallest output, several times faster than level 9.
GZIP_LEVEL = 6


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

    def filename(self) -> str:
        """The record's file name when downloaded."""
        return f"pedro-{self.variant}-{self.table_id[:8]}.json"


@dataclass(frozen=True)
class Body:
    """A JSON response body kept gzip-compressed; ``size`` is its length uncompressed."""

    gzipped: bytes
    size: int
    #: the file name it is downloaded as, if it is a download
    download: str | None = None

    @classmethod
    def of_json(cls, value: Any, download: str | None = None) -> Body:
        raw = orjson.dumps(value)
        # mtime 0: the same game always gives the same bytes
        return cls(gzip.compress(raw, compresslevel=GZIP_LEVEL, mtime=0), len(raw), download)

    def plain(self) -> bytes:
        return gzip.decompress(self.gzipped)


def _played(game: FinishedGame) -> GameState:
    state = table_game(game.variant, game.options, game.seed, game.hands)
    for text in game.actions:
        state.apply(parse_action_text(text, state.rules.max_bid)[1])
    return state


def record_body(game: FinishedGame) -> Body:
    """The ``pedro-record/1`` record."""
    return record_of(game, _played(game))


def record_of(game: FinishedGame, state: GameState) -> Body:
    """The record of ``game``, played to its end in ``state``."""
    return Body.of_json(record_from_game(state, game.names), download=game.filename())


def replay_body(game: FinishedGame) -> Body:
    """``{"table": summary, "record": record, "frames": [...]}`` (docs/server.md, "Replay frames")."""
    state = table_game(game.variant, game.options, game.seed, game.hands)
    frames = replay_frames(state, game.actions)  # leaves the state at the end of the game
    return replay_of(game, state, frames)


def replay_of(game: FinishedGame, state: GameState, frames: list[dict[str, Any]]) -> Body:
    """The replay of ``game``, from its ``frames`` and ``state`` at its end."""
    record = record_from_game(state, game.names)
    return Body.of_json({"table": game.summary, "record": record, "frames": frames})
