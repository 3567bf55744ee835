"""A table's host controls: only the creator's host secret works them, each refusal changes nothing,
and each change holds across a restart and reaches the other server processes."""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pedro.server.storage.tables_db import (
    Closed,
    SeatChange,
    SeatHanded,
    SeatRow,
    Store,
    TableRow,
    ViewerBarred,
    hash_secret,
)
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room, RoomSettings

from .client_helpers import (
    act,
    choose,
    claim,
    create_table,
    join,
    recv,
    recv_until,
    room_of,
    running_server,
    seats_spec,
    watch,
)

VIEWER = "viewer-0123456789"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path, away_seconds=0.2) as client:
        yield client


def host_post(client: TestClient, table: str, path: str, host: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table}/host{path}", json={"host": host, **body})


def waiting_table(client: TestClient) -> dict[str, Any]:
    """Ann at seat 0, seat 1 free, two computers: play waits for seat 1."""
    return create_table(client, seats=seats_spec("human", "human", "basic", "basic"))


CONTROLS = [
    ("", {}),
    ("/seats/1", {"kind": "computer", "player": "club"}),
    ("/hand-over/1", {"computer": True}),
    ("/spectators", {}),
    ("/remove", {"viewer": VIEWER}),
    ("/close", {}),
    ("/chat", {"on": False}),
]


@pytest.mark.parametrize(("path", "body"), CONTROLS)
def test_every_control_refuses_anyone_without_the_host_secret(
    client: TestClient, path: str, body: dict[str, Any]
) -> None:
    made = waiting_table(client)
    table = made["table"]
    before = client.get(f"/api/tables/{table}").json()
    for wrong in ("not the secret", made["secret"]):  # a seat's secret is not the host's
        response = host_post(client, table, path, wrong, **body)
        assert response.status_code == 403, response.text
        assert response.json()["code"] == "not_host"
    missing = client.post(f"/api/tables/{table}/host{path}", json=body)
    assert missing.status_code == 422 and "host" in missing.json()["error"]
    assert client.get(f"/api/tables/{table}").json() == before, "a refused control changed the table"
    assert host_post(client, "no-such-table", path, made["host"], **body).status_code == 404


def test_the_host_secret_is_returned_once_and_stored_hashed(client: TestClient) -> None:
    made = waiting_table(client)
    assert made["host"] and made["host"] != made["secret"]
    assert host_post(client, made["table"], "", made["host"]).json() == {"host": True}
    room = room_of(client, made["table"])
    assert room.row.host_hash == hash_secret(made["host"])
    stored = room.store.store.load_table(made["table"])
    assert stored is not None and stored.host_hash == hash_secret(made["host"])
    assert made["host"] not in client.get(f"/api/tables/{made['table']}").text


def test_before_the_start_the_host_makes_a_seat_a_computer_or_a_persons(client: TestClient) -> None:
    made = waiting_table(client)
    table, host = made["table"], made["host"]
    with client.websocket_connect(f"/ws/{table}") as ann:
        state = join(ann, made["secret"])
        assert not state["started"]
        changed = host_post(client, table, "/seats/2", host, kind="computer", player="expert")
        assert changed.status_code == 200, changed.text
        assert changed.json()["seats"][2]["player"] == "expert"
        state = recv_until(ann, lambda m: m["type"] == "state" and m["seats"][2]["player"] == "expert")
        assert state["seats"][2]["name"] == "3 · expert"
        # a computer seat made a person's is free to take; a level the server does not run is refused
        assert host_post(client, table, "/seats/3", host, kind="human").json()["free_seats"] == [1, 3]
        too_strong = host_post(client, table, "/seats/3", host, kind="computer", player="expert:500")
        assert too_strong.status_code == 400 and too_strong.json()["code"] == "too_strong"
        assert host_post(client, table, "/seats/9", host, kind="human").json()["code"] == "host_no_seat"
        # the last free seats made computers: play begins
        host_post(client, table, "/seats/3", host, kind="computer", player="beginner")
        host_post(client, table, "/seats/1", host, kind="computer", player="club")
        state = recv_until(ann, lambda m: m["type"] == "state" and m["started"])
        assert [s["kind"] for s in state["seats"]] == ["human", "computer", "computer", "computer"]
        late = host_post(client, table, "/seats/1", host, kind="human")
        assert late.status_code == 409 and late.json()["code"] == "host_started"
    stored = room_of(client, table).store.store.load_table(table)
    assert stored is not None
    assert [(s.kind, s.player) for s in stored.seats] == [
        ("human", None),
        ("computer", "club"),
        ("computer", "expert"),
        ("computer", "beginner"),
    ]


def test_the_host_frees_a_seat_taken_by_someone_away_but_not_by_someone_here(client: TestClient) -> None:
    made = create_table(client, seats=seats_spec("human", "human", "human", "basic"))
    table, host = made["table"], made["host"]
    cy = claim(client, table, 1, "Cy")
    with client.websocket_connect(f"/ws/{table}") as cy_socket:
        join(cy_socket, cy)
        here = host_post(client, table, "/seats/1", host, kind="computer", player="club")
        assert here.status_code == 409 and here.json()["code"] == "host_seat_present"
    # Cy left: the host gives the seat to a computer, and Cy's secret no longer opens it
    assert host_post(client, table, "/seats/1", host, kind="computer", player="club").status_code == 200
    with client.websocket_connect(f"/ws/{table}") as cy_socket:
        cy_socket.send_json({"type": "join", "secret": cy})
        assert recv(cy_socket)["code"] == "auth"


def test_the_host_hands_an_away_seat_to_the_computer_and_gives_it_back(client: TestClient) -> None:
    made = waiting_table(client)
    table, host = made["table"], made["host"]
    early = host_post(client, table, "/hand-over/1", host, computer=True)
    assert early.status_code == 409 and early.json()["code"] == "host_not_started"
    cy = claim(client, table, 1, "Cy")
    room = room_of(client, table)
    with client.websocket_connect(f"/ws/{table}") as ann:
        join(ann, made["secret"])
        present = host_post(client, table, "/hand-over/0", host, computer=True)
        assert present.status_code == 409 and present.json()["code"] == "host_seat_present"
        computer = host_post(client, table, "/hand-over/2", host, computer=True)
        assert computer.status_code == 409 and computer.json()["code"] == "host_computer_seat"
        recv_until(ann, lambda m: m["type"] == "state" and m["seats"][1]["stand_in"])  # Cy is away
        handed = host_post(client, table, "/hand-over/1", host, computer=True)
        assert handed.status_code == 200 and handed.json()["seats"][1]["handed"]
        with client.websocket_connect(f"/ws/{table}") as cy_socket:
            state = join(cy_socket, cy)
            # back at the table, Cy still watches the computer play the seat, until it is given back
            assert state["seats"][1]["connected"] and state["seats"][1]["stand_in"]
            assert room.stand_in(1)
            given = host_post(client, table, "/hand-over/1", host, computer=False)
            assert not given.json()["seats"][1]["handed"]
            recv_until(cy_socket, lambda m: m["type"] == "state" and not m["seats"][1]["stand_in"])
            assert not room.stand_in(1)


def test_the_host_lists_and_removes_a_spectator_who_may_not_watch_again(client: TestClient) -> None:
    made = waiting_table(client)
    table, host = made["table"], made["host"]
    with (
        client.websocket_connect(f"/ws/{table}") as spectator,
        client.websocket_connect(f"/ws/{table}") as quiet,
    ):
        spectator.send_json({"type": "watch", "viewer": VIEWER, "name": "Kibitzer"})
        assert recv(spectator)["type"] == "welcome"
        recv(spectator)
        watch(quiet)
        listed = host_post(client, table, "/spectators", host).json()["spectators"]
        assert listed == [{"viewer": VIEWER, "name": "Kibitzer"}]
        after = host_post(client, table, "/remove", host, viewer=VIEWER).json()["spectators"]
        assert after == []
        refusal = recv_until(spectator, lambda m: m["type"] == "error")
        assert refusal["code"] == "removed"
        with pytest.raises(WebSocketDisconnect):
            recv(spectator)
        assert room_of(client, table).spectators and VIEWER in room_of(client, table).row.barred
    with client.websocket_connect(f"/ws/{table}") as again:
        again.send_json({"type": "watch", "viewer": VIEWER})
        assert recv(again)["code"] == "removed"
    bad = host_post(client, table, "/remove", host, viewer="<b>")
    assert bad.status_code == 422


def test_the_host_turns_the_chat_off_and_on_for_everyone(client: TestClient) -> None:
    made = waiting_table(client)
    table, host = made["table"], made["host"]
    with client.websocket_connect(f"/ws/{table}") as ann:
        ann.send_json({"type": "join", "secret": made["secret"], "chat": True})
        recv_until(ann, lambda m: m["type"] == "chat_history" and m["on"])
        assert host_post(client, table, "/chat", host, on=False).json() == {"chat": False}
        recv_until(ann, lambda m: m["type"] == "chat_history" and not m["on"])
        ann.send_json({"type": "chat", "phrase": "gg"})
        assert recv_until(ann, lambda m: m["type"] == "error")["code"] == "chat_off"
        assert host_post(client, table, "/chat", host, on=True).json() == {"chat": True}
        recv_until(ann, lambda m: m["type"] == "chat_history" and m["on"])
        ann.send_json({"type": "chat", "phrase": "gg"})
        assert recv_until(ann, lambda m: m["type"] == "chat")["phrase"] == "gg"


def test_a_closed_table_offers_no_move_refuses_actions_and_leaves_the_lobby(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        made = create_table(client, seats=seats_spec("human", "basic", "basic", "basic"))
        table, host = made["table"], made["host"]
        with client.websocket_connect(f"/ws/{table}") as ann:
            state = join(ann, made["secret"])
            if state["game"]["legal"] is None:
                state = recv_until(ann, lambda m: m["type"] == "state" and m["game"]["legal"] is not None)
            assert table in [t["id"] for t in client.get("/api/tables").json()["tables"]]
            closed = host_post(client, table, "/close", host)
            assert closed.status_code == 200 and closed.json()["closed"]
            state = recv_until(ann, lambda m: m["type"] == "state" and m["table"]["closed"])
            assert state["game"]["legal"] is None
            seq = state["seq"]
            ann.send_json({"type": "act", "action": "pass", "seq": seq})
            assert recv_until(ann, lambda m: m["type"] == "error")["code"] == "closed"
        assert table not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert host_post(client, table, "/seats/1", host, kind="human").json()["code"] == "host_over"
        assert host_post(client, table, "/close", host).status_code == 200  # again: nothing to do
    # after a restart: still closed, not restored as an unfinished table, not played on
    with running_server(tmp_path) as client:
        assert client.get(f"/api/tables/{table}").json()["closed"]
        assert table not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    stored = Store(f"sqlite:///{tmp_path}/db.sqlite3").load_table(table)
    assert stored is not None and stored.closed and len(stored.actions) == seq, "played on once closed"


def test_a_finished_game_cannot_be_closed(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        made = create_table(
            client,
            seats=seats_spec("human", "random", "random", "random"),
            options={"target": 1},
        )
        table = made["table"]
        room = room_of(client, table)
        with client.websocket_connect(f"/ws/{table}") as ann:
            state = join(ann, made["secret"])
            rng = random.Random(1)
            while not state["finished"]:
                if state["game"]["legal"] is not None:
                    act(ann, choose(state, rng, room), state["seq"])
                state = recv_until(ann, lambda m: m["type"] == "state")
        refused = host_post(client, table, "/close", made["host"])
        assert refused.status_code == 409 and refused.json()["code"] == "host_over"


def _row() -> TableRow:
    seats = [SeatRow(0, "human", name="Ann", secret_hash="a" * 64), SeatRow(1, "human")]
    seats += [SeatRow(i, "computer", player="random") for i in (2, 3)]
    return TableRow("h" * 22, "t", "cinch", {}, "seed", True, datetime.now(UTC), seats, host_hash="b" * 64)


def test_another_process_learns_the_hosts_changes_by_news_and_by_catching_up(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'pedro.sqlite3'}")
    store.migrate()

    async def scenario() -> None:
        storage = AsyncStore(store)
        settings = RoomSettings(away_seconds=10.0, bot_delay=0.0, shared=True)
        try:
            row = _row()
            await storage.create_table(row)
            here = Room(copy.deepcopy(row), storage, settings)
            registry = TableRegistry(storage, settings, "them")
            registry.load()
            there = registry.rooms[row.id]
            # told by news
            await here.commit_change(
                SeatChange(row.id, 1, "computer", "basic", None),
                lambda: here.seat_changed(1, "computer", "basic"),
            )
            registry.on_news(f"me {row.id} seat-kind 1 computer basic")
            assert there.seats[1].row.kind == "computer" and there.started
            registry.on_news(f"me {row.id} barred {VIEWER}")
            assert VIEWER in there.row.barred
            # news lost: catching up reads the stored changes
            await here.commit_change(SeatHanded(row.id, 0, True), lambda: here.seat_handed(0, True))
            await here.commit_change(
                ViewerBarred(row.id, "other-viewer-1"), lambda: here.viewer_barred("other-viewer-1")
            )
            await here.commit_change(Closed(row.id), here.table_closed)
            await there.catch_up()
            assert there.seats[0].row.handed and there.stand_in(0)
            assert "other-viewer-1" in there.row.barred
            assert there.closed and there.over and not there.computer_turn()
            here.stop()
            registry.stop()
        finally:
            storage.close()

    asyncio.run(scenario())
    stored = store.load_table("h" * 22)
    store.close()
    assert stored is not None and stored.closed and stored.finished and stored.seats[0].handed
