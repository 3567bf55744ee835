"""``/healthz`` answers without the database; ``/readyz`` asks it, off the event loop, with a timeout."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import running_server, services_of

from pedro.server.http.health import DatabaseProbe
from pedro.server.storage.tables_db import StoreError


def probe_of(client: TestClient) -> DatabaseProbe:
    probe: DatabaseProbe = services_of(client).probe
    return probe


def test_ready_when_the_database_answers(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        assert client.get("/healthz").json() == {"ok": True, "tables": 0}
        answer = client.get("/readyz")
        assert answer.status_code == 200
        assert answer.json() == {"ready": True, "database": "ok", "tables": 0}


def test_liveness_never_touches_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with running_server(tmp_path) as client:
        store = probe_of(client).store

        def no_database(*args: object, **kwargs: object) -> None:
            raise AssertionError("the liveness check used the database")

        def database_down() -> None:
            raise StoreError("connection refused")

        monkeypatch.setattr(store.engine, "connect", no_database)
        monkeypatch.setattr(store, "ping", no_database)
        assert client.get("/healthz").status_code == 200
        monkeypatch.setattr(store, "ping", database_down)
        assert client.get("/healthz").status_code == 200
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json() == {"ready": False, "reason": "the database refused the check query"}


def test_not_ready_when_the_schema_is_gone(tmp_path: Path) -> None:
    """A real failure: the query reads pedro's own table, so a wrong or emptied database is not ready."""
    with running_server(tmp_path) as client:
        db = sqlite3.connect(tmp_path / "db.sqlite3")
        try:
            db.execute("ALTER TABLE pedro_tables RENAME TO pedro_tables_away")
            db.commit()
            answer = client.get("/readyz")
            assert answer.status_code == 503
            assert answer.json() == {"ready": False, "reason": "the database refused the check query"}
            db.execute("ALTER TABLE pedro_tables_away RENAME TO pedro_tables")
            db.commit()
        finally:
            db.close()
        assert client.get("/readyz").status_code == 200


def test_a_hung_database_gets_one_query_and_a_timely_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_server(tmp_path) as client:
        probe = probe_of(client)
        probe.timeout = 0.05
        release = threading.Event()
        calls: list[str] = []
        real_ping = probe.store.ping

        def hung() -> None:
            calls.append(threading.current_thread().name)
            release.wait(30)
            real_ping()

        monkeypatch.setattr(probe.store, "ping", hung)
        for _ in range(3):  # each check waits for the query under way instead of starting another
            answer = client.get("/readyz")
            assert answer.status_code == 503
            assert answer.json()["reason"] == "the database did not answer within 0.05 s"
        assert client.get("/healthz").status_code == 200  # the event loop was never blocked
        assert len(calls) == 1 and calls[0].startswith("pedro-readyz")
        release.set()
        probe.timeout = 30
        assert client.get("/readyz").status_code == 200
