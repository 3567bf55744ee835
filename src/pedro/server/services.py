"""The server's services, made in one place from its settings, and started and stopped together.

``build_services`` makes every long-lived part of a server from ``ServerSettings`` and hands each
what it needs at construction: nothing is looked up at request time, and nothing is wired in
afterwards. Who is told when a game ends is read in one place (``game_over`` below). ``running``
starts them in order (the schema, the workers, the other server processes, the tables, the
ratings missed, the tournaments) and stops them in the reverse order.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

from pedro.server.finished.body_cache import BodyCache
from pedro.server.finished.from_database import warm_up
from pedro.server.finished.routes import FinishedBodies
from pedro.server.finished.workers import Workers
from pedro.server.http import heap
from pedro.server.http.health import DatabaseProbe
from pedro.server.http.lifecycle import Lifecycle
from pedro.server.profiles.queries import ProfileStore
from pedro.server.profiles.rated_games import RatedGames
from pedro.server.profiles.rater import Rater
from pedro.server.profiles.routes import ProfileLimit, SeatHolders
from pedro.server.reviews import compute
from pedro.server.reviews.hints import Hints
from pedro.server.reviews.queries import SavedReviews
from pedro.server.reviews.queue import ReviewQueue
from pedro.server.reviews.routes import Reviews
from pedro.server.settings import ServerSettings
from pedro.server.storage.tables_db import Store, is_sqlite
from pedro.server.sync.cluster import Cluster, ClusterStore, new_process_id
from pedro.server.sync.listener import Listener
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.game import GameOverListener
from pedro.server.tables.limits import CreationLimits
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import RoomSettings
from pedro.server.tournaments.queries import TournamentStore
from pedro.server.tournaments.running import PlayedDeals, Tournaments

log = logging.getLogger("pedro.server")


@dataclass(frozen=True)
class Sharing:
    """This process among others on one PostgreSQL database: its id, the heartbeat that shares the
    tables' leases and the seats' presence, and the listener that hears the others' commits."""

    process_id: str
    cluster: Cluster
    listener: Listener


@dataclass(frozen=True)
class Services:
    settings: ServerSettings
    store: Store
    #: the tables' writes, committed in groups on a thread of their own
    storage: AsyncStore
    registry: TableRegistry
    creations: CreationLimits
    lifecycle: Lifecycle
    probe: DatabaseProbe
    #: build finished games' records and replays
    workers: Workers
    bodies: FinishedBodies
    profiles: ProfileStore
    rated_games: RatedGames
    profile_limit: ProfileLimit
    seat_holders: SeatHolders
    rater: Rater
    #: make reviews and hints
    review_workers: Workers
    reviews: Reviews
    hints: Hints
    tournaments: Tournaments
    #: None: this process is alone on its database (SQLite always is)
    sharing: Sharing | None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The services started, for as long as the server serves."""
        await self._start()
        thresholds = heap.settle()
        try:
            yield
        finally:
            # under uvicorn (pedro serve) the drain has run already; under another server it runs here
            await self.lifecycle.shutdown()
            heap.unsettle(thresholds)
            await self._stop()

    async def _start(self) -> None:
        self.store.migrate()
        if self.settings.start_workers:
            self.workers.start(warm_up)
            self.review_workers.start(compute.warm_up)
        log.info("database ready: %s", self.store.describe())
        if self.sharing is not None:  # before the tables are loaded, so that no news is missed
            self.sharing.listener.start()
            log.info("sharing the database with other server processes as %s", self.sharing.process_id)
        self.registry.load()
        self.rater.catch_up()
        if self.sharing is not None:
            await self.sharing.cluster.start()
        await self.tournaments.start()

    async def _stop(self) -> None:
        if self.sharing is not None:
            self.sharing.listener.stop()
            await self.sharing.cluster.stop()
        self.registry.stop()
        await self.tournaments.stop()
        await self.bodies.stop()
        await self.reviews.stop()
        await self.rater.stop()
        self.review_workers.close()
        self.workers.close()
        self.probe.close()
        self.storage.close()  # commits what is queued, then closes the store
        log.info("stopped", extra={"event": "stopped"})


def build_services(settings: ServerSettings) -> Services:
    """Every part of a server, each given what it needs; nothing starts until ``running``."""
    # other server processes may share a PostgreSQL database (never an SQLite file)
    process_id = None if is_sqlite(settings.database) else new_process_id()
    store = Store(settings.database, announce_as=process_id)
    storage = AsyncStore(store)
    workers = Workers(settings.worker_processes)
    review_workers = Workers(settings.review_processes)
    bodies = FinishedBodies(workers, BodyCache(settings.body_cache_bytes))
    profiles = ProfileStore(store)
    rated_games = RatedGames(store)
    rater = Rater(rated_games, store, workers)
    played_deals = PlayedDeals()
    # told when a game ends here: its replay and record are built before anyone asks, a
    # tournament's deal moves its tournament on, and the game is rated
    game_over: tuple[GameOverListener, ...] = (
        *((bodies.prebuild,) if settings.prebuild_replays else ()),
        played_deals,
        rater,
    )
    cluster_db = ClusterStore(store, process_id, settings.lease_seconds) if process_id is not None else None
    room_settings = RoomSettings(
        away_seconds=settings.away_seconds,
        bot_delay=settings.bot_delay,
        game_over=game_over,
        shared=cluster_db is not None,
        presence=cluster_db.presence if cluster_db is not None else None,
        chat_chars=settings.limits.chat_chars,
        chat_messages=settings.limits.chat_messages,
        chat_seconds=settings.limits.chat_seconds,
        hand_pause=settings.turn_clocks.hand_pause,
    )
    registry = TableRegistry(storage, room_settings, process_id, settings.idle_seconds)
    limits = settings.limits
    creations = CreationLimits(limits)
    sharing = None
    if process_id is not None and cluster_db is not None:
        cluster = Cluster(
            cluster_db, registry.unfinished, registry.on_survey, heartbeat=settings.heartbeat_seconds
        )

        def news(payload: str | None) -> None:
            if registry.on_news(payload):
                cluster.poke()

        sharing = Sharing(process_id, cluster, Listener(store.url, process_id, news))
    return Services(
        settings=settings,
        store=store,
        storage=storage,
        registry=registry,
        creations=creations,
        lifecycle=Lifecycle(settings.shutdown_timeout, registry),
        probe=DatabaseProbe(store),
        workers=workers,
        bodies=bodies,
        profiles=profiles,
        rated_games=rated_games,
        profile_limit=ProfileLimit(),
        seat_holders=SeatHolders(profiles),
        rater=rater,
        review_workers=review_workers,
        reviews=Reviews(
            review_workers,
            SavedReviews(store),
            registry,
            settings.review_player,
            ReviewQueue(settings.review_processes, limits.reviews_per_client, limits.reviews_queued),
            limits.review_max_hands,
        ),
        hints=Hints(review_workers, registry),
        tournaments=Tournaments(TournamentStore(store), registry, creations, played_deals),
        sharing=sharing,
    )
