"""A ``pedro serve`` process stopped with SIGTERM drains: nothing acknowledged is lost, every client is told.

The real server runs as a child process (on SQLite and on PostgreSQL) with
JSON logs. Four people play at one table and a spectator watches computer
players at another; one more action is on its way when SIGTERM arrives.
Every client must get the ``restart`` message and the close code 1012, the
process must exit with status 0, and the database must hold exactly the
actions the clients were told of: after a restart on the same database each
seat sees the table as it last saw it. The log must be JSON lines only, with
no traceback and no card.
"""

from __future__ import annotations

import json
import queue
import re
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from tests.server.client_helpers import act as act_in_process
from tests.server.client_helpers import card_tokens, full_table, recv_raw, recv_until, room_of
from tests.server.client_helpers import join as join_in_process
from tests.server.client_helpers import running_server as in_process_server
from tests.server.durability_helpers import (
    State,
    api,
    choice,
    create_table,
    database,
    same_view,
    stored_table,
)
from tests.server.test_drain import start_drain, stored_actions
from tests.serving import ServerProcess, running_server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pedro.server.http.lifecycle import RESTART_CLOSE_CODE, RESTART_MESSAGE

HUMAN = {"kind": "human"}
RANDOM = {"kind": "computer", "player": "random"}
#: long enough that the computers' game is still going when the server stops
LONG_GAME = {"target": 500}
#: seconds: generous bounds against a hang on a loaded machine, not timing requirements
WAIT = 60.0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


class Socket:
    """One WebSocket read on its own thread: every message in order, then how the server closed it."""

    def __init__(self, url: str) -> None:
        self.stack = ExitStack()
        self.ws = self.stack.enter_context(
            connect(url, open_timeout=WAIT, close_timeout=5, proxy=None, max_size=None)
        )
        self.inbox: queue.Queue[State | None] = queue.Queue()
        self.received: list[State] = []
        self.close_code: int | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.inbox.put(json.loads(self.ws.recv()))
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd is not None else None
        finally:
            self.inbox.put(None)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def next(self) -> State:
        message = self.inbox.get(timeout=WAIT)
        assert message is not None, f"the server closed the connection (code {self.close_code})"
        self.received.append(message)
        return message

    def until(self, wanted: Callable[[State], bool]) -> State:
        while not wanted(message := self.next()):
            pass
        return message

    def rest(self) -> list[State]:
        """Every message until the server closes the connection."""
        got = []
        while (message := self.inbox.get(timeout=WAIT)) is not None:
            self.received.append(message)
            got.append(message)
        self.close()
        return got

    def close(self) -> None:
        self.stack.close()
        self.thread.join(WAIT)


def join(server: ServerProcess, table: str, hello: dict[str, Any]) -> tuple[Socket, State]:
    socket = Socket(f"{server.ws_url}/ws/{table}")
    socket.send(hello)
    assert socket.next()["type"] == "welcome"
    return socket, socket.until(lambda m: m["type"] == "state")


def act(sockets: dict[int, Socket], states: dict[int, State]) -> tuple[int, int]:
    """The seat to play sends an action on the newest state; returns (seat, seq) of that state."""
    seat = next(s for s, state in states.items() if state["game"]["legal"] is not None)
    seq = states[seat]["seq"]
    sockets[seat].send(
        {"type": "act", "action": choice(states[seat]["game"]["legal"], "drain", seq, 0), "seq": seq}
    )
    return seat, seq


def play(sockets: dict[int, Socket], states: dict[int, State], actions: int) -> None:
    """Play ``actions`` actions, each confirmed to every seat before the next."""
    for _ in range(actions):
        seat, seq = act(sockets, states)
        attempt = 0
        while True:
            reply = sockets[seat].until(lambda m, seq=seq: m["type"] == "error" or m["seq"] > seq)
            if reply["type"] == "state":
                break
            assert reply["code"] == "illegal", reply
            attempt += 1
            legal = states[seat]["game"]["legal"]
            sockets[seat].send({"type": "act", "action": choice(legal, "drain", seq, attempt), "seq": seq})
        for s, socket in sockets.items():
            states[s] = (
                reply
                if s == seat
                else socket.until(lambda m, seq=seq: m["type"] == "state" and m["seq"] > seq)
            )


def told(socket: Socket) -> int:
    """The newest ``seq`` the socket was told of."""
    return max(m["seq"] for m in socket.received if m["type"] == "state")


@pytest.mark.processes
def test_sigterm_drains_tells_every_client_and_loses_nothing(database_url: str, tmp_path: Path) -> None:
    args = ("--log-format", "json")
    with running_server(database_url, tmp_path, bot_delay=0.05, args=args) as server:
        people = create_table(server, "cinch", {}, [HUMAN] * 4)
        robots = create_table(server, "cinch", LONG_GAME, [RANDOM] * 4)
        sockets: dict[int, Socket] = {}
        states: dict[int, State] = {}
        for seat, secret in sorted(people.secrets.items()):
            sockets[seat], states[seat] = join(server, people.id, {"type": "join", "secret": secret})
        spectator, _ = join(server, robots.id, {"type": "watch"})
        play(sockets, states, 6)
        spectator.until(lambda m: m["type"] == "state" and m["seq"] >= 3)  # the computers are playing
        seen_before = {seat: states[seat] for seat in sockets}

        act(sockets, states)  # on its way when the signal comes: accepted and told, or refused
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        for socket in [*sockets.values(), spectator]:
            rest = socket.rest()
            assert rest and rest[-1] == {"type": "restart", "message": RESTART_MESSAGE}, rest[-3:]
            assert socket.close_code == RESTART_CLOSE_CODE
            refused = [m for m in rest if m["type"] == "error"]
            assert all(m["code"] == "restarting" for m in refused), refused
        assert server.process.wait(WAIT) == 0

        # the database holds exactly what the clients were told: nothing acknowledged is lost,
        # and nothing was done after the clients were told the server is going
        assert len(stored_table(database_url, people.id).actions) == max(map(told, sockets.values()))
        assert len(stored_table(database_url, robots.id).actions) == told(spectator)
        log = server.log_path.read_text()

        server.start()
        for seat, secret in sorted(people.secrets.items()):
            again, state = join(server, people.id, {"type": "join", "secret": secret})
            last = next(m for m in reversed(sockets[seat].received) if m["type"] == "state")
            assert same_view(state) == same_view(last)
            assert state["seq"] >= seen_before[seat]["seq"]
            again.close()
        assert api(server, "GET", f"/api/tables/{robots.id}")["finished"] is False

    check_json_log(log, [people.id, robots.id])


def check_json_log(log: str, tables: list[str]) -> None:
    """Every line a JSON object with the required fields; the drain logged; no traceback, no card."""
    entries = [json.loads(line) for line in log.splitlines()]
    for entry in entries:
        assert {"time", "level", "logger", "message"} <= set(entry), entry
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", entry["time"]), entry
        text = json.dumps(entry)
        for table in tables:  # a random id may look like a card by chance
            text = text.replace(table, "<table>")
        assert not card_tokens(text), f"a log line names a card: {entry}"
    events = [e.get("event") for e in entries]
    assert {"shutdown_started", "shutdown_drained", "stopped", "http_request"} <= set(events)
    assert any(e["logger"] == "uvicorn.access" and e["method"] == "POST" for e in entries)
    assert any(e.get("event") == "seat_connected" and e["table"] in tables for e in entries)
    assert "Traceback" not in log
    assert not [e for e in entries if e["level"] in ("ERROR", "CRITICAL")]


def test_in_process_the_end_tells_every_seat_and_keeps_each_action_it_told_of(tmp_path: Path) -> None:
    """The promise above without a process (fast tier): the server's end tells each seat to come back
    (``restart``, then 1012), and the actions stored are the ones the seats were told of."""
    with in_process_server(tmp_path) as client:
        table, secrets = full_table(client)
        with ExitStack() as stack:
            seats = [stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in secrets]
            states = [join_in_process(ws, secret) for ws, secret in zip(seats, secrets, strict=True)]
            turn = room_of(client, table).state.current_player
            act_in_process(
                seats[turn], states[turn]["game"]["legal"]["actions"][0]["action"], states[turn]["seq"]
            )
            told = recv_until(seats[turn], lambda m: m["type"] == "state" and m["seq"] > states[turn]["seq"])
            start_drain(client).result(timeout=30)
            for ws in seats:
                assert recv_until(ws, lambda m: m["type"] == "restart")["message"] == RESTART_MESSAGE
                assert recv_raw(ws)["code"] == RESTART_CLOSE_CODE
    assert stored_actions(tmp_path, table) == told["seq"]
