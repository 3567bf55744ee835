"""Abuse limits on creating tables: per client, for the whole server, and on computer strength.

Creating a table is the one request that makes the server work on its own: a
table of computer players plays itself, and a strong computer player costs a
core. These limits keep one client, or many, from filling the machine.

A client is the address uvicorn reports for the request: the peer's address,
or, for a request through a reverse proxy uvicorn trusts
(``--forwarded-allow-ips``), the address the proxy forwarded. What each client
created is kept in this process's memory only: a restart forgets it (tables
restored from the database still count towards the computer-only limit, which
is read from the open tables themselves).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Protocol

from pedro.players import samples_of
from pedro.server.http.errors import HttpError
from pedro.server.settings import Limits
from pedro.server.storage.tables_db import TableRow

#: The window of the tables-per-minute limit, in seconds.
_WINDOW = 60.0


class OpenTable(Protocol):
    """A table as the limits see it (a room)."""

    row: TableRow

    @property
    def finished(self) -> bool: ...


def _computer_only(row: TableRow) -> bool:
    return all(s.kind == "computer" for s in row.seats)


def check_strength(player: str, limits: Limits) -> None:
    """Refuse a computer player that samples more worlds than the server allows."""
    samples = samples_of(player)
    if samples is not None and samples > limits.max_expert_samples:
        raise HttpError.of(400, "too_strong", player=player, samples=samples, limit=limits.max_expert_samples)


class CreationLimits:
    """Who created which tables lately; decides whether a client may create one more."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        #: per client, the times of its creations within the last _WINDOW seconds
        self._recent: dict[str, deque[float]] = {}
        #: per client, the tables it created that were unfinished when last looked at
        self._open: dict[str, set[str]] = {}

    def check(self, client: str, row: TableRow, tables: Mapping[str, OpenTable]) -> None:
        """Refuse (429) if ``client`` may not create ``row`` now (it only forgets what expired)."""
        limits = self.limits
        now = self.clock()
        self._forget(now, tables)
        recent = self._recent.get(client) or deque()
        if len(recent) >= limits.tables_per_minute:
            wait = max(1, math.ceil(recent[0] + _WINDOW - now))
            retry = {"Retry-After": str(wait)}
            raise HttpError.of(429, "too_many_tables", retry, limit=limits.tables_per_minute, wait=wait)
        if len(self._open.get(client, ())) >= limits.open_tables_per_client:
            raise HttpError.of(429, "too_many_open", limit=limits.open_tables_per_client)
        if _computer_only(row):
            running = self.computer_only_running(tables)
            if running >= limits.computer_only_tables:
                limit = limits.computer_only_tables
                raise HttpError.of(429, "too_many_computer_tables", running=running, limit=limit)

    @staticmethod
    def computer_only_running(tables: Mapping[str, OpenTable]) -> int:
        """The unfinished tables with no human seat: each keeps a core busy with no one waiting."""
        return sum(1 for t in tables.values() if not t.finished and _computer_only(t.row))

    def created(self, client: str, table_id: str) -> None:
        """Count a table ``client`` has created (after ``check`` allowed it)."""
        self._recent.setdefault(client, deque()).append(self.clock())
        self._open.setdefault(client, set()).add(table_id)

    def _forget(self, now: float, tables: Mapping[str, OpenTable]) -> None:
        """Drop creations older than the window and tables that have finished (or are gone)."""
        for client, times in list(self._recent.items()):
            while times and times[0] <= now - _WINDOW:
                times.popleft()
            if not times:
                del self._recent[client]
        for client, ids in list(self._open.items()):
            ids -= {t for t in ids if (table := tables.get(t)) is None or table.finished}
            if not ids:
                del self._open[client]
