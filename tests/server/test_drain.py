"""The graceful shutdown step by step, in-process: while draining nothing changes, then clients are told.

The drain is held open half-way (the tables' drain waits for the test), so
the test can see what a client gets meanwhile: actions refused with
``restarting``, claims and new tables refused with 503, ``/readyz`` 503 and
``/healthz`` still 200, a new connection told to go elsewhere at once.
"""

from __future__ import annotations

import asyncio
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import (
    act,
    create_table,
    full_table,
    join,
    recv,
    recv_raw,
    recv_until,
    room_of,
    running_server,
    seats_spec,
    services_of,
    watch,
)

from pedro.server.http.lifecycle import RESTART_CLOSE_CODE, RESTART_MESSAGE, Lifecycle
from pedro.server.storage.tables_db import Store

RESTART = {"type": "restart", "message": RESTART_MESSAGE}


def lifecycle_of(client: TestClient) -> Lifecycle:
    lifecycle: Lifecycle = services_of(client).lifecycle
    return lifecycle


def hold_drain(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Make the tables' drain wait for the returned event (set it with ``client.portal.call``)."""
    registry = services_of(client).registry
    gate: asyncio.Event = client.portal.call(asyncio.Event)  # type: ignore[union-attr]
    real = registry.drain

    async def held() -> None:
        await gate.wait()
        await real()

    monkeypatch.setattr(registry, "drain", held)
    return gate


def start_drain(client: TestClient) -> Any:
    """Begin the shutdown on the server's loop and return once it is draining."""
    lifecycle = lifecycle_of(client)
    portal = client.portal  # type: ignore[union-attr]
    future = portal.start_task_soon(lifecycle.shutdown)
    for _ in range(1000):
        if portal.call(lambda: lifecycle.draining):
            return future
        portal.call(asyncio.sleep, 0.001)
    raise AssertionError("the shutdown did not start")


def stored_actions(tmp_path: Path, table: str) -> int:
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    try:
        row = store.load_table(table)
        assert row is not None
        return len(row.actions)
    finally:
        store.close()


def test_while_draining_nothing_changes_then_every_client_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_server(tmp_path) as client:
        table, secrets = full_table(client)
        open_seat = create_table(client, seats=seats_spec("human", "human", "human", "human"))["table"]
        gate = hold_drain(client, monkeypatch)
        with ExitStack() as stack:
            seats = [stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in secrets]
            spectator = stack.enter_context(client.websocket_connect(f"/ws/{table}"))
            states = [join(ws, secret) for ws, secret in zip(seats, secrets, strict=True)]
            watch(spectator)
            turn = room_of(client, table).state.current_player
            ws, state = seats[turn], states[turn]
            seq = state["seq"]
            future = start_drain(client)

            act(ws, state["game"]["legal"]["actions"][0]["action"], seq)
            refused = recv_until(ws, lambda m: m["type"] == "error")
            assert refused["code"] == "restarting", refused
            assert room_of(client, table).seq == seq

            assert client.get("/readyz").status_code == 503
            assert client.get("/readyz").json() == {"ready": False, "reason": "the server is shutting down"}
            assert client.get("/healthz").status_code == 200
            assert client.get(f"/api/tables/{table}").status_code == 200
            claim = client.post(f"/api/tables/{open_seat}/seats", json={"seat": 1, "name": "Bo"})
            assert claim.status_code == 503 and "restarting" in claim.json()["error"]
            assert room_of(client, open_seat).seats[1].claimed is False
            before = len(client.get("/api/tables").json()["tables"])
            body = {"variant": "cinch", "seats": seats_spec("basic", "basic", "basic", "basic"), "seat": None}
            assert client.post("/api/tables", json=body).status_code == 503
            assert len(client.get("/api/tables").json()["tables"]) == before

            with client.websocket_connect(f"/ws/{table}") as late:  # a new connection: told at once
                assert recv(late) == RESTART
                assert recv_raw(late) == {"type": "websocket.close", "code": RESTART_CLOSE_CODE, "reason": ""}

            client.portal.call(gate.set)  # type: ignore[union-attr]
            future.result(timeout=30)
            for socket in (*seats, spectator):
                assert recv_until(socket, lambda m: m["type"] == "restart") == RESTART
                assert recv_raw(socket)["code"] == RESTART_CLOSE_CODE
        assert stored_actions(tmp_path, table) == seq


def test_draining_stops_the_computer_players_for_good(tmp_path: Path) -> None:
    with running_server(tmp_path, bot_delay=0.01) as client:
        made = create_table(
            client, seats=seats_spec("random", "random", "random", "random"), seat=None, name=None
        )
        room = room_of(client, made["table"])
        with client.websocket_connect(f"/ws/{made['table']}") as spectator:
            watch(spectator)
            seen = recv_until(spectator, lambda m: m["type"] == "state" and m["seq"] >= 2)["seq"]
            start_drain(client).result(timeout=30)
            assert room.stopped
            assert room._driver is not None and room._driver.done()
            client.portal.call(room.kick)  # type: ignore[union-attr]
            assert room._driver.done(), "a stopped room started its computer players again"
            for message in spectator_messages(spectator):
                seen = message["seq"] if message["type"] == "state" else seen
        # every action the spectator was told of, and no other, is stored
        assert seen == room.seq == stored_actions(tmp_path, made["table"])


def spectator_messages(ws: Any) -> list[dict[str, Any]]:
    """Messages until the restart (the close follows it)."""
    got = []
    while (message := recv(ws))["type"] != "restart":
        got.append(message)
    assert recv_raw(ws)["code"] == RESTART_CLOSE_CODE
    return got


def test_the_lifespan_drains_when_the_server_did_not(tmp_path: Path) -> None:
    """Under another ASGI server (here TestClient) the lifespan's end runs the same drain."""
    with running_server(tmp_path) as client:
        lifecycle = lifecycle_of(client)
        assert not lifecycle.draining
    assert lifecycle.draining
