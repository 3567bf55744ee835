"""Group commits (``Store.write_many``) and the writer thread (``AsyncStore``), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from tests.server.durability_helpers import database
from tests.server.test_store import reopened, table_row

from pedro.server.storage import tables_db as store_module
from pedro.server.storage.tables_db import (
    ConflictError,
    NewAction,
    SeatClaim,
    Store,
    StoreError,
    Write,
    hash_secret,
)
from pedro.server.sync.writer import AsyncStore, committed


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as database_url:
        yield database_url


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    store = Store(url)
    store.migrate()
    store.create_table(table_row("a"))
    store.create_table(table_row("b"))
    yield store
    store.close()


def test_a_group_is_committed_together(store: Store, url: str) -> None:
    writes: list[Write] = [
        NewAction("a", 0, "0 pass"),
        NewAction("b", 0, "0 bid 7"),
        NewAction("a", 1, "1 pass"),
    ]
    assert store.write_many(writes) == [None, None, None]
    assert reopened(url, lambda s: s.load_table("a").actions) == ["0 pass", "1 pass"]
    assert reopened(url, lambda s: s.load_table("b").actions) == ["0 bid 7"]


def test_one_conflict_in_a_group_costs_only_itself(store: Store, url: str) -> None:
    store.append_action("a", 0, "0 pass")
    writes: list[Write] = [
        NewAction("b", 0, "0 bid 7"),
        NewAction("a", 0, "0 bid 9"),  # its place is filled
        SeatClaim("a", 0, "Bob", hash_secret("bob")),  # Ann has seat 0
        SeatClaim("a", 2, "Cy", hash_secret("cy")),
        NewAction("a", 1, "1 pass"),
    ]
    outcomes = store.write_many(writes)
    assert [type(o) for o in outcomes] == [type(None), ConflictError, ConflictError, type(None), type(None)]
    table = reopened(url, lambda s: s.load_table("a"))
    assert table.actions == ["0 pass", "1 pass"]
    assert [s.name for s in table.seats] == ["Ann", None, "Cy", None]
    assert reopened(url, lambda s: s.load_table("b").actions) == ["0 bid 7"]


def test_a_failed_group_commits_nothing(store: Store, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = store_module.run_writes

    def run_then_lose_the_server(writes: Sequence[Write], c: Connection, announce_as: str | None) -> None:
        run(writes, c, announce_as)  # every write executed, then the connection is lost before the commit
        raise OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))

    monkeypatch.setattr(store_module, "run_writes", run_then_lose_the_server)
    outcomes = store.write_many([NewAction("a", 0, "0 pass"), NewAction("b", 0, "0 pass")])
    assert [type(o) for o in outcomes] == [StoreError, StoreError]
    assert "server closed the connection" in str(outcomes[0])
    assert reopened(url, lambda s: s.load_table("a").actions) == []
    assert reopened(url, lambda s: s.load_table("b").actions) == []


def test_the_writer_commits_each_write_and_tells_each_waiter(store: Store, url: str) -> None:
    async def main() -> list[BaseException | None]:
        writer = AsyncStore(store)
        try:
            futures = [writer.append_action(t, seq, f"{seq} pass") for seq in range(20) for t in ("a", "b")]
            futures.append(writer.append_action("a", 3, "3 bid 7"))  # a second action 3: refused
            results = await asyncio.gather(*futures, return_exceptions=True)
            await writer.claim_seat("b", 2, "Cy", hash_secret("cy"))
            with pytest.raises(ConflictError):
                await writer.claim_seat("b", 2, "Di", hash_secret("di"))
            return results
        finally:
            writer.close()

    results = asyncio.run(main())
    assert results[:-1] == [None] * 40
    assert isinstance(results[-1], ConflictError)
    expected = [f"{seq} pass" for seq in range(20)]
    assert reopened(url, lambda s: s.load_table("a").actions) == expected
    assert reopened(url, lambda s: s.load_table("b").actions) == expected
    assert reopened(url, lambda s: s.load_table("b").seats[2].name) == "Cy"


def test_a_cancelled_waiter_still_learns_whether_its_write_was_committed(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    write_many = Store.write_many

    def slow(self: Store, writes: Sequence[Write]) -> list[StoreError | None]:
        assert release.wait(30), "the test never released the write"
        return write_many(self, writes)

    monkeypatch.setattr(Store, "write_many", slow)
    seen: list[str] = []

    async def waiter(writer: AsyncStore) -> None:
        cancelled = await committed(writer.append_action("a", 0, "0 pass"))
        seen.append(f"committed, cancelled={cancelled}")

    async def main() -> None:
        writer = AsyncStore(store)
        try:
            task = asyncio.create_task(waiter(writer))
            await asyncio.sleep(0.05)
            task.cancel()  # while the write is in the writer's hands
            await asyncio.sleep(0.05)
            assert not task.done()  # it goes on waiting for the outcome
            release.set()
            await task
        finally:
            writer.close()

    asyncio.run(main())
    assert seen == ["committed, cancelled=True"]
    assert store.load_table("a").actions == ["0 pass"]
