"""Commits leave the event loop free, and still come before the announcement.

The database's writer thread is held up (``Store.write_many`` patched to wait
for the test), so each test sees the moment between an action's check and
its commit: the server must keep serving, tell nobody yet, and let no second
action of the table through against the state being changed.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import (
    act,
    choose,
    full_table,
    join,
    pending_json,
    recv,
    recv_until,
    room_of,
    running_server,
    watch,
)

from pedro.engine.choices import CardChoice
from pedro.server.storage.tables_db import NewAction, SeatRow, Store, StoreError, TableRow, Write, hash_secret
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.room import Room, RoomError, RoomSettings
from pedro.server.tables.views import words

#: Longest a held write waits for the test before going on (a broken test fails instead of hanging).
HOLD_LIMIT = 20.0


class HeldWrites:
    """Patches ``Store.write_many``: writes of actions wait for ``release``, and may be made to fail."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.fail_next = False
        self.events: list[str] = []
        original = Store.write_many

        def write_many(store: Store, writes: Sequence[Write]) -> list[StoreError | None]:
            if not any(isinstance(w, NewAction) for w in writes):
                return original(store, writes)
            self.entered.set()
            self.release.wait(HOLD_LIMIT)
            self.events.append("committed")
            if self.fail_next:
                self.fail_next = False
                return [StoreError("the disk is full")] * len(writes)
            return original(store, writes)

        monkeypatch.setattr(Store, "write_many", write_many)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as client:
        yield client


def test_the_server_keeps_answering_while_a_commit_is_slow(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, secrets = full_table(client)
    other_table, _ = full_table(client)
    room = room_of(client, table)
    turn = room.state.current_player
    held = HeldWrites(monkeypatch)
    with (
        client.websocket_connect(f"/ws/{table}") as ws,
        client.websocket_connect(f"/ws/{other_table}") as other,
    ):
        state = join(ws, secrets[turn])
        act(ws, choose(state, random.Random(1)), 0)
        assert held.entered.wait(HOLD_LIMIT)
        # the commit is under way: the loop still serves everyone else
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json()["ok"]
        assert client.get(f"/api/tables/{other_table}").json()["id"] == other_table
        assert watch(other)["seq"] == 0
        other.send_json({"type": "ping"})
        assert recv(other) == {"type": "pong"}
        held.events.append("served")
        # and nothing was applied or announced before the commit
        assert room.seq == 0
        assert pending_json(ws) == []
        held.release.set()
        confirmed = recv_until(ws, lambda m: m["type"] == "state")
    assert confirmed["seq"] == 1
    assert held.events == ["served", "committed"]


def test_a_failed_commit_changes_nothing_and_the_player_is_told(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    table, secrets = full_table(client)
    room = room_of(client, table)
    turn = room.state.current_player
    held = HeldWrites(monkeypatch)
    held.release.set()
    held.fail_next = True
    with client.websocket_connect(f"/ws/{table}") as ws, client.websocket_connect(f"/ws/{table}") as watcher:
        state = join(ws, secrets[turn])
        watch(watcher)  # its arrival is told to it alone
        action = choose(state, random.Random(2))
        act(ws, action, 0)
        error = recv(ws)
        assert error["type"] == "error" and error["code"] == "unavailable", error
        assert "nothing changed" in error["message"]
        assert room.seq == 0 and room.state.hand_index == 0 and room.last is None
        assert pending_json(watcher) == []  # nobody heard of it
        stored = Store(f"sqlite:///{tmp_path}/db.sqlite3")
        try:
            assert stored.load_table(table).actions == []  # type: ignore[union-attr]
        finally:
            stored.close()
        act(ws, action, 0)  # the same action again, once the database is back
        assert recv(ws)["seq"] == 1
        assert recv(watcher)["seq"] == 1
    assert held.events == ["committed", "committed"]


# ---------------------------------------------------------------------------- one table, two actions at once


@dataclass
class FakeClient:
    seat: int | None
    sent: list[str | bytes] = field(default_factory=list)

    def send(self, text: str | bytes) -> None:
        self.sent.append(text)

    def replaced(self) -> None:
        pass


@pytest.mark.parametrize("first_commit", ["succeeds", "fails"])
def test_two_racing_actions_of_a_table_are_not_both_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first_commit: str
) -> None:
    """Two connections of the seat to play send different actions on the same state at once."""
    store = Store(f"sqlite:///{tmp_path}/race.sqlite3")
    store.migrate()
    seats = [SeatRow(s, "human", name=f"P{s}", secret_hash=hash_secret(f"s{s}")) for s in range(4)]
    row = TableRow("race", "race", "cinch", {}, "seed", True, datetime.now(UTC), seats)
    store.create_table(row)
    held = HeldWrites(monkeypatch)
    held.fail_next = first_commit == "fails"

    async def main() -> tuple[Room, list[BaseException | None], list[str]]:
        room = Room(row, AsyncStore(store), RoomSettings())
        turn = room.state.current_player
        legal = room.state.legal()
        assert not isinstance(legal, CardChoice)  # the auction: a list
        texts = [words(a, room.rules) for a in legal[:2]]
        first = asyncio.create_task(room.act(FakeClient(turn), texts[0], 0))
        while not held.entered.is_set():  # the first is being committed...
            await asyncio.sleep(0.01)
        second = asyncio.create_task(room.act(FakeClient(turn), texts[1], 0))
        await asyncio.sleep(0.05)
        assert not second.done()  # ...and the second waits its turn
        assert room.seq == 0
        held.release.set()
        results = await asyncio.gather(first, second, return_exceptions=True)
        room.store.close()
        return room, results, texts

    room, results, texts = asyncio.run(main())
    stored = Store(f"sqlite:///{tmp_path}/race.sqlite3")
    try:
        actions = stored.load_table("race").actions  # type: ignore[union-attr]
    finally:
        stored.close()
    turn = int(actions[0].split()[0])
    if first_commit == "succeeds":
        assert results[0] is None
        assert isinstance(results[1], RoomError) and results[1].code == "stale"
        assert actions == [f"{turn} {texts[0]}"]
    else:
        assert isinstance(results[0], StoreError)
        assert results[1] is None  # checked against the unchanged state: its turn, its state
        assert actions == [f"{turn} {texts[1]}"]
    assert room.seq == 1 and room.row.actions == actions
