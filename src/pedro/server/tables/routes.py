"""The tables' HTTP API: the lobby, creating a table, taking a seat, and what the forms offer.

``GET /api/tables`` lists the lobby, ``POST /api/tables`` creates a table (its creator may take a
seat at once), ``GET /api/tables/{table}`` describes one, ``POST /api/tables/{table}/seats`` takes
a free seat; ``GET /api/variants`` and ``GET /api/limits`` are what the create form offers and
allows. A seat taken with a profile (its secret) is the profile's: ``SeatProfiles`` finds it.
Every refusal says what was wrong and what is allowed, and changes nothing.
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from pedro.players import PLAYERS, UnknownPlayerError, check_player, is_command
from pedro.server.http.errors import MESSAGES, HttpError, option_refusal
from pedro.server.http.request_body import (
    MAX_BODY_BYTES,
    MAX_NAME_CHARS,
    MAX_TITLE_CHARS,
    client_address,
    read_body,
)
from pedro.server.settings import Limits, TurnClocks
from pedro.server.storage.tables_db import ConflictError, SeatRow, TableRow, hash_secret
from pedro.server.tables.limits import CreationLimits, check_strength
from pedro.server.tables.protocol import MAX_MESSAGE_BYTES, ClaimSeat, CreateTable, SeatSpec
from pedro.server.tables.registry import TableRegistry, Unservable
from pedro.server.tables.room import Room
from pedro.server.tables.variants_json import variants_json
from pedro.server.tables.websocket import TableSockets
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import OptionError, make_ruleset

log = logging.getLogger("pedro.server")


class SeatProfile(Protocol):
    """The profile that takes a seat, as a table needs it: its id and name."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


class SeatProfiles(Protocol):
    """Finds the profile a create-table or seat request names by its secret, and checks the name
    of a person who sits without one (``profiles``)."""

    async def seat_profile(self, secret: str | None) -> SeatProfile | None: ...

    async def check_seat_name(self, name: str) -> None:
        """Refused if the name is, or looks like, a computer player's or a profile's."""


class TableRoutes:
    """The tables' endpoints, on the server's tables and creation limits."""

    def __init__(
        self,
        registry: TableRegistry,
        creations: CreationLimits,
        profiles: SeatProfiles,
        sockets: TableSockets,
        clocks: TurnClocks | None = None,
    ) -> None:
        self.registry = registry
        self.creations = creations
        self.profiles = profiles
        self.sockets = sockets
        #: the turn clocks a table may be made with (``tables.clocks``)
        self.clocks = clocks or TurnClocks()
        self._variants = variants_json()
        self._limits = _limits_json(creations.limits) | {"clocks": list(self.clocks.lengths)}

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/variants", self.variants),
            Route("/api/limits", self.limits),
            Route("/api/tables", self.tables, methods=["GET", "POST"]),
            Route("/api/tables/{table}", self.table),
            Route("/api/tables/{table}/seats", self.claim, methods=["POST"]),
            WebSocketRoute("/ws/{table}", self.sockets.connect),
        ]

    async def variants(self, request: Request) -> Response:
        return JSONResponse(self._variants)

    async def limits(self, request: Request) -> Response:
        return JSONResponse(self._limits)

    async def tables(self, request: Request) -> Response:
        """``GET``: the lobby; ``POST``: a new table (and its creator's seat)."""
        registry = self.registry
        if request.method == "GET":
            tables = [r.summary() for r in registry.listed()]
            return JSONResponse({"tables": tables})
        spec = await read_body(request, CreateTable, "see docs/server.md for the create-table request")
        creations = self.creations
        if spec.profile is not None and spec.seat is None:
            raise HttpError.of(400, "profile_needs_seat")
        profile = await self.profiles.seat_profile(spec.profile)
        if profile is None and spec.seat is not None and spec.name is not None:
            await self.profiles.check_seat_name(spec.name)
        row, secret, host = _new_table(spec, creations.limits, profile)
        row.clock = _clock(spec.clock, self.clocks)
        client = client_address(request)
        try:
            creations.check(client, row, registry.rooms)
        except HttpError as exc:
            log.info("table refused to %s: %s", client, exc.message)
            raise
        # counted before the commit is awaited, so that requests arriving meanwhile see it
        creations.created(client, row.id)
        try:
            room = await registry.add(row)
        except Unservable as exc:  # the options' bounds keep this from happening: never stored
            log.error("table refused to %s: it could not be served: %s", client, exc)
            raise HttpError.of(422, "bad_options", why=f"this table could not be served: {exc}") from None
        log.info("table %s created: %s, %d computer players", row.id, row.variant, _computers(row))
        if secret is not None:
            log.info("table %s: seat %d taken", row.id, spec.seat)
        body: dict[str, Any] = {
            "table": row.id,
            "seat": spec.seat,
            "secret": secret,
            "host": host,
            "url": f"/t/{row.id}",
        }
        return JSONResponse(body | {"summary": room.summary()}, status_code=201)

    async def table(self, request: Request) -> Response:
        return JSONResponse((await self._room(request)).summary())

    async def claim(self, request: Request) -> Response:
        """Take a free human seat: its secret is the key to it."""
        room = await self._room(request)
        claim = await read_body(
            request, ClaimSeat, 'send {"seat": N, "name": "..."} or {"seat": N, "profile": "..."}'
        )
        free = [s.row.seat for s in room.seats if not s.claimed]
        if claim.seat >= len(room.seats) or room.seats[claim.seat].row.kind != "human":
            raise _seat_error(400, "claim_not_human", claim.seat, free=free)
        if claim.seat not in free:
            raise _seat_error(409, "seat_taken", claim.seat, free=free)
        profile = await self.profiles.seat_profile(claim.profile)
        name = await self._seat_name(room, profile, claim.name)
        secret = secrets.token_urlsafe(24)
        try:
            await room.store.claim_seat(
                room.id, claim.seat, name, hash_secret(secret), profile.id if profile is not None else None
            )
        except ConflictError:
            raise HttpError.of(409, "seat_just_taken", seat=claim.seat) from None
        room.seat_taken(claim.seat, name, hash_secret(secret), profile.id if profile is not None else None)
        return JSONResponse({"seat": claim.seat, "secret": secret, "name": name})

    async def _seat_name(self, room: Room, profile: SeatProfile | None, name: str | None) -> str:
        """The name a seat is taken under: the profile's (one seat of a table per profile: at two
        it would see its partner's hand), else the name given, if nobody's look-alike."""
        if profile is not None:
            held = room.profile_seat(profile.id)
            if held is not None:
                raise HttpError.of(409, "profile_seated", seat=held)
            return profile.name
        if name is None:
            raise HttpError.of(422, "need_name", limit=MAX_NAME_CHARS)
        await self.profiles.check_seat_name(name)
        return name

    async def _room(self, request: Request) -> Room:
        table_id = request.path_params["table"]
        room = await self.registry.get(table_id)
        if room is None:
            if self.registry.is_broken(table_id):
                raise HttpError.of(410, "table_broken")
            raise HttpError.of(404, "no_table")
        return room


def _seat_error(status: int, code: str, seat: int, **seats: list[int]) -> HttpError:
    """A refusal naming seats: the English says "none" for no seats, the fields give the list."""
    shown = {name: value or "none" for name, value in seats.items()}
    return HttpError(status, code, MESSAGES[code].format(seat=seat, **shown), {"seat": seat, **seats})


def _limits_json(limits: Limits) -> dict[str, int | float]:
    """What clients may send and create: forms take their lengths from here, not from copies."""
    return {
        "name_chars": MAX_NAME_CHARS,
        "title_chars": MAX_TITLE_CHARS,
        "body_bytes": MAX_BODY_BYTES,
        "message_bytes": MAX_MESSAGE_BYTES,
        "tables_per_minute": limits.tables_per_minute,
        "open_tables_per_client": limits.open_tables_per_client,
        "computer_only_tables": limits.computer_only_tables,
        "max_expert_samples": limits.max_expert_samples,
        "chat_chars": limits.chat_chars,
        "chat_messages": limits.chat_messages,
        "chat_seconds": limits.chat_seconds,
    }


def _clock(clock: float | None, clocks: TurnClocks) -> float | None:
    """The turn clock asked for, if the server offers it (tests' short clocks are set in the
    server's settings, never by a request)."""
    if clock is not None and clock not in clocks.lengths:
        offered = ", ".join(f"{length:g}" for length in clocks.lengths)
        raise HttpError.of(422, "bad_clock", clock=clock, clocks=offered)
    return clock


def _computers(row: TableRow) -> int:
    return sum(1 for s in row.seats if s.kind == "computer")


def seat_row(i: int, seat: SeatSpec, limits: Limits) -> SeatRow:
    """A new table's seat as asked: a person's (empty), or a computer level the server may run."""
    if seat.kind != "computer":
        if seat.player is not None:
            raise HttpError.of(400, "human_no_player", seat=i)
        return SeatRow(i, "human")
    player = seat.player or "basic"
    if is_command(player):
        # a web request must never make the server run a program
        raise HttpError.of(400, "bot_program", seat=i, player=player, players=", ".join(PLAYERS))
    try:
        check_player(player)
        check_strength(player, limits)
    except UnknownPlayerError as exc:
        raise HttpError.of(400, "bad_player", seat=i, why=str(exc)) from None
    except HttpError as exc:  # too strong: its own code, said of the seat
        fields = {"seat": i, **(exc.fields or {})}
        raise HttpError(exc.status, exc.code, f"seat {i}: {exc.message}", fields) from None
    return SeatRow(i, "computer", player=player)


def _new_table(
    spec: CreateTable, limits: Limits, profile: SeatProfile | None = None
) -> tuple[TableRow, str | None, str]:
    """The table asked for, the secret of its creator's seat (if one was taken), and its host
    secret (``tables.host``)."""
    if spec.variant not in VARIANTS:
        raise HttpError.of(422, "unknown_variant", variant=spec.variant, variants=", ".join(VARIANTS))
    try:
        rules = make_ruleset(spec.variant, spec.options)
    except OptionError as exc:
        raise option_refusal(exc) from None
    if len(spec.seats) != rules.players:
        described = len(spec.seats)
        raise HttpError.of(400, "seat_count", variant=rules.name, players=rules.players, described=described)
    seats = [seat_row(i, s, limits) for i, s in enumerate(spec.seats)]
    secret = None
    if spec.seat is not None:
        if spec.seat >= rules.players or seats[spec.seat].kind != "human":
            humans = [s.seat for s in seats if s.kind == "human"]
            raise _seat_error(400, "not_human", spec.seat, humans=humans)
        name = profile.name if profile is not None else spec.name
        if name is None:
            raise HttpError.of(422, "need_name", limit=MAX_NAME_CHARS)
        secret = secrets.token_urlsafe(24)
        seats[spec.seat].name = name
        seats[spec.seat].secret_hash = hash_secret(secret)
        seats[spec.seat].profile = profile.id if profile is not None else None
    row = TableRow(
        id=secrets.token_urlsafe(16),
        title=spec.title or f"{rules.name} table",
        variant=rules.id,
        options=dict(spec.options),
        seed=secrets.token_hex(16),
        listed=spec.listed,
        created_at=datetime.now(UTC),
        seats=seats,
        practice=spec.practice,
        host_hash=hash_secret(host := secrets.token_urlsafe(24)),
    )
    return row, secret, host
