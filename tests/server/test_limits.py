"""Abuse limits (docs/server.md, "Trust"): each refusal names its limit, changes nothing, and each
limit can be raised by its setting.

The in-process tests set the limits' clock and the client's address by hand; the tests against a
real ``pedro serve`` check what only uvicorn does: the address behind a proxy, and the WebSocket
transport's own size limit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import recv, running_server, seats_spec, services_of
from tests.serving import running_server as serve_process
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pedro import server as server_package
from pedro.players.expert import DEFAULT_SAMPLES
from pedro.server.http.request_body import MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_NAME_CHARS, MAX_TITLE_CHARS
from pedro.server.settings import Limits, TurnClocks
from pedro.server.tables.limits import CreationLimits
from pedro.server.tables.protocol import MAX_FRAME_BYTES, MAX_MESSAGE_BYTES

HUMANS = seats_spec("human", "human", "human", "human")
BOTS = seats_spec("basic", "random", "basic", "random")


class Clock:
    """The limits' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def server(tmp_path: Path, **settings: Any) -> Iterator[tuple[TestClient, Clock]]:
    """An in-process server whose limits read a clock the test moves."""
    with running_server(tmp_path, **settings) as client:
        clock = Clock()
        creations(client).clock = clock
        yield client, clock


def creations(client: TestClient) -> CreationLimits:
    limits: CreationLimits = services_of(client).creations
    return limits


@contextmanager
def from_address(client: TestClient, host: str) -> Iterator[None]:
    """Requests inside come from ``host``, as uvicorn would report it."""
    transport: Any = client._transport
    before = transport.client
    transport.client = (host, 50000)
    try:
        yield
    finally:
        transport.client = before


def post(client: TestClient, path: str, body: Any) -> httpx.Response:
    """``body`` as JSON text; a lone surrogate goes as the escape a hostile client would send."""
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


def post_table(client: TestClient, seats: list[dict[str, Any]] = HUMANS, **fields: Any) -> httpx.Response:
    body: dict[str, Any] = {"variant": "cinch", "seats": seats, "seat": None} | fields
    if body["seat"] is not None:
        body.setdefault("name", "Ann")
    return post(client, "/api/tables", body)


def table_count(client: TestClient) -> int:
    count: int = client.get("/healthz").json()["tables"]
    return count


#: The browser's English catalog, which has a text for every refusal's code.
CLIENT_TEXTS = json.loads((Path(server_package.__file__).parent / "static/i18n/en.json").read_text("utf-8"))


def refused(response: httpx.Response, status: int, *words: str) -> str:
    """The response is an error of that status whose message has every word; returns the message."""
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error", "code", "fields"], response.text
    # the browser says the refusal in the page's language from its code and fields
    assert f"httpError.{body['code']}" in CLIENT_TEXTS and isinstance(body["fields"], dict), response.text
    message: str = body["error"]
    for word in words:
        assert word in message, (word, message)
    return message


# ---------------------------------------------------------------------------- tables per minute


def test_tables_per_minute_per_client_with_retry_after(tmp_path: Path) -> None:
    with server(tmp_path, limits=Limits(tables_per_minute=3)) as (client, clock):
        for _ in range(3):
            assert post_table(client).status_code == 201
            clock.now += 10
        # created at 1000, 1010 and 1020; now 1030: the first leaves the window at 1060
        answer = post_table(client)
        refused(answer, 429, "at most 3 a minute", "try again in 30 s")
        assert answer.headers["Retry-After"] == "30"
        assert table_count(client) == 3, "a refused request created a table"
        # another address has its own allowance
        with from_address(client, "198.51.100.7"):
            assert post_table(client).status_code == 201
        # refusals do not count: after the time the answer gave, one more is allowed, not two
        clock.now += 30
        assert post_table(client).status_code == 201
        refused(post_table(client), 429, "at most 3 a minute", "try again in 10 s")
        assert table_count(client) == 5


def test_tables_per_minute_can_be_raised(tmp_path: Path) -> None:
    with server(tmp_path, limits=Limits(tables_per_minute=12, open_tables_per_client=12)) as (client, _):
        for _ in range(12):
            assert post_table(client).status_code == 201
        refused(post_table(client), 429, "at most 12 a minute")
    assert Limits().tables_per_minute < 12, "the test must go past the default"


# ---------------------------------------------------------------------------- open tables per client


def test_open_tables_per_client_count_until_a_game_ends(tmp_path: Path) -> None:
    limits = Limits(open_tables_per_client=2, tables_per_minute=100)
    # the computers take 20 ms a decision: their game (a few seconds) cannot end between the next
    # requests, however loaded the machine (at once, it once ended first and the refusal was a 201)
    with server(tmp_path, limits=limits, bot_delay=0.02) as (client, _):
        waiting = post_table(client).json()["table"]  # stays open: nobody sits down
        playing = post_table(client, BOTS, options={"target": 11}).json()["table"]
        message = refused(post_table(client), 429, "2 unfinished tables", "finish one")
        assert "a minute" not in message
        assert table_count(client) == 2
        with from_address(client, "198.51.100.7"):
            assert post_table(client).status_code == 201, "another address has its own count"
        # the computer game ends by itself: it no longer counts
        deadline = time.monotonic() + 30
        while not client.get(f"/api/tables/{playing}").json()["finished"]:
            assert time.monotonic() < deadline, "the computer game did not finish"
            time.sleep(0.02)
        assert post_table(client).status_code == 201
        refused(post_table(client), 429, "2 unfinished tables")
        assert not client.get(f"/api/tables/{waiting}").json()["finished"]


def test_open_tables_per_client_can_be_raised(tmp_path: Path) -> None:
    many = Limits().open_tables_per_client + 5
    with server(tmp_path, limits=Limits(open_tables_per_client=many, tables_per_minute=many + 1)) as (c, _):
        for _ in range(many):
            assert post_table(c).status_code == 201
        refused(post_table(c), 429, f"{many} unfinished tables")


# ---------------------------------------------------------------------------- computer-only tables


def test_computer_only_tables_are_limited_for_the_whole_server(tmp_path: Path) -> None:
    limits = Limits(computer_only_tables=2, tables_per_minute=100, open_tables_per_client=100)
    # the computers wait an hour before each decision: the games stay open
    with server(tmp_path, limits=limits, bot_delay=3600) as (client, _):
        assert post_table(client, BOTS).status_code == 201
        with from_address(client, "198.51.100.7"):
            assert post_table(client, BOTS).status_code == 201
        for address in ("testclient", "198.51.100.8"):
            with from_address(client, address):
                answer = post_table(client, BOTS)
                refused(answer, 429, "without a human seat", "(2)", "make one seat human")
                assert "Retry-After" not in answer.headers
        assert table_count(client) == 2
        # a table with one human seat is not computer-only
        assert post_table(client, seats_spec("human", "basic", "basic", "basic")).status_code == 201
    # the count is read from the open tables: a restart does not reset it
    with server(tmp_path, limits=limits, bot_delay=3600) as (client, _):
        assert table_count(client) == 3
        refused(post_table(client, BOTS), 429, "without a human seat")
        assert table_count(client) == 3
    with server(tmp_path, limits=Limits(computer_only_tables=3), bot_delay=3600) as (client, _):
        assert post_table(client, BOTS).status_code == 201


def test_no_computer_only_tables_at_all(tmp_path: Path) -> None:
    with server(tmp_path, limits=Limits(computer_only_tables=0)) as (client, _):
        refused(post_table(client, BOTS), 429, "without a human seat", "(0)")
        assert table_count(client) == 0
        assert post_table(client, seats_spec("human", "basic", "basic", "basic")).status_code == 201


# ---------------------------------------------------------------------------- computer strength


def test_the_default_cap_is_the_experts_own_strength() -> None:
    assert Limits().max_expert_samples == DEFAULT_SAMPLES


@pytest.mark.parametrize("player", ["expert:1000", f"expert:{DEFAULT_SAMPLES + 1}"])
def test_a_computer_player_stronger_than_the_server_allows_is_refused(tmp_path: Path, player: str) -> None:
    with server(tmp_path) as (client, _):
        answer = post_table(client, seats_spec("human", "basic", player, "basic"))
        refused(answer, 400, "seat 2", player, f"at most {DEFAULT_SAMPLES}", "--max-expert-samples")
        assert table_count(client) == 0
        for allowed in ("expert", f"expert:{DEFAULT_SAMPLES}", "expert:1", "heuristic", "omniscient"):
            assert post_table(client, seats_spec("human", allowed, "human", "human")).status_code == 201


def test_the_strength_cap_can_be_raised_and_lowered(tmp_path: Path) -> None:
    with server(tmp_path, limits=Limits(max_expert_samples=1000)) as (client, _):
        made = post_table(client, seats_spec("human", "expert:1000", "human", "human"))
        assert made.status_code == 201, made.text
        assert made.json()["summary"]["seats"][1]["player"] == "expert:1000"
    with server(tmp_path, limits=Limits(max_expert_samples=40)) as (client, _):
        refused(post_table(client, seats_spec("human", "expert", "human", "human")), 400, "at most 40")
        assert post_table(client, seats_spec("human", "expert:40", "human", "human")).status_code == 201


# ---------------------------------------------------------------------------- JSON bodies


def test_deeply_nested_json_bodies_are_refused_with_400(tmp_path: Path) -> None:
    with server(tmp_path) as (client, _):
        table = post_table(client).json()["table"]
        deep = [
            "[" * 1000 + "]" * 1000,  # a body nested deeper than Python's json parser goes
            "[" * 8000 + "]" * 8000,  # as deep as fits in the body limit
            '{"variant": "cinch", "options": {"x": ' + "[" * 40 + "]" * 40 + "}}",
            "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1),
        ]
        for path in ("/api/tables", f"/api/tables/{table}/seats"):
            for body in deep:
                assert len(body) <= MAX_BODY_BYTES
                answer = client.post(path, content=body, headers={"content-type": "application/json"})
                refused(answer, 400, "request body", f"nested more than {MAX_JSON_DEPTH} deep")
            # as deep as allowed: read, then refused for what it is, not for its depth
            edge = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
            message = refused(client.post(path, content=edge), 422)
            assert "nested" not in message
        assert table_count(client) == 1
        assert client.get(f"/api/tables/{table}").json()["free_seats"] == [0, 1, 2, 3]


def test_deeply_nested_websocket_messages_get_bad_message(tmp_path: Path) -> None:
    with server(tmp_path) as (client, _):
        table = post_table(client).json()["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            for depth in (1000, MAX_MESSAGE_BYTES // 2):
                ws.send_text("[" * depth + "]" * depth)
                message = recv(ws)
                assert message["type"] == "error" and message["code"] == "bad_message", message
            ws.send_text('{"type": "ping"}')
            assert recv(ws) == {"type": "pong"}


# ---------------------------------------------------------------------------- names and titles

#: what a hostile name may hide: NUL, escape, bidi overrides and isolates, zero-width characters,
#: a byte-order mark, a lone surrogate
INVISIBLE = "\x00\x1b\u202e\u202d\u2066\u200b\u200d\u2060\ufeff\ud800"


def test_names_and_titles_lose_control_and_invisible_characters(tmp_path: Path) -> None:
    with server(tmp_path) as (client, _):
        body = {
            "variant": "cinch",
            "seats": HUMANS,
            "seat": 0,
            "name": f"  \u202eAnn{INVISIBLE}\u00a0 \tLee\n",
            "title": f"Friday\u2028\u2029 {INVISIBLE}night\r\n",
        }
        made = post(client, "/api/tables", body)
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["title"] == "Friday night"
        assert summary["seats"][0]["name"] == "Ann Lee"
        claim = client.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": "\u200bCy\u202e"})
        assert claim.status_code == 200, claim.text
        assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Cy"
        # the limit counts what is left: invisible characters do not make a name too long
        long = "x" * MAX_NAME_CHARS
        assert client.post(
            f"/api/tables/{table}/seats", json={"seat": 2, "name": long + "\u200b" * 9}
        ).is_success


def test_a_name_of_nothing_visible_is_refused(tmp_path: Path) -> None:
    with server(tmp_path) as (client, _):
        table = post_table(client).json()["table"]
        for name in ("", "   ", INVISIBLE, "\u202e\u200b \t"):
            words = ("name", "at least 1 character", "invisible characters are removed")
            refused(post_table(client, seat=0, name=name), 422, *words)
            answer = post(client, f"/api/tables/{table}/seats", {"seat": 1, "name": name})
            refused(answer, 422, *words)
        assert table_count(client) == 1
        assert client.get(f"/api/tables/{table}").json()["free_seats"] == [0, 1, 2, 3]
        # a title of nothing visible is no title: the table is called after its variant
        made = post_table(client, title=INVISIBLE)
        assert made.json()["summary"]["title"] == "Cinch table"


def test_one_length_limit_for_titles_and_names(tmp_path: Path) -> None:
    with server(tmp_path) as (client, _):
        assert client.get("/api/limits").json() == {
            "name_chars": MAX_NAME_CHARS,
            "title_chars": MAX_TITLE_CHARS,
            "body_bytes": MAX_BODY_BYTES,
            "message_bytes": MAX_MESSAGE_BYTES,
            "tables_per_minute": Limits().tables_per_minute,
            "open_tables_per_client": Limits().open_tables_per_client,
            "computer_only_tables": Limits().computer_only_tables,
            "max_expert_samples": Limits().max_expert_samples,
            "chat_chars": Limits().chat_chars,
            "chat_messages": Limits().chat_messages,
            "chat_seconds": Limits().chat_seconds,
            "clocks": list(TurnClocks().lengths),
        }
        word = "W" * MAX_TITLE_CHARS
        assert post_table(client, title=word).json()["summary"]["title"] == word
        refused(post_table(client, title=word + "W"), 422, "title", f"at most {MAX_TITLE_CHARS} characters")
        refused(post_table(client, seat=0, name="N" * (MAX_NAME_CHARS + 1)), 422, "name", "at most 40")
        assert table_count(client) == 1


# ---------------------------------------------------------------------------- through uvicorn


@pytest.mark.processes
def test_limits_count_the_address_uvicorn_resolves_behind_a_proxy(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    flags = ("--tables-per-minute", "1", "--open-tables-per-client", "7", "--computer-only-tables", "0",
             "--max-expert-samples", "30")  # fmt: skip
    body = {"variant": "cinch", "seats": HUMANS, "seat": None}

    def create(url: str, forwarded: str) -> httpx.Response:
        return httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": forwarded}, timeout=10)

    # a proxy on this machine (uvicorn trusts 127.0.0.1 by default): each forwarded address counts
    with serve_process(database, tmp_path, args=flags) as proc:
        assert httpx.get(f"{proc.url}/api/limits", timeout=10).json() | {"name_chars": 0} == {
            "name_chars": 0,
            "title_chars": MAX_TITLE_CHARS,
            "body_bytes": MAX_BODY_BYTES,
            "message_bytes": MAX_MESSAGE_BYTES,
            "tables_per_minute": 1,
            "open_tables_per_client": 7,
            "computer_only_tables": 0,
            "max_expert_samples": 30,
            "chat_chars": 200,
            "chat_messages": 5,
            "chat_seconds": 10.0,
            "clocks": list(TurnClocks().lengths),
        }
        assert create(proc.url, "203.0.113.1").status_code == 201
        answer = create(proc.url, "203.0.113.1")
        refused(answer, 429, "at most 1 a minute")
        assert 1 <= int(answer.headers["Retry-After"]) <= 60
        assert create(proc.url, "203.0.113.2").status_code == 201
    # a proxy uvicorn is not told to trust: its header is ignored, everyone is this machine
    with serve_process(database, tmp_path, args=(*flags, "--forwarded-allow-ips", "192.0.2.1")) as proc:
        assert create(proc.url, "203.0.113.3").status_code == 201
        refused(create(proc.url, "203.0.113.4"), 429, "at most 1 a minute")


@pytest.mark.slow
def test_a_websocket_message_over_the_limit_gets_too_big_and_the_connection_stays(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with serve_process(database, tmp_path) as proc:
        made = httpx.post(f"{proc.url}/api/tables", json={"variant": "cinch", "seats": HUMANS}, timeout=10)
        table = made.json()["table"]
        with connect(f"{proc.ws_url}/ws/{table}", open_timeout=10) as ws:
            for size in (MAX_MESSAGE_BYTES + 1, 5000, MAX_FRAME_BYTES - 100):
                ws.send(json.dumps({"type": "ping", "pad": "x" * size}))
                message = json.loads(ws.recv(timeout=10))
                assert message["type"] == "error" and message["code"] == "too_big", message
                assert f"{MAX_MESSAGE_BYTES} bytes" in message["message"]
                ws.send('{"type": "ping"}')
                assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}, "the connection stopped answering"
            # beyond what the transport reads at all, the connection is closed: 1009, message too big
            ws.send("x" * (MAX_FRAME_BYTES + 1))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert httpx.get(f"{proc.url}/healthz", timeout=10).json()["ok"]
