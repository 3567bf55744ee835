"""A stored table that no longer replays is left out at start, and the others are still served."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pedro.engine.actions import action_text
from pedro.engine.state import GameState
from pedro.server.app import create_app
from pedro.server.settings import ServerSettings
from pedro.server.storage.tables_db import SeatRow, Store, TableRow
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables import registry as registry_module
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import RoomSettings
from pedro.variants.options import make_ruleset


def _table(table_id: str, actions: list[str]) -> TableRow:
    seats = [SeatRow(s, "computer", player="basic") for s in range(4)]
    return TableRow(table_id, "t", "cinch", {}, "seed", True, datetime.now(UTC), seats, actions=actions)


def test_a_damaged_table_is_skipped_and_the_rest_are_served(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    store.migrate()
    store.create_table(_table("good", []))
    store.create_table(_table("damaged", []))
    store.append_action("damaged", 0, "0 play ZZ")  # not a card: the table cannot be rebuilt
    store.close()
    with TestClient(create_app(ServerSettings(database=url, bot_delay=60, start_workers=False))) as client:
        assert client.get("/api/tables/good").status_code == 200
        response = client.get("/api/tables/damaged")
        assert response.status_code == 410
        assert response.json()["code"] == "table_broken"
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["good"]


def test_a_game_that_ended_just_before_a_kill_is_marked_finished_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finished mark follows the last action's commit; a kill between the two leaves a stored
    game over but unmarked, which the next start marks (so it is no longer loaded at every start),
    and the finished room is let go by the next sweep, as nobody looks at it."""
    rules = make_ruleset("cinch", {"target": 21})
    state, actions, rng = GameState(rules, seed="ended"), [], random.Random(0)
    while not state.is_over:
        action = rng.choice(list(state.legal_actions()))
        actions.append(action_text(state.current_player, action, rules.max_bid))
        state.apply(action)
    seats = [SeatRow(i, "computer", player="random") for i in range(4)]
    row = TableRow("e" * 22, "t", "cinch", {"target": 21}, "ended", False, datetime.now(UTC), seats)
    store = Store(f"sqlite:///{tmp_path / 'pedro.sqlite3'}")
    store.migrate()
    store.create_table(row)
    for seq, text in enumerate(actions):
        store.append_action(row.id, seq, text)
    assert store.load_tables(unfinished_only=True)  # over, but not marked

    async def start_and_stop() -> None:
        storage = AsyncStore(Store(store.url))
        registry = TableRegistry(storage, RoomSettings(bot_delay=0.0))
        registry.load()
        assert registry.rooms[row.id].finished
        await asyncio.sleep(0.3)
        assert row.id not in registry.rooms, "a finished game nobody looks at was kept"
        registry.stop()
        storage.close()

    monkeypatch.setattr(registry_module, "SWEEP_SECONDS", 0.1)
    asyncio.run(start_and_stop())
    assert store.load_tables(unfinished_only=True) == []
    store.close()
