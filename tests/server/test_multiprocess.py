"""Two ``pedro serve`` processes on one PostgreSQL database, a table's players split between them.

Each action is committed once (the ``(table, seq)`` key) and announced to the
other process through PostgreSQL ``LISTEN``/``NOTIFY``, which applies it and
tells its own clients. A table's computer players are driven by the process
holding its lease; when that process is killed, the other takes over. The
finished game must be exactly the game played without a server.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from tests.server.durability_helpers import (
    CreatedTable,
    Humans,
    api,
    create_table,
    in_play,
    last_is,
    record_actions,
    reference_record,
    stored_table,
    without_names,
)
from tests.server.test_store import table_row
from tests.serving import ServerProcess, postgres_database, running_server

from pedro.server.storage.schema import leases_table
from pedro.server.storage.tables_db import ConflictError, Store, engine_url
from pedro.variants.options import make_ruleset

AWAY = 3600.0
HUMAN = {"kind": "human"}
RANDOM = {"kind": "computer", "player": "random"}
CINCH = {"target": 21}
#: How long a killed process's tables wait for a new driver, at most (its lease lapses in seconds).
TAKEOVER_SECONDS = 30.0


class SplitHumans(Humans):
    """``Humans`` whose seats are connected to different server processes."""

    def __init__(self, servers: dict[int, ServerProcess], table: CreatedTable) -> None:
        super().__init__(servers[0], table)
        self.servers = servers

    def server_of(self, seat: int) -> ServerProcess:
        return self.servers[seat]


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_database() as database_url:
        yield database_url


def lease_holder(url: str, table_id: str) -> str | None:
    """The process id (``host:pid:random``) that drives the table's computer players."""
    engine = create_engine(engine_url(url))
    try:
        with engine.connect() as c:
            holder: str | None = c.execute(
                select(leases_table.c.holder).where(leases_table.c.table_id == table_id)
            ).scalar()
    finally:
        engine.dispose()
    return holder


def holder_of(url: str, table_id: str, servers: list[ServerProcess]) -> ServerProcess:
    """The server process holding the table's lease (waiting for a heartbeat to take it)."""
    deadline = time.monotonic() + TAKEOVER_SECONDS
    while True:
        holder = lease_holder(url, table_id)
        for server in servers:
            assert server.process is not None
            if holder is not None and holder.split(":")[1] == str(server.process.pid):
                return server
        assert time.monotonic() < deadline, f"no live server holds table {table_id}'s lease ({holder})"
        time.sleep(0.1)


def check_against_reference(url: str, table: CreatedTable, record: dict[str, object]) -> None:
    row = stored_table(url, table.id)
    assert without_names(record) == without_names(reference_record(table, row.seed))
    assert row.actions == record_actions(record)


@pytest.mark.postgres
@pytest.mark.processes
def test_a_table_split_between_two_processes_plays_to_the_end(url: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        running_server(url, tmp_path / "a", away=AWAY) as a,
        running_server(url, tmp_path / "b", away=AWAY) as b,
    ):
        table = create_table(a, "cinch", CINCH, [HUMAN] * 4)
        humans = SplitHumans({0: a, 1: b, 2: a, 3: b}, table)
        try:
            humans.connect()
            outcome = humans.play()
        finally:
            humans.close()
        assert outcome.kind == "finished"
        record = api(a, "GET", f"/api/tables/{table.id}/record")
        assert api(b, "GET", f"/api/tables/{table.id}/record") == record
    check_against_reference(url, table, record)


@pytest.mark.postgres
@pytest.mark.processes
def test_killing_the_lease_holder_mid_hand_loses_nothing(url: str, tmp_path: Path) -> None:
    """kill -9 the process driving the computers: its player reconnects to the other process, which
    takes the lease over; the computers carry on there and the game is the uninterrupted one."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        running_server(url, tmp_path / "a", away=AWAY, bot_delay=0.02) as a,
        running_server(url, tmp_path / "b", away=AWAY, bot_delay=0.02) as b,
    ):
        table = create_table(a, "cinch", CINCH, [HUMAN, RANDOM, HUMAN, RANDOM])
        holder = holder_of(url, table.id, [a, b])
        survivor = b if holder is a else a
        humans = SplitHumans({0: a, 2: b}, table)
        try:
            humans.connect()
            outcome = humans.play(stop=lambda s: in_play(s, 0, 2))
            assert outcome.kind == "stopped"
            seen = humans.settle()
            killed_at = humans.confirmed
            holder.kill()
            humans.close()
            stored = stored_table(url, table.id).actions
            # every action any client was shown had been committed: none is lost with the process
            assert len(stored) >= humans.confirmed
            max_bid = make_ruleset("cinch", CINCH).max_bid
            for seat, state in seen.items():
                assert last_is(stored[state["seq"] - 1], state["last"], max_bid), f"seat {seat}: {state}"
            # the killed process's player comes back through the other one
            humans.servers = dict.fromkeys(humans.servers, survivor)
            humans.connect()
            assert holder_of(url, table.id, [survivor]) is survivor  # took the lease over
            outcome = humans.play()
            assert outcome.kind == "finished"
        finally:
            humans.close()
        record = api(survivor, "GET", f"/api/tables/{table.id}/record")
    check_against_reference(url, table, record)
    # the computers did play on after the kill, at the survivor
    computer_moves_after = [t for t in record_actions(record)[killed_at:] if t.split()[0] in "13"]
    assert computer_moves_after


@pytest.mark.postgres
@pytest.mark.processes
def test_no_stand_in_plays_for_a_player_connected_to_the_other_process(url: str, tmp_path: Path) -> None:
    """The lease holder counts a seat connected to another process as present; once the player
    leaves, the holder's stand-in plays for them after the away time."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    away = 1.0
    with (
        running_server(url, tmp_path / "a", away=away) as a,
        running_server(url, tmp_path / "b", away=away) as b,
    ):
        table = create_table(b, "cinch", CINCH, [HUMAN, RANDOM, RANDOM, RANDOM])
        created_by = lease_holder(url, table.id)  # taken with the table, before any heartbeat
        assert b.process is not None and created_by is not None
        assert created_by.split(":")[1] == str(b.process.pid), "the creator drives a new table"
        holder, elsewhere = b, a
        humans = SplitHumans({0: elsewhere}, table)
        try:
            humans.connect()
            outcome = humans.play(stop=lambda s: s["game"]["legal"] is not None)
            assert outcome.kind == "stopped"
            seq = outcome.state["seq"]
            time.sleep(away * 3)  # well past the away time: a stand-in would have played by now
            assert len(stored_table(url, table.id).actions) == seq
            seats = api(holder, "GET", f"/api/tables/{table.id}")["seats"]
            assert seats[0]["connected"] and not seats[0]["stand_in"]
        finally:
            humans.close()
        deadline = time.monotonic() + TAKEOVER_SECONDS
        while len(stored_table(url, table.id).actions) == seq:  # gone: the stand-in plays
            assert time.monotonic() < deadline, "no stand-in played for the player who left"
            time.sleep(0.1)


def test_two_handles_on_one_database_commit_an_action_place_once(tmp_path: Path) -> None:
    """What lets two processes share a table, without processes or PostgreSQL (fast tier): an
    action's place (table, seq) is committed once; the process that comes second is refused and
    the stored action is the first one's."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    first, second = Store(url), Store(url)
    try:
        first.migrate()
        first.create_table(table_row())
        first.append_action("t1", 0, "1 pass")
        with pytest.raises(ConflictError):
            second.append_action("t1", 0, "1 bid 2")
        second.append_action("t1", 1, "2 pass")
        row = first.load_table("t1")
        assert row is not None and row.actions == ["1 pass", "2 pass"]
    finally:
        first.close()
        second.close()
