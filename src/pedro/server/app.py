"""The ASGI application: each package's routes, on the services made from the server's settings.

HTTP handlers and the WebSocket loop only translate between the wire and the services; every
client error is answered with a message saying what was wrong and what is allowed, and never
changes anything (``http.errors``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from pedro.server.finished.routes import FinishedRoutes
from pedro.server.finished.workers import WorkerError
from pedro.server.http.errors import HttpError, error_response, http_error_handler, not_found_handler
from pedro.server.http.health import Health
from pedro.server.http.lifecycle import DrainGuard
from pedro.server.http.site import Site
from pedro.server.offline.routes import OfflineRoutes
from pedro.server.profiles.routes import ProfileRoutes
from pedro.server.reviews.routes import ReviewRoutes
from pedro.server.services import Services, build_services
from pedro.server.settings import ServerSettings
from pedro.server.storage.tables_db import StoreError
from pedro.server.tables.address_limits import AddressLimits
from pedro.server.tables.again import AgainRoutes
from pedro.server.tables.host import HostRoutes
from pedro.server.tables.routes import TableRoutes
from pedro.server.tables.websocket import TableSockets
from pedro.server.tournaments.routes import TournamentRoutes

log = logging.getLogger("pedro.server")


class PedroApp(Starlette):
    """The application, with the services its routes were made on (tests look behind the API)."""

    def __init__(self, services: Services, **options: Any) -> None:
        super().__init__(**options)
        self.services = services


def create_app(settings: ServerSettings) -> PedroApp:
    s = build_services(settings)
    tournaments = s.tournaments  # which tables play a tournament's deal still hidden from others
    routes = [
        *Site().routes(),
        *Health(s.lifecycle, s.probe, lambda: len(s.registry.rooms)).routes(),
        *TableRoutes(
            s.registry,
            s.creations,
            s.seat_holders,
            TableSockets(
                s.registry, s.lifecycle, tournaments, AddressLimits(settings.limits.websockets_per_client)
            ),
            settings.turn_clocks,
        ).routes(),
        *HostRoutes(s.registry, settings.limits).routes(),
        *AgainRoutes(s.registry).routes(),
        *FinishedRoutes(s.registry, s.bodies, tournaments).routes(),
        *ReviewRoutes(s.reviews, tournaments).routes(),
        *s.hints.routes(),
        *TournamentRoutes(tournaments).routes(),
        *ProfileRoutes(s.profiles, s.rated_games, s.profile_limit).routes(),
        *OfflineRoutes().routes(),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with s.running():
            yield

    return PedroApp(
        s,
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(DrainGuard, lifecycle=s.lifecycle)],
        exception_handlers={
            HttpError: http_error_handler,
            StoreError: _store_error_handler,
            WorkerError: _worker_error_handler,
            404: not_found_handler,
        },
    )


async def _worker_error_handler(request: Request, exc: Exception) -> Response:
    return error_response(503, "busy", why=str(exc))


async def _store_error_handler(request: Request, exc: Exception) -> Response:
    log.error("database error: %s", exc)
    return error_response(503, "no_database")
