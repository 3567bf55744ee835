"""Limits per client address on the tables' WebSockets (docs/server.md, "WebSocket"): how many
sockets one address may hold open, its budget of refused joins and moves, and what a spectator's
arrival costs the table.

The in-process tests set the client's address by hand; the slow tests flood a real ``pedro serve``
(SQLite and PostgreSQL) with wrong secrets while a seated player plays on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from tests.server.client_helpers import (
    act,
    choose,
    full_table,
    join,
    pending_json,
    recv,
    room_of,
    running_server,
    seats_spec,
    watch,
)
from tests.server.test_limits import from_address
from tests.server.test_shared_rooms import Clock
from tests.serving import postgres_database
from tests.serving import running_server as serve_process
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from pedro.server.http.http_protocol import MAX_HEADER_BYTES
from pedro.server.settings import Limits
from pedro.server.storage.tables_db import News, SeatRow, TableRow, hash_secret
from pedro.server.tables import address_limits, websocket
from pedro.server.tables.address_limits import (
    REFUSAL_BURST,
    REFUSALS_PER_SECOND,
    TOO_MANY_CLOSE_CODE,
    AddressLimits,
)
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.websocket import OVER_BUDGET_LIMIT


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path, limits=Limits(websockets_per_client=3)) as client:
        yield client


def closed_with(ws: WebSocketTestSession) -> int:
    """The close code of a socket the server is closing (after any messages still on their way)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            recv(ws)
    return closed.value.code


# ---------------------------------------------------------------------------- the counts


def test_an_address_may_open_so_many_sockets_and_no_more() -> None:
    limits = AddressLimits(2)
    assert limits.open("a") and limits.open("a")
    assert not limits.open("a"), "a third socket"
    assert limits.open("b"), "another address has its own count"
    limits.closed("a")
    assert limits.open("a"), "a closed socket makes room"
    assert limits.open_sockets("a") == 2


def test_the_refusal_budget_is_spent_and_comes_back_slowly() -> None:
    clock = Clock()
    limits = AddressLimits(10, clock)
    for _ in range(int(REFUSAL_BURST)):
        assert not limits.exhausted("a")
        assert limits.refused("a")
    assert limits.exhausted("a") and not limits.refused("a")
    assert not limits.exhausted("b"), "another address has its own budget"
    clock.now += 1 / REFUSALS_PER_SECOND
    assert limits.refused("a"), "one refusal came back"
    assert not limits.refused("a")


def test_forgotten_addresses_are_only_those_that_would_start_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(address_limits, "_KEPT_ADDRESSES", 3)
    clock = Clock()
    limits = AddressLimits(10, clock)
    assert limits.open("open")
    limits.refused("refused")
    limits.exhausted("idle")
    limits.exhausted("new")  # a fourth address: the idle one is forgotten, the others are not
    assert set(limits._addresses) == {"open", "refused", "new"}
    assert limits.open_sockets("open") == 1


# ---------------------------------------------------------------------------- sockets per address


def test_one_socket_over_the_cap_is_told_and_closed_with_4029(client: TestClient) -> None:
    table, _ = full_table(client, "cinch")
    with ExitStack() as stack:
        open_ = [stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in range(3)]
        for ws in open_:
            watch(ws)
        with client.websocket_connect(f"/ws/{table}") as extra:
            refused = recv(extra)
            assert refused["type"] == "error" and refused["code"] == "too_many_connections", refused
            assert "3 connections" in refused["message"]
            assert closed_with(extra) == TOO_MANY_CLOSE_CODE
        with from_address(client, "198.51.100.7"), client.websocket_connect(f"/ws/{table}") as other:
            watch(other)  # another address has its own count
        open_.pop().close()
        time.sleep(0.1)  # the server notices the close
        with client.websocket_connect(f"/ws/{table}") as again:
            watch(again)  # a closed socket made room


# ---------------------------------------------------------------------------- spectators


def test_spectators_arriving_cost_the_seated_players_nothing(tmp_path: Path) -> None:
    spectators = 30
    with running_server(tmp_path) as client:
        table, secrets = full_table(client, "cinch")
        with ExitStack() as stack:
            seats = [stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in secrets]
            for ws, secret in zip(seats, secrets, strict=True):
                join(ws, secret)
            for ws in seats:
                pending_json(ws, 0.1)  # the other seats' arrivals
            room = room_of(client, table)
            watchers = [
                stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in range(spectators)
            ]
            for ws in watchers:
                state = watch(ws)  # each is welcomed and sent the table as a spectator sees it
                assert state["you"] is None and state["seq"] == room.seq
                assert not state["game"]["hand"], "a spectator sees no hand"
            assert len(room.spectators) == spectators
            for ws in seats:
                assert pending_json(ws, 0.1) == [], "a seated player was told of a spectator"
            for ws in watchers:
                assert pending_json(ws, 0.01) == [], "a spectator was told of the others"
            # an action is still told to everyone, spectators included
            turn = room.state.current_player
            before = room.seq
            act(seats[turn], choose(room_state(turn, room), random.Random(1), room), before)
            for ws in [*seats, *watchers]:
                assert recv(ws)["seq"] == before + 1


def room_state(turn: int, room: Room) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(room.state_messages([turn])[turn])
    return state


# ---------------------------------------------------------------------------- refusals per address


def refused_until_closed(ws: WebSocketTestSession, message: dict[str, Any]) -> list[str]:
    """Send ``message`` until the server closes the socket (with 4029); the codes of its refusals."""
    codes: list[str] = []
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(int(REFUSAL_BURST) + OVER_BUDGET_LIMIT + 20):
            ws.send_json(message)
            codes.append(recv(ws)["code"])
    assert closed.value.code == TOO_MANY_CLOSE_CODE, codes
    return codes


def spent_then_closed(codes: list[str], counted: str) -> None:
    """Refused as ``counted`` while the budget lasted (a refusal may come back meanwhile), then
    ``too_many_refusals`` until the connection was closed."""
    over = codes.index("too_many_refusals")
    assert over >= REFUSAL_BURST and set(codes[:over]) == {counted}, codes
    assert codes[over:] == ["too_many_refusals"] * (OVER_BUDGET_LIMIT + 1), codes


@pytest.fixture
def unlimited_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection's own rate would refuse these tests' quick messages first."""
    monkeypatch.setattr(websocket, "RATE_PER_SECOND", 1e6)
    monkeypatch.setattr(websocket, "RATE_BURST", 1e6)


@pytest.mark.usefixtures("unlimited_rate")
def test_wrong_secrets_spend_the_budget_then_the_socket_is_closed(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    with client.websocket_connect(f"/ws/{table}") as ws:
        spent_then_closed(refused_until_closed(ws, {"type": "join", "secret": "x" * 32}), "auth")
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "join", "secret": "x" * 32})
        assert recv(ws)["code"] == "too_many_refusals", "the budget is the address's, not the socket's"
        join(ws, secrets[0])  # a right secret is still taken from the same address
    with from_address(client, "198.51.100.7"), client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "join", "secret": "x" * 32})
        assert recv(ws)["code"] == "auth", "another address has its own budget"


@pytest.mark.usefixtures("unlimited_rate")
def test_wrong_moves_spend_the_budget_and_races_do_not(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    room = room_of(client, table)
    with client.websocket_connect(f"/ws/{table}") as ws:
        turn = room.state.current_player
        join(ws, secrets[turn])
        for _ in range(3 * int(REFUSAL_BURST)):  # stale moves: a race, not counted
            act(ws, "pass", room.seq + 5)
            assert recv(ws)["code"] == "stale"
        codes = refused_until_closed(ws, {"type": "act", "action": "nonsense 7", "seq": room.seq})
        spent_then_closed(codes, "illegal")
    assert room.seq == 0


class CountingStore:
    """What a shared room reads of its table: the seats as stored, counting the reads."""

    def __init__(self, seats: list[SeatRow]) -> None:
        self.seats = seats
        self.reads = 0

    async def load_news(self, table_id: str, start: int) -> News:
        self.reads += 1
        return News([], self.seats, closed=False, barred=set(), next_table=None)


def shared_room(claimed: int) -> tuple[Room, CountingStore]:
    seats = [
        SeatRow(i, "human", None, f"P{i}", hash_secret(f"s{i}") if i < claimed else None) for i in range(4)
    ]
    row = TableRow("t" * 22, "t", "cinch", {"target": 21}, "seed", True, datetime.now(UTC), seats)
    store = CountingStore([SeatRow(s.seat, s.kind, s.player, s.name, s.secret_hash) for s in seats])
    return Room(row, store, RoomSettings(shared=True)), store  # type: ignore[arg-type]


def test_a_wrong_secret_at_a_full_shared_table_is_answered_from_memory() -> None:
    async def main() -> None:
        room, store = shared_room(claimed=4)
        assert await room.seat_claimed_elsewhere(hash_secret("wrong")) is None
        assert store.reads == 0, "every seat is taken here: no other process can have let one go"

    asyncio.run(main())


def test_a_seat_just_claimed_at_another_process_is_read_once() -> None:
    async def main() -> None:
        room, store = shared_room(claimed=3)
        assert await room.seat_claimed_elsewhere(hash_secret("wrong")) is None
        assert store.reads == 1 and room.seat_for_secret(hash_secret("s3")) is None
        store.seats[3].secret_hash = hash_secret("s3")  # claimed at another process
        assert await room.seat_claimed_elsewhere(hash_secret("s3")) == 3
        assert room.seats[3].claimed and room.started

    asyncio.run(main())


# ---------------------------------------------------------------------------- a flood at a real server

FLOOD_SOCKETS = 60
#: wrong joins a flooding socket sends a second (the connection's rate allows 20)
FLOOD_RATE = 19
PHASE_SECONDS = 4.0


async def player_actions(url: str, table: str, secret: str, seconds: float) -> int:
    """Play seat 0 for ``seconds`` (the computers answer at once); how many of its actions were taken."""
    rng = random.Random(0)
    async with connect(f"{url}/ws/{table}", open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "join", "secret": secret}))
        deadline = asyncio.get_running_loop().time() + seconds
        taken, acted_at = 0, -1
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), left))
            except TimeoutError:
                break
            if message["type"] == "error":
                assert message["code"] in ("stale", "rate"), message
            if message["type"] != "state" or message["finished"]:
                continue
            if message["seq"] > acted_at and message["game"]["legal"] is not None:
                if acted_at >= 0:
                    taken += 1
                await ws.send(
                    json.dumps({"type": "act", "action": choose(message, rng), "seq": message["seq"]})
                )
                acted_at = message["seq"]
        return taken


async def flood(url: str, table: str, stop: asyncio.Event, told: dict[str, int]) -> None:
    """One socket's worth of wrong secrets, just under the connection's own rate, reconnecting
    whenever the server closes it."""

    async def read(ws: ClientConnection) -> None:
        async for text in ws:
            code = json.loads(text).get("code", "")
            told[code] = told.get(code, 0) + 1

    while not stop.is_set():
        try:
            async with connect(f"{url}/ws/{table}", open_timeout=10) as ws:
                reader = asyncio.create_task(read(ws))
                try:
                    while not stop.is_set():
                        await ws.send(json.dumps({"type": "join", "secret": "x" * 32}))
                        await asyncio.sleep(1 / FLOOD_RATE)
                finally:
                    reader.cancel()
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else 0
            told[f"closed {code}"] = told.get(f"closed {code}", 0) + 1
        except (OSError, TimeoutError):
            await asyncio.sleep(0.1)


async def measure(url: str, table: str, secret: str) -> tuple[int, int, dict[str, int]]:
    """Seat 0's actions in a quiet phase, then in one under a flood of wrong secrets."""
    quiet = await player_actions(url, table, secret, PHASE_SECONDS)
    stop = asyncio.Event()
    told: dict[str, int] = {}
    flooders = [asyncio.create_task(flood(url, table, stop, told)) for _ in range(FLOOD_SOCKETS)]
    await asyncio.sleep(0.5)
    flooded = await player_actions(url, table, secret, PHASE_SECONDS)
    stop.set()
    await asyncio.wait(flooders, timeout=10)
    return quiet, flooded, told


def flood_while_playing(database: str, log_dir: Path) -> None:
    with serve_process(database, log_dir, args=("--websockets-per-client", "200")) as server:
        seats = seats_spec("human", "random", "random", "random")
        # Pitch with Fives deals no card choices: a client outside the server's process cannot
        # pick a legal set from a rule too big to list, and the pace is what is measured here; a
        # game to 10000 does not end while it is measured (a game over would count as no pace)
        made = httpx.post(
            f"{server.url}/api/tables",
            json={
                "variant": "pitch_fives",
                "options": {"target": 10000},
                "seats": seats,
                "seat": 0,
                "name": "P",
            },
        )
        assert made.status_code == 201, made.text
        table, secret = made.json()["table"], made.json()["secret"]
        quiet, flooded, told = asyncio.run(measure(server.ws_url, table, secret))
    assert quiet >= 10, f"the player hardly played even without a flood: {quiet}"
    # the table keeps its pace: counts, not timings (the machine may be busy)
    assert flooded >= quiet * 0.4, (quiet, flooded, told)
    assert told.get("too_many_refusals", 0) > 0 and told.get(f"closed {TOO_MANY_CLOSE_CODE}", 0) > 0, told
    assert told.get("auth", 0) <= REFUSAL_BURST + 2 * PHASE_SECONDS * REFUSALS_PER_SECOND + 5, told


@pytest.mark.slow
@pytest.mark.processes
@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_flood_of_wrong_secrets_leaves_the_table_its_pace(tmp_path: Path, kind: str) -> None:
    if kind == "sqlite":
        flood_while_playing(f"sqlite:///{tmp_path / 'pedro.sqlite3'}", tmp_path)
        return
    with postgres_database() as url:
        flood_while_playing(url, tmp_path)


# ---------------------------------------------------------------------------- slow headers


def trickled_for(port: int, lines: int, every: float) -> float:
    """Open a connection and send a request's header lines one every ``every`` seconds; how long
    until the server closed it (or ``lines * every`` if it never did)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=every * 4) as conn:
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        for i in range(lines):
            time.sleep(every)
            try:
                conn.sendall(f"X-Slow-{i}: y\r\n".encode())
                conn.setblocking(False)
                try:
                    if conn.recv(1) == b"":
                        return time.monotonic() - started
                except BlockingIOError:
                    pass
                finally:
                    conn.setblocking(True)
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - started
    return time.monotonic() - started


@pytest.mark.slow
@pytest.mark.processes
def test_a_request_whose_headers_trickle_in_or_are_too_long_is_cut_off(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with serve_process(database, tmp_path, args=("--header-timeout", "1.5")) as server:
        assert trickled_for(server.port, lines=12, every=0.5) < 4.0, "the slow headers were waited for"
        # headers over the size limit are refused at once; below it, answered
        big = {"X-Big": "y" * (MAX_HEADER_BYTES + 100)}
        assert httpx.get(f"{server.url}/healthz", headers=big).status_code == 400
        fits = {"X-Big": "y" * (MAX_HEADER_BYTES - 1000)}
        assert httpx.get(f"{server.url}/healthz", headers=fits).status_code == 200
        # a whole request is answered, and a kept-alive connection serves a second one later
        with httpx.Client(base_url=server.url) as http:
            assert http.get("/healthz").status_code == 200
            time.sleep(2.0)
            assert http.get("/healthz").status_code == 200
        # the deadline is the headers': an open WebSocket outlives it
        body = {"variant": "cinch", "seats": seats_spec("human", "random", "random", "random"), "seat": None}
        table = httpx.post(f"{server.url}/api/tables", json=body).json()["table"]

        async def watch_long() -> dict[str, Any]:
            async with connect(f"{server.ws_url}/ws/{table}", open_timeout=10) as ws:
                await asyncio.sleep(2.5)
                await ws.send(json.dumps({"type": "ping"}))
                reply: dict[str, Any] = json.loads(await ws.recv())
                return reply

        assert asyncio.run(watch_long()) == {"type": "pong"}


@pytest.mark.slow
@pytest.mark.processes
def test_sockets_count_by_the_address_a_trusted_proxy_forwards(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with serve_process(database, tmp_path, args=("--websockets-per-client", "2")) as server:
        body = {"variant": "cinch", "seats": seats_spec("human", "random", "random", "random"), "seat": None}
        table = httpx.post(f"{server.url}/api/tables", json=body).json()["table"]

        async def answers(forwarded: str) -> list[dict[str, Any] | int]:
            """What a socket from ``forwarded`` is told first: its welcome, or its refusal and close code."""
            headers = {"X-Forwarded-For": forwarded}
            told: list[dict[str, Any] | int] = []
            async with connect(f"{server.ws_url}/ws/{table}", additional_headers=headers) as ws:
                with contextlib.suppress(ConnectionClosed):  # it may be closing already: read on
                    await ws.send(json.dumps({"type": "watch"}))
                try:
                    while not told or told[-1] != {"type": "welcome", "seat": None}:
                        told.append(json.loads(await ws.recv()))
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None
                    told.append(closed.rcvd.code)
            return told

        async def main() -> None:
            # a proxy on this machine (trusted by default): each forwarded address has its own count
            async with (
                connect(f"{server.ws_url}/ws/{table}", additional_headers={"X-Forwarded-For": "203.0.113.1"}),
                connect(f"{server.ws_url}/ws/{table}", additional_headers={"X-Forwarded-For": "203.0.113.1"}),
            ):
                await asyncio.sleep(0.2)
                refused = await answers("203.0.113.1")
                assert refused[0]["code"] == "too_many_connections", refused  # type: ignore[index]
                assert refused[1] == TOO_MANY_CLOSE_CODE
                assert await answers("203.0.113.2") == [{"type": "welcome", "seat": None}]

        asyncio.run(main())
