"""Idle tables: an unfinished game nobody has touched for ``idle_seconds`` leaves the lobby and the
server's memory, is not read at start, and still opens (and plays on) from its link."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient
from tests.server.client_helpers import claim, create_table, join, running_server, seats_spec, services_of
from tests.server.durability_helpers import database

from pedro.server.app import create_app
from pedro.server.settings import ServerSettings
from pedro.server.storage.schema import actions_table
from pedro.server.storage.tables_db import SeatRow, Store, TableRow
from pedro.server.tables import registry as registry_module

NOW = datetime.now(UTC)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as database_url:
        yield database_url


def _table(table_id: str, created: datetime) -> TableRow:
    seats = [SeatRow(0, "human", name="Ann", secret_hash="0" * 64)] + [
        SeatRow(s, "human") for s in range(1, 4)
    ]
    return TableRow(table_id, "t", "cinch", {}, "seed", True, created, seats)


def _age_actions(store: Store, table_id: str, moment: datetime) -> None:
    with store.engine.begin() as c:
        c.execute(update(actions_table).where(actions_table.c.table_id == table_id).values(created_at=moment))


def test_only_tables_created_or_played_on_lately_are_read_as_active(url: str) -> None:
    store = Store(url)
    store.migrate()
    store.create_table(_table("new", NOW))
    store.create_table(_table("old", NOW - timedelta(days=3)))
    store.create_table(_table("old-played-lately", NOW - timedelta(days=3)))
    store.append_action("old-played-lately", 0, "0 pass")
    store.create_table(_table("old-played-long-ago", NOW - timedelta(days=3)))
    store.append_action("old-played-long-ago", 0, "0 pass")
    _age_actions(store, "old-played-long-ago", NOW - timedelta(days=2))
    store.create_table(_table("new-finished", NOW))
    store.set_finished("new-finished")
    since = NOW - timedelta(days=1)
    active = {row.id for row in store.load_tables(unfinished_only=True, active_since=since)}
    assert active == {"new", "old-played-lately"}
    every = {row.id for row in store.load_tables(unfinished_only=True)}
    assert every == active | {"old", "old-played-long-ago"}
    store.close()


def test_an_idle_table_is_not_restored_at_start_but_opens_from_its_link(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    store.migrate()
    store.create_table(_table("abandoned", NOW - timedelta(days=3)))
    store.create_table(_table("waiting", NOW - timedelta(hours=1)))
    store.close()
    settings = ServerSettings(database=url, bot_delay=0, start_workers=False, idle_seconds=86400)
    with TestClient(create_app(settings)) as client:
        registry = services_of(client).registry
        assert set(registry.rooms) == {"waiting"}
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["waiting"]
        # its link still works: the table is read, and a player may sit down
        answer = client.get("/api/tables/abandoned")
        assert answer.status_code == 200
        assert answer.json()["seats"][0]["name"] == "Ann"
        assert "abandoned" in registry.rooms
        claim(client, "abandoned", 1, "Bo")


def test_a_table_left_alone_leaves_the_lobby_and_comes_back_when_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry_module, "SWEEP_SECONDS", 0.05)
    with running_server(tmp_path, idle_seconds=0.3) as client:
        registry = services_of(client).registry
        seats = seats_spec("human", "human", "basic", "basic")
        watched = create_table(client, seats=seats, title="watched")
        alone = create_table(client, seats=seats, title="alone")
        with client.websocket_connect(f"/ws/{watched['table']}") as ws:
            join(ws, watched["secret"])
            deadline = time.monotonic() + 5
            while alone["table"] in registry.rooms:
                assert time.monotonic() < deadline, "an idle table was kept"
                time.sleep(0.05)
            listed = [t["title"] for t in client.get("/api/tables").json()["tables"]]
            assert listed == ["watched"], "a table with a player connected is not idle"
        # the game goes on where it was: its creator's seat is still theirs
        with client.websocket_connect(f"/ws/{alone['table']}") as ws:
            state = join(ws, alone["secret"])
            assert state["you"] == 0
        assert alone["table"] in registry.rooms
