"""The bodies of a finished game's record and replay: built once, off the event loop, and kept compressed.

A finished game never changes, so its record and replay are built once, as
the gzip-compressed bytes of their JSON. Building a long game's replay takes
half a second or more of pure Python, so it runs in a worker process (see
``finished.workers``): everything here is a plain function of plain values,
which crosses to a worker by pickling and imports nothing of the web server.
(A table that is not loaded is read and built by ``finished.from_database``.)
"""

from __future__ import annotations

from typing import Any

from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState
from pedro.records import record_from_game
from pedro.server.finished.replay_frames import replay_frames
from pedro.server.http.response_body import Body
from pedro.server.tables.game import FinishedGame, table_game


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
    return Body.of_json(record_from_game(state, game.names, game.timed_out), download=game.filename())


def replay_body(game: FinishedGame) -> Body:
    """``{"table": summary, "record": record, "frames": [...]}`` (docs/server.md, "Replay frames")."""
    state = table_game(game.variant, game.options, game.seed, game.hands)
    frames = replay_frames(state, game.actions)  # leaves the state at the end of the game
    return replay_of(game, state, frames)


def replay_of(game: FinishedGame, state: GameState, frames: list[dict[str, Any]]) -> Body:
    """The replay of ``game``, from its ``frames`` and ``state`` at its end."""
    record = record_from_game(state, game.names, game.timed_out)
    return Body.of_json({"table": game.summary, "record": record, "frames": frames})
