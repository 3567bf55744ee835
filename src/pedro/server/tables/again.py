"""Play again: the same people and computer players, the same rules, the next game, a seat on.

When a game has ended, any of its players may ask for the next one (``POST /api/tables/{id}/again``
with the seat's secret). The first to ask sets it up: a new table with the same rules, title and
computer players, whose first dealer is the seat after the last game's; the asker's seat is taken,
and each other person's seat is *held* for them: the secret of their old seat opens it, and play
waits until they come (opening the new table takes the seat up) or give it up
(``POST /api/tables/{next}/leave``), after which the seat is free for anyone invited, or for a
computer the host puts there (``tables.host``: the new table has the old one's host). The old table
links to the new one (its ``state`` says ``table.next``), so every page of it is told; the link is
stored, so it holds across a restart and reaches the other server processes.
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.http.errors import HttpError
from pedro.server.http.request_body import Strict, read_body
from pedro.server.storage.tables_db import ConflictError, SeatAnswered, SeatRow, TableRow, hash_secret
from pedro.server.tables.game import seed_dealing_first
from pedro.server.tables.protocol import Secret
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room

log = logging.getLogger("pedro.server")


class SeatSecret(Strict):
    #: the secret of the asker's seat (at the finished table for ``again``, the held one for ``leave``)
    secret: Secret


_ASK = 'send {"secret": "..."}: your seat\'s secret'


class AgainRoutes:
    """``POST /api/tables/{table}/again`` and ``POST /api/tables/{table}/leave``."""

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/tables/{table}/again", self.again, methods=["POST"]),
            Route("/api/tables/{table}/leave", self.leave, methods=["POST"]),
        ]

    async def again(self, request: Request) -> Response:
        """The next game's table (set up by the first to ask), the asker's seat taken at it."""
        room, seat = await self._seat(request)
        if room.row.hands is not None:
            raise HttpError.of(409, "again_tournament")
        if not room.finished:
            raise HttpError.of(409, "again_unfinished")
        if room.row.next_table is None:
            row = next_row(room, seat)
            try:
                await self.registry.add(row, previous=room.id)
            except ConflictError:  # another request (or server process) set it up first
                await room.catch_up()
            else:
                room.next_table_set(row.id)
                log.info("table %s: the next game is table %s", room.id, row.id)
        next_id = room.row.next_table
        assert next_id is not None
        following = await self.registry.get(next_id)
        if following is None:
            raise HttpError.of(404, "no_table")
        await following.take_up(seat)
        return JSONResponse({"table": next_id, "seat": seat, "url": f"/t/{next_id}"})

    async def leave(self, request: Request) -> Response:
        """Give up the seat held for you at a next game: it is free for anyone invited."""
        room, seat = await self._seat(request)
        if not room.seats[seat].row.pending:
            raise HttpError.of(409, "not_held", seat=seat)
        try:
            await room.commit_change(
                SeatAnswered(room.id, seat, False), lambda: room.seat_answered(seat, False)
            )
        except ConflictError:
            raise HttpError.of(409, "not_held", seat=seat) from None
        return JSONResponse(room.summary())

    async def _seat(self, request: Request) -> tuple[Room, int]:
        """The table, and the seat whose secret the request carries (403 for any other secret)."""
        asked = await read_body(request, SeatSecret, _ASK)
        table_id = request.path_params["table"]
        room = await self.registry.get(table_id)
        if room is None:
            raise HttpError.of(410 if self.registry.is_broken(table_id) else 404, "no_table")
        seat = room.seat_for_secret(hash_secret(asked.secret))
        if seat is None:
            raise HttpError.of(403, "again_not_player")
        return room, seat


def next_row(room: Room, asker: int) -> TableRow:
    """The next game's table: each person's seat held for them (by their old seat's secret and
    profile), the asker's taken; the computer players, host and turn clock as they were; the first
    deal a seat on."""
    old = room.row
    seats = []
    for s in room.seats:
        row = s.row
        person = row.kind == "human" and row.secret_hash is not None
        seats.append(
            SeatRow(
                row.seat,
                row.kind,
                row.player,
                row.name if person else None,
                row.secret_hash if person else None,
                row.profile if person else None,
                pending=person and row.seat != asker,
            )
        )
    players = room.rules.players
    return TableRow(
        id=secrets.token_urlsafe(16),
        title=old.title,
        variant=old.variant,
        options=dict(old.options),
        seed=seed_dealing_first(players, (room.state.first_dealer + 1) % players),
        listed=old.listed,
        created_at=datetime.now(UTC),
        seats=seats,
        practice=old.practice,
        host_hash=old.host_hash,
        clock=old.clock,
    )
