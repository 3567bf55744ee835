"""The store as the event loop uses it: every call is awaited, and none blocks the loop.

Writes go to one thread of their own, which commits whatever has queued up
since its last commit in one transaction (group commit: on PostgreSQL a
commit waits for the disk, and one wait then serves many tables). A write's
future is resolved only after its commit returned, so the caller can keep
"committed before announced": it awaits the write, then applies and tells.
Reads are rare (a finished table asked for after it was let go) and run in
the default thread pool, beside the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Sequence

from pedro.server.storage.tables_db import (
    ChatRow,
    ChatSwitch,
    ClockBack,
    Finished,
    NewAction,
    NewChatLine,
    News,
    NewTable,
    SeatClaim,
    Store,
    StoreError,
    TableRow,
    Write,
)

log = logging.getLogger("pedro.server")

#: Most writes committed in one transaction; more wait for the next.
_MAX_GROUP = 512

_Job = tuple[Write, "asyncio.Future[None]"]


class AsyncStore:
    """``Store`` behind a writer thread: ``await``-able writes, committed in groups, in the order given."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._write_loop, name="pedro-store-writer", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ writes

    async def create_table(self, row: TableRow) -> None:
        await self._submit(NewTable(row))

    async def claim_seat(
        self, table_id: str, seat: int, name: str, secret_hash: str, profile: str | None = None
    ) -> None:
        """ConflictError if the seat was taken meanwhile; ``profile`` (an id) is linked to the seat."""
        await self._submit(SeatClaim(table_id, seat, name, secret_hash, profile))

    def append_action(
        self, table_id: str, seq: int, text: str, stand_in: bool = False, timed_out: bool = False
    ) -> asyncio.Future[None]:
        """Resolved once action ``seq`` is committed; StoreError (ConflictError) and nothing stored if not.

        A future rather than a coroutine: the write goes on whether or not
        its caller waits (see :func:`committed`).
        """
        return self._submit(NewAction(table_id, seq, text, stand_in, timed_out))

    async def write(self, write: Write) -> None:
        """A change committed in its turn (the host's: ``tables.host``); StoreError if it was not."""
        await self._submit(write)

    def mark_finished(self, table_id: str) -> None:
        """Note a finished game, without waiting: the flag only spares a restart loading it."""
        self._submit(Finished(table_id)).add_done_callback(_log_failure)

    def add_chat(self, table_id: str, line: ChatRow) -> asyncio.Future[None]:
        """Resolved once the chat line is committed; ConflictError if its number was taken meanwhile."""
        return self._submit(NewChatLine(table_id, line))

    def set_chat(self, table_id: str, on: bool) -> asyncio.Future[None]:
        """Resolved once the table's chat is stored as turned on or off."""
        return self._submit(ChatSwitch(table_id, on))

    def clock_back(self, table_id: str, seat: int) -> None:
        """Tell the other server processes, without waiting, that a seat's player is back."""
        self._submit(ClockBack(table_id, seat)).add_done_callback(_log_failure)

    def _submit(self, write: Write) -> asyncio.Future[None]:
        if self._closed:
            raise StoreError("the database writer has stopped")
        future = asyncio.get_running_loop().create_future()
        self._jobs.put((write, future))
        return future

    # ------------------------------------------------------------------ reads

    async def load_table(self, table_id: str) -> TableRow | None:
        return await asyncio.to_thread(self.store.load_table, table_id)

    async def load_news(self, table_id: str, start: int) -> News:
        return await asyncio.to_thread(self.store.load_news, table_id, start)

    async def load_chat(self, table_id: str, after: int) -> list[ChatRow]:
        return await asyncio.to_thread(self.store.load_chat, table_id, after)

    # ------------------------------------------------------------------ the thread

    def _write_loop(self) -> None:
        stopping = False
        while not stopping:
            first = self._jobs.get()
            if first is None:
                break
            jobs = [first]
            while len(jobs) < _MAX_GROUP:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stopping = True
                    break
                jobs.append(job)
            outcomes = self._commit([write for write, _ in jobs])
            by_loop: dict[
                asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], StoreError | None]]
            ] = {}
            for (_, future), outcome in zip(jobs, outcomes, strict=True):
                by_loop.setdefault(future.get_loop(), []).append((future, outcome))
            for loop, settled in by_loop.items():  # one wake-up of the loop for the whole group
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
                    loop.call_soon_threadsafe(_settle, settled)

    def _commit(self, writes: Sequence[Write]) -> list[StoreError | None]:
        try:
            return self.store.write_many(writes)
        except Exception as exc:  # a bug must not kill the writer and hang every table
            log.exception("the database writer failed")
            return [StoreError(f"the database writer failed: {exc}")] * len(writes)

    def close(self) -> None:
        """Commit what is queued, then stop the thread (and close the store)."""
        if not self._closed:
            self._closed = True
            self._jobs.put(None)
            self._thread.join()
        self.store.close()


async def committed(future: asyncio.Future[None]) -> bool:
    """Wait for a write's commit, even through a cancellation; True if the waiting task was cancelled.

    Raises the write's StoreError. A write once queued is committed or not
    whatever its waiter does, so a waiter must learn which before it lets
    anything else happen: the caller applies a committed action, then
    re-raises the cancellation.
    """
    cancelled = False
    while True:
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            if future.cancelled():
                raise
            cancelled = True
            if future.done():
                future.result()  # raises the write's error
                return cancelled
        else:
            return cancelled


def _settle(settled: list[tuple[asyncio.Future[None], StoreError | None]]) -> None:
    """On the loop: each write's future gets its outcome."""
    for future, outcome in settled:
        if future.done():  # cancelled: nobody waits for it
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("could not mark a table finished (it is loaded at the next start): %s", future.exception())
