"""A finished table read from the database, made into its replay or record in a worker, its game played once.

A finished table nobody is at is not loaded. Restoring it in the server (for
its summary, the seats' names and the check of its stored actions) played its
whole game, and the worker then played it again for the frames: for a long
game, some 0.1 s of the server's CPU before the worker could start. Here the
worker plays the stored actions once, checking them as a restored table does
(each one an action, in turn and legal), and makes the table's room from the
game as it ended (``Room(..., state=...)``), for its summary and names.

A worker imports this module, and with it the server's room and what the
room imports (the store, the computer players): some 0.4 s and 40 MB more
than the frames alone need, taken as the worker starts (``warm_up``), not by
its first job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from pedro.engine.actions import parse_turn_text
from pedro.engine.state import GameState
from pedro.server.finished.bodies import record_of, replay_of
from pedro.server.finished.replay_frames import replay_frames
from pedro.server.http.response_body import Body
from pedro.server.storage.tables_db import TableRow
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.game import table_game
from pedro.server.tables.room import Room, RoomError, RoomSettings
from pedro.variants.options import make_ruleset

#: What is built of a finished game.
Kind = Literal["replay", "record"]


@dataclass(frozen=True)
class StoredTable:
    """A worker's job: the body of ``kind`` of a stored table, whose room is set by ``settings``."""

    row: TableRow
    settings: RoomSettings
    kind: Kind


class Unplayable(Exception):
    """The stored actions no longer play (not an action, out of turn, illegal): the table is not served."""


class Unfinished(Exception):
    """The stored game is not over: its record and replay come at the end."""


def stored_body(table: StoredTable) -> Body:
    """The replay or record of a stored table, its actions played and checked once."""
    row = table.row
    frames: list[dict[str, Any]] | None = None
    try:
        state = table_game(row.variant, row.options, row.seed, row.hands)
        if table.kind == "replay":
            frames = replay_frames(state, row.actions)  # checks each action
        else:
            _play(state, row.actions)
    except ValueError as exc:
        raise Unplayable(str(exc)) from None
    # a room to read, never to play: it is given no store, as it writes nothing
    room = Room(row, cast(AsyncStore, None), table.settings, state=state)
    try:
        game = room.finished_game()
    except RoomError as exc:
        raise Unfinished(exc.message) from None
    return record_of(game, state) if frames is None else replay_of(game, state, frames)


def _play(state: GameState, actions: list[str]) -> None:
    for text in actions:
        state.apply(parse_turn_text(text, state.rules.max_bid, state.current_player)[1])


def warm_up() -> None:
    """Run in a worker as it starts: the modules imported (unpickling this function did that), and
    the first frame of a game built, so that the first request finds the worker ready."""
    replay_frames(GameState(make_ruleset("cinch", {}), seed="warm-up"), ())
