"""Duplicate tournaments at the server, so that people compare results on the same cards: the API,
the deals, the matchpoints."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import (
    choose,
    create_table,
    join,
    pending_json,
    recv,
    room_of,
    running_server,
    services_of,
    watch,
)
from tests.server.durability_helpers import api, database, server_log
from tests.serving import ServerProcess, free_port

from pedro.engine.state import GameState
from pedro.records import record_from_game, replay
from pedro.server.http.errors import MESSAGES
from pedro.server.settings import Limits
from pedro.server.storage.tables_db import Store
from pedro.server.tournaments.queries import TournamentRow, TournamentStore
from pedro.server.tournaments.requests import CreateTournament
from pedro.variants.options import make_ruleset

COMPUTERS = [{"kind": "computer", "level": level} for level in ("beginner", "club", "beginner", "club")]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as client:
        yield client


def create(
    client: TestClient, seats: list[list[dict[str, Any]]], deals: int = 4, **extra: Any
) -> dict[str, Any]:
    body = {"variant": "cinch", "title": "Club night", "deals": deals, "seats": seats} | extra
    response = client.post("/api/tournaments", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def wait_for(client: TestClient, tournament: str, done: Any, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        summary: dict[str, Any] = client.get(f"/api/tournaments/{tournament}").json()
        if done(summary):
            return summary
        assert time.monotonic() < deadline, f"tournament {tournament} did not get there in {timeout} s"
        time.sleep(0.05)


def first_deal(client: TestClient, table_id: str) -> tuple[int, list[list[str]]]:
    """The first dealer and the cards each seat was dealt in a deal table's (only) hand, from its record."""
    record = client.get(f"/api/tables/{table_id}/record").json()
    return record["first_dealer"], [list(cards) for cards in record["hands"][0]["deal"]]


@pytest.mark.slow
def test_two_tables_of_computers_play_four_deals_and_score_matchpoints_by_hand(client: TestClient) -> None:
    made = create(client, [COMPUTERS, COMPUTERS[::-1]])
    tournament = made["tournament"]
    assert made["url"] == f"/d/{tournament}" and made["director_secret"]
    summary = wait_for(client, tournament, lambda s: s["finished"])
    seed = summary["seed"]
    rules = make_ruleset("cinch")
    expected: dict[int, list[float]] = {e: [0.0] * 4 for e in range(4)}
    for deal, result in enumerate(summary["results"]):
        assert result["complete"] and result["played"] == [0, 1]
        first, second = result["tables"]
        # the same deal at both tables: the first hand of `pedro tournament`'s deal seed + deal
        reference = record_from_game(GameState(rules, seed=seed + deal), ("a", "b", "c", "d"))
        dealt = [first_deal(client, row["table_id"]) for row in (first, second)]
        assert dealt[0] == dealt[1] == (reference["first_dealer"], reference["hands"][0]["deal"])
        # the entrants switch sides every deal (duplicate.seatings): pairs 0 and 1 at table 0
        shift = deal % 2
        assert first["entrants"] == [(0 - shift) % 2, (1 - shift) % 2]
        assert second["entrants"] == [2 + (0 - shift) % 2, 2 + (1 - shift) % 2]
        # each table's change is the score its deal ended with (a deal is one hand from 0 to 0)
        for row in (first, second):
            table = client.get(f"/api/tables/{row['table_id']}").json()
            assert table["finished"] and table["scores"] == row["change"]
        # by hand: the side's gain less the other's, compared with the same cards at the other table
        for side in (0, 1):
            a = first["change"][side] - first["change"][1 - side]
            b = second["change"][side] - second["change"][1 - side]
            expected[first["entrants"][side]][deal] = 2.0 if a > b else 1.0 if a == b else 0.0
            expected[second["entrants"][side]][deal] = 2.0 if b > a else 1.0 if a == b else 0.0
            assert first["matchpoints"][side] == expected[first["entrants"][side]][deal]
    standings = {s["entrant"]: s for s in summary["standings"]}
    assert {e: s["per_deal"] for e, s in standings.items()} == expected
    assert {e: s["total"] for e, s in standings.items()} == {e: sum(v) for e, v in expected.items()}
    assert all(s["most"] == 8.0 for s in standings.values())
    totals = [s["total"] for s in summary["standings"]]
    assert totals == sorted(totals, reverse=True) and sum(totals) == 16.0  # 2 per pair of results
    assert [p["played"] for p in summary["progress"]] == [4, 4]


def test_a_player_joins_by_link_and_plays_each_deal_in_the_seat_of_the_pair(client: TestClient) -> None:
    table = [{"kind": "human"}, {"kind": "computer", "level": "beginner"}] * 2
    made = create(client, [table, COMPUTERS], deals=2)
    tournament = made["tournament"]
    summary = client.get(f"/api/tournaments/{tournament}").json()
    assert summary["free_seats"] == [[0, 0], [0, 2]]
    assert summary["progress"][0]["started"] is False  # waits for its people
    joined = client.post(f"/api/tournaments/{tournament}/seats", json={"table": 0, "seat": 2, "name": "Ann"})
    assert joined.status_code == 200, joined.text
    ann = joined.json()
    assert ann["entrant"] == 0 and ann["current"] is None  # seat 0 is still free
    bob = client.post(
        f"/api/tournaments/{tournament}/seats", json={"table": 0, "seat": 0, "name": "Bob"}
    ).json()
    rng = random.Random(5)
    for deal in range(2):
        me = client.post(f"/api/tournaments/{tournament}/me", json={"secret": ann["secret"]}).json()
        assert me["current"]["deal"] == deal
        # deal 0: Ann's home seat; deal 1: the pair holds the other side's cards, Ann the same place in it
        assert me["current"]["seat"] == (2 if deal == 0 else 3)
        for player in (ann, bob):
            mine = client.post(f"/api/tournaments/{tournament}/me", json={"secret": player["secret"]}).json()
            assert mine["current"]["table_id"] == me["current"]["table_id"]
        play_out(client, me["current"]["table_id"], [ann["secret"], bob["secret"]], rng)
        wait_for(client, tournament, lambda s, d=deal: s["progress"][0]["played"] > d)
    summary = wait_for(client, tournament, lambda s: s["finished"])
    assert summary["entrants"][0]["names"] == ["Bob", "Ann"]
    assert (
        client.post(f"/api/tournaments/{tournament}/me", json={"secret": ann["secret"]}).json()["current"]
        is None
    )


def play_out(client: TestClient, table_id: str, secrets: list[str], rng: random.Random) -> None:
    """Play the people's seats of a deal table with random legal actions until its hand is over."""
    sockets = [client.websocket_connect(f"/ws/{table_id}") for _ in secrets]
    try:
        states = [join(ws.__enter__(), secret) for ws, secret in zip(sockets, secrets, strict=True)]
        deadline = time.monotonic() + 60
        while not states[0]["finished"]:
            assert time.monotonic() < deadline, "the deal was not played out in 60 s"
            for i, ws in enumerate(sockets):
                states[i] = newest(ws, states[i])
                state = states[i]
                if state["game"]["legal"] is not None and not state["finished"]:
                    action = choose(state, rng, room_of(client, table_id))
                    ws.send_json({"type": "act", "action": action, "seq": state["seq"]})
                    states[i] = newest(ws, state, wait=True)
        # the deal is over: nobody's turn, and the next hand the engine dealt is neither played nor shown
        game = states[0]["game"]
        assert (game["phase"], game["turn"], game["hand"], game["legal"]) == ("over", None, [], None)
        assert len(game["sheet"]) == 1 and game["hand_index"] == 0
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def newest(ws: Any, state: dict[str, Any], wait: bool = False) -> dict[str, Any]:
    """The newest state message come since ``state`` (with ``wait``: at least one more)."""
    while True:
        for message in pending_json(ws, 0.02):
            assert message["type"] != "error" or message["code"] == "stale", message
            if message["type"] == "state":
                state, wait = message, False
        if not wait:
            return state


def play_out_one(client: TestClient, table_id: str, secret: str, rng: random.Random) -> None:
    play_out(client, table_id, [secret], rng)


def test_a_deals_cards_are_not_shown_while_another_table_still_plays_it(client: TestClient) -> None:
    # table 0 is all computers and plays both deals at once; table 1 waits for its person
    people = [{"kind": "human"}] + [{"kind": "computer", "level": "beginner"}] * 3
    made = create(client, [COMPUTERS, people], deals=2)
    tournament = made["tournament"]
    wait_for(client, tournament, lambda s: s["progress"][0]["played"] == 2)
    table0 = deal_tables(client, tournament, 0)
    assert len(table0) == 2
    cy = client.post(
        f"/api/tournaments/{tournament}/seats", json={"table": 1, "seat": 0, "name": "Cy"}
    ).json()
    mine = cy["current"]["table_id"]
    # Cy is playing deal 0: nothing of table 0's deal 0 (its table, its changes) reaches Cy, nor the
    # director (who may be a player too): the director sees where each table stands, not its id
    director = client.post(
        f"/api/tournaments/{tournament}/director", json={"secret": made["director_secret"]}
    )
    assert director.status_code == 200
    assert sorted((d["table"], d["deal"], d["played"], d["table_id"]) for d in director.json()["deals"]) == [
        (0, 0, True, None), (0, 1, True, None), (1, 0, False, None)
    ]  # fmt: skip
    for text in (
        client.get(f"/api/tournaments/{tournament}").text,
        client.post(f"/api/tournaments/{tournament}/me", json={"secret": cy["secret"]}).text,
        director.text,
    ):
        assert not any(table_id in text for table_id in table0), text
    # nor may a table id found some other way be watched, replayed or downloaded: Cy's own live table
    # too (but Cy, seated there, joins it)
    for table_id in (*table0, mine):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "watch"})
            refused = recv(ws)
            assert (refused["type"], refused["code"]) == ("error", "tournament_deal_hidden"), refused
    for table_id in table0:
        for kind in ("replay", "record", "review/0", "review/1"):
            assert "other tables have not played" in error(client.get(f"/api/tables/{table_id}/{kind}"), 403)
    summary = client.get(f"/api/tournaments/{tournament}").json()
    assert summary["results"][0] == {"deal": 0, "complete": False, "played": [0], "tables": []}
    assert summary["seed"] is None  # it would give every card of every deal
    assert all(s["total"] == 0 and s["most"] == 0 for s in summary["standings"])
    # once Cy's table has played deal 0, deal 0 is shown at both tables (deal 1 still hidden)
    play_out_one(client, mine, cy["secret"], random.Random(3))
    summary = wait_for(client, tournament, lambda s: s["results"][0]["complete"])
    assert [row["table_id"] for row in summary["results"][0]["tables"]] == [table0[0], mine]
    assert table0[1] not in client.get(f"/api/tournaments/{tournament}").text
    director = client.post(
        f"/api/tournaments/{tournament}/director", json={"secret": made["director_secret"]}
    )
    named = {(d["table"], d["deal"]): d["table_id"] for d in director.json()["deals"]}
    assert named[(0, 0)] == table0[0] and named[(1, 0)] == mine and named[(0, 1)] is None
    with client.websocket_connect(f"/ws/{table0[0]}") as ws:
        assert watch(ws)["type"] == "state"
    assert client.get(f"/api/tables/{table0[0]}/replay").status_code == 200
    assert "other tables have not played" in error(client.get(f"/api/tables/{table0[1]}/review/0"), 403)
    with client.websocket_connect(f"/ws/{table0[1]}") as ws:
        ws.send_json({"type": "watch"})
        assert recv(ws)["code"] == "tournament_deal_hidden"


def deal_tables(client: TestClient, tournament: str, table_no: int) -> list[str]:
    """The ids of a tournament table's deal tables, as the server keeps them (no API shows them all)."""
    row = services_of(client).tournaments.store.load(tournament)
    return [d.table_id for d in row.played if d.table_no == table_no]


def test_a_deal_table_is_a_one_hand_game(client: TestClient) -> None:
    """A deal's table ends with its hand: no second hand dealt, in its room, record or replay, and it
    says what it is (one hand of a tournament, unrated) rather than a target score."""
    made = create(client, [COMPUTERS, COMPUTERS[::-1]], deals=1)
    summary = wait_for(client, made["tournament"], lambda s: s["finished"])
    for row in summary["results"][0]["tables"]:
        table_id = row["table_id"]
        room = room_of(client, table_id)
        assert room.state.is_over and room.state.hand_limit == 1 and len(room.state.deal_records) == 1
        table = client.get(f"/api/tables/{table_id}").json()
        assert (table["hands"], table["phase"], table["finished"], table["rated"]) == (1, "over", True, False)
        assert table["unrated"] == "tournament_deal"
        assert table["hand_index"] == 0 and table["winner"] is None
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert len(record["hands"]) == 1 and record["hands"][0]["actions"]
        replayed = replay(record)
        assert [r.change for r in replayed.results] == [tuple(row["change"])]
        body = client.get(f"/api/tables/{table_id}/replay").json()
        assert len(body["record"]["hands"]) == 1 and body["table"]["hands"] == 1
        assert body["table"]["phase"] == "over" and all(f.get("hand_index", 0) == 0 for f in body["frames"])
    ordinary = client.get(f"/api/tables/{create_table(client)['table']}").json()
    # an ordinary table is not a deal: it is unrated only because nobody sat with a profile
    assert ordinary["hands"] is None and (ordinary["rated"], ordinary["unrated"]) == (False, "no_profiles")


def test_a_tournaments_target_is_its_deal_tables_target(client: TestClient) -> None:
    """The target the director sets is the rules every deal table plays (it scores the hand: a
    side reaching it may end the game), and the tournament shows it with its options."""
    made = create(client, [COMPUTERS, COMPUTERS[::-1]], deals=1, options={"target": 21})
    summary = wait_for(client, made["tournament"], lambda s: s["finished"])
    assert summary["options"] == {"target": 21} and summary["target"] == 21
    for row in summary["results"][0]["tables"]:
        table = client.get(f"/api/tables/{row['table_id']}").json()
        assert table["target"] == 21 and table["options"] == {"target": 21}
        assert room_of(client, row["table_id"]).state.rules.target == 21


def error(response: Any, status: int) -> str:
    """The refusal's English message; it also carries the code the page translates (with its fields)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] in MESSAGES and isinstance(body["fields"], dict), body
    message: str = body["error"]
    return message


def test_bad_requests_are_refused_with_clear_errors(client: TestClient) -> None:
    assert "no such tournament" in error(client.get("/api/tournaments/nope"), 404)
    join_nowhere = client.post("/api/tournaments/nope/seats", json={"table": 0, "seat": 0, "name": "Ann"})
    assert "no such tournament" in error(join_nowhere, 404)
    bad = {"variant": "cinch", "deals": 2}
    one_human = [{"kind": "human"}, *COMPUTERS[1:]]
    assert "unknown variant" in error(
        client.post("/api/tournaments", json=bad | {"variant": "bridge", "seats": [one_human] * 2}), 422
    )
    assert "seats" in error(
        client.post("/api/tournaments", json=bad | {"seats": [one_human]}), 422
    )  # one table
    assert "4 seats, but 3" in error(
        client.post("/api/tournaments", json=bad | {"seats": [one_human, COMPUTERS[:3]]}), 400
    )
    wizard = [{"kind": "computer", "level": "wizard"}, *COMPUTERS[1:]]
    assert "unknown level 'wizard'" in error(
        client.post("/api/tournaments", json=bad | {"seats": [wizard, one_human]}), 400
    )
    assert "deals" in error(
        client.post("/api/tournaments", json=bad | {"deals": 0, "seats": [one_human] * 2}), 422
    )
    made = create(client, [one_human, one_human], deals=2)
    tid = made["tournament"]
    seats = f"/api/tournaments/{tid}/seats"
    assert "not a human seat" in error(client.post(seats, json={"table": 0, "seat": 1, "name": "Ann"}), 400)
    assert "not a human seat" in error(client.post(seats, json={"table": 5, "seat": 0, "name": "Ann"}), 400)
    assert client.post(seats, json={"table": 0, "seat": 0, "name": "Ann"}).status_code == 200
    assert "is taken" in error(client.post(seats, json={"table": 0, "seat": 0, "name": "Bob"}), 409)
    assert client.post(seats, json={"table": 1, "seat": 0, "name": "Bob"}).status_code == 200
    assert "the tournament is full" in error(
        client.post(seats, json={"table": 1, "seat": 0, "name": "Cy"}), 409
    )
    assert "name" in error(client.post(seats, json={"table": 1, "seat": 0, "name": "  "}), 422)
    assert "does not belong" in error(
        client.post(f"/api/tournaments/{tid}/me", json={"secret": "guess"}), 403
    )
    assert "director secret" in error(
        client.post(f"/api/tournaments/{tid}/director", json={"secret": "guess"}), 403
    )
    assert "request body" in error(client.post(f"/api/tournaments/{tid}/me", content=b"{"), 400)


def test_a_tournaments_tables_of_computers_count_against_the_servers_cap(tmp_path: Path) -> None:
    """Each table of computers only plays at once: the cap on such tables counts every one of them,
    beside those the server runs already, whether the tournament has a human seat or not."""
    one_human = [{"kind": "human"}, *COMPUTERS[1:]]
    limits = Limits(computer_only_tables=3, tables_per_minute=100, open_tables_per_client=100)
    # the computers wait an hour before each decision: the tables they play stay open
    with running_server(tmp_path, limits=limits, bot_delay=3600) as client:
        four = client.post(
            "/api/tournaments",
            json={"variant": "cinch", "deals": 2, "seats": [one_human, *[COMPUTERS] * 4]},
        )
        assert "4 tables without a human seat" in error(four, 429)
        assert four.json()["fields"] == {"cap": 3, "tables": 4, "running": 0}
        create(client, [one_human, COMPUTERS, COMPUTERS], deals=2)
        running = [r for r in services_of(client).registry.rooms.values() if not r.finished]
        assert sum(all(s.kind == "computer" for s in r.row.seats) for r in running) == 2
        # two run; one more fits, two do not
        two_more = client.post(
            "/api/tournaments", json={"variant": "cinch", "deals": 2, "seats": [COMPUTERS, COMPUTERS]}
        )
        assert error(two_more, 429) and two_more.json()["fields"] == {"cap": 3, "tables": 2, "running": 2}
        create(client, [one_human, COMPUTERS], deals=2)
        table = client.post("/api/tables", json={"variant": "cinch", "seats": [{"kind": "computer"}] * 4})
        assert table.status_code == 429 and table.json()["code"] == "too_many_computer_tables"
        # tables with a human seat are not counted
        create(client, [one_human, one_human], deals=2)


def test_a_tournament_stored_with_house_rules_now_refused_is_answered_gone(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """A tournament stored before its house rules' bounds (a target of 10**30) cannot make its
    deals nor show its standings: every request about it says so, and the log says why once."""
    one_human = [{"kind": "human"}, *COMPUTERS[1:]]
    tournaments = services_of(client).tournaments
    spec = CreateTournament.model_validate({"variant": "cinch", "deals": 2, "seats": [one_human] * 2})
    row, _ = tournaments.new(spec)
    tournaments.store.create(dataclasses.replace(row, options={"target": 10**30}))
    for _ in range(2):
        assert "no longer allowed" in error(client.get(f"/api/tournaments/{row.id}"), 410)
    join = client.post(f"/api/tournaments/{row.id}/seats", json={"table": 0, "seat": 0, "name": "Ann"})
    assert error(join, 410) and join.json()["code"] == "tournament_broken"
    said = [r.message for r in caplog.records if r.message.startswith(f"tournament {row.id} is broken")]
    assert len(said) == 1 and "target" in said[0], said
    assert create(client, [one_human] * 2, deals=2)["tournament"], "the others are served"


# ---------------------------------------------------------------------------- restarts


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


@pytest.mark.processes
def test_a_server_killed_mid_tournament_carries_on_after_its_restart(
    database_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(database_url, free_port(), tmp_path / "server.log", bot_delay=0.02)
    server.start()
    try:
        body = {"variant": "cinch", "deals": 4, "seats": [COMPUTERS, COMPUTERS[::-1]]}
        made = api(server, "POST", "/api/tournaments", body, status=201)
        path = f"/api/tournaments/{made['tournament']}"
        deadline = time.monotonic() + 60
        while sum(p["played"] for p in api(server, "GET", path)["progress"]) < 2:
            assert time.monotonic() < deadline, server_log(server)
            time.sleep(0.02)
        server.kill()  # mid-tournament: some deals played, a deal under way at each table
        stopped = api_after_kill(database_url, made["tournament"])
        assert not stopped.finished and 2 <= sum(d.change is not None for d in stopped.played) < 8
        server.bot_delay = 0.0  # the pause only let the kill fall mid-tournament: the rest plays at once
        server.start()
        deadline = time.monotonic() + 90
        while not (summary := api(server, "GET", path))["finished"]:
            assert time.monotonic() < deadline, server_log(server)
            time.sleep(0.05)
    finally:
        server.stop()
    assert all(r["complete"] for r in summary["results"])
    tables = [row["table_id"] for r in summary["results"] for row in r["tables"]]
    assert len(set(tables)) == 8  # each table played each deal once, in one table of its own
    assert sum(s["total"] for s in summary["standings"]) == 16.0


def api_after_kill(url: str, tournament_id: str) -> TournamentRow:
    """The tournament as the killed server left it in the database."""
    store = Store(url)
    try:
        row = TournamentStore(store).load(tournament_id)
    finally:
        store.close()
    assert row is not None
    return row
