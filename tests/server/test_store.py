"""The server's ``Store`` on SQLite and on a real PostgreSQL server: schema, migrations, reads and writes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from tests.server.durability_helpers import database

from pedro.server.storage.schema import metadata
from pedro.server.storage.tables_db import (
    ConflictError,
    SeatRow,
    Store,
    StoreError,
    TableRow,
    engine_url,
    hash_secret,
)

SCHEMA = {"pedro_tables", "pedro_seats", "pedro_actions"}
T0 = datetime(2026, 11, 22, 18, 30, 5, 123456, tzinfo=UTC)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as database_url:
        yield database_url


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    store = Store(url)
    store.migrate()
    yield store
    store.close()


def alembic_config(connection: Connection) -> Config:
    """The configuration ``Store.migrate`` uses, on a connection of ours."""
    config = Config()
    config.set_main_option("script_location", str(files("pedro.server.storage") / "migrations"))
    config.attributes["connection"] = connection
    return config


def head() -> str | None:
    config = Config()
    config.set_main_option("script_location", str(files("pedro.server.storage") / "migrations"))
    return ScriptDirectory.from_config(config).get_current_head()


def revision(store: Store) -> str | None:
    with store.engine.connect() as c:
        return MigrationContext.configure(c).get_current_revision()


def table_names(store: Store) -> set[str]:
    return set(inspect(store.engine).get_table_names())


def schema_differences(store: Store) -> list[Any]:
    with store.engine.connect() as c:
        return list(compare_metadata(MigrationContext.configure(c), metadata))


def table_row(table_id: str = "t1", *, created_at: datetime = T0, **changes: Any) -> TableRow:
    fields: dict[str, Any] = {
        "id": table_id,
        "title": "Vendredi ♥ «chez Ann»",
        "variant": "cinch",
        "options": {"target": 21, "slam": True, "bgo_threshold": None, "end_rule": "first_to_target"},
        "seed": "0f" * 16,
        "listed": True,
        "created_at": created_at,
        "seats": [
            SeatRow(0, "human", name="Ann", secret_hash=hash_secret("ann's secret")),
            SeatRow(1, "computer", player="basic"),
            SeatRow(2, "human"),
            SeatRow(3, "computer", player="random"),
        ],
    }
    return TableRow(**(fields | changes))


def reopened(url: str, read: Callable[[Store], Any]) -> Any:
    """Read through a new ``Store`` on the same database: what was committed, not what is cached."""
    other = Store(url)
    try:
        return read(other)
    finally:
        other.close()


# ---------------------------------------------------------------------------- schema and migrations


def test_migrate_creates_the_schema_and_records_the_head(url: str) -> None:
    store = Store(url)
    try:
        assert table_names(store) == set()
        store.migrate()
        assert SCHEMA | {"alembic_version"} <= table_names(store)
        assert head() is not None and revision(store) == head()
        store.create_table(table_row())
        store.append_action("t1", 0, "0 pass")
        store.migrate()  # again: nothing to do, nothing lost
        assert revision(store) == head()
        row = reopened(url, lambda s: s.load_table("t1"))
        assert row == table_row(actions=["0 pass"])
    finally:
        store.close()


def test_the_migrations_build_exactly_the_metadata(store: Store) -> None:
    assert schema_differences(store) == []
    indexes = {i["name"] for i in inspect(store.engine).get_indexes("pedro_tables")}
    assert "ix_pedro_tables_finished" in indexes


def test_downgrade_to_base_and_upgrade_again(store: Store) -> None:
    store.create_table(table_row())
    with store.engine.begin() as c:
        command.downgrade(alembic_config(c), "base")
    assert revision(store) is None
    assert not SCHEMA & table_names(store)
    with store.engine.begin() as c:
        command.upgrade(alembic_config(c), "head")
    assert revision(store) == head()
    assert schema_differences(store) == []
    assert store.load_tables() == []  # a fresh schema
    store.create_table(table_row())
    assert store.load_table("t1") == table_row()


def test_engine_url_uses_psycopg_for_postgresql() -> None:
    assert engine_url("postgresql://u:p@h:5432/d") == "postgresql+psycopg://u:p@h:5432/d"
    assert engine_url("postgres://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    assert engine_url("sqlite:///x/pedro.sqlite3") == "sqlite:///x/pedro.sqlite3"


# ---------------------------------------------------------------------------- tables and seats


def test_a_table_round_trips(store: Store, url: str) -> None:
    row = table_row()
    store.create_table(row)
    loaded = reopened(url, lambda s: s.load_table("t1"))
    assert loaded == row  # every field, the seats in order, the options with their types
    assert loaded.created_at == T0 and loaded.created_at.utcoffset() == timedelta(0)
    assert loaded.options["slam"] is True and loaded.options["bgo_threshold"] is None
    assert loaded.seats[0].secret_hash == hash_secret("ann's secret") != "ann's secret"
    assert loaded.finished is False and loaded.actions == []
    assert store.load_table("missing") is None


def test_creating_a_table_twice_is_a_conflict(store: Store) -> None:
    store.create_table(table_row())
    with pytest.raises(ConflictError):
        store.create_table(table_row(title="another"))
    assert store.load_table("t1") == table_row()
    assert len(store.load_tables()) == 1


def test_tables_load_in_creation_order(store: Store) -> None:
    for i, table_id in enumerate(["c", "a", "b"]):
        store.create_table(table_row(table_id, created_at=T0 + timedelta(seconds=i)))
    assert [t.id for t in store.load_tables()] == ["c", "a", "b"]


def test_a_seat_is_claimed_once(store: Store, url: str) -> None:
    store.create_table(table_row())
    store.claim_seat("t1", 2, "Cy", hash_secret("cy"))
    seats = reopened(url, lambda s: s.load_table("t1")).seats
    assert (seats[2].name, seats[2].secret_hash) == ("Cy", hash_secret("cy"))
    with pytest.raises(ConflictError):
        store.claim_seat("t1", 2, "Eve", hash_secret("eve"))
    with pytest.raises(ConflictError):  # taken by its creator
        store.claim_seat("t1", 0, "Eve", hash_secret("eve"))
    with pytest.raises(ConflictError):  # a computer's seat
        store.claim_seat("t1", 1, "Eve", hash_secret("eve"))
    with pytest.raises(ConflictError):  # no such seat, no such table
        store.claim_seat("t1", 7, "Eve", hash_secret("eve"))
    with pytest.raises(ConflictError):
        store.claim_seat("nope", 2, "Eve", hash_secret("eve"))
    expected = table_row().seats
    expected[2] = SeatRow(2, "human", name="Cy", secret_hash=hash_secret("cy"))
    assert reopened(url, lambda s: s.load_table("t1")).seats == expected


def race(url: str, attempts: list[Callable[[Store], None]]) -> list[bool]:
    """Run each attempt at once, each on its own ``Store``; which ones succeeded (others: ConflictError)."""
    stores = [Store(url) for _ in attempts]
    barrier = threading.Barrier(len(attempts))
    results: list[bool | BaseException] = [False] * len(attempts)

    def run(i: int) -> None:
        barrier.wait(30)
        try:
            attempts[i](stores[i])
            results[i] = True
        except ConflictError:
            results[i] = False
        except BaseException as exc:  # reported below: only ConflictError is an allowed failure
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for s in stores:
        s.close()
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return [r is True for r in results]


def test_racing_claims_have_one_winner(store: Store, url: str) -> None:
    store.create_table(table_row())
    names = [f"P{i}" for i in range(6)]
    won = race(url, [lambda s, n=n: s.claim_seat("t1", 2, n, hash_secret(n)) for n in names])
    assert won.count(True) == 1
    winner = names[won.index(True)]
    seat = store.load_table("t1").seats[2]
    assert (seat.name, seat.secret_hash) == (winner, hash_secret(winner))


# ---------------------------------------------------------------------------- actions


def test_actions_are_stored_in_order(store: Store, url: str) -> None:
    store.create_table(table_row())
    texts = ["0 bid 7", "1 pass", "2 bid 8", "3 pass", "0 pass", "2 trump H"]
    for seq, text in enumerate(texts):
        store.append_action("t1", seq, text)
        assert reopened(url, lambda s: s.load_table("t1").actions) == texts[: seq + 1]


def test_a_duplicate_seq_is_a_conflict_and_changes_nothing(store: Store, url: str) -> None:
    store.create_table(table_row())
    for seq, text in enumerate(["0 bid 7", "1 pass", "2 pass"]):
        store.append_action("t1", seq, text)
    with pytest.raises(ConflictError):
        store.append_action("t1", 1, "1 bid 8")
    with pytest.raises(ConflictError):
        store.append_action("t1", 0, "0 bid 7")  # even the same text: its place is filled
    assert reopened(url, lambda s: s.load_table("t1").actions) == ["0 bid 7", "1 pass", "2 pass"]
    store.append_action("t1", 3, "3 pass")  # the next place is still free
    assert store.load_table("t1").actions == ["0 bid 7", "1 pass", "2 pass", "3 pass"]


def test_an_action_of_an_unknown_table_is_refused(store: Store) -> None:
    with pytest.raises(ConflictError):
        store.append_action("nope", 0, "0 pass")
    assert store.load_tables() == []


def test_racing_actions_have_one_winner(store: Store, url: str) -> None:
    store.create_table(table_row())
    store.append_action("t1", 0, "0 bid 7")
    texts = [f"1 bid {8 + i}" for i in range(6)]
    won = race(url, [lambda s, t=t: s.append_action("t1", 1, t) for t in texts])
    assert won.count(True) == 1
    assert store.load_table("t1").actions == ["0 bid 7", texts[won.index(True)]]


def test_a_gap_in_the_actions_is_reported(store: Store) -> None:
    store.create_table(table_row())
    store.append_action("t1", 0, "0 pass")
    store.append_action("t1", 2, "2 pass")
    with pytest.raises(StoreError, match="action 1 is missing"):
        store.load_table("t1")


def test_finished_tables_are_left_out_of_the_unfinished(store: Store, url: str) -> None:
    store.create_table(table_row("open", created_at=T0))
    store.create_table(table_row("done", created_at=T0 + timedelta(seconds=1)))
    store.create_table(table_row("later", created_at=T0 + timedelta(seconds=2)))
    store.append_action("done", 0, "0 pass")
    store.set_finished("done")
    unfinished = reopened(url, lambda s: s.load_tables(unfinished_only=True))
    assert [t.id for t in unfinished] == ["open", "later"]
    assert not any(t.finished for t in unfinished)
    everything = reopened(url, lambda s: s.load_tables())
    assert [(t.id, t.finished) for t in everything] == [("open", False), ("done", True), ("later", False)]
    done = store.load_table("done")
    assert done.finished and done.actions == ["0 pass"]
