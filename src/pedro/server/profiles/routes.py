"""Player profiles and ratings over HTTP.

``POST /api/profiles`` makes a profile (a name chosen once); the answer holds its secret, which
the browser keeps and which no other answer ever shows. ``POST /api/profiles/me`` (the secret in
the body) is the holder's own page, ``GET /api/profiles/{id}`` anyone's. A holder asks for a
move code (``POST /api/profiles/code``) and types it in another browser
(``POST /api/profiles/adopt``), which then holds the profile. The holder may rename it
(``POST /api/profiles/rename``) or delete it (``POST /api/profiles/delete``).
``GET /api/leaderboard/{variant}`` ranks a variant's players, ``GET /api/tables/{table}/rating``
says how a finished game was rated. A create-table or seat request may name a profile by its
secret: ``SeatHolders`` finds it.

The database work runs in threads: the event loop never waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import StringConstraints
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.http.errors import HttpError
from pedro.server.http.request_body import Name, Strict, client_address, read_body
from pedro.server.profiles.queries import Profile, ProfileRefused, ProfileStore, Refusal
from pedro.server.profiles.rated_games import RatedGames
from pedro.variants.catalog import VARIANTS

log = logging.getLogger("pedro.server")

#: Profiles one address may make in an hour: a name is taken for good, so nobody takes them by
#: the hundred (kept in this process's memory, as the limits on tables are).
PROFILES_PER_HOUR = 5
HOUR = 3600.0

Secret = Annotated[str, StringConstraints(min_length=1, max_length=100)]


class _NewProfileRequest(Strict):
    name: Name


class _SecretRequest(Strict):
    secret: Secret


class _RenameRequest(Strict):
    secret: Secret
    name: Name


class _AdoptRequest(Strict):
    code: Annotated[str, StringConstraints(min_length=1, max_length=40)]


class ProfileLimit:
    """When each address made its latest profiles; refuses one more than ``PROFILES_PER_HOUR``."""

    def __init__(self, most: int = PROFILES_PER_HOUR, clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.clock = clock
        self._made: dict[str, deque[float]] = {}

    def check(self, client: str) -> None:
        """Refused (429) if ``client`` made its hour's profiles already."""
        now = self.clock()
        for address, times in list(self._made.items()):
            while times and times[0] <= now - HOUR:
                times.popleft()
            if not times:
                del self._made[address]
        made = self._made.get(client) or deque()
        if len(made) >= self.most:
            wait = max(1, math.ceil(made[0] + HOUR - now))
            raise HttpError.of(429, "profile_limit", most=self.most, wait=wait)

    def made(self, client: str) -> None:
        self._made.setdefault(client, deque()).append(self.clock())


#: The answer to each refusal of the profiles' database: its status (its code is the reason's).
_STATUS: dict[Refusal, int] = {
    "name_for_computer": 409,
    "name_taken": 409,
    "unknown_profile": 403,
    "bad_move_code": 400,
    "move_code_used": 400,
}

T = TypeVar("T")


async def _asked(query: Callable[..., T], *args: Any) -> T:
    """``query(*args)`` in a thread (the loop never waits for the database); what it refuses is
    answered with the refusal's status and code."""
    try:
        return await asyncio.to_thread(query, *args)
    except ProfileRefused as exc:
        raise HttpError.of(_STATUS[exc.reason], exc.reason, **exc.fields) from None


class ProfileRoutes:
    """The profiles' endpoints, on the server's profiles."""

    def __init__(self, profiles: ProfileStore, games: RatedGames, limit: ProfileLimit) -> None:
        self.profiles = profiles
        self.games = games
        self.limit = limit

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/tables/{table}/rating", self.game_rating),
            Route("/api/profiles", self.create, methods=["POST"]),
            Route("/api/profiles/me", self.mine, methods=["POST"]),
            Route("/api/profiles/code", self.move_code, methods=["POST"]),
            Route("/api/profiles/adopt", self.adopt, methods=["POST"]),
            Route("/api/profiles/rename", self.rename, methods=["POST"]),
            Route("/api/profiles/delete", self.delete, methods=["POST"]),
            Route("/api/profiles/{profile}", self.profile),
            Route("/api/leaderboard/{variant}", self.leaderboard),
        ]

    async def create(self, request: Request) -> Response:
        spec = await read_body(request, _NewProfileRequest, 'send {"name": "..."}')
        client = client_address(request)
        self.limit.check(client)
        holder = await _asked(self.profiles.create, spec.name)
        self.limit.made(client)
        log.info("profile %s created", holder.profile.id)
        return JSONResponse(
            {"id": holder.profile.id, "name": holder.profile.name, "secret": holder.secret}, status_code=201
        )

    async def profile(self, request: Request) -> Response:
        page = await _asked(self.profiles.profile_page, request.path_params["profile"][:40])
        if page is None:
            raise HttpError.of(404, "no_profile")
        return JSONResponse(page)

    async def mine(self, request: Request) -> Response:
        """The holder's own page: the same as anyone's, found by the secret (a moved profile: 403)."""
        spec = await read_body(request, _SecretRequest, 'send {"secret": "..."}')
        profile = await _asked(self.profiles.holder, spec.secret)
        page = await _asked(self.profiles.profile_page, profile.id)
        return JSONResponse(page)

    async def move_code(self, request: Request) -> Response:
        spec = await read_body(request, _SecretRequest, 'send {"secret": "..."}')
        code, expires = await _asked(self.profiles.move_code, spec.secret)
        return JSONResponse({"code": code, "expires": expires.isoformat()})

    async def adopt(self, request: Request) -> Response:
        spec = await read_body(request, _AdoptRequest, 'send {"code": "XXXXX-XXXXX"}')
        holder = await _asked(self.profiles.adopt, spec.code)
        log.info("profile %s moved to another browser", holder.profile.id)
        return JSONResponse({"id": holder.profile.id, "name": holder.profile.name, "secret": holder.secret})

    async def rename(self, request: Request) -> Response:
        """``POST /api/profiles/rename``: the holder's profile under a new name (the creation's rules)."""
        spec = await read_body(request, _RenameRequest, 'send {"secret": "...", "name": "..."}')
        profile = await _asked(self.profiles.rename, spec.secret, spec.name)
        log.info("profile %s renamed", profile.id)
        return JSONResponse({"id": profile.id, "name": profile.name})

    async def delete(self, request: Request) -> Response:
        """``POST /api/profiles/delete``: delete the holder's profile; its games stay, without it."""
        spec = await read_body(request, _SecretRequest, 'send {"secret": "..."}')
        profile = await _asked(self.profiles.delete, spec.secret)
        log.info("profile %s deleted", profile.id)
        return JSONResponse({"id": profile.id, "deleted": True})

    async def leaderboard(self, request: Request) -> Response:
        variant = request.path_params["variant"]
        if variant not in VARIANTS:
            raise HttpError.of(404, "unknown_variant", variant=variant[:40], variants=", ".join(VARIANTS))
        rows = await _asked(self.profiles.leaderboard, variant)
        return JSONResponse({"variant": variant, "name": VARIANTS[variant].name, "rows": rows})

    async def game_rating(self, request: Request) -> Response:
        table_id = request.path_params["table"][:40]
        rating = await asyncio.to_thread(self.games.game_rating, table_id)
        if rating is False:
            raise HttpError.of(404, "no_table")
        if rating is True:  # its game goes on, or is being rated this moment
            return JSONResponse({"table": table_id, "pending": True})
        return JSONResponse(rating.json() | {"pending": False})


class SeatHolders:
    """The profile that takes a seat, from the secret a create-table or seat request gives
    (``tables.routes.SeatProfiles``)."""

    def __init__(self, profiles: ProfileStore) -> None:
        self.profiles = profiles

    async def seat_profile(self, secret: str | None) -> Profile | None:
        if secret is None:
            return None
        return await _asked(self.profiles.holder, secret)

    async def check_seat_name(self, name: str) -> None:
        """Refused (409) if a person sitting without a profile takes, or imitates, a computer
        player's or a profile's name."""
        await _asked(self.profiles.check_seat_name, name)
