"""``/healthz`` (liveness) and ``/readyz`` (readiness), for load balancers, systemd and monitors.

Liveness answers from memory and never waits: a process that answers is
alive, even if its database is down (restarting it would not help).
Readiness asks the database a trivial query and says whether the server is
shutting down, so a load balancer sends new players elsewhere. The query
runs on a thread of its own, one at a time, with a short timeout: a hung
database can neither block the event loop nor use up the threads the
computer players think on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.http.lifecycle import Lifecycle
from pedro.server.storage.tables_db import Store, StoreError

log = logging.getLogger("pedro.server")

#: Seconds the readiness check waits for the database.
_READY_TIMEOUT = 2.0


class DatabaseProbe:
    """Whether the database answers now; concurrent checks share the query under way."""

    def __init__(self, store: Store, timeout: float = _READY_TIMEOUT) -> None:
        self.store = store
        self.timeout = timeout
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pedro-readyz")
        self._pending: asyncio.Future[None] | None = None

    async def problem(self) -> str | None:
        """None if the database answered, else why not (for the readiness answer; details are logged)."""
        if self._pending is None or self._pending.done():
            self._pending = asyncio.get_running_loop().run_in_executor(self._executor, self.store.ping)
            # read a late failure even if every check gave up waiting, so it is not reported as lost
            self._pending.add_done_callback(lambda f: None if f.cancelled() else f.exception())
        try:
            await asyncio.wait_for(asyncio.shield(self._pending), self.timeout)
        except TimeoutError:
            log.warning("readiness: the database did not answer within %g s", self.timeout)
            return f"the database did not answer within {self.timeout:g} s"
        except StoreError as exc:
            log.warning("readiness: the database refused the check: %s", exc)
            return "the database refused the check query"
        return None

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


class Health:
    """``/healthz`` and ``/readyz``, on the server's state: draining or not, tables loaded, database."""

    def __init__(self, lifecycle: Lifecycle, probe: DatabaseProbe, loaded_tables: Callable[[], int]) -> None:
        self.lifecycle = lifecycle
        self.probe = probe
        self.loaded_tables = loaded_tables

    def routes(self) -> list[BaseRoute]:
        return [Route("/healthz", self.health), Route("/readyz", self.ready)]

    async def health(self, request: Request) -> Response:
        """Liveness: the process serves requests. Never touches the database."""
        return JSONResponse({"ok": True, "tables": self.loaded_tables()})

    async def ready(self, request: Request) -> Response:
        """Readiness: not shutting down, and the database answers; 503 with the reason otherwise."""
        body: dict[str, Any]
        if self.lifecycle.draining:
            body = {"ready": False, "reason": "the server is shutting down"}
            return JSONResponse(body, status_code=503, headers={"Retry-After": "5"})
        problem = await self.probe.problem()
        if problem is not None:
            return JSONResponse({"ready": False, "reason": problem}, status_code=503)
        body = {"ready": True, "database": "ok", "tables": self.loaded_tables()}
        return JSONResponse(body)
