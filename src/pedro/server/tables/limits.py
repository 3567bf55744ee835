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
from typing import Any, Protocol

from pedro.players import samples_of
from pedro.server.settings import Limits
from pedro.server.storage.tables_db import TableRow

#: The window of the tables-per-minute limit, in seconds.
_WINDOW = 60.0


class LimitError(Exception):
    """A request refused by a limit: its HTTP status, a message naming the limit, and when
    to try again (seconds) if that is known; ``code`` and ``fields`` name the limit for the
    browser, which says it in the page's language (``httpError.<code>``)."""

    def __init__(
        self,
        status: int,
        message: str,
        retry_after: int | None = None,
        code: str = "limit",
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        self.code = code
        self.fields = fields if fields is not None else {"why": message}


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
        raise LimitError(
            400,
            f"{player!r} samples {samples} worlds per card play; this server allows at most "
            f"{limits.max_expert_samples} (expert:{limits.max_expert_samples}); "
            "the operator can raise it with --max-expert-samples",
            code="too_strong",
            fields={"player": player, "samples": samples, "limit": limits.max_expert_samples},
        )


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
        """Raise ``LimitError`` if ``client`` may not create ``row`` now (it only forgets what expired)."""
        limits = self.limits
        now = self.clock()
        self._forget(now, tables)
        recent = self._recent.get(client) or deque()
        if len(recent) >= limits.tables_per_minute:
            wait = max(1, math.ceil(recent[0] + _WINDOW - now))
            raise LimitError(
                429,
                f"too many new tables: at most {limits.tables_per_minute} a minute from one "
                f"address; try again in {wait} s",
                retry_after=wait,
                code="too_many_tables",
                fields={"limit": limits.tables_per_minute, "wait": wait},
            )
        if len(self._open.get(client, ())) >= limits.open_tables_per_client:
            raise LimitError(
                429,
                f"you have {limits.open_tables_per_client} unfinished tables, the most one address "
                "may have open; finish one (or wait until one ends) before creating another",
                code="too_many_open",
                fields={"limit": limits.open_tables_per_client},
            )
        if _computer_only(row):
            running = sum(1 for t in tables.values() if not t.finished and _computer_only(t.row))
            if running >= limits.computer_only_tables:
                raise LimitError(
                    429,
                    f"the server already runs {running} tables without a human seat, the most it "
                    f"allows ({limits.computer_only_tables}); make one seat human, or try again "
                    "when one has finished",
                    code="too_many_computer_tables",
                    fields={"running": running, "limit": limits.computer_only_tables},
                )

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
