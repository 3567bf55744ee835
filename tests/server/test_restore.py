"""A stored table that no longer replays is left out at start, and the others are still served."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from starlette.testclient import TestClient

from pedro.server.app import ServerSettings, create_app
from pedro.server.store import SeatRow, Store, TableRow


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
        assert response.status_code == 404
        assert "no such table" in response.json()["error"]
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == ["good"]
