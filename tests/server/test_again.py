"""Play again: the first player to ask sets up the next game with the same people, computers and
rules, a seat on; every other person's seat is kept for them until they come or leave."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from pedro.server.storage.tables_db import SeatRow, Store, TableRow
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.game import seed_dealing_first, table_game
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import RoomSettings

from .client_helpers import (
    WAIT,
    act,
    choose,
    claim,
    join,
    pending_json,
    recv,
    recv_until,
    room_of,
    running_server,
    seats_spec,
)


def finish(client: TestClient, table: str, sockets: list[WebSocketTestSession], states: list[Any]) -> None:
    """Both people play random legal moves until the game is over."""
    rng = random.Random(3)
    room = room_of(client, table)
    deadline = time.monotonic() + 4 * WAIT
    while not room.finished:
        assert time.monotonic() < deadline, "the game did not end"
        for i, ws in enumerate(sockets):
            for message in pending_json(ws, 0.01):
                if message["type"] == "state":
                    states[i] = message
            state = states[i]
            if state["game"]["legal"] is not None and state["seq"] == room.seq and not state["finished"]:
                seq = state["seq"]
                act(ws, choose(state, rng, room), seq)
                states[i] = recv_until(ws, lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)


def again(client: TestClient, table: str, secret: str) -> Any:
    return client.post(f"/api/tables/{table}/again", json={"secret": secret})


def played_table(client: TestClient) -> tuple[dict[str, Any], str, list[WebSocketTestSession]]:
    """Ann and Bo against two computers, a game to 1 point with a turn clock; returns the table,
    Bo's secret and both sockets (open: the caller closes them)."""
    body = {
        "variant": "cinch",
        "options": {"target": 1},
        "seats": seats_spec("human", "human", "random", "random"),
        "seat": 0,
        "name": "Ann",
        "clock": 90,
    }
    made = client.post("/api/tables", json=body).json()
    table = made["table"]
    bo = claim(client, table, 1, "Bo")
    sockets = [client.websocket_connect(f"/ws/{table}") for _ in range(2)]
    for ws in sockets:
        ws.__enter__()
    states = [join(sockets[0], made["secret"]), join(sockets[1], bo)]
    early = again(client, table, made["secret"])
    assert early.status_code == 409 and early.json()["code"] == "again_unfinished"
    finish(client, table, sockets, states)
    return made, bo, sockets


def test_the_next_game_keeps_the_players_rules_and_computers_and_moves_the_deal_on(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        made, bo, sockets = played_table(client)
        table = made["table"]
        old = room_of(client, table)
        refused = again(client, table, "not a seat's secret")
        assert refused.status_code == 403 and refused.json()["code"] == "again_not_player"
        answer = again(client, table, made["secret"])
        assert answer.status_code == 200, answer.text
        following = answer.json()["table"]
        assert answer.json()["seat"] == 0
        # the old table links to it, and Bo's page is told
        assert client.get(f"/api/tables/{table}").json()["next"] == following
        told = recv_until(sockets[1], lambda m: m["type"] == "state" and m["table"]["next"] == following)
        assert told["finished"]
        new = client.get(f"/api/tables/{following}").json()
        assert (new["variant"], new["options"], new["title"]) == ("cinch", {"target": 1}, old.row.title)
        assert new["clock"] == 90
        assert [(s["kind"], s["player"]) for s in new["seats"]] == [
            ("human", None),
            ("human", None),
            ("computer", "random"),
            ("computer", "random"),
        ]
        assert [s["name"] for s in new["seats"][:2]] == ["Ann", "Bo"]
        assert [s["pending"] for s in new["seats"]] == [False, True, False, False]
        assert new["phase"] == "waiting", "play waits for Bo"
        dealer = room_of(client, following).state.first_dealer
        assert dealer == (old.state.first_dealer + 1) % 4
        # asking again gives the same table; Bo comes with the old seat's secret and play begins
        assert again(client, table, made["secret"]).json()["table"] == following
        with client.websocket_connect(f"/ws/{following}") as bo_socket:
            state = join(bo_socket, bo)
            assert state["seats"][1]["claimed"] and not state["seats"][1]["pending"]
            assert state["started"]
        for ws in sockets:
            ws.__exit__(None, None, None)
    # after a restart the link and the seats stand
    with running_server(tmp_path) as client:
        assert client.get(f"/api/tables/{table}").json()["next"] == following
        assert client.get(f"/api/tables/{following}").json()["phase"] != "waiting"


def test_a_player_who_leaves_frees_the_seat_for_an_invitation_or_the_hosts_computer(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        made, bo, sockets = played_table(client)
        for ws in sockets:
            ws.__exit__(None, None, None)
        following = again(client, made["table"], made["secret"]).json()["table"]
        not_held = client.post(f"/api/tables/{following}/leave", json={"secret": made["secret"]})
        assert not_held.status_code == 409 and not_held.json()["code"] == "not_held"
        left = client.post(f"/api/tables/{following}/leave", json={"secret": bo})
        assert left.status_code == 200 and left.json()["free_seats"] == [1]
        # Bo's old secret no longer opens the seat; the host of the old table is the host here
        with client.websocket_connect(f"/ws/{following}") as bo_socket:
            bo_socket.send_json({"type": "join", "secret": bo})
            assert recv(bo_socket)["code"] == "auth"
        changed = client.post(
            f"/api/tables/{following}/host/seats/1",
            json={"host": made["host"], "kind": "computer", "player": "club"},
        )
        assert changed.status_code == 200 and changed.json()["phase"] != "waiting"


def test_the_next_dealer_seed_deals_from_the_seat_asked() -> None:
    for dealer in range(4):
        seed = seed_dealing_first(4, dealer)
        assert table_game("cinch", {}, seed, None).first_dealer == dealer


def test_another_process_learns_of_the_next_game_and_the_answers(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'pedro.sqlite3'}")
    store.migrate()

    async def scenario() -> None:
        storage = AsyncStore(store)
        settings = RoomSettings(away_seconds=10.0, bot_delay=0.0, shared=True)
        try:
            seats = [SeatRow(0, "human", name="Ann", secret_hash="a" * 64, pending=True)]
            seats += [SeatRow(i, "computer", player="random") for i in (1, 2, 3)]
            row = TableRow("n" * 22, "t", "cinch", {}, "seed", True, datetime.now(UTC), seats)
            await storage.create_table(row)
            registry = TableRegistry(storage, settings, "them")
            registry.load()
            room = registry.rooms[row.id]
            assert not room.started, "the seat is kept for Ann"
            registry.on_news(f"me {row.id} answered 0 1")
            assert room.started and not room.seats[0].row.pending
            registry.on_news(f"me {row.id} next {'m' * 22}")
            assert room.facts().table.next == "m" * 22
            registry.stop()
        finally:
            storage.close()

    asyncio.run(scenario())
    store.close()
