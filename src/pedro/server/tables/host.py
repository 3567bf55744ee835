"""The table host's controls: what the creator of a table may change at it, and nobody else.

Creating a table returns a host secret (stored hashed, as a seat's); each control is a ``POST``
that carries it. Before the start the host makes a seat a person's or a computer's and picks the
level (a person who took the seat loses it, if away); during the game the host hands an away
seat to the computer for the rest of the game, or gives it back; at any time the host lists the
spectators, removes one (its browser may not watch again), turns the table's chat off or on, or
closes the table. A wrong or
missing secret is refused with 403 ``not_host`` and changes nothing; every other refusal says
what is allowed. Each change is committed before it is applied, and told to the other server
processes as the seat claims are (``tables_db.news_payload``).
"""

from __future__ import annotations

import hmac
import logging
from typing import Annotated, Literal

from pydantic import StringConstraints
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.http.errors import HttpError
from pedro.server.http.request_body import Strict, read_body
from pedro.server.settings import Limits
from pedro.server.storage.tables_db import (
    Closed,
    ConflictError,
    SeatChange,
    SeatHanded,
    ViewerBarred,
    hash_secret,
)
from pedro.server.tables.protocol import SeatSpec, Secret, ViewerId
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room
from pedro.server.tables.routes import seat_row

log = logging.getLogger("pedro.server")


class HostRequest(Strict):
    host: Secret


class SeatKind(HostRequest):
    """Before the start: the seat a person's (free) or a computer player's."""

    kind: Literal["human", "computer"]
    #: the computer player (a level's player, ``basic`` if none); none for a person's seat
    player: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


class HandOver(HostRequest):
    """During the game: ``computer`` true hands the away seat to the computer, false gives it back."""

    computer: bool


class RemoveSpectator(HostRequest):
    viewer: ViewerId


class ChatSwitch(HostRequest):
    """The table's chat on or off (off: nobody at the table talks, and its lines are not shown)."""

    on: bool


_ASK = {
    "seat": 'send {"host": "...", "kind": "human"} or {"host": "...", "kind": "computer", "player": "..."}',
    "hand": 'send {"host": "...", "computer": true} (or false to give the seat back)',
    "host": 'send {"host": "..."}',
    "remove": 'send {"host": "...", "viewer": "..."}',
    "chat": 'send {"host": "...", "on": false} (or true)',
}


class HostRoutes:
    """``/api/tables/{table}/host/...``: the host's controls."""

    def __init__(self, registry: TableRegistry, limits: Limits) -> None:
        self.registry = registry
        self.limits = limits

    def routes(self) -> list[BaseRoute]:
        base = "/api/tables/{table}/host"
        return [
            Route(base, self.check, methods=["POST"]),
            Route(base + "/seats/{seat:int}", self.seat, methods=["POST"]),
            Route(base + "/hand-over/{seat:int}", self.hand_over, methods=["POST"]),
            Route(base + "/spectators", self.spectators, methods=["POST"]),
            Route(base + "/remove", self.remove, methods=["POST"]),
            Route(base + "/close", self.close, methods=["POST"]),
            Route(base + "/chat", self.chat, methods=["POST"]),
        ]

    async def check(self, request: Request) -> Response:
        """Whether a secret is the host's (the page asks before it shows the controls)."""
        await self._host_room(request, await read_body(request, HostRequest, _ASK["host"]), live=False)
        return JSONResponse({"host": True})

    async def seat(self, request: Request) -> Response:
        asked = await read_body(request, SeatKind, _ASK["seat"])
        room = await self._host_room(request, asked)
        seat = _seat(room, request)
        if room.started:
            raise HttpError.of(409, "host_started")
        s = room.seats[seat]
        if s.row.kind == "human" and s.row.secret_hash is not None and s.present:
            raise HttpError.of(409, "host_seat_present", seat=seat)
        # the player is checked (and defaulted) as a new table's seat is
        row = seat_row(seat, SeatSpec(kind=asked.kind, player=asked.player), self.limits)
        if (row.kind, row.player) != (s.row.kind, s.row.player) or s.row.secret_hash is not None:
            change = SeatChange(room.id, seat, row.kind, row.player, s.row.secret_hash)
            try:
                await room.commit_change(change, lambda: room.seat_changed(seat, row.kind, row.player))
            except ConflictError:
                raise HttpError.of(409, "seat_just_taken", seat=seat) from None
            log.info("table %s: the host made seat %d %s", room.id, seat, row.player or "a person's")
        return JSONResponse(room.summary())

    async def hand_over(self, request: Request) -> Response:
        asked = await read_body(request, HandOver, _ASK["hand"])
        room = await self._host_room(request, asked)
        seat = _seat(room, request)
        if not room.started:
            raise HttpError.of(409, "host_not_started")
        row = room.seats[seat].row
        if row.kind != "human":
            raise HttpError.of(409, "host_computer_seat", seat=seat)
        if asked.computer and not row.handed and not room.away(seat):
            raise HttpError.of(409, "host_seat_present", seat=seat)
        if asked.computer != row.handed:
            handed = asked.computer
            await room.commit_change(
                SeatHanded(room.id, seat, handed), lambda: room.seat_handed(seat, handed)
            )
            log.info("table %s: the host %s seat %d", room.id, "handed over" if handed else "gave back", seat)
        return JSONResponse(room.summary())

    async def spectators(self, request: Request) -> Response:
        asked = await read_body(request, HostRequest, _ASK["host"])
        room = await self._host_room(request, asked, live=False)
        return JSONResponse({"spectators": room.spectator_list()})

    async def remove(self, request: Request) -> Response:
        asked = await read_body(request, RemoveSpectator, _ASK["remove"])
        room = await self._host_room(request, asked, live=False)
        viewer = asked.viewer
        if viewer not in room.row.barred:
            await room.commit_change(ViewerBarred(room.id, viewer), lambda: room.viewer_barred(viewer))
            log.info("table %s: the host removed a spectator", room.id)
        return JSONResponse({"spectators": room.spectator_list()})

    async def chat(self, request: Request) -> Response:
        asked = await read_body(request, ChatSwitch, _ASK["chat"])
        room = await self._host_room(request, asked, live=False)
        if asked.on != room.chat.on:
            await room.set_chat(asked.on)
            log.info("table %s: the host turned the chat %s", room.id, "on" if asked.on else "off")
        return JSONResponse({"chat": room.chat.on})

    async def close(self, request: Request) -> Response:
        room = await self._host_room(request, await read_body(request, HostRequest, _ASK["host"]), live=False)
        if room.finished:
            raise HttpError.of(409, "host_over")
        if not room.closed:
            await room.commit_change(Closed(room.id), room.table_closed)
            log.info("table %s: closed by its host", room.id)
        return JSONResponse(room.summary())

    async def _host_room(self, request: Request, asked: HostRequest, *, live: bool = True) -> Room:
        """The table, if ``asked`` carries its host secret; 403 ``not_host`` otherwise. ``live``: a
        closed or finished table is refused (409 ``host_over``), as no seat is left to change."""
        table_id = request.path_params["table"]
        room = await self.registry.get(table_id)
        if room is None:
            raise HttpError.of(410 if self.registry.is_broken(table_id) else 404, "no_table")
        stored = room.row.host_hash
        if stored is None or not hmac.compare_digest(stored, hash_secret(asked.host)):
            raise HttpError.of(403, "not_host")
        if live and room.over:
            raise HttpError.of(409, "host_over")
        return room


def _seat(room: Room, request: Request) -> int:
    seat: int = request.path_params["seat"]
    if not 0 <= seat < len(room.seats):
        raise HttpError.of(404, "host_no_seat", seat=seat, last=len(room.seats) - 1)
    return seat
