"""A finished game's record and replay over HTTP: built once in a worker process, then kept.

``GET /api/tables/{table}/record`` answers the game's ``pedro-record/1`` record (a download),
``GET /api/tables/{table}/replay`` the replay viewer's table, record and frames, once the game is
over (409 before; 403 for a tournament's deal not yet played at every table). A loaded table gives
its game as it is; a table that is not loaded is read, and its game played once, in the worker
(``from_database``). However many ask at once, a body is built once (``body_cache``); and with
``prebuild``, as soon as a game ends, so that the players who then ask find it ready.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from pedro.server.finished.bodies import record_body, replay_body
from pedro.server.finished.body_cache import BodyCache
from pedro.server.finished.from_database import Kind, StoredTable, Unfinished, Unplayable, stored_body
from pedro.server.finished.workers import WorkerError, Workers
from pedro.server.http.compressed import body_response
from pedro.server.http.errors import HttpError
from pedro.server.http.response_body import Body
from pedro.server.tables.game import FinishedGame, GameOver, HiddenDeals
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import RoomError

log = logging.getLogger("pedro.server")


class FinishedBodies:
    """Finished games' records and replays, built in ``workers`` and kept in ``cache``."""

    def __init__(self, workers: Workers, cache: BodyCache) -> None:
        self.workers = workers
        self.cache = cache
        self._prebuilding: set[asyncio.Task[None]] = set()

    async def get(
        self, table_id: str, kind: Kind, finished_game: Callable[[], Awaitable[FinishedGame]]
    ) -> Body:
        """``kind`` of a finished table from the cache, or built (once, however many ask at the same time)."""

        async def make() -> Body:
            start = time.perf_counter()
            return await self.build(kind, await finished_game(), start)

        return await self.cache.get((kind, table_id), make)

    async def build(self, kind: Kind, game: FinishedGame, start: float) -> Body:
        """``kind`` of ``game`` (read since ``start``), built in a worker."""
        read = time.perf_counter()
        build = record_body if kind == "record" else replay_body
        body = await self.workers.run(build, game)
        _log_built(game.table_id, kind, len(game.actions), body, read - start, time.perf_counter() - read)
        return body

    def prebuild(self, over: GameOver) -> None:
        """A game-over listener: build the game's replay and record now, before anyone asks (most
        players do, as the game ends), however long the game was."""
        task = asyncio.get_running_loop().create_task(self._prebuild(over.game))
        self._prebuilding.add(task)
        task.add_done_callback(self._prebuilding.discard)

    async def _prebuild(self, game: FinishedGame) -> None:
        async def ready() -> FinishedGame:
            return game

        kinds: tuple[Kind, ...] = ("replay", "record")
        for kind in kinds:
            try:
                await self.get(game.table_id, kind, ready)
            except WorkerError as exc:  # asked for again, it is built again
                log.error("table %s: the %s could not be built ahead: %s", game.table_id, kind, exc)

    async def stop(self) -> None:
        """Let builds under way end (a worker is not stopped in the middle of one)."""
        for task in list(self._prebuilding):
            task.cancel()
        await asyncio.gather(*self._prebuilding, return_exceptions=True)


class FinishedRoutes:
    """The record and replay endpoints, on the server's tables."""

    def __init__(self, registry: TableRegistry, bodies: FinishedBodies, hidden: HiddenDeals) -> None:
        self.registry = registry
        self.bodies = bodies
        self.hidden = hidden

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/tables/{table}/record", self.record),
            Route("/api/tables/{table}/replay", self.replay),
        ]

    async def record(self, request: Request) -> Response:
        return await body_response(request, await self._body(request.path_params["table"], "record"))

    async def replay(self, request: Request) -> Response:
        return await body_response(request, await self._body(request.path_params["table"], "replay"))

    async def _body(self, table_id: str, kind: Kind) -> Body:
        """A finished game's body: a tournament deal's only once every table has played it."""
        if await self.hidden.hidden_deal(table_id):
            raise HttpError.of(403, "tournament_deal_hidden")
        if table_id in self.registry.rooms:
            return await self.bodies.get(table_id, kind, lambda: self._finished_game(table_id))
        return await self.bodies.cache.get((kind, table_id), lambda: self._stored_body(table_id, kind))

    async def _finished_game(self, table_id: str) -> FinishedGame:
        """The finished table: 404 if there is none, 409 while its game goes on.

        A table not loaded (a finished game nobody is at) is read and replayed in
        a thread: a long game takes a while, and the event loop serves on.
        """
        room = self.registry.rooms.get(table_id)
        if room is None:
            room = await asyncio.to_thread(self.registry.detached, table_id)
        if room is None:
            raise HttpError.of(404, "no_table")
        try:
            return room.finished_game()
        except RoomError as exc:
            raise HttpError.of(409, "unfinished", why=exc.message) from None

    async def _stored_body(self, table_id: str, kind: Kind) -> Body:
        """``kind`` of a table that is not loaded: read here, made in a worker, its game played once.

        A table the database does not mark finished (the mark follows the game's last action by a
        moment) is restored here instead, to tell whether its game goes on (409).
        """
        start = time.perf_counter()
        row = await self.registry.store.load_table(table_id) if len(table_id) <= 40 else None
        if row is None:
            raise HttpError.of(404, "no_table")
        if not row.finished:
            return await self.bodies.build(kind, await self._finished_game(table_id), start)
        read = time.perf_counter()
        # the worker's room only reads: nobody to tell (callbacks do not cross to another process)
        settings = dataclasses.replace(self.registry.settings, game_over=(), presence=None)
        try:
            body = await self.bodies.workers.run(stored_body, StoredTable(row, settings, kind))
        except Unplayable as exc:
            log.error("table %s could not be restored and is not served: %s", row.id, exc)
            raise HttpError.of(404, "no_table") from None
        except Unfinished as exc:
            raise HttpError.of(409, "unfinished", why=str(exc)) from None
        _log_built(row.id, kind, len(row.actions), body, read - start, time.perf_counter() - read)
        return body


def _log_built(table_id: str, kind: Kind, actions: int, body: Body, read: float, built: float) -> None:
    log.info(
        "table %s: %s of %d actions built: %d bytes, %d gzipped; read in %.2f s, built in %.2f s",
        table_id,
        kind,
        actions,
        body.size,
        len(body.gzipped),
        read,
        built,
    )
