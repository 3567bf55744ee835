"""News from the other server processes: PostgreSQL ``LISTEN`` on the tables' channel.

Several ``pedro serve`` processes may share one PostgreSQL database, and a
table's players may be connected to different ones. Every commit of an
action, a seat claim or a new table notifies the channel (in the same
transaction, so the news arrives only once it is committed; the payloads are
``tables_db.news_payload``'s); this thread listens and hands the others' news to
the event loop. A lost connection is reopened, and then the loop is told
that news may have been missed (``None``), so every loaded table catches up.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import make_url

from pedro.server.storage.tables_db import CHANNEL

log = logging.getLogger("pedro.server")

#: How long one wait for news lasts before the thread checks whether it should stop.
_POLL_SECONDS = 0.5
#: Wait before reconnecting after the connection was lost.
RETRY_SECONDS = 1.0


def _libpq_url(url: str) -> str:
    """The SQLAlchemy URL as psycopg takes it (no ``+psycopg`` driver suffix)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """Calls ``on_news(payload)`` on the loop it was started on for every notification of another
    process than ``process_id`` (its own are skipped here, off the loop); ``on_news(None)``: news
    may be lost."""

    def __init__(self, url: str, process_id: str, on_news: Callable[[str | None], None]) -> None:
        self.url = _libpq_url(url)
        self.own = f"{process_id} "
        self.on_news = on_news
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the first ``LISTEN`` is in place (or ``timeout`` passed)."""
        self._thread = threading.Thread(
            target=self._run, args=(asyncio.get_running_loop(),), name="pedro-listener", daemon=True
        )
        self._thread.start()
        self._ready.wait(timeout)

    def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    if not first:
                        loop.call_soon_threadsafe(self.on_news, None)
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=_POLL_SECONDS):
                            if not note.payload.startswith(self.own):
                                loop.call_soon_threadsafe(self.on_news, note.payload)
            except psycopg.Error as exc:
                log.error("listening to the other server processes failed (%s); reconnecting", exc)
                self._stop.wait(RETRY_SECONDS)
            except RuntimeError:  # the loop is closed: the server is stopping
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
