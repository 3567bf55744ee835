"""Several server processes on one PostgreSQL database: who drives each table, who is connected where.

Any process may commit a player's action (the ``(table, seq)`` key lets one
commit win), but a table's computer players and stand-ins must be driven by
one process at a time, and that process must know whether a seat's player is
connected anywhere, not only to itself. Both live in the database:

- every process writes a heartbeat (``pedro_processes.seen_at``, the
  database's own clock) every ``heartbeat`` seconds; one not seen for
  ``lease_seconds`` is dead;
- a table's lease (``pedro_leases``) names its driving process; a process
  takes the lease of each table it has loaded whose holder is missing or
  dead, in one statement that the database serialises, so two processes
  never both take it;
- ``pedro_presence`` holds a row per seat and process where that seat's
  player is connected; rows of dead processes do not count.

A process that stops gracefully deletes its own row, which frees its leases
and presence at once (the foreign keys cascade); one killed outright is
taken over once its heartbeat is ``lease_seconds`` old. On SQLite there is
one process, and none of this runs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from pedro.server.storage.tables_db import CHANNEL, Store

log = logging.getLogger("pedro.server")

#: Rows of processes gone this long are deleted (their leases and presence went with them).
_FORGET_SECONDS = 3600.0


def new_process_id() -> str:
    """Unique per start, and readable in the database: host, pid and a random part."""
    return f"{socket.gethostname()[:20]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Survey:
    """What one heartbeat found out."""

    #: the tables the heartbeat was asked about (others were loaded meanwhile: it knows nothing of them)
    asked: frozenset[str]
    #: tables whose lease this process holds
    held: frozenset[str]
    #: table -> seat -> the other live processes where that seat's player is connected
    remote: dict[str, dict[int, frozenset[str]]]


# Constant statements (PostgreSQL only), so the driver prepares each once; times by the database's clock.
_BEAT = text(
    "INSERT INTO pedro_processes (id, started_at, seen_at) VALUES (:me, now(), now()) "
    "ON CONFLICT (id) DO UPDATE SET seen_at = now()"
)
_ALIVE = "SELECT id FROM pedro_processes WHERE seen_at > now() - make_interval(secs => :lease)"
_TAKE = text(
    "INSERT INTO pedro_leases (table_id, holder) "
    "SELECT t, :me FROM unnest(CAST(:tables AS varchar[])) AS t "
    "ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder "
    f"WHERE pedro_leases.holder NOT IN ({_ALIVE})"
)
_LET_GO = text(
    "DELETE FROM pedro_leases WHERE holder = :me AND NOT (table_id = ANY(CAST(:tables AS varchar[])))"
)
_HELD = text("SELECT table_id FROM pedro_leases WHERE holder = :me")
_ELSEWHERE = text(
    f"SELECT table_id, seat, process FROM pedro_presence WHERE process <> :me AND process IN ({_ALIVE})"
)
_FORGET = text("DELETE FROM pedro_processes WHERE seen_at < now() - make_interval(secs => :forget)")
_HERE = text(
    "INSERT INTO pedro_presence (table_id, seat, process) VALUES (:table, :seat, :me) ON CONFLICT DO NOTHING"
)
_GONE = text("DELETE FROM pedro_presence WHERE table_id = :table AND seat = :seat AND process = :me")
_LEAVE = text("DELETE FROM pedro_processes WHERE id = :me")
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class ClusterStore:
    """The heartbeat's statements and the seats' presence, run in order on one thread of their own.

    ``lease_seconds``: a process whose heartbeat is this old is dead: its leases are taken over,
    its seats count as left.
    """

    def __init__(self, store: Store, process_id: str, lease_seconds: float) -> None:
        self.engine = store.engine
        self.process_id = process_id
        self.lease_seconds = lease_seconds
        self.thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pedro-cluster")

    def presence(self, table_id: str, seat: int, present: bool) -> None:
        """On the loop: record a seat's connection, without waiting (in order with the heartbeats)."""
        future = asyncio.get_running_loop().run_in_executor(
            self.thread, self.set_presence, table_id, seat, present
        )
        future.add_done_callback(_log_failure)

    def heartbeat(self, loaded: Sequence[str]) -> Survey:
        """Say this process lives, take the free leases of the ``loaded`` unfinished tables, let go
        of the others, and read where seats are connected elsewhere; one transaction."""
        me = {"me": self.process_id}
        # in one order in every process, so that two heartbeats lock the leases' rows alike
        tables = me | {"tables": sorted(loaded)}
        with self.engine.begin() as c:
            c.execute(_BEAT, me)
            c.execute(_TAKE, tables | {"lease": self.lease_seconds})
            c.execute(_LET_GO, tables)
            held = frozenset(c.execute(_HELD, me).scalars())
            remote: dict[str, dict[int, set[str]]] = {}
            for table_id, seat, process in c.execute(_ELSEWHERE, me | {"lease": self.lease_seconds}):
                remote.setdefault(table_id, {}).setdefault(seat, set()).add(process)
            c.execute(_FORGET, {"forget": _FORGET_SECONDS})
        return Survey(
            frozenset(loaded),
            held,
            {t: {seat: frozenset(p) for seat, p in seats.items()} for t, seats in remote.items()},
        )

    def set_presence(self, table_id: str, seat: int, present: bool) -> None:
        """A seat's player connected to (or left) this process; the others are told at once."""
        with self.engine.begin() as c:
            c.execute(_HERE if present else _GONE, {"table": table_id, "seat": seat, "me": self.process_id})
            word = "here" if present else "gone"
            c.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{self.process_id} {table_id} {word} {seat}"})

    def leave(self) -> None:
        """This process stops: its leases and presence go with its row; the others are told."""
        with self.engine.begin() as c:
            c.execute(_LEAVE, {"me": self.process_id})
            c.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{self.process_id} - left"})


class Cluster:
    """The heartbeat on the event loop's side: every ``heartbeat`` seconds, on ``db``'s thread.

    ``loaded()`` names the tables to hold leases for; ``on_survey`` gets
    each heartbeat's findings on the loop. ``poke()`` asks for a heartbeat
    now (a table was loaded, or a seat moved elsewhere).
    """

    def __init__(
        self,
        db: ClusterStore,
        loaded: Callable[[], list[str]],
        on_survey: Callable[[Survey | None], None],
        *,
        heartbeat: float,
    ) -> None:
        self.db = db
        self.loaded = loaded
        self.on_survey = on_survey
        self.heartbeat = heartbeat
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last_success = time.monotonic()

    async def start(self) -> None:
        """The first heartbeat is awaited, so the tables are driven from the first request on."""
        await self._beat()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        self._poked.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.heartbeat)
            self._poked.clear()
            await self._beat()

    async def _beat(self) -> None:
        loaded = self.loaded()
        try:
            survey = await asyncio.get_running_loop().run_in_executor(
                self.db.thread, self.db.heartbeat, loaded
            )
        except SQLAlchemyError as exc:
            log.error("heartbeat to the database failed: %s", getattr(exc, "orig", None) or exc)
            if time.monotonic() - self._last_success > self.db.lease_seconds:
                self.on_survey(None)  # the leases may be another's by now: drive nothing
            return
        self._last_success = time.monotonic()
        self.on_survey(survey)

    async def stop(self) -> None:
        """Leave the cluster: the other processes take this one's tables at their next heartbeat."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        try:
            await asyncio.get_running_loop().run_in_executor(self.db.thread, self.db.leave)
        except SQLAlchemyError as exc:
            log.error("could not leave the cluster (the others wait for the lease to lapse): %s", exc)
        self.db.thread.shutdown()


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("could not record a seat's connection: %s", future.exception())
