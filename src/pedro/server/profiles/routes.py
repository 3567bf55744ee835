"""Player profiles and ratings over HTTP, and the rating of each game as it ends.

``POST /api/profiles`` makes a profile (a name chosen once); the answer holds its secret, which
the browser keeps and which no other answer ever shows. ``POST /api/profiles/me`` (the secret in
the body) is the holder's own page, ``GET /api/profiles/{id}`` anyone's. A holder asks for a
move code (``POST /api/profiles/code``) and types it in another browser
(``POST /api/profiles/adopt``), which then holds the profile. The holder may rename it
(``POST /api/profiles/rename``) or delete it (``POST /api/profiles/delete``).
``GET /api/leaderboard/{variant}`` ranks a variant's players, ``GET /api/tables/{table}/rating``
says how a finished game was rated.

The database work runs in threads: the event loop never waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import StringConstraints
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pedro.server.finished.workers import WorkerError, Workers
from pedro.server.http.errors import HttpError
from pedro.server.http.request_body import Name, Strict, read_body
from pedro.server.profiles.queries import CATCH_UP_AGE, Profile, ProfileError, ProfileStore, game_end_of
from pedro.server.storage.tables_db import Store, StoreError
from pedro.server.tables.game import GameEnd
from pedro.variants.catalog import VARIANTS

log = logging.getLogger("pedro.server")

#: Profiles one address may make in an hour: a name is taken for good, so nobody takes them by
#: the hundred (kept in this process's memory, as the limits on tables are).
PROFILES_PER_HOUR = 5
HOUR = 3600.0
#: Waits before rating a game again when the database refused (it is rated once, whatever happens).
RETRY_SECONDS = (1.0, 4.0, 15.0)

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


def _error(status: int, code: str, **fields: Any) -> JSONResponse:
    return JSONResponse(HttpError.of(status, code, **fields).body(), status_code=status)


def _profiles(request: Request) -> ProfileStore:
    profiles: ProfileStore = request.app.state.profiles
    return profiles


class ProfileLimit:
    """When each address made its latest profiles; refuses one more than ``PROFILES_PER_HOUR``."""

    def __init__(self, most: int = PROFILES_PER_HOUR, clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.clock = clock
        self._made: dict[str, deque[float]] = {}

    def check(self, client: str) -> None:
        """ProfileError (429) if ``client`` made its hour's profiles already."""
        now = self.clock()
        for address, times in list(self._made.items()):
            while times and times[0] <= now - HOUR:
                times.popleft()
            if not times:
                del self._made[address]
        made = self._made.get(client) or deque()
        if len(made) >= self.most:
            wait = max(1, math.ceil(made[0] + HOUR - now))
            raise ProfileError(429, "profile_limit", most=self.most, wait=wait)

    def made(self, client: str) -> None:
        self._made.setdefault(client, deque()).append(self.clock())


async def profile_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ProfileError)
    return _error(exc.status, exc.code, **exc.fields)


async def create_profile_endpoint(request: Request) -> Response:
    spec: _NewProfileRequest = await read_body(request, _NewProfileRequest, 'send {"name": "..."}')
    limit: ProfileLimit = request.app.state.profile_limit
    client = request.client.host if request.client is not None else "unknown"
    limit.check(client)
    holder = await asyncio.to_thread(_profiles(request).create, spec.name)
    limit.made(client)
    log.info("profile %s created", holder.profile.id)
    return JSONResponse(
        {"id": holder.profile.id, "name": holder.profile.name, "secret": holder.secret}, status_code=201
    )


async def profile_endpoint(request: Request) -> Response:
    page = await asyncio.to_thread(_profiles(request).profile_page, request.path_params["profile"][:40])
    if page is None:
        return _error(404, "no_profile")
    return JSONResponse(page)


async def my_profile_endpoint(request: Request) -> Response:
    """The holder's own page: the same as anyone's, found by the secret (a moved profile: 403)."""
    spec: _SecretRequest = await read_body(request, _SecretRequest, 'send {"secret": "..."}')
    profiles = _profiles(request)
    profile = await asyncio.to_thread(profiles.holder, spec.secret)
    page = await asyncio.to_thread(profiles.profile_page, profile.id)
    return JSONResponse(page)


async def move_code_endpoint(request: Request) -> Response:
    spec: _SecretRequest = await read_body(request, _SecretRequest, 'send {"secret": "..."}')
    code, expires = await asyncio.to_thread(_profiles(request).move_code, spec.secret)
    return JSONResponse({"code": code, "expires": expires.isoformat()})


async def adopt_endpoint(request: Request) -> Response:
    spec: _AdoptRequest = await read_body(request, _AdoptRequest, 'send {"code": "XXXXX-XXXXX"}')
    holder = await asyncio.to_thread(_profiles(request).adopt, spec.code)
    log.info("profile %s moved to another browser", holder.profile.id)
    return JSONResponse({"id": holder.profile.id, "name": holder.profile.name, "secret": holder.secret})


async def rename_endpoint(request: Request) -> Response:
    """``POST /api/profiles/rename``: the holder's profile under a new name (the creation's rules)."""
    spec: _RenameRequest = await read_body(request, _RenameRequest, 'send {"secret": "...", "name": "..."}')
    profile = await asyncio.to_thread(_profiles(request).rename, spec.secret, spec.name)
    log.info("profile %s renamed", profile.id)
    return JSONResponse({"id": profile.id, "name": profile.name})


async def delete_endpoint(request: Request) -> Response:
    """``POST /api/profiles/delete``: delete the holder's profile; its games stay, without it."""
    spec: _SecretRequest = await read_body(request, _SecretRequest, 'send {"secret": "..."}')
    profile = await asyncio.to_thread(_profiles(request).delete, spec.secret)
    log.info("profile %s deleted", profile.id)
    return JSONResponse({"id": profile.id, "deleted": True})


async def leaderboard_endpoint(request: Request) -> Response:
    variant = request.path_params["variant"]
    if variant not in VARIANTS:
        return _error(404, "unknown_variant", variant=variant[:40], variants=", ".join(VARIANTS))
    rows = await asyncio.to_thread(_profiles(request).leaderboard, variant)
    return JSONResponse({"variant": variant, "name": VARIANTS[variant].name, "rows": rows})


async def game_rating_endpoint(request: Request) -> Response:
    table_id = request.path_params["table"][:40]
    rating = await asyncio.to_thread(_profiles(request).game_rating, table_id)
    if rating is False:
        return _error(404, "no_table")
    if rating is True:  # its game goes on, or is being rated this moment
        return JSONResponse({"table": table_id, "pending": True})
    return JSONResponse(rating.json() | {"pending": False})


async def seat_profile(request: Request, secret: str | None) -> Profile | None:
    """The profile that takes a seat, from its secret in a create-table or seat request."""
    if secret is None:
        return None
    return await asyncio.to_thread(_profiles(request).holder, secret)


class Rater:
    """Links each game that ends to its profiles and rates it, in a thread (``ProfileStore``)."""

    def __init__(self, profiles: ProfileStore) -> None:
        self.profiles = profiles
        self._tasks: set[asyncio.Task[None]] = set()
        self._catching_up: asyncio.Task[None] | None = None

    def __call__(self, end: GameEnd) -> None:
        task = asyncio.get_running_loop().create_task(self._rate(end))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _rate(self, end: GameEnd) -> None:
        for wait in (*RETRY_SECONDS, None):
            try:
                rating = await asyncio.to_thread(self.profiles.finish_game, end)
                break
            except StoreError as exc:  # the database is away for a moment: the game is rated later
                if wait is None:
                    log.error("table %s: the game could not be rated: %s", end.table_id, exc)
                    return
                log.warning(
                    "table %s: rating the game failed (%s); retrying in %g s", end.table_id, exc, wait
                )
                await asyncio.sleep(wait)
            except Exception:  # a bug must not take the table down; it is logged
                log.exception("table %s: the game could not be rated", end.table_id)
                return
        if rating is None:
            log.info("table %s: rated already", end.table_id)
        elif rating.rated:
            log.info("table %s: rated, %d ratings moved", end.table_id, len(rating.changes))
        else:
            log.info("table %s: not rated (%s)", end.table_id, rating.reason)

    def catch_up(self, store: Store, workers: Workers) -> None:
        """Rate, in the background, the finished games a stopped server did not (the newest week's):
        each is read, played again in a worker process, and rated (once: another process may too)."""
        self._catching_up = asyncio.get_running_loop().create_task(self._catch_up(store, workers))

    async def _catch_up(self, store: Store, workers: Workers) -> None:
        try:
            missed = await asyncio.to_thread(self.profiles.unrated, datetime.now(UTC) - CATCH_UP_AGE)
        except StoreError as exc:
            log.error("could not look for finished games never rated: %s", exc)
            return
        for table_id in missed:
            try:
                row = await asyncio.to_thread(store.load_table, table_id)
                if row is None:
                    continue
                end = await workers.run(game_end_of, row)
            except (StoreError, WorkerError, ValueError) as exc:
                log.error("table %s: the game could not be read to rate it: %s", table_id, exc)
                continue
            except Exception:  # one game's failure must not stop the others
                log.exception("table %s: the game could not be read to rate it", table_id)
                continue
            log.info("table %s: rating a game that was not rated when it ended", table_id)
            await self._rate(end)

    async def stop(self) -> None:
        """Let ratings of games that just ended commit (a thread cannot be stopped midway anyway);
        the catch-up of older ones stops (the next start goes on with it)."""
        if self._catching_up is not None:
            self._catching_up.cancel()
            await asyncio.gather(self._catching_up, return_exceptions=True)
        await asyncio.gather(*self._tasks, return_exceptions=True)
