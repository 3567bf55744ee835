"""One server process to an SQLite file.

Two processes on one SQLite file would each drive the same live tables (each plays their
computers, each keeps its own rooms), so the second is refused. The hold is an exclusive lock on
``<file>.lock`` beside the database, which the operating system lets go when the process ends,
however it ends: a killed server never blocks its restart. PostgreSQL is shared by design (the
processes coordinate through it), and an in-memory database has nothing to share.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url

from pedro.server.storage.tables_db import engine_url, is_sqlite

try:
    import fcntl
except ImportError:  # not POSIX: no lock is taken (the deployment guide says one process per file)
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(RuntimeError):
    """Another process serves this SQLite file."""

    def __init__(self, lock: Path, holder: str) -> None:
        who = f"process {holder}" if holder else "another process"
        super().__init__(f"{who} is serving this SQLite file already (it holds {lock})")
        self.lock = lock
        self.holder = holder


def lock_path(url: str) -> Path | None:
    """The lock file of an SQLite file's URL, or None where no lock is needed."""
    if not is_sqlite(url):
        return None
    database = make_url(engine_url(url)).database
    if not database or database == ":memory:":
        return None
    return Path(f"{database}.lock")


def hold_database(url: str) -> IO[str] | None:
    """Take the SQLite file for this process, for as long as the returned file stays open.

    Raises :class:`DatabaseInUse` when another process holds it.
    """
    path = lock_path(url)
    if path is None or fcntl is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        raise DatabaseInUse(path, holder) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
