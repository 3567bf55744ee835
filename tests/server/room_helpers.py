"""Rooms without a server around them: tables played in-process, and what they send each client.

A room's store here commits at once (``InstantStore``), so a whole game is played through
``Room.act`` (or the room's own computer players) as the server plays it, without the database
or the network; every message a room sends goes through ``Listener.send``, where a test reads it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from tests.test_properties import random_action

from pedro.engine.state import GameState
from pedro.server.storage.tables_db import SeatRow, TableRow
from pedro.server.tables.messages import parse_server_message
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.table_view import Seat, Table, TableFacts, state_message
from pedro.server.tables.views import words
from pedro.variants.options import make_ruleset


class InstantStore:
    """Commits every action at once (the room awaits an already-resolved future), and keeps them."""

    def __init__(self, actions: Sequence[str] = ()) -> None:
        self.actions = list(actions)
        self.finished = False

    def append_action(
        self, table_id: str, seq: int, text: str, stand_in: bool = False, timed_out: bool = False
    ) -> asyncio.Future[None]:
        assert seq == len(self.actions), "an action was committed out of turn"
        self.actions.append(text)
        future = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future

    def mark_finished(self, table_id: str) -> None:
        self.finished = True


class Listener:
    """A connection as the room sees it, keeping every message it is sent (as text)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.received: list[str] = []

    def send(self, text: str | bytes) -> None:
        self.received.append(text.decode() if isinstance(text, bytes) else text)

    def replaced(self) -> None:
        raise AssertionError("nobody else takes a listener's seat")


def table_row(
    variant: str,
    options: dict[str, Any],
    seed: str,
    players: Sequence[str | None],
    hands: int | None = None,
) -> TableRow:
    """A table whose seats are all taken: ``players`` per seat, a computer player's name, or None for
    a human (named ``P<seat>``)."""
    seats = [
        SeatRow(s, "human", name=f"P{s}", secret_hash=f"{s:064d}")
        if player is None
        else SeatRow(s, "computer", player=player)
        for s, player in enumerate(players)
    ]
    return TableRow(
        "t" * 22, "t", variant, options, seed, True, datetime(2026, 1, 1, tzinfo=UTC), seats, hands=hands
    )


def play_computers(row: TableRow, until: int | None = None, seconds: float = 600.0) -> list[str]:
    """The table's actions once its computer players have played it to the end (or ``until``
    actions): a room made from ``row``, its stored actions replayed, as a restarted server makes it."""

    async def play() -> list[str]:
        room = Room(row, InstantStore(row.actions), RoomSettings(bot_delay=0.0))  # type: ignore[arg-type]
        room.start()
        deadline = asyncio.get_running_loop().time() + seconds
        while not room.finished and (until is None or room.seq < until):
            assert asyncio.get_running_loop().time() < deadline, "the computers did not finish in time"
            await asyncio.sleep(0.001)
        await room.drain()
        return room.row.actions[:until]

    return asyncio.run(play())


def server_message(state: GameState, seat: int | None) -> str:
    """The server's ``state`` message for ``seat`` (None: a spectator) at this moment of a game
    between computer players, checked against the message schema."""
    seats = tuple(
        Seat(s, f"random {s}", "computer", "random", True, True, False) for s in range(state.players)
    )
    last = next((h[-1] for h in reversed(state.hand_actions) if h), None)
    seq = sum(len(h) for h in state.hand_actions)
    table = Table("t", "t", {}, False, None, "no_profiles", None)
    text = state_message(state, TableFacts(table, seats, seq, True, last), seat)
    parse_server_message(text)
    return text.decode()


def play_random_game(
    variant: str, options: dict[str, Any], seed: int, watch: Callable[[Room], None] = lambda room: None
) -> list[Listener]:
    """A whole game of random legal actions, each sent by the seat's own connection through
    ``Room.act``, a spectator watching; every connection, with all it was sent. ``watch`` sees the
    room before each action."""

    async def play() -> list[Listener]:
        players = make_ruleset(variant, options).players
        room = Room(table_row(variant, options, str(seed), [None] * players), InstantStore(), RoomSettings())  # type: ignore[arg-type]
        listeners = [Listener(s) for s in range(players)] + [Listener(None)]
        for listener in listeners:
            room.attach(listener, listener.seat)
        rng = random.Random(seed)
        while not room.finished:
            watch(room)
            action = random_action(room.state, rng)
            await room.act(listeners[room.state.current_player], words(action, room.rules), room.seq)
        return listeners

    return asyncio.run(play())
