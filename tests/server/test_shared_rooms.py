"""A room shared with other server processes: it drives computers only with the lease, counts a player
connected elsewhere as present, and applies the others' news.

The whole cluster (two ``pedro serve`` processes on PostgreSQL) is tried in
``test_multiprocess.py``; these check the room's and the registry's side of
it on their own, with a clock the test moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pedro.engine.actions import action_text
from pedro.server.storage.tables_db import NO_PROFILE, NewAction, SeatRow, Store, TableRow
from pedro.server.sync.cluster import Survey
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room, RoomSettings

AWAY = 10.0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'pedro.sqlite3'}")
    store.migrate()
    yield store
    store.close()


def table_row(kinds: list[str]) -> TableRow:
    seats = [
        SeatRow(
            i, kind, player="random" if kind == "computer" else None, name=f"P{i}", secret_hash=f"{i:064d}"
        )
        if kind == "computer" or i == 0
        else SeatRow(i, kind)
        for i, kind in enumerate(kinds)
    ]
    return TableRow("t" * 22, "t", "cinch", {"target": 21}, "seed", True, datetime.now(UTC), seats)


def shared_settings() -> RoomSettings:
    return RoomSettings(away_seconds=AWAY, bot_delay=0.0, shared=True)


async def wait_for(condition: object, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


def test_a_shared_room_drives_its_computers_only_while_it_holds_the_lease(store: Store) -> None:
    async def scenario() -> None:
        storage = AsyncStore(store)
        try:
            row = table_row(["computer"] * 4)
            await storage.create_table(row)
            room = Room(row, storage, shared_settings())
            room.start()
            await asyncio.sleep(0.2)
            assert room.seq == 0, "a computer moved without the lease"
            room.set_driving(True)
            await wait_for(lambda: room.seq >= 3)
            room.set_driving(False)
            await asyncio.sleep(0.05)  # an action being committed when the lease went still lands
            stopped_at = room.seq
            await asyncio.sleep(0.2)
            assert room.seq == stopped_at, "a computer moved after the lease was lost"
            assert store.load_table(row.id).actions == room.row.actions  # type: ignore[union-attr]
            room.stop()
        finally:
            storage.close()

    asyncio.run(scenario())


def test_a_player_connected_to_another_process_gets_no_stand_in() -> None:
    async def scenario() -> None:
        clock = Clock()
        room = Room(table_row(["human", "computer", "computer", "computer"]), None, shared_settings(), clock)  # type: ignore[arg-type]
        clock.now = 100.0
        assert room.stand_in(0), "away everywhere for longer than the away time"
        room.remote_presence(0, "other", True)
        assert not room.stand_in(0)
        assert room.seats_json()[0]["connected"]
        clock.now = 1000.0
        assert not room.stand_in(0), "connected elsewhere all along"
        room.remote_presence(0, "other", False)  # the player left that process at 1000
        clock.now = 1000.0 + AWAY - 1
        assert not room.stand_in(0) and not room.seats_json()[0]["connected"]
        clock.now = 1000.0 + AWAY
        assert room.stand_in(0)
        # a heartbeat's survey: connected to a third process; then that process died (not in the survey)
        room.set_remote({0: frozenset({"third"})})
        assert not room.stand_in(0)
        clock.now = 2000.0
        room.set_remote({})
        clock.now = 2000.0 + AWAY
        assert room.stand_in(0)
        room.stop()

    asyncio.run(scenario())


def test_the_registry_applies_the_news_of_other_processes(store: Store) -> None:
    async def scenario() -> None:
        storage = AsyncStore(store)
        try:
            row = table_row(["human"] * 4)
            await storage.create_table(row)
            registry = TableRegistry(storage, shared_settings(), "me")
            registry.load()
            room = registry.rooms[row.id]
            # seats claimed at another process: told with the claim's secret hash, profile and name
            assert room.facts().table.unrated == "no_profiles"
            for seat in (1, 2, 3):
                profile = "bo" if seat == 2 else NO_PROFILE
                assert not registry.on_news(f"other {row.id} seat {seat} {seat:064d} {profile} Name {seat}")
            assert room.started and room.seats_json()[3]["name"] == "Name 3"
            assert [s.row.profile for s in room.seats] == [None, None, "bo", None]
            # Bo's profile is seen here too: the next rule (a target of 21) is the reason now
            assert room.facts().table.unrated == "low_target"
            # an action committed there: applied here without reading the database
            action = room.state.legal_actions()[0]
            text = action_text(room.state.current_player, action, room.rules.max_bid)
            registry.on_news(f"other {row.id} 0 {text}")
            await wait_for(lambda: room.seq == 1)
            assert room.row.actions == [text]
            # news from the future (some was missed): the room reads what it lacks from the database
            nxt = room.state.legal_actions()[0]
            stored = [action_text(room.state.current_player, nxt, room.rules.max_bid)]
            store.append_action(row.id, 0, text)
            store.append_action(row.id, 1, stored[0])
            registry.on_news(f"other {row.id} 5 whatever")
            await wait_for(lambda: room.seq == 2)
            assert room.row.actions == [text, *stored]
            # presence, and a process leaving (which asks for a heartbeat)
            assert not registry.on_news(f"other {row.id} here 2")
            assert room.seats[2].elsewhere == {"other"}
            assert registry.on_news("other - left")
            # a survey hands out the leases
            registry.on_survey(
                Survey(frozenset({row.id}), frozenset({row.id}), {row.id: {1: frozenset({"x"})}})
            )
            assert room.driving and room.seats[1].elsewhere == {"x"} and not room.seats[2].elsewhere
            # a heartbeat that was not asked about a table says nothing of it
            registry.on_survey(Survey(frozenset(), frozenset(), {}))
            assert room.driving and room.seats[1].elsewhere == {"x"}
            registry.on_survey(None)
            assert not room.driving
            registry.stop()
        finally:
            storage.close()

    asyncio.run(scenario())


def test_news_that_comes_while_a_table_is_being_read_is_not_lost(store: Store) -> None:
    """Another process's action committed while this one reads the table: its news is dropped (the
    table is not loaded yet), so the loaded room reads what it missed."""

    async def scenario() -> None:
        storage = AsyncStore(store)
        try:
            row = table_row(["computer"] * 4)
            await storage.create_table(row)
            registry = TableRegistry(storage, shared_settings(), "me")
            first = Room(row, None, shared_settings())  # type: ignore[arg-type]
            action = first.state.legal_actions()[0]
            text = action_text(first.state.current_player, action, first.rules.max_bid)
            read = store.load_table

            def read_then_commit(table_id: str) -> TableRow | None:
                stored = read(table_id)
                store.write_many([NewAction(table_id, 0, text)])  # committed elsewhere just after
                assert not registry.on_news(f"other {table_id} 0 {text}")  # and told: not loaded yet
                return stored

            store.load_table = read_then_commit  # type: ignore[method-assign]
            room = await registry.get(row.id)
            assert room is not None
            await wait_for(lambda: room.seq == 1)
            assert room.row.actions == [text]
            registry.stop()
        finally:
            storage.close()

    asyncio.run(scenario())
