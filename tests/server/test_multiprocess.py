"""Two ``pedro serve`` processes on one PostgreSQL database, a table's players split between them.

Each action is committed once (the ``(table, seq)`` key) and announced to the
other process through PostgreSQL ``LISTEN``/``NOTIFY``, which catches up
and tells its own clients. The finished game must be exactly the game
played without a server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.durability_helpers import (
    CreatedTable,
    Humans,
    State,
    _Pacer,
    api,
    create_table,
    record_actions,
    reference_record,
    stored_table,
    without_names,
)
from tests.serving import ServerProcess, postgres_database, running_server
from websockets.sync.client import connect

pytestmark = pytest.mark.postgres

AWAY = 3600.0
HUMAN = {"kind": "human"}
CINCH = {"target": 21}


class SplitHumans(Humans):
    """``Humans`` whose seats are connected to different server processes."""

    def __init__(self, servers: dict[int, ServerProcess], table: CreatedTable) -> None:
        super().__init__(servers[0], table)
        self.servers = servers

    def connect(self, seats: list[int] | None = None) -> dict[int, State]:
        self.generation += 1
        self.latest = {}
        self.backlog.clear()
        self.acted = None
        seats = sorted(self.table.secrets) if seats is None else seats
        for seat in seats:
            url = f"{self.servers[seat].ws_url}/ws/{self.table.id}"
            ws = self.stack.enter_context(connect(url, open_timeout=30, close_timeout=2, proxy=None))
            self.connections[seat] = ws
            self.pacers[seat] = _Pacer()
            self._start_reader(seat, ws)
            self._send(seat, {"type": "join", "secret": self.table.secrets[seat]})
        first: dict[int, State] = {}
        while len(first) < len(seats):
            seat, message = self._receive()
            self.backlog.append((seat, message))
            assert message["type"] != "error", f"seat {seat} could not join: {message}"
            if message["type"] == "state" and seat not in first:
                first[seat] = message
        return first

    def _start_reader(self, seat: int, ws: object) -> None:
        import threading

        thread = threading.Thread(
            target=self._read, args=(self.generation, seat, ws), daemon=True, name=f"ws-{seat}"
        )
        thread.start()
        self.threads.append(thread)


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_database() as database_url:
        yield database_url


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
    row = stored_table(url, table.id)
    assert without_names(record) == without_names(reference_record(table, row.seed))
    assert row.actions == record_actions(record)
