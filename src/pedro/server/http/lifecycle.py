"""Stopping without losing anything: the graceful shutdown on SIGTERM (or Ctrl-C).

A shutdown goes: stop taking actions (they are answered ``restarting``, nothing
changed; requests that would change something get 503), let the tables finish
the changes under way and stop their computer players, then tell every
connected client that the server is restarting and close its WebSocket with
code 1012 (service restart), so the browser reconnects, possibly to another
process. Only then does uvicorn close its listening socket and the lifespan
close the database.

uvicorn closes every open WebSocket itself as the first step of its shutdown,
before the application hears of it, so ``GracefulServer`` runs the drain
before handing over to uvicorn's own shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Protocol

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from pedro.server.http.errors import HttpError

log = logging.getLogger("pedro.server")

#: WebSocket close code 1012: the service is restarting; the client should reconnect.
RESTART_CLOSE_CODE = 1012
RESTART_MESSAGE = "the server is restarting; reconnecting ..."
#: Error code of an action refused while the server drains.
RESTARTING = "restarting"
REFUSED_WHILE_DRAINING = "the server is restarting; nothing was done: send it again once reconnected"
#: Methods that change nothing, still served while the server drains.
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Restartable(Protocol):
    """A live connection, as the shutdown sees it."""

    def restart(self, message: str) -> None:
        """Send the restart message, then close with code 1012."""


class Drainable(Protocol):
    async def drain(self) -> None:
        """Stop making changes, after finishing those under way."""


class Lifecycle:
    """Whether the server is serving or draining, and the connections to tell when it drains."""

    def __init__(self, timeout: float, tables: Drainable) -> None:
        #: seconds a drain waits for the tables, then for the clients to take their restart message
        self.timeout = timeout
        self.tables = tables
        self.draining = False
        #: each live connection and the task that writes to it (done once the socket is closed)
        self.connections: dict[Restartable, asyncio.Task[None]] = {}
        self._shutdown: asyncio.Task[None] | None = None

    def connected(self, client: Restartable, writer: asyncio.Task[None]) -> None:
        self.connections[client] = writer

    def disconnected(self, client: Restartable) -> None:
        self.connections.pop(client, None)

    async def shutdown(self) -> None:
        """Drain once; a second call (uvicorn's hook, then the lifespan) waits for the first."""
        if self._shutdown is None:
            self._shutdown = asyncio.get_running_loop().create_task(self._drain())
        await asyncio.shield(self._shutdown)

    async def _drain(self) -> None:
        self.draining = True
        log.info("shutting down: new actions are refused", extra={"event": "shutdown_started"})
        try:
            await asyncio.wait_for(self.tables.drain(), self.timeout)
        except TimeoutError:
            log.error("shutting down: the tables did not stop within %g s", self.timeout)
        writers = list(self.connections.items())
        for client, _ in writers:
            client.restart(RESTART_MESSAGE)
        left: set[asyncio.Task[None]] = set()
        if writers:
            _, left = await asyncio.wait([w for _, w in writers], timeout=self.timeout)
        log.info(
            "shutting down: %d clients told to reconnect (%d did not answer in time)",
            len(writers),
            len(left),
            extra={"event": "shutdown_drained"},
        )


class DrainGuard:
    """While the server drains, requests that would change something get 503 and change nothing."""

    def __init__(self, app: ASGIApp, lifecycle: Lifecycle) -> None:
        self.app = app
        self.lifecycle = lifecycle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.lifecycle.draining and scope["method"] not in _SAFE_METHODS:
            await HttpError.of(503, "restarting", {"Retry-After": "5"}).response()(scope, receive, send)
            return
        await self.app(scope, receive, send)


class GracefulServer(uvicorn.Server):
    """uvicorn's server, draining the application before uvicorn closes its connections.

    A stop asked for by SIGTERM or SIGINT ends with exit status 0 (uvicorn
    would raise the signal again once done, and the process would die of it).
    """

    def __init__(self, config: uvicorn.Config, drain: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self._drain = drain

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            if not self.force_exit:
                await self._drain()
        finally:  # whatever the drain met, uvicorn still closes its sockets and the lifespan ends
            await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)
