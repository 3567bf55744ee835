"""Turn clocks: a table made with one gives each person's decision so long, then the stand-in makes it.

The clocks here are short (``TurnClocks`` of the server's settings: a request can only choose among
them) and the pause after a hand is none, so the tests wait fractions of a second.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession
from tests.server.client_helpers import (
    claim,
    join,
    recv_until,
    room_of,
    running_server,
    seats_spec,
)
from tests.server.room_helpers import InstantStore, Listener, table_row

from pedro.engine.actions import action_text
from pedro.records import replay
from pedro.server.app import create_app
from pedro.server.finished.bodies import record_body
from pedro.server.profiles.rated_games import RatedGames
from pedro.server.settings import ServerSettings, TurnClocks
from pedro.server.storage.tables_db import (
    ClockBack,
    NewAction,
    SeatRow,
    Store,
    TableRow,
    hash_secret,
    news_payload,
)
from pedro.server.tables.clocks import TurnClock
from pedro.server.tables.game import table_game
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.views import words

SHORT = 0.3
CLOCKS = TurnClocks(lengths=(SHORT, 20.0), hand_pause=0.0)


def new_table(client: TestClient, clock: float | None, *kinds: str) -> dict[str, Any]:
    body = {"variant": "cinch", "seats": seats_spec(*kinds), "seat": 0, "name": "Ann", "clock": clock}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def state_where(ws: WebSocketTestSession, first: dict[str, Any], pred: Any) -> dict[str, Any]:
    """``first`` if it is a state that satisfies ``pred``, else the next such state."""
    if pred(first):
        return first
    return recv_until(ws, lambda m: m["type"] == "state" and pred(m))


def annes_turn(m: dict[str, Any]) -> bool:
    return not m["finished"] and m["started"] and m["game"]["turn"] == 0


def test_a_table_offers_only_the_servers_clocks(tmp_path: Path) -> None:
    with running_server(tmp_path, turn_clocks=CLOCKS) as client:
        assert client.get("/api/limits").json()["clocks"] == [SHORT, 20.0]
        body = {"variant": "cinch", "seats": seats_spec("human", "random", "random", "random"), "clock": 45}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 422
        assert refused.json()["code"] == "bad_clock"
        assert refused.json()["fields"]["clocks"] == "0.3, 20"
        assert "0.3, 20 seconds, or none" in refused.json()["error"]
        made = new_table(client, 20, "human", "random", "random", "random")
        assert made["summary"]["clock"] == 20
        assert new_table(client, None, "human", "random", "random", "random")["summary"]["clock"] is None


def test_a_clock_that_runs_out_has_the_stand_in_decide_twice_then_the_seat_is_away(tmp_path: Path) -> None:
    """Each timed-out decision is the stand-in's, marked so where it is stored; after two in a row
    the seat is played at once until its player says it is back, and then its clock runs again."""
    with running_server(tmp_path, turn_clocks=CLOCKS) as client:
        made = new_table(client, SHORT, "human", "random", "random", "random")
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            first = join(ws, made["secret"])
            assert first["table"]["clock"] == SHORT
            turn = state_where(ws, first, annes_turn)
            assert turn["clock_left"] is not None and 0 < turn["clock_left"] <= SHORT
            assert not turn["seats"][0]["stand_in"]
            started = time.monotonic()
            late = recv_until(ws, lambda m: m["type"] == "state" and m["timed_out"])
            assert time.monotonic() - started >= SHORT * 0.8, "the stand-in did not wait for the clock"
            assert late["last"]["seat"] == 0 and not late["seats"][0]["stand_in"], "one is not yet away"
            away = recv_until(ws, lambda m: m["type"] == "state" and m["seats"][0]["stand_in"])
            assert away["timed_out"] and away["last"]["seat"] == 0
            room = room_of(client, table)
            assert len(room.row.timed_out) == 2 and room.row.timed_out <= room.row.stand_ins
            # away: the stand-in plays the seat at once, with no clock shown
            away_turn = recv_until(ws, lambda m: m["type"] == "state" and annes_turn(m), timeout=5)
            assert away_turn["clock_left"] is None
            ws.send_json({"type": "back"})
            back = recv_until(ws, lambda m: m["type"] == "state" and not m["seats"][0]["stand_in"])
            assert not back["finished"]
            again = state_where(ws, back, annes_turn)
            assert again["clock_left"] is not None, "back: the clock runs for the seat again"
            timed_out = set(room.row.timed_out)
        stored = Store(f"sqlite:///{tmp_path}/db.sqlite3").load_table(table)
        assert stored is not None and timed_out <= stored.timed_out and stored.timed_out <= stored.stand_ins


def test_no_clock_runs_before_the_start_nor_for_a_computer(tmp_path: Path) -> None:
    with running_server(tmp_path, turn_clocks=CLOCKS) as client:
        made = new_table(client, SHORT, "human", "human", "random", "random")
        table = made["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            waiting = join(ws, made["secret"])
            assert not waiting["started"] and waiting["clock_left"] is None
            time.sleep(SHORT)
            assert room_of(client, table).seq == 0, "the clock ran before every seat was taken"
            claim(client, table, 1)
            started = recv_until(ws, lambda m: m["type"] == "state" and m["started"])
            if started["game"]["turn"] in (0, 1):
                assert started["clock_left"] is not None and 0 < started["clock_left"] <= SHORT
            computers = recv_until(ws, lambda m: m["type"] == "state" and m["game"]["turn"] in (2, 3))
            assert computers["clock_left"] is None


def _room(row: TableRow, shared: bool = False) -> Room:
    return Room(row, InstantStore(row.actions), RoomSettings(bot_delay=0.0, shared=shared))  # type: ignore[arg-type]


def _played_to(row: TableRow, stop: Any) -> None:
    """``row``'s game played on with random legal actions until ``stop(state)``."""
    state = table_game(row.variant, row.options, row.seed, row.hands)
    rng = random.Random(1)
    while not stop(state):
        action = rng.choice(list(state.legal_actions()))
        row.actions.append(action_text(state.current_player, action, state.rules.max_bid))
        state.apply(action)


def test_no_clock_runs_after_the_end_nor_for_a_computer_seat() -> None:
    row = table_row("cinch", {"target": 11}, "ended", [None, "random", "random", "random"])
    row.clock = 0.01
    _played_to(row, lambda state: state.is_over)
    room = _room(row)
    assert room.finished and room.clock_left() is None and not room.computer_turn()
    row = table_row("cinch", {}, "computer", [None, "random", "random", "random"])
    row.clock = 0.01
    _played_to(row, lambda state: state.current_player == 1)
    assert _room(row).clock_left() is None


def test_the_deadline_counts_from_the_last_stored_action_across_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    store.migrate()
    seats = [SeatRow(0, "human", name="Ann", secret_hash=hash_secret("ann"))]
    seats += [SeatRow(s, "computer", player="random") for s in (1, 2, 3)]
    for table_id, clock in (("a" * 22, 30.0), ("b" * 22, SHORT)):
        row = TableRow(table_id, "t", "cinch", {}, "seed", True, datetime.now(UTC), seats, clock=clock)
        store.create_table(row)
        _played_to(row, lambda state: bool(state.actions) and state.current_player == 0)
        for seq, text in enumerate(row.actions):
            store.append_action(table_id, seq, text)
    time.sleep(0.5)
    restored = store.load_table("a" * 22)
    assert restored is not None and restored.clock == 30.0
    left = _room(restored).clock_left()
    assert left is not None and 28.0 < left < 29.6, "the clock was not counted from the stored action"
    # a clock that ran out while the server was down: the stand-in decides once it is back
    app = create_app(ServerSettings(database=url, bot_delay=0, start_workers=False, turn_clocks=CLOCKS))
    with TestClient(app):
        deadline = time.monotonic() + 10
        while True:
            loaded = store.load_table("b" * 22)
            assert loaded is not None
            if loaded.timed_out:
                break
            assert time.monotonic() < deadline, "the stand-in did not make the timed-out decision"
            time.sleep(0.05)
    store.close()


def test_only_the_driving_process_makes_a_timed_out_decision() -> None:
    """Several processes share the table: the one holding its lease acts when the clock runs out;
    a process taking the lease over acts on the deadline the stored actions give."""
    row = table_row("cinch", {}, "lease", [None, "random", "random", "random"])
    row.clock = 0.05
    _played_to(row, lambda state: bool(state.actions) and state.current_player == 0)
    seq = len(row.actions)

    async def run() -> None:
        room = _room(row, shared=True)
        room.attach(Listener(0), 0)
        room.start()
        await asyncio.sleep(0.2)
        assert room.seq == seq, "a process without the lease acted"
        room.set_driving(True)
        for _ in range(100):
            if room.seq > seq:
                break
            await asyncio.sleep(0.01)
        assert seq in room.row.timed_out and seq in room.row.stand_ins
        await room.drain()

    asyncio.run(run())


def test_another_process_learns_that_a_decision_timed_out() -> None:
    assert news_payload("p", NewAction("t", 7, "0 pass", stand_in=True, timed_out=True)) == "p t 7t 0 pass"
    assert news_payload("p", NewAction("t", 7, "0 pass", stand_in=True)) == "p t 7s 0 pass"
    assert news_payload("p", NewAction("t", 7, "0 pass")) == "p t 7 0 pass"
    row = table_row("cinch", {}, "news", [None, "random", "random", "random"])
    _played_to(row, lambda state: state.current_player == 0)

    async def run() -> None:
        room = _room(row, shared=True)
        action = next(iter(room.state.legal_actions()))
        await room.learn(room.seq, action_text(0, action, room.rules.max_bid), True, True)
        assert room.seq - 1 in room.row.timed_out
        assert room.facts().timed_out

    asyncio.run(run())


def test_another_process_learns_that_a_player_is_back() -> None:
    assert news_payload("p", ClockBack("t", 2)) == "p t back 2"
    row = table_row("cinch", {}, "back", [None, "random", "random", "random"])
    _played_to(row, lambda state: sum(1 for s, _ in state.actions if s == 0) == 2)
    row.timed_out = {seq for seq, text in enumerate(row.actions) if text.startswith("0 ")}
    row.stand_ins = set(row.timed_out)

    async def run() -> None:
        room = _room(row, shared=True)
        assert room.stand_in(0), "two timed-out decisions in a row: away"
        registry = TableRegistry(room.store, room.settings)
        registry.rooms[room.id] = room
        registry.on_news(f"other {room.id} back 0")
        assert not room.stand_in(0)

    asyncio.run(run())


def test_two_timed_out_decisions_in_a_row_make_a_seat_away_until_it_acts() -> None:
    clock = TurnClock(20.0, hand_pause=6.0, began=100.0)
    assert clock.left(105.0) == 15.0
    clock.decided(0, stand_in=True, timed_out=True, at=110.0, new_hand=False)
    assert not clock.away(0) and clock.left(110.0) == 20.0
    clock.decided(1, stand_in=False, timed_out=False, at=111.0, new_hand=True)
    assert clock.left(111.0) == 26.0, "a hand's first decision waits for the result shown"
    clock.decided(0, stand_in=True, timed_out=True, at=112.0, new_hand=False)
    assert clock.away(0)
    clock.decided(0, stand_in=True, timed_out=False, at=113.0, new_hand=False)  # played while away
    assert clock.away(0)
    clock.decided(0, stand_in=False, timed_out=False, at=114.0, new_hand=False)  # its player acts
    assert not clock.away(0)
    # read again from the stored marks: seat 0's decisions 0, 2 and 3 (3 while away)
    restored = TurnClock(20.0, 0.0, 0.0)
    restored.restored([0, 1, 0, 0, 1], stand_ins={0, 2, 3}, timed_out={0, 2})
    assert restored.away(0) and not restored.away(1)
    restored.back(0, to_act=True, now=50.0)
    assert not restored.away(0) and restored.left(50.0) == 20.0


def test_a_timed_out_decision_counts_as_a_stand_ins_for_the_rating(tmp_path: Path) -> None:
    """The rating's stand-in rule reads the stand-ins' decisions: a timed-out one is among them."""
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    store.migrate()
    row = table_row("cinch", {}, "rated", [None, "random", "random", "random"])
    store.create_table(row)
    _played_to(row, lambda state: len(state.actions) == 2)
    store.append_action(row.id, 0, row.actions[0], stand_in=True, timed_out=True)
    store.append_action(row.id, 1, row.actions[1], stand_in=True)
    with store.engine.connect() as c:
        assert RatedGames._table_facts(c, row.id)[2] == {0, 1}
    loaded = store.load_table(row.id)
    assert loaded is not None and loaded.stand_ins == {0, 1} and loaded.timed_out == {0}
    store.close()


def test_a_hands_first_decision_waits_for_its_result_also_after_a_restart() -> None:
    row = table_row("cinch", {}, "pause", [None, None, None, None])
    row.clock = 20.0
    _played_to(row, lambda state: bool(state.results) and not state.actions)
    row.last_action_at = datetime.now(UTC)
    room = Room(row, InstantStore(row.actions), RoomSettings(hand_pause=6.0))  # type: ignore[arg-type]
    left = room.clock_left()
    assert left is not None and 25.0 < left <= 26.0


def test_a_finished_games_record_marks_its_timed_out_decisions() -> None:
    row = table_row("cinch", {"target": 11}, "record", [None, "random", "random", "random"])
    row.clock = 20.0
    _played_to(row, lambda state: state.is_over)
    row.timed_out = {1, len(row.actions) - 1}
    row.stand_ins = set(row.timed_out)
    game = _room(row).finished_game()
    record = json.loads(record_body(game).plain())
    hands = record["hands"]
    assert hands[0]["timed_out"] == [1] and hands[-1]["timed_out"] == [len(hands[-1]["actions"]) - 1]
    assert all("timed_out" not in hand for hand in hands[1:-1])
    assert replay(record).finished


def test_a_seat_away_by_its_clock_is_back_when_its_player_acts() -> None:
    row = table_row("cinch", {}, "acts", [None, "random", "random", "random"])
    row.clock = 20.0
    _played_to(
        row,
        lambda state: state.current_player == 0 and sum(1 for s, _ in state.actions if s == 0) >= 2,
    )
    row.timed_out = {seq for seq, text in enumerate(row.actions) if text.startswith("0 ")}
    row.stand_ins = set(row.timed_out)

    async def run() -> None:
        room = _room(row, shared=True)  # not driving: the stand-in does not act first
        ann = Listener(0)
        room.attach(ann, 0)
        assert room.stand_in(0) and room.clock_left() is None
        action = next(iter(room.state.legal_actions()))
        await room.act(ann, words(action, room.rules), room.seq)
        assert not room.stand_in(0) and room.seq - 1 not in room.row.stand_ins

    asyncio.run(run())
