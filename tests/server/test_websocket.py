"""The WebSocket protocol of ``pedro serve`` (docs/server.md, "WebSocket"), in process."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from tests.server.client_helpers import (
    act,
    choose,
    claim,
    create_table,
    full_table,
    join,
    pending,
    pending_json,
    recv,
    recv_raw,
    recv_until,
    room_of,
    running_server,
    seats_spec,
    watch,
)

from pedro.cards import cards_of, format_card
from pedro.records import replay
from pedro.server.tables import websocket
from pedro.server.tables.room import Room


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as client:
        yield client


def hand_of(client: TestClient, table: str, seat: int) -> set[str]:
    return {format_card(c) for c in cards_of(room_of(client, table).state.hands[seat])}


def settle(ws: WebSocketTestSession, state: dict[str, Any], wait: float = 0.05) -> dict[str, Any]:
    """The latest state after whatever announcements are still on their way (connections, seats)."""
    for message in pending_json(ws, wait):
        assert message["type"] == "state", message
        state = message
    return state


def same_action(told: str | None, sent: str) -> bool:
    """The server writes a card set in its own order."""
    return told is not None and sorted(told.split()) == sorted(sent.split())


def expect_error(ws: WebSocketTestSession, code: str) -> str:
    message = recv(ws)
    assert message["type"] == "error" and message["code"] == code, message
    assert message["message"]
    text: str = message["message"]
    return text


@contextmanager
def seat_clients(
    client: TestClient, table: str, secrets: list[str]
) -> Iterator[tuple[list[WebSocketTestSession], list[dict[str, Any]]]]:
    """Connect and join every seat; yield the sockets and each one's state once all have joined."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in secrets]
        states = [join(ws, secret) for ws, secret in zip(sockets, secrets, strict=True)]
        for seat, ws in enumerate(sockets):  # each later join is announced to the seats already there
            for _ in range(len(secrets) - 1 - seat):
                states[seat] = recv(ws)
                assert states[seat]["type"] == "state"
        assert all(all(s["connected"] for s in state["seats"]) for state in states)
        yield sockets, states


# ---------------------------------------------------------------------------- joining and watching


def test_join_with_a_secret_gives_your_seat_and_your_hand(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "join", "secret": secrets[2]})
        assert recv(ws) == {"type": "welcome", "seat": 2}
        state = recv(ws)
    assert state["type"] == "state" and state["you"] == 2 and state["seq"] == 0 and state["started"]
    assert state["table"]["id"] == table and state["table"]["variant"] == "cinch"
    assert state["table"]["sides"] == [[0, 2], [1, 3]] and state["table"]["target"] == 62
    game = state["game"]
    assert set(game["hand"]) == hand_of(client, table, 2) and len(game["hand"]) == 9
    assert game["hand_sizes"] == [9, 9, 9, 9] and game["phase"] == "auction"
    assert state["seats"][2]["connected"] and not state["seats"][0]["connected"]
    room = room_of(client, table)
    if room.state.current_player == 2:
        assert game["legal"]["kind"] == "list" and game["turn"] == 2
    else:
        assert game["legal"] is None


def test_watch_gives_the_public_table_only(client: TestClient) -> None:
    table, _ = full_table(client, "cinch")
    with client.websocket_connect(f"/ws/{table}") as ws:
        state = watch(ws)
    assert state["you"] is None and state["seq"] == 0
    game = state["game"]
    assert game["hand"] == [] and game["legal"] is None and game["seen"] == [] and game["own_discards"] == []
    assert game["hand_sizes"] == [9, 9, 9, 9] and game["turn"] == room_of(client, table).state.current_player


def test_a_wrong_secret_is_refused_and_the_connection_may_still_watch(client: TestClient) -> None:
    table, _ = full_table(client, "cinch")
    other = create_table(client, "cinch")["secret"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        for secret in ("not-a-secret", other, "x" * 100):
            ws.send_json({"type": "join", "secret": secret})
            assert "does not belong to a seat" in expect_error(ws, "auth")
        act(ws, "pass", 0)
        expect_error(ws, "auth")
        assert watch(ws)["you"] is None
        ws.send_json({"type": "join", "secret": other})
        assert "already" in expect_error(ws, "bad_message")
    assert room_of(client, table).seq == 0


def test_acting_before_joining_or_as_a_spectator_is_refused(client: TestClient) -> None:
    table, _ = full_table(client, "cinch")
    room = room_of(client, table)
    turn = room.state.current_player
    with client.websocket_connect(f"/ws/{table}") as ws:
        act(ws, "pass", 0)
        assert "join" in expect_error(ws, "auth")
        watch(ws)
        act(ws, "pass", 0)
        assert "spectators cannot act" in expect_error(ws, "auth")
    assert room.seq == 0 and room.state.current_player == turn


def test_ping(client: TestClient) -> None:
    table = create_table(client)["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "ping"})
        assert recv(ws) == {"type": "pong"}


def test_an_unknown_table_is_told_and_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/no-such-table") as ws:
        assert recv(ws) == {"type": "error", "code": "not_found", "message": "no such table (check the link)"}
        assert recv_raw(ws)["type"] == "websocket.close"


def test_nobody_acts_before_every_human_seat_is_taken(client: TestClient) -> None:
    made = create_table(client, "cinch", seats=seats_spec("human", "human", "basic", "basic"))
    table = made["table"]
    room = room_of(client, table)
    with client.websocket_connect(f"/ws/{table}") as ws:
        state = join(ws, made["secret"])
        assert state["started"] is False and state["game"]["legal"] is None
        act(ws, "pass", 0)
        assert "every seat has a player" in expect_error(ws, "turn")
        time.sleep(0.05)
        assert room.seq == 0, "the computer players started before the table was full"
        claim(client, table, 1, "Cy")
        state = recv_until(ws, lambda m: m["type"] == "state" and m["started"])
        assert state["seats"][1]["name"] == "Cy" and state["seats"][1]["claimed"]


# ---------------------------------------------------------------------------- acting


def test_players_see_each_others_actions(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    rng = random.Random(3)
    with (
        seat_clients(client, table, secrets) as (sockets, states),
        client.websocket_connect(f"/ws/{table}") as spectator,
    ):
        watch(spectator)
        assert [m["seq"] for m in states] == [0, 0, 0, 0]
        for _ in range(8):
            turn = states[0]["game"]["turn"]
            seq = states[turn]["seq"]
            action = choose(states[turn], rng, room_of(client, table))
            act(sockets[turn], action, seq)
            news = [recv(ws) for ws in (*sockets, spectator)]
            assert {m["seq"] for m in news} == {seq + 1}
            lasts = [m["last"] for m in news]
            assert lasts[turn]["seat"] == turn and same_action(lasts[turn]["action"], action)
            if action.split()[0] in ("pass", "bid", "trump", "play"):  # public: everyone is told the same
                assert lasts == [lasts[turn]] * 5
            else:  # the dealer's keep: the others are told how many cards
                count = len(action.split()) - 1
                label = f"Keep {count} card{'s' if count != 1 else ''}"
                hidden = {"seat": turn, "action": None, "label": label, "count": count}
                assert [m for i, m in enumerate(lasts) if i != turn] == [hidden] * 4
            assert [m["you"] for m in news] == [0, 1, 2, 3, None]
            states = news[:4]
            assert sum(s["game"]["legal"] is not None for s in states) == 1
        assert room_of(client, table).seq == 8


def test_out_of_turn_illegal_and_stale_actions_change_nothing(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    room = room_of(client, table)
    with seat_clients(client, table, secrets) as (sockets, states):
        turn = states[0]["game"]["turn"]
        other = (turn + 1) % 4
        act(sockets[other], "pass", 0)
        assert "not your turn" in expect_error(sockets[other], "turn")

        legal = [a["action"] for a in states[turn]["game"]["legal"]["actions"]]
        act(sockets[turn], "bid 99", 0)
        message = expect_error(sockets[turn], "illegal")
        assert "legal:" in message and all(f"{turn} {a}" in message for a in legal), message
        act(sockets[turn], "play AS", 0)
        assert "legal:" in expect_error(sockets[turn], "illegal")
        act(sockets[turn], "dance", 0)
        assert "legal:" in expect_error(sockets[turn], "illegal")
        assert room.seq == 0 and room.state.current_player == turn
        assert all(pending(ws) == [] for ws in sockets), "a refusal was told to the other seats"

        act(sockets[turn], legal[0], 0)
        assert [recv(ws)["seq"] for ws in sockets] == [1, 1, 1, 1]
        # the same message again (a replay or a double click) is stale
        act(sockets[turn], legal[0], 0)
        assert "state 0" in expect_error(sockets[turn], "stale")
        following = room.state.current_player
        act(sockets[following], "pass", 7)
        assert "the game is at state 1" in expect_error(sockets[following], "stale")
        assert room.seq == 1 and room.state.current_player == following
        assert all(pending(ws) == [] for ws in sockets)


def test_a_second_connection_with_the_same_secret_replaces_the_first(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    room = room_of(client, table)
    turn = room.state.current_player
    with (
        client.websocket_connect(f"/ws/{table}") as first,
        client.websocket_connect(f"/ws/{table}") as second,
    ):
        join(first, secrets[turn])
        state = join(second, secrets[turn])
        assert state["you"] == turn and state["seats"][turn]["connected"]
        message = recv_until(first, lambda m: m["type"] == "error")
        assert message["code"] == "replaced" and "another window" in message["message"]
        assert recv_raw(first)["type"] == "websocket.close"
        # the new connection plays the seat
        act(second, state["game"]["legal"]["actions"][0]["action"], 0)
        assert recv_until(second, lambda m: m["type"] == "state" and m["seq"] == 1)["last"]["seat"] == turn
    assert room.seq == 1


def _play_while(
    ws: WebSocketTestSession,
    state: dict[str, Any],
    rng: random.Random,
    room: Room,
    until: Any,
    timeout: float = 30.0,
) -> dict[str, Any]:
    """Act for the seat whenever it is its turn, until a state satisfies ``until``."""
    deadline = time.monotonic() + timeout
    acted_at = -1
    while not until(state):
        if state["game"]["legal"] is not None and not state["finished"] and state["seq"] > acted_at:
            act(ws, choose(state, rng, room), state["seq"])
            acted_at = state["seq"]
        message = recv(ws, max(0.01, deadline - time.monotonic()))
        assert message["type"] == "state", message
        state = message
    return state


def test_a_computer_stands_in_for_a_player_who_is_away_until_they_come_back(tmp_path: Path) -> None:
    with running_server(tmp_path, away_seconds=0.2) as client:
        made = create_table(client, "cinch", seats=seats_spec("human", "human", "basic", "basic"))
        table = made["table"]
        mine, theirs = made["secret"], claim(client, table, 1, "Cy")
        room = room_of(client, table)
        rng = random.Random(5)
        with client.websocket_connect(f"/ws/{table}") as me:
            state = settle(me, join(me, mine))
            with client.websocket_connect(f"/ws/{table}") as cy:
                join(cy, theirs)
                state = recv_until(me, lambda m: m["type"] == "state" and m["seats"][1]["connected"])
                assert not state["seats"][1]["stand_in"]
                left = time.monotonic()
            state = recv_until(me, lambda m: m["type"] == "state" and not m["seats"][1]["connected"])
            assert not state["seats"][1]["stand_in"], "stood in before the player was away long enough"
            state = _play_while(me, state, rng, room, lambda s: s["seats"][1]["stand_in"])
            assert time.monotonic() - left >= 0.2
            # the computer plays seat 1 now: its actions keep coming without its player
            state = _play_while(
                me, state, rng, room, lambda s: s["last"] is not None and s["last"]["seat"] == 1
            )
            assert room.seats[1].client is None
            state = _play_while(me, state, rng, room, lambda s: s["last"]["seat"] != 1)

            with client.websocket_connect(f"/ws/{table}") as cy:
                cy_state = settle(cy, join(cy, theirs))
                state = recv_until(me, lambda m: m["type"] == "state" and m["seats"][1]["connected"])
                assert not state["seats"][1]["stand_in"] and not cy_state["seats"][1]["stand_in"]
                # a stand-in's action decided before the return may still be committing: let it land
                time.sleep(0.3)
                state = next((m for m in reversed(pending_json(me)) if m["type"] == "state"), state)
                # back at the table: when it is seat 1's turn, nobody plays for it (in a state that
                # is the room's latest: one read from the queue may be from before the return)
                state = _play_while(
                    me,
                    state,
                    rng,
                    room,
                    lambda s: s["game"]["turn"] == 1 and not s["finished"] and s["seq"] == room.seq,
                )
                seq = state["seq"]
                time.sleep(0.5)
                # (a late away-check may still repeat the state; no message may carry a new action)
                later = [m for m in pending_json(me) if m.get("seq", seq) != seq]
                assert room.seq == seq and later == [], "the computer played for a player who is back"
                if cy_state["seq"] != seq:  # (Cy has read it already when it was seat 1's turn as Cy joined)
                    cy_state = recv_until(cy, lambda m: m["type"] == "state" and m["seq"] == seq)
                act(cy, choose(cy_state, rng, room), seq)
                state = recv_until(me, lambda m: m["type"] == "state" and m["seq"] == seq + 1)
                assert state["last"]["seat"] == 1


def test_one_player_and_three_computers_play_a_whole_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # computers answer at once (bot_delay 0), so the test's player acts faster than a person may
    monkeypatch.setattr(websocket, "RATE_PER_SECOND", 1e6)
    made = create_table(
        client, "cinch", options={"target": 21}, seats=seats_spec("human", "basic", "random", "basic")
    )
    table = made["table"]
    room = room_of(client, table)
    rng = random.Random(11)
    with (
        client.websocket_connect(f"/ws/{table}") as ws,
        client.websocket_connect(f"/ws/{table}") as spectator,
    ):
        state = join(ws, made["secret"])
        watch(spectator)
        acted = 0
        acted_at = -1
        deadline = time.monotonic() + 30
        while not state["finished"]:
            assert time.monotonic() < deadline, "the game did not finish"
            # act once per state seq: a state may be told again (someone connected)
            if state["game"]["legal"] is not None and state["seq"] > acted_at:
                act(ws, choose(state, rng, room), state["seq"])
                acted += 1
                acted_at = state["seq"]
            message = recv(ws)
            assert message["type"] == "state", message
            state = message
        last = recv_until(spectator, lambda m: m["type"] == "state" and m["finished"])
    assert acted > 5
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["finished"] and summary["phase"] == "over" and summary["winner"] in (0, 1)
    assert state["game"]["winner"] == summary["winner"] == last["game"]["winner"]
    assert (
        state["game"]["phase"] == "over" and state["game"]["legal"] is None and state["game"]["turn"] is None
    )
    assert max(summary["scores"]) >= 21 and state["game"]["scores"] == summary["scores"]
    record = client.get(f"/api/tables/{table}/record").json()
    assert replay(record).winner == summary["winner"]
    # a finished game refuses actions
    with client.websocket_connect(f"/ws/{table}") as ws:
        join(ws, made["secret"])
        act(ws, "pass", state["seq"])
        assert "over" in expect_error(ws, "illegal")


def test_a_closed_connection_shows_the_seat_as_disconnected(client: TestClient) -> None:
    table, secrets = full_table(client, "cinch")
    with client.websocket_connect(f"/ws/{table}") as watcher:
        watch(watcher)
        with client.websocket_connect(f"/ws/{table}") as ws:
            join(ws, secrets[3])
            state = recv_until(watcher, lambda m: m["seats"][3]["connected"])
        state = recv_until(watcher, lambda m: not m["seats"][3]["connected"])
        assert state["seq"] == 0
