"""The ASGI application: pages, the JSON API and the WebSocket per open page.

HTTP handlers and the WebSocket loop only translate between the wire and the
rooms; rules, storage and views live in ``tables.room``, ``storage`` and ``tables.views``.
Every client error is answered with a message saying what was wrong and
what is allowed, and never changes anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import html
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from pedro.players import DESCRIPTIONS, LEVELS, PLAYERS, UnknownPlayerError, check_player, is_command
from pedro.server.finished.bodies import record_body, replay_body
from pedro.server.finished.body_cache import BodyCache
from pedro.server.finished.from_database import (
    Kind,
    StoredTable,
    Unfinished,
    Unplayable,
    stored_body,
    warm_up,
)
from pedro.server.finished.workers import WorkerError, Workers
from pedro.server.http import heap
from pedro.server.http.compressed import body_response
from pedro.server.http.errors import MESSAGES, error_response, http_error_handler, option_refusal
from pedro.server.http.errors import HttpError as _HttpError
from pedro.server.http.health import DatabaseProbe, health_endpoint, ready_endpoint
from pedro.server.http.lifecycle import (
    DEFAULT_TIMEOUT,
    DrainGuard,
    Lifecycle,
)
from pedro.server.http.page_texts import texts_endpoint
from pedro.server.http.request_body import MAX_BODY_BYTES, MAX_NAME_CHARS, MAX_TITLE_CHARS, read_body
from pedro.server.http.response_body import Body
from pedro.server.profiles.queries import Profile, ProfileError, ProfileStore
from pedro.server.profiles.routes import (
    ProfileLimit,
    Rater,
    adopt_endpoint,
    create_profile_endpoint,
    delete_endpoint,
    game_rating_endpoint,
    leaderboard_endpoint,
    move_code_endpoint,
    my_profile_endpoint,
    profile_endpoint,
    profile_error_handler,
    rename_endpoint,
    seat_profile,
)
from pedro.server.reviews.compute import PLAYER as REVIEW_PLAYER
from pedro.server.reviews.compute import warm_up as review_warm_up
from pedro.server.reviews.hints import Hints, hint_endpoint
from pedro.server.reviews.queries import SavedReviews
from pedro.server.reviews.routes import Reviews, table_review_endpoint, upload_review_endpoint
from pedro.server.settings import Limits
from pedro.server.storage.tables_db import ConflictError, SeatRow, Store, StoreError, TableRow, hash_secret
from pedro.server.sync.cluster import HEARTBEAT_SECONDS, LEASE_SECONDS, Cluster, new_process_id
from pedro.server.sync.listener import Listener
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.game import FinishedGame
from pedro.server.tables.limits import CreationLimits, LimitError, check_strength
from pedro.server.tables.protocol import MAX_MESSAGE_BYTES, ClaimSeat, CreateTable
from pedro.server.tables.registry import IDLE_SECONDS, TableRegistry
from pedro.server.tables.room import Room, RoomError, RoomSettings
from pedro.server.tables.websocket import websocket_endpoint
from pedro.server.tournaments.queries import TournamentStore
from pedro.server.tournaments.running import (
    Tournaments,
    director_endpoint,
    join_endpoint,
    me_endpoint,
    tournament_endpoint,
    tournaments_endpoint,
)
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import OPTIONS, OptionError, available_options, make_ruleset, option_values

log = logging.getLogger("pedro.server")

STATIC = files("pedro.server") / "static"


@dataclass
class ServerSettings:
    database: str
    away_seconds: float = 60.0
    bot_delay: float = 0.8
    limits: Limits = field(default_factory=Limits)
    #: processes that build finished games' records and replays (0: threads, for tests)
    worker_processes: int = 1
    #: the most bytes of built records and replays kept (gzip-compressed)
    body_cache_bytes: int = 64 * 2**20
    #: build a game's replay and record when it ends, before anyone asks
    prebuild_replays: bool = True
    #: start the worker processes with the server (else at the first request that needs one)
    start_workers: bool = True
    #: seconds a graceful shutdown waits for the tables, then for the clients
    shutdown_timeout: float = DEFAULT_TIMEOUT
    #: PostgreSQL, several processes: seconds between heartbeats, and after which a silent process
    #: is taken for dead (its tables' computer players are taken over)
    heartbeat_seconds: float = HEARTBEAT_SECONDS
    lease_seconds: float = LEASE_SECONDS
    #: an unfinished table untouched this long leaves the lobby and memory (its link still opens it)
    idle_seconds: float = IDLE_SECONDS
    #: processes that make game reviews, apart from the replays' (0: threads, for tests)
    review_processes: int = 1
    #: whose estimates a review shows (``expert``, as ``pedro analyze``; ``expert:N`` is faster)
    review_player: str = REVIEW_PLAYER


# ---------------------------------------------------------------------------- HTTP


def _seat_error(status: int, code: str, seat: int, **seats: list[int]) -> _HttpError:
    """A refusal naming seats: the English says "none" for no seats, the fields give the list."""
    shown = {name: value or "none" for name, value in seats.items()}
    return _HttpError(status, MESSAGES[code].format(seat=seat, **shown), None, code, {"seat": seat, **seats})


def _seat_player_error(seat: int, exc: UnknownPlayerError | LimitError) -> _HttpError:
    """A seat's computer player refused: a limit keeps its own code, an unknown player is ``bad_player``."""
    if isinstance(exc, LimitError):
        return _HttpError(400, f"seat {seat}: {exc}", None, exc.code, {"seat": seat, **exc.fields})
    return _HttpError.of(400, "bad_player", seat=seat, why=str(exc))


def _registry(request: Request) -> TableRegistry:
    registry: TableRegistry = request.app.state.registry
    return registry


async def _room(request: Request) -> Room:
    room = await _registry(request).get(request.path_params["table"])
    if room is None:
        raise _HttpError.of(404, "no_table")
    return room


def _option_json(name: str, variant_value: Any) -> dict[str, Any]:
    spec = OPTIONS[name]
    return {
        "name": name,
        "type": spec.value_type.__name__,
        "description": spec.description,
        "choices": list(spec.choices),
        "nullable": spec.nullable,
        "minimum": spec.minimum,
        "maximum": spec.maximum,
        "default": variant_value,
    }


def _variants_json() -> dict[str, Any]:
    variants = []
    for rules in VARIANTS.values():
        values = option_values(rules)
        variants.append(
            {
                "id": rules.id,
                "name": rules.name,
                "summary": rules.summary,
                "players": rules.players,
                "partnerships": rules.partnerships,
                "options": [
                    _option_json(name, values.get(name))
                    for name in available_options(rules.id)
                    if name != "preset"
                ],
            }
        )
    levels = [{"name": lv.name, "player": lv.player, "description": lv.description} for lv in LEVELS]
    return {
        "variants": variants,
        "players": list(PLAYERS),
        "player_descriptions": DESCRIPTIONS,
        "levels": levels,
    }


async def variants_endpoint(request: Request) -> Response:
    return JSONResponse(request.app.state.variants_json)


def _limits_json(limits: Limits) -> dict[str, int]:
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
    }


async def limits_endpoint(request: Request) -> Response:
    return JSONResponse(request.app.state.limits_json)


def _client_address(request: Request) -> str:
    """Who sent a request, as uvicorn resolved it: behind a proxy it trusts
    (``--forwarded-allow-ips``), the forwarded address; else the peer's."""
    return request.client.host if request.client is not None else "unknown"


async def tables_endpoint(request: Request) -> Response:
    registry = _registry(request)
    if request.method == "GET":
        tables = [r.summary() for r in registry.listed()]
        return JSONResponse({"tables": tables})
    spec = await read_body(request, CreateTable, "see docs/server.md for the create-table request")
    creations: CreationLimits = request.app.state.creation_limits
    if spec.profile is not None and spec.seat is None:
        raise _HttpError.of(400, "profile_needs_seat")
    row, secret = _new_table(spec, creations.limits, await seat_profile(request, spec.profile))
    client = _client_address(request)
    try:
        creations.check(client, row, registry.rooms)
    except LimitError as exc:
        log.info("table refused to %s: %s", client, exc.message)
        retry = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
        raise _HttpError(exc.status, exc.message, retry, exc.code, exc.fields) from None
    # counted before the commit is awaited, so that requests arriving meanwhile see it
    creations.created(client, row.id)
    room = await registry.add(row)
    log.info("table %s created: %s, %d computer players", row.id, row.variant, _computers(row))
    if secret is not None:
        log.info("table %s: seat %d taken", row.id, spec.seat)
    body: dict[str, Any] = {"table": row.id, "seat": spec.seat, "secret": secret, "url": f"/t/{row.id}"}
    return JSONResponse(body | {"summary": room.summary()}, status_code=201)


def _computers(row: TableRow) -> int:
    return sum(1 for s in row.seats if s.kind == "computer")


def _new_table(
    spec: CreateTable, limits: Limits, profile: Profile | None = None
) -> tuple[TableRow, str | None]:
    if spec.variant not in VARIANTS:
        raise _HttpError.of(400, "unknown_variant", variant=spec.variant, variants=", ".join(VARIANTS))
    try:
        rules = make_ruleset(spec.variant, spec.options)
    except OptionError as exc:
        raise option_refusal(exc) from None
    if len(spec.seats) != rules.players:
        described = len(spec.seats)
        raise _HttpError.of(400, "seat_count", variant=rules.name, players=rules.players, described=described)
    seats = []
    for i, s in enumerate(spec.seats):
        if s.kind == "computer":
            player = s.player or "basic"
            if is_command(player):
                # a web request must never make the server run a program
                raise _HttpError.of(400, "bot_program", seat=i, player=player, players=", ".join(PLAYERS))
            try:
                check_player(player)
                check_strength(player, limits)
            except (UnknownPlayerError, LimitError) as exc:
                raise _seat_player_error(i, exc) from None
            seats.append(SeatRow(i, "computer", player=player))
        else:
            if s.player is not None:
                raise _HttpError.of(400, "human_no_player", seat=i)
            seats.append(SeatRow(i, "human"))
    secret = None
    if spec.seat is not None:
        if spec.seat >= rules.players or seats[spec.seat].kind != "human":
            humans = [s.seat for s in seats if s.kind == "human"]
            raise _seat_error(400, "not_human", spec.seat, humans=humans)
        name = profile.name if profile is not None else spec.name
        if name is None:
            raise _HttpError.of(400, "need_name", limit=MAX_NAME_CHARS)
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
    )
    return row, secret


async def table_endpoint(request: Request) -> Response:
    return JSONResponse((await _room(request)).summary())


async def claim_endpoint(request: Request) -> Response:
    room = await _room(request)
    claim = await read_body(request, ClaimSeat, 'send {"seat": N, "name": "..."}')
    free = [s.row.seat for s in room.seats if not s.claimed]
    if claim.seat >= len(room.seats) or room.seats[claim.seat].row.kind != "human":
        raise _seat_error(400, "claim_not_human", claim.seat, free=free)
    if claim.seat not in free:
        raise _seat_error(409, "seat_taken", claim.seat, free=free)
    profile = await seat_profile(request, claim.profile)
    name = profile.name if profile is not None else claim.name
    secret = secrets.token_urlsafe(24)
    try:
        await room.store.claim_seat(
            room.id, claim.seat, name, hash_secret(secret), profile.id if profile is not None else None
        )
    except ConflictError:
        raise _HttpError.of(409, "seat_just_taken", seat=claim.seat) from None
    room.seat_taken(claim.seat, name, hash_secret(secret))
    return JSONResponse({"seat": claim.seat, "secret": secret, "name": name})


async def _finished_game(request: Request) -> FinishedGame:
    """The finished table of the request: 404 if there is none, 409 while its game goes on.

    A table not loaded (a finished game nobody is at) is read and replayed in
    a thread: a long game takes a while, and the event loop serves on.
    """
    registry = _registry(request)
    table_id = request.path_params["table"]
    room = registry.rooms.get(table_id)
    if room is None:
        room = await asyncio.to_thread(registry.detached, table_id)
    if room is None:
        raise _HttpError.of(404, "no_table")
    try:
        return room.finished_game()
    except RoomError as exc:
        raise _HttpError.of(409, "unfinished", why=exc.message) from None


async def _finished_body(request: Request, kind: Kind) -> Body:
    """A finished game's body, built once in a worker process and then kept (the game never changes).

    A loaded table gives its game as it is; one that is not is read, and its game played once, in
    the worker (``finished.from_database``).
    """
    state = request.app.state
    table_id = request.path_params["table"]
    tournaments: Tournaments = state.tournaments
    if await tournaments.hidden_deal(table_id):
        raise _HttpError.of(403, "tournament_deal_hidden")
    if table_id in _registry(request).rooms:
        return await _body(state, table_id, kind, lambda: _finished_game(request))
    bodies: BodyCache = state.bodies
    return await bodies.get((kind, table_id), lambda: _stored_body(request, kind))


async def _stored_body(request: Request, kind: Kind) -> Body:
    """``kind`` of a table that is not loaded: read here, made in a worker.

    A table the database does not mark finished (the mark follows the game's last action by a
    moment) is restored here instead, to tell whether its game goes on (409).
    """
    registry = _registry(request)
    table_id = request.path_params["table"]
    start = time.perf_counter()
    row = await registry.store.load_table(table_id) if len(table_id) <= 40 else None
    if row is None:
        raise _HttpError.of(404, "no_table")
    if not row.finished:
        return await _build(request.app.state, kind, await _finished_game(request), start)
    read = time.perf_counter()
    workers: Workers = request.app.state.workers
    # the worker's room only reads: none of the callbacks (which do not cross to another process)
    settings = dataclasses.replace(registry.settings, game_over=None, presence=None, game_end=None)
    job = StoredTable(row, settings, kind)
    try:
        body = await workers.run(stored_body, job)
    except Unplayable as exc:
        log.error("table %s could not be restored and is not served: %s", row.id, exc)
        raise _HttpError.of(404, "no_table") from None
    except Unfinished as exc:
        raise _HttpError.of(409, "unfinished", why=str(exc)) from None
    _log_built(row.id, kind, len(row.actions), body, read - start, time.perf_counter() - read)
    return body


async def _body(
    state: Any, table_id: str, kind: Kind, finished_game: Callable[[], Awaitable[FinishedGame]]
) -> Body:
    """``kind`` of a finished table from the cache, or built (once, however many ask at the same time)."""

    async def make() -> Body:
        start = time.perf_counter()
        return await _build(state, kind, await finished_game(), start)

    bodies: BodyCache = state.bodies
    return await bodies.get((kind, table_id), make)


async def _build(state: Any, kind: Kind, game: FinishedGame, start: float) -> Body:
    """``kind`` of ``game`` (read since ``start``), built in a worker."""
    read = time.perf_counter()
    workers: Workers = state.workers
    build = record_body if kind == "record" else replay_body
    body = await workers.run(build, game)
    _log_built(game.table_id, kind, len(game.actions), body, read - start, time.perf_counter() - read)
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


class ReplayPrebuilder:
    """Builds a game's replay and record as soon as it ends, so that the players who then ask for
    them (most do) find them ready, however long the game was."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self._tasks: set[asyncio.Task[None]] = set()

    def __call__(self, game: FinishedGame) -> None:
        task = asyncio.get_running_loop().create_task(self._build(game))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _build(self, game: FinishedGame) -> None:
        async def ready() -> FinishedGame:
            return game

        for kind in ("replay", "record"):
            try:
                await _body(self.state, game.table_id, kind, ready)
            except WorkerError as exc:  # asked for again, it is built again
                log.error("table %s: the %s could not be built ahead: %s", game.table_id, kind, exc)

    async def stop(self) -> None:
        """Let builds under way end (a worker is not stopped in the middle of one)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def record_endpoint(request: Request) -> Response:
    return await body_response(request, await _finished_body(request, "record"))


async def replay_endpoint(request: Request) -> Response:
    return await body_response(request, await _finished_body(request, "replay"))


#: The page's ``<base>``, which every URL of the client is relative to.
BASE_TAG = '<base href="/">'


async def page_endpoint(request: Request) -> Response:
    """The one page, with its ``<base>`` at the root path, so the client works under a sub-path too."""
    page: str = request.app.state.page
    root = request.scope.get("root_path", "").rstrip("/")
    if root:
        page = page.replace(BASE_TAG, f'<base href="{html.escape(root, quote=True)}/">', 1)
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


async def worker_error_handler(request: Request, exc: Exception) -> Response:
    return error_response(503, "busy", why=str(exc))


async def store_error_handler(request: Request, exc: Exception) -> Response:
    log.error("database error: %s", exc)
    return error_response(503, "no_database")


async def not_found_handler(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return error_response(404, "no_api_path", path=request.url.path)
    return error_response(404, "no_page")


# ---------------------------------------------------------------------------- the app


def _share(store: Store, registry: TableRegistry, settings: ServerSettings) -> tuple[Listener, Cluster]:
    """Join the other server processes on the database: hear their commits, and take part in the
    leases and presence (before the tables are loaded, so no news is missed)."""
    process_id = registry.process_id
    assert process_id is not None
    store.announce_as = process_id
    cluster = Cluster(
        store,
        process_id,
        registry.unfinished,
        registry.on_survey,
        heartbeat=settings.heartbeat_seconds,
        lease_seconds=settings.lease_seconds,
    )
    registry.settings.shared = True
    registry.settings.presence = cluster.presence

    def news(payload: str | None) -> None:
        if registry.on_news(payload):
            cluster.poke()

    listener = Listener(store.url, process_id, asyncio.get_running_loop(), news)
    listener.start()
    log.info("sharing the database with other server processes as %s", process_id)
    return listener, cluster


def _each(
    *listeners: Callable[[FinishedGame], None] | None,
) -> Callable[[FinishedGame], None]:
    """One ``game_over`` listener that tells each of ``listeners`` in turn."""

    def told(game: FinishedGame) -> None:
        for listener in listeners:
            if listener is not None:
                listener(game)

    return told


def create_app(settings: ServerSettings) -> Starlette:
    store = Store(settings.database)
    lifecycle = Lifecycle(settings.shutdown_timeout)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store.migrate()
        storage = AsyncStore(store)
        prebuild = ReplayPrebuilder(app.state) if settings.prebuild_replays else None
        app.state.profiles = profiles = ProfileStore(store)
        rater = Rater(profiles)
        room_settings = RoomSettings(settings.away_seconds, settings.bot_delay, prebuild, game_end=rater)
        # other server processes may share a PostgreSQL database (never an SQLite file)
        process_id = None if store.is_sqlite else new_process_id()
        registry = TableRegistry(storage, room_settings, process_id, settings.idle_seconds)
        app.state.registry = lifecycle.registry = registry
        # duplicate tournaments: a deal's table that ends moves its tournament on
        tournaments = app.state.tournaments = Tournaments(
            TournamentStore(store), registry, app.state.creation_limits
        )
        room_settings.game_over = _each(prebuild, tournaments.game_over)
        app.state.probe = probe = DatabaseProbe(store)
        workers = app.state.workers = Workers(settings.worker_processes)
        review_workers = Workers(settings.review_processes)
        app.state.reviews = reviews = Reviews(review_workers, SavedReviews(store), settings.review_player)
        app.state.hints = Hints(review_workers)
        if settings.start_workers:
            workers.start(warm_up)
            review_workers.start(review_warm_up)
        app.state.bodies = BodyCache(settings.body_cache_bytes)
        log.info("database ready: %s", store.describe())
        shared = _share(store, registry, settings) if process_id is not None else None
        registry.load()
        rater.catch_up(store, workers)
        if shared is not None:
            await shared[1].start()
        await tournaments.resume()
        thresholds = heap.settle()
        try:
            yield
        finally:
            # under uvicorn (pedro serve) the drain has run already; under another server it runs here
            await lifecycle.shutdown()
            heap.unsettle(thresholds)
            if shared is not None:
                shared[0].stop()
                await shared[1].stop()
            registry.stop()
            await tournaments.stop()
            if prebuild is not None:
                await prebuild.stop()
            await reviews.stop()
            await rater.stop()
            review_workers.close()
            workers.close()
            probe.close()
            storage.close()  # commits what is queued, then closes the store
            log.info("stopped", extra={"event": "stopped"})

    routes = [
        Route("/", page_endpoint),
        Route("/t/{table}", page_endpoint),
        Route("/replay/{table}", page_endpoint),
        Route("/review", page_endpoint),
        Route("/d/{tournament}", page_endpoint),
        Route("/profile", page_endpoint),
        Route("/profile/{profile}", page_endpoint),
        Route("/leaderboard", page_endpoint),
        Route("/healthz", health_endpoint),
        Route("/readyz", ready_endpoint),
        Route("/api/variants", variants_endpoint),
        Route("/api/limits", limits_endpoint),
        Route("/api/texts/{lang}", texts_endpoint),
        Route("/api/tables", tables_endpoint, methods=["GET", "POST"]),
        Route("/api/tables/{table}", table_endpoint),
        Route("/api/tables/{table}/seats", claim_endpoint, methods=["POST"]),
        Route("/api/tables/{table}/record", record_endpoint),
        Route("/api/tables/{table}/replay", replay_endpoint),
        Route("/api/tables/{table}/review/{seat}", table_review_endpoint),
        Route("/api/review", upload_review_endpoint, methods=["POST"]),
        Route("/api/tables/{table}/hint", hint_endpoint),
        Route("/api/tournaments", tournaments_endpoint, methods=["POST"]),
        Route("/api/tournaments/{tournament}", tournament_endpoint),
        Route("/api/tournaments/{tournament}/seats", join_endpoint, methods=["POST"]),
        Route("/api/tournaments/{tournament}/me", me_endpoint, methods=["POST"]),
        Route("/api/tournaments/{tournament}/director", director_endpoint, methods=["POST"]),
        Route("/api/tables/{table}/rating", game_rating_endpoint),
        Route("/api/profiles", create_profile_endpoint, methods=["POST"]),
        Route("/api/profiles/me", my_profile_endpoint, methods=["POST"]),
        Route("/api/profiles/code", move_code_endpoint, methods=["POST"]),
        Route("/api/profiles/adopt", adopt_endpoint, methods=["POST"]),
        Route("/api/profiles/rename", rename_endpoint, methods=["POST"]),
        Route("/api/profiles/delete", delete_endpoint, methods=["POST"]),
        Route("/api/profiles/{profile}", profile_endpoint),
        Route("/api/leaderboard/{variant}", leaderboard_endpoint),
        WebSocketRoute("/ws/{table}", websocket_endpoint),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(DrainGuard, lifecycle=lifecycle)],
        exception_handlers={
            _HttpError: http_error_handler,
            StoreError: store_error_handler,
            WorkerError: worker_error_handler,
            ProfileError: profile_error_handler,
            404: not_found_handler,
        },
    )
    app.state.variants_json = _variants_json()
    app.state.limits_json = _limits_json(settings.limits)
    app.state.creation_limits = CreationLimits(settings.limits)
    app.state.profile_limit = ProfileLimit()
    app.state.lifecycle = lifecycle
    app.state.page = (STATIC / "index.html").read_text(encoding="utf-8")
    return app


async def drain(app: Starlette) -> None:
    """The graceful shutdown's first half (see ``lifecycle``): ``pedro serve`` runs it on SIGTERM."""
    lifecycle: Lifecycle = app.state.lifecycle
    await lifecycle.shutdown()
