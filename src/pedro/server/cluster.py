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
from datetime import timedelta

from sqlalchemy import Connection, Select, delete, func, literal, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import SQLAlchemyError

from pedro.server.store import CHANNEL, Store, leases_table, presence_table, processes_table

log = logging.getLogger("pedro.server")

#: Seconds between heartbeats (and lease checks) of a process.
HEARTBEAT_SECONDS = 1.0
#: A process whose heartbeat is this old is dead: its leases are taken over, its seats count as left.
LEASE_SECONDS = 5.0
#: Rows of processes gone this long are deleted (their leases and presence went with them).
FORGET_SECONDS = 3600.0

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def new_process_id() -> str:
    """Unique per start, and readable in the database: host, pid and a random part."""
    return f"{socket.gethostname()[:20]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Survey:
    """What one heartbeat found out."""

    #: tables whose lease this process holds
    held: frozenset[str]
    #: table -> seats whose players are connected to another live process
    remote: dict[str, frozenset[int]]


class ClusterStore:
    """The heartbeat's statements; called from one thread only (``Cluster``'s)."""

    def __init__(self, store: Store, process_id: str, lease_seconds: float) -> None:
        self.engine = store.engine
        self.process_id = process_id
        self.lease_seconds = lease_seconds

    def _alive(self) -> Select[tuple[str]]:
        """Processes seen within the lease time (by the database's clock)."""
        since = func.now() - literal(timedelta(seconds=self.lease_seconds))
        return select(processes_table.c.id).where(processes_table.c.seen_at > since)

    def heartbeat(self, loaded: Sequence[str]) -> Survey:
        """Say this process lives, take the free leases of the ``loaded`` unfinished tables, let go
        of the others, and read where seats are connected elsewhere; one transaction."""
        me = self.process_id
        with self.engine.begin() as c:
            upsert = pg_insert(processes_table).values(id=me, started_at=func.now(), seen_at=func.now())
            c.execute(upsert.on_conflict_do_update(index_elements=["id"], set_={"seen_at": func.now()}))
            alive = self._alive()
            if loaded:
                take = pg_insert(leases_table).values([{"table_id": t, "holder": me} for t in loaded])
                c.execute(
                    take.on_conflict_do_update(
                        index_elements=["table_id"],
                        set_={"holder": take.excluded.holder},
                        where=leases_table.c.holder.not_in(alive),
                    )
                )
            c.execute(
                delete(leases_table).where(
                    leases_table.c.holder == me, leases_table.c.table_id.not_in(list(loaded))
                )
            )
            held = frozenset(
                c.execute(select(leases_table.c.table_id).where(leases_table.c.holder == me)).scalars()
            )
            remote: dict[str, set[int]] = {}
            present = select(presence_table.c.table_id, presence_table.c.seat).where(
                presence_table.c.process != me, presence_table.c.process.in_(alive)
            )
            for table_id, seat in c.execute(present):
                remote.setdefault(table_id, set()).add(seat)
            forget = func.now() - literal(timedelta(seconds=FORGET_SECONDS))
            c.execute(delete(processes_table).where(processes_table.c.seen_at < forget))
        return Survey(held, {table_id: frozenset(seats) for table_id, seats in remote.items()})

    def set_presence(self, table_id: str, seat: int, present: bool) -> None:
        """A seat's player connected to (or left) this process; the others are told."""
        with self.engine.begin() as c:
            if present:
                row = {"table_id": table_id, "seat": seat, "process": self.process_id}
                c.execute(pg_insert(presence_table).values(row).on_conflict_do_nothing())
            else:
                c.execute(
                    delete(presence_table).where(
                        presence_table.c.table_id == table_id,
                        presence_table.c.seat == seat,
                        presence_table.c.process == self.process_id,
                    )
                )
            _announce(c, f"{self.process_id} {table_id} presence")

    def leave(self) -> None:
        """This process stops: its leases and presence go with its row; the others are told."""
        with self.engine.begin() as c:
            c.execute(delete(processes_table).where(processes_table.c.id == self.process_id))
            _announce(c, f"{self.process_id} - left")


def _announce(c: Connection, payload: str) -> None:
    c.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


class Cluster:
    """The heartbeat on the event loop's side: its statements run on a thread of their own, in order.

    ``loaded()`` names the tables to hold leases for; ``on_survey`` gets
    each heartbeat's findings on the loop. ``poke()`` asks for a heartbeat
    now (a table was loaded, or a seat moved elsewhere).
    """

    def __init__(
        self,
        store: Store,
        process_id: str,
        loaded: Callable[[], list[str]],
        on_survey: Callable[[Survey | None], None],
        *,
        heartbeat: float = HEARTBEAT_SECONDS,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self.db = ClusterStore(store, process_id, lease_seconds)
        self.loaded = loaded
        self.on_survey = on_survey
        self.heartbeat = heartbeat
        self.lease_seconds = lease_seconds
        self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pedro-cluster")
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last_success = time.monotonic()

    async def start(self) -> None:
        """The first heartbeat is awaited, so the tables are driven from the first request on."""
        await self._beat()
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        self._poked.set()

    def presence(self, table_id: str, seat: int, present: bool) -> None:
        """Record a seat's connection, without waiting (in order with the heartbeats)."""
        future = asyncio.get_running_loop().run_in_executor(
            self._thread, self.db.set_presence, table_id, seat, present
        )
        future.add_done_callback(_log_failure)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.heartbeat)
            self._poked.clear()
            await self._beat()

    async def _beat(self) -> None:
        loaded = self.loaded()
        try:
            survey = await asyncio.get_running_loop().run_in_executor(self._thread, self.db.heartbeat, loaded)
        except SQLAlchemyError as exc:
            log.error("heartbeat to the database failed: %s", getattr(exc, "orig", None) or exc)
            if time.monotonic() - self._last_success > self.lease_seconds:
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
            await asyncio.get_running_loop().run_in_executor(self._thread, self.db.leave)
        except SQLAlchemyError as exc:
            log.error("could not leave the cluster (the others wait for the lease to lapse): %s", exc)
        self._thread.shutdown()


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("could not record a seat's connection: %s", future.exception())
