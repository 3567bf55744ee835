"""A table's chat: who reads which channel, the limits, chat turned off, history, and what it is not.

Seats talk on the ``table`` channel, which everyone reads; spectators on ``spectators``, which the
seats read only while no hand is played. Lines are stored with the table (a restart keeps them,
other server processes hear of them) and never enter the game's record. Only clients that ask
(``"chat": true``) are sent the chat.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from tests.server.client_helpers import (
    create_table,
    full_table,
    pending_json,
    recv_until,
    room_of,
    running_server,
)
from tests.server.replay_helpers import computer_game
from tests.server.room_helpers import InstantStore, Listener, table_row
from tests.serving import postgres_database

from pedro.server.settings import Limits
from pedro.server.storage.tables_db import (
    ChatRow,
    NewChatLine,
    SeatRow,
    Store,
    TableRow,
    hash_secret,
    news_payload,
)
from pedro.server.sync.listener import Listener as NewsListener
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables import chat as chat_module
from pedro.server.tables import websocket
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.views import words
from pedro.variants.options import make_ruleset

IMG = '<img src=x onerror="alert(1)">'


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as c:
        yield c


def join_chat(ws: WebSocketTestSession, secret: str) -> dict[str, Any]:
    """Join a seat asking for the chat: its ``chat_history``."""
    ws.send_json({"type": "join", "secret": secret, "chat": True})
    return recv_until(ws, lambda m: m["type"] == "chat_history")


def watch_chat(ws: WebSocketTestSession) -> dict[str, Any]:
    ws.send_json({"type": "watch", "chat": True})
    return recv_until(ws, lambda m: m["type"] == "chat_history")


def chat_of(ws: WebSocketTestSession, wait: float = 0.2) -> list[dict[str, Any]]:
    """The chat messages (and errors) that arrive within ``wait`` seconds; states are skipped."""
    return [m for m in pending_json(ws, wait) if m["type"] != "state"]


def said(ws: WebSocketTestSession) -> dict[str, Any]:
    return recv_until(ws, lambda m: m["type"] in ("chat", "error"))


def line(message: dict[str, Any]) -> tuple[str, int | None, str, str | None, str | None]:
    return (message["channel"], message["seat"], message["name"], message["text"], message["phrase"])


# ---------------------------------------------------------------------------- channels


def test_seats_talk_to_everyone_and_spectators_to_spectators_while_a_hand_is_played(
    client: TestClient,
) -> None:
    table, keys = full_table(client)
    with (
        client.websocket_connect(f"/ws/{table}") as ann,
        client.websocket_connect(f"/ws/{table}") as p1,
        client.websocket_connect(f"/ws/{table}") as quiet,
        client.websocket_connect(f"/ws/{table}") as kib,
    ):
        assert join_chat(ann, keys[0]) == {"type": "chat_history", "on": True, "lines": []}
        join_chat(p1, keys[1])
        quiet.send_json({"type": "join", "secret": keys[2]})  # no chat asked for
        recv_until(quiet, lambda m: m["type"] == "state")
        watch_chat(kib)
        assert room_of(client, table).started  # every seat is taken: a hand is being played

        ann.send_json({"type": "chat", "text": "hello all", "name": "Zed"})  # a seat speaks as itself
        for ws in (ann, p1, kib):
            got = said(ws)
            assert got["type"] == "chat" and line(got) == ("table", 0, "Ann", "hello all", None)
        # a spectator without a name reads only
        kib.send_json({"type": "chat", "text": "psst"})
        assert said(kib)["code"] == "chat_name"
        # a kibitzer's word, markup and all, reaches the spectators, not the seats
        kib.send_json({"type": "chat", "text": IMG, "name": "Kib"})
        assert line(said(kib)) == ("spectators", None, "Kib", IMG, None)
        p1.send_json({"type": "chat", "phrase": "gg"})
        for ws in (ann, p1, kib):
            assert line(said(ws)) == ("table", 1, "P1", None, "gg")
        assert chat_of(ann) == [] and chat_of(p1) == []
        assert chat_of(quiet) == [], "a client that did not ask for the chat was sent it"
        # who joins later is sent what it may read
        with client.websocket_connect(f"/ws/{table}") as p3, client.websocket_connect(f"/ws/{table}") as late:
            seat_lines = join_chat(p3, keys[3])["lines"]
            assert [(m["seq"], m["text"], m["phrase"]) for m in seat_lines] == [
                (0, "hello all", None),
                (2, None, "gg"),
            ]
            assert [m["seq"] for m in watch_chat(late)["lines"]] == [0, 1, 2]


def test_before_the_game_starts_the_seats_read_the_spectators(client: TestClient) -> None:
    made = create_table(client)
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ann, client.websocket_connect(f"/ws/{table}") as kib:
        join_chat(ann, made["secret"])
        watch_chat(kib)
        assert not room_of(client, table).started
        kib.send_json({"type": "chat", "text": "waiting too", "name": "Kib"})
        assert line(said(ann)) == ("spectators", None, "Kib", "waiting too", None)


# ---------------------------------------------------------------------------- limits


def test_a_chat_message_is_cleaned_and_checked(tmp_path: Path) -> None:
    with running_server(tmp_path, limits=Limits(chat_chars=10)) as client:
        assert client.get("/api/limits").json()["chat_chars"] == 10
        made = create_table(client)
        with client.websocket_connect(f"/ws/{made['table']}") as ann:
            join_chat(ann, made["secret"])
            ann.send_json({"type": "chat", "text": "\u202ea\x00b\u200b  c\n"})
            assert said(ann)["text"] == "ab c"
            refusals = [
                ({"text": "x" * 11}, "at most 10 characters"),
                ({"text": " \u200b\t"}, "at least 1 character"),
                ({"text": "hi", "phrase": "gg"}, "either a text or a phrase"),
                ({}, "either a text or a phrase"),
                ({"phrase": "boo"}, "phrase"),
            ]
            for fields, words in refusals:
                ann.send_json({"type": "chat", **fields})
                error = said(ann)
                assert error["code"] == "bad_message" and words in error["message"], (fields, error)
            assert chat_of(ann) == []


def test_a_person_who_chats_too_fast_is_refused_and_may_send_again_later(tmp_path: Path) -> None:
    with running_server(tmp_path, limits=Limits(chat_messages=2, chat_seconds=0.5)) as client:
        table, keys = full_table(client)
        with client.websocket_connect(f"/ws/{table}") as ann, client.websocket_connect(f"/ws/{table}") as bo:
            join_chat(ann, keys[0])
            join_chat(bo, keys[1])
            for text in ("one", "two"):
                ann.send_json({"type": "chat", "text": text})
                assert said(ann)["text"] == text
            ann.send_json({"type": "chat", "text": "three"})
            error = said(ann)
            assert error["code"] == "chat_rate" and "send it again in" in error["message"]
            assert [m["text"] for m in chat_of(bo)] == ["one", "two"], "a refused line reached another"
            # another person's pace is their own
            bo.send_json({"type": "chat", "text": "mine"})
            assert said(bo)["text"] == "mine"
            pending_json(ann, 0.5)
            ann.send_json({"type": "chat", "text": "three"})
            assert said(ann)["text"] == "three"


# ---------------------------------------------------------------------------- on and off


def test_the_tables_creator_may_turn_the_chat_off_and_it_stays_off(tmp_path: Path) -> None:
    with running_server(tmp_path) as client:
        made = create_table(client)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ann, client.websocket_connect(f"/ws/{table}") as kib:
            join_chat(ann, made["secret"])
            watch_chat(kib)
            ann.send_json({"type": "chat", "text": "before"})
            said(ann)
            room = room_of(client, table)
            ann.portal.call(room.set_chat, False)
            for ws in (ann, kib):
                assert recv_until(ws, lambda m: m["type"] == "chat_history") == {
                    "type": "chat_history",
                    "on": False,
                    "lines": [],
                }
            ann.send_json({"type": "chat", "text": "anyone?"})
            assert said(ann)["code"] == "chat_off"
    with running_server(tmp_path) as client, client.websocket_connect(f"/ws/{table}") as ann:
        assert join_chat(ann, made["secret"])["on"] is False
        ann.portal.call(room_of(client, table).set_chat, True)
        history = recv_until(ann, lambda m: m["type"] == "chat_history")
        assert history["on"] and [m["text"] for m in history["lines"]] == ["before"]


# ---------------------------------------------------------------------------- kept with the table


def test_the_chat_outlives_a_restart_and_a_reconnection_gets_the_latest_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many = Limits(chat_messages=1000)
    monkeypatch.setattr(websocket, "RATE_BURST", 1e6)  # a client sending 105 lines at once
    with running_server(tmp_path, limits=many) as client:
        made = create_table(client)
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ann:
            join_chat(ann, made["secret"])
            for n in range(105):
                ann.send_json({"type": "chat", "text": f"line {n}"})
            recv_until(ann, lambda m: m.get("text") == "line 104")
        with client.websocket_connect(f"/ws/{table}") as ann:
            first = join_chat(ann, made["secret"])["lines"]
    assert [m["text"] for m in first] == [f"line {n}" for n in range(5, 105)]
    with running_server(tmp_path, limits=many) as client, client.websocket_connect(f"/ws/{table}") as ann:
        assert join_chat(ann, made["secret"])["lines"] == first
        ann.send_json({"type": "chat", "text": "after"})
        assert said(ann)["seq"] == 105


def nearly_over(tmp_path: Path) -> tuple[str, list[str], str]:
    """A stored table of four people one action from its end: its id, the seats' secrets, and the
    last action (record text)."""
    rules = make_ruleset("cinch", {"target": 11})
    actions = computer_game(rules, "chat")
    keys = [f"secret-{s}" for s in range(4)]
    row = TableRow(
        id=secrets.token_urlsafe(16),
        title="",
        variant="cinch",
        options={"target": 11},
        seed="chat",
        listed=False,
        created_at=datetime.now(UTC),
        seats=[SeatRow(s, "human", name=f"P{s}", secret_hash=hash_secret(keys[s])) for s in range(4)],
    )
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.migrate()
    store.create_table(row)
    for seq, text in enumerate(actions[:-1]):
        store.append_action(row.id, seq, text)
    store.close()
    return row.id, keys, actions[-1]


def test_the_seats_read_the_spectators_once_the_game_is_over_and_no_record_holds_the_chat(
    tmp_path: Path,
) -> None:
    table, keys, last = nearly_over(tmp_path)
    seat, words = last.split(" ", 1)
    with running_server(tmp_path, worker_processes=0) as client:
        with (
            client.websocket_connect(f"/ws/{table}") as player,
            client.websocket_connect(f"/ws/{table}") as kib,
        ):
            join_chat(player, keys[int(seat)])
            watch_chat(kib)
            kib.send_json({"type": "chat", "text": "play the last one!", "name": "Kib"})
            said(kib)
            player.send_json({"type": "chat", "text": "secret word xyzzy"})
            said(player)
            assert chat_of(player) == []
            player.send_json({"type": "act", "action": words, "seq": room_of(client, table).seq})
            history = recv_until(player, lambda m: m["type"] == "chat_history")
            assert [m["text"] for m in history["lines"]] == ["play the last one!", "secret word xyzzy"]
        assert room_of(client, table).finished
        for path in ("record", "replay"):
            answer = client.get(f"/api/tables/{table}/{path}")
            assert answer.status_code == 200, answer.text
            assert "xyzzy" not in answer.text and "Kib" not in answer.text


# ---------------------------------------------------------------------------- no hidden card


class ChatStore(InstantStore):
    """Commits chat lines at once too."""

    def add_chat(self, table_id: str, line: ChatRow) -> asyncio.Future[None]:
        return self._done()

    def set_chat(self, table_id: str, on: bool) -> asyncio.Future[None]:
        return self._done()

    def _done(self) -> asyncio.Future[None]:
        future = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future


def chat_heard(seed: str, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """What each seat and a spectator are sent of the chat at a table dealt from ``seed``, as the
    same people say the same things before, during and after a few actions of the first hand."""
    monkeypatch.setattr(chat_module, "utc_now", lambda: datetime(2026, 12, 5, tzinfo=UTC))

    async def scenario() -> list[list[str]]:
        settings = RoomSettings(chat_messages=100)
        room = Room(table_row("cinch", {}, seed, [None] * 4), ChatStore(), settings)  # type: ignore[arg-type]
        listeners = [Listener(s) for s in range(4)] + [Listener(None)]
        for listener in listeners:
            room.attach(listener, listener.seat)
            room.chat.welcome(listener)
        for step in range(6):
            await room.chat.say(listeners[step % 4], f"step {step}", None, None)
            await room.chat.say(listeners[4], None, "wow", "Kib")
            action = room.state.legal_actions()[0]
            await room.act(listeners[room.state.current_player], words(action, room.rules), room.seq)
        return [[t for t in listener.received if json.loads(t)["type"] != "state"] for listener in listeners]

    return asyncio.run(scenario())


def test_what_a_client_is_sent_of_the_chat_does_not_depend_on_the_hidden_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server writes nothing into the chat itself, so two tables whose hidden cards differ
    send every client the same chat, byte for byte."""
    heard = chat_heard("one deal", monkeypatch)
    assert heard == chat_heard("another deal", monkeypatch)
    assert len(heard[0]) == 1 + 6 and len(heard[4]) == 1 + 12


# ---------------------------------------------------------------------------- other server processes


def test_a_line_said_at_another_process_reaches_this_ones_readers(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        store.migrate()
        storage = AsyncStore(store)
        try:
            row = table_row("cinch", {}, "seed", [None] * 4)
            await storage.create_table(row)
            registry = TableRegistry(storage, RoomSettings(shared=True), "me")
            registry.load()
            room = await registry.get(row.id)
            assert room is not None
            reader = Listener(0)
            room.attach(reader, 0)
            room.chat.welcome(reader)
            said_there = ChatRow(0, "table", 1, None, "from afar", None, datetime.now(UTC))
            payload = news_payload("other", NewChatLine(row.id, said_there))
            assert payload is not None
            registry.on_news(payload)
            assert json.loads(reader.received[-1])["text"] == "from afar"
            # the chat turned off there, and on again
            registry.on_news(f"other {row.id} chat_switch off")
            assert json.loads(reader.received[-1]) == {"type": "chat_history", "on": False, "lines": []}
            registry.on_news(f"other {row.id} chat_switch on")
            assert [m["text"] for m in json.loads(reader.received[-1])["lines"]] == ["from afar"]
            # the longest line's news stays far below PostgreSQL's 8000 bytes
            longest = ChatRow(
                2**31 - 1, "spectators", None, "\U0001f600" * 40, '"' * 500, None, datetime.now(UTC)
            )
            big = news_payload("h" * 40, NewChatLine("t" * 40, longest))
            assert big is not None and len(big.encode()) < 2500
            # a line committed there whose news was lost is read on catching up
            store.write_many(
                [NewChatLine(row.id, ChatRow(1, "table", 2, None, "missed", None, datetime.now(UTC)))]
            )
            registry.on_news(None)
            for _ in range(200):
                if "missed" in reader.received[-1]:
                    break
                await asyncio.sleep(0.01)
            assert json.loads(reader.received[-1])["text"] == "missed"
            assert room.chat.next_seq == 2
            registry.stop()
        finally:
            storage.close()

    asyncio.run(scenario())


def chat_lines(listener: Listener) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, listener.received) if m["type"] == "chat"]


@pytest.mark.postgres
def test_two_processes_on_one_postgresql_database_share_the_chat() -> None:
    """Two registries, each with its own store and listener, as two ``pedro serve`` processes are:
    a line said at either reaches the readers of both, and two lines said at once both land."""

    async def scenario(url: str) -> None:
        stores = [Store(url, announce_as=name) for name in ("a", "b")]
        stores[0].migrate()
        storages = [AsyncStore(s) for s in stores]
        registries = [
            TableRegistry(s, RoomSettings(shared=True), n) for s, n in zip(storages, "ab", strict=True)
        ]
        listeners = [
            NewsListener(s.url, n, lambda p, r=r: r.on_news(p))
            for s, n, r in zip(stores, "ab", registries, strict=True)
        ]
        try:
            for registry, listener in zip(registries, listeners, strict=True):
                registry.load()
                listener.start()
            row = table_row("cinch", {}, "seed", [None] * 4)
            await registries[0].add(row)
            rooms = [registries[0].rooms[row.id], await registries[1].get(row.id)]
            readers = [Listener(0), Listener(1)]
            for room, reader in zip(rooms, readers, strict=True):
                assert room is not None
                room.attach(reader, reader.seat)
                room.chat.welcome(reader)
            assert rooms[0] is not None and rooms[1] is not None
            await asyncio.gather(
                rooms[0].chat.say(readers[0], "from a", None, None),
                rooms[1].chat.say(readers[1], "from b", None, None),
            )
            for _ in range(500):
                if all(len(chat_lines(r)) == 2 for r in readers):
                    break
                await asyncio.sleep(0.01)
            for reader in readers:
                assert sorted((m["seq"], m["text"]) for m in chat_lines(reader)) in (
                    [(0, "from a"), (1, "from b")],
                    [(0, "from b"), (1, "from a")],
                )
        finally:
            for listener in listeners:
                listener.stop()
            for registry in registries:
                registry.stop()
            for storage in storages:
                storage.close()

    with postgres_database() as url:
        asyncio.run(scenario(url))
