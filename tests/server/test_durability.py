"""A ``pedro serve`` process killed with ``kill -9`` at any moment restarts where it stood, and play goes on.

Each test runs the real server as a child process on SQLite and on
PostgreSQL, plays whole games through the WebSocket protocol, kills the
server at chosen moments (mid-hand, while computer players are moving,
right after an action was sent and before it was confirmed), restarts it on
the same database, rejoins with the same secrets and plays on. The finished
game's record must be exactly the record of the same game played without
interruption in-process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.server.client_helpers import act as act_in_process
from tests.server.client_helpers import full_table, recv_until, room_of
from tests.server.client_helpers import join as join_in_process
from tests.server.client_helpers import running_server as in_process_server
from tests.server.durability_helpers import (
    CreatedTable,
    Humans,
    Outcome,
    State,
    api,
    claim_seat,
    create_table,
    database,
    in_play,
    last_is,
    record_actions,
    reference_record,
    same_action,
    same_view,
    stored_table,
    wait_stored,
    without_names,
)
from tests.serving import ServerProcess, running_server

from pedro.records import replay
from pedro.variants.options import make_ruleset

#: Away time long enough that no stand-in ever plays for a human in these tests.
AWAY = 3600.0
HUMAN = {"kind": "human"}
BASIC = {"kind": "computer", "player": "basic"}
#: ``basic`` rarely draws on its seed; ``random`` always does, so it shows computers seeded alike
RANDOM = {"kind": "computer", "player": "random"}
#: At least two hands (a cinch hand is worth at most 14 points), short enough for a quick test.
CINCH = {"target": 21}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


@dataclass
class KillPoint:
    """Kill the server at the first state matching ``when``.

    ``mode`` says when: ``seen`` as soon as a client has it; ``sent`` right after
    a human sent an action on it, before any answer (the action may or may not
    have been accepted); ``stored`` once that action is in the database, before
    the client has read its confirmation (accepted, but not yet heard of).
    """

    name: str
    when: Callable[[State], bool]
    mode: str


def kill_and_restart(
    server: ServerProcess, humans: Humans, url: str, outcome: Outcome, point: KillPoint, *, exact: bool
) -> dict[int, State]:
    """kill -9, check what the database kept, restart, rejoin; return the first state of each seat.

    ``exact``: nobody but the test's humans acts (no computer seats), so the
    restored table must be at exactly the last action the database accepted.
    """
    table = humans.table
    before = humans.settle() if exact and outcome.kind == "stopped" else {}
    server.kill()
    humans.close()
    stored = stored_table(url, table.id).actions
    max_bid = make_ruleset(table.variant, table.options).max_bid
    where = f"{point.name}: table {table.id}, confirmed {humans.confirmed}, stored {len(stored)}"
    # every action announced to anyone was committed first
    assert len(stored) >= humans.confirmed, where
    if point.mode == "stored":
        assert len(stored) > humans.confirmed, where
    if outcome.sent is not None:
        seat, seq, words = outcome.sent
        assert seq == humans.confirmed, where
        if len(stored) > seq:  # the action was accepted before the kill: all of it is there
            assert same_action(stored[seq], seat, words, max_bid), f"{where}: {stored[seq]!r} != {words!r}"
        else:  # or none of it
            assert len(stored) == seq, where
        if exact:
            assert len(stored) <= seq + 1, where
    elif exact:
        assert len(stored) == humans.confirmed, where
    server.start()
    first = humans.connect()
    for seat, state in first.items():
        assert state["type"] == "state" and state["you"] == seat, where
        if exact:
            assert state["seq"] == len(stored), where
            last = state["last"]
            assert last_is(stored[-1] if stored else None, last, max_bid), f"{where}: last {last}"
        else:
            assert state["seq"] >= len(stored), where  # computers may have played on since the restart
    for seat, state in before.items():  # stopped with every human seat settled: the same table again
        assert same_view(first[seat]) == same_view(state), f"{where}: seat {seat} sees another table"
    return first


def play_with_kills(
    server: ServerProcess, url: str, table: CreatedTable, plan: list[KillPoint], *, exact: bool
) -> dict[str, object]:
    """Play the table to its end, killing and restarting the server at each point of ``plan``."""
    humans = Humans(server, table)
    humans.connect()
    try:
        for point in plan:
            if point.mode == "seen":
                outcome = humans.play(stop=point.when)
            else:
                outcome = humans.play(kill_after_send=point.when)
            assert outcome.kind != "finished", f"the game ended before the kill point {point.name!r}"
            if point.mode == "stored":
                assert outcome.sent is not None
                wait_stored(url, table.id, outcome.sent[1] + 1)
            kill_and_restart(server, humans, url, outcome, point, exact=exact)
        outcome = humans.play()
        assert outcome.kind == "finished"
    finally:
        humans.close()
    record: dict[str, object] = api(server, "GET", f"/api/tables/{table.id}/record")
    return record


def check_against_reference(url: str, table: CreatedTable, record: dict[str, object]) -> None:
    """The record is the uninterrupted game's, the database holds exactly its actions, it replays."""
    row = stored_table(url, table.id)
    expected = reference_record(table, row.seed)
    assert without_names(record) == without_names(expected), f"table {table.id}, seed {row.seed}"
    assert row.actions == record_actions(record)
    assert row.finished
    result = replay(record)
    assert result.finished
    assert result.winner is not None


@pytest.mark.processes
def test_two_humans_two_computers_survive_kill_9(database_url: str, tmp_path: Path) -> None:
    seats = [HUMAN, BASIC, HUMAN, BASIC]
    computers = {1, 3}
    plan = [
        KillPoint("right after the first human action is sent", lambda s: True, "sent"),
        KillPoint(
            "mid-hand, while the computers play",
            lambda s: in_play(s, 0, 2) and s["game"]["turn"] in computers,
            "seen",
        ),
        KillPoint("a card of hand 1 stored, not yet confirmed", lambda s: in_play(s, 0, 4), "stored"),
        KillPoint("right after a call in hand 2 is sent", lambda s: s["game"]["hand_index"] == 1, "sent"),
        KillPoint("mid-hand 2", lambda s: in_play(s, 1, 3), "seen"),
    ]
    with running_server(database_url, tmp_path, away=AWAY) as server:
        table = create_table(server, "cinch", CINCH, seats)
        record = play_with_kills(server, database_url, table, plan, exact=False)
    check_against_reference(database_url, table, record)


def last_card_of_hand(hand: int) -> Callable[[State], bool]:
    """The play that ends a cinch hand: five tricks done, three cards in the sixth."""

    def when(s: State) -> bool:
        game = s["game"]
        trick = game["trick"]
        return (
            game["hand_index"] == hand
            and game["phase"] == "play"
            and len(game["tricks"]) == 5
            and trick is not None
            and len(trick["plays"]) == 3
        )

    return when


@pytest.mark.processes
def test_four_humans_survive_kill_9(database_url: str, tmp_path: Path) -> None:
    plan = [
        KillPoint("right after the first action is sent", lambda s: True, "sent"),
        KillPoint("mid-hand, between two actions", lambda s: in_play(s, 0, 2), "seen"),
        KillPoint("the card that ends hand 1 stored, not yet confirmed", last_card_of_hand(0), "stored"),
        KillPoint("right after a card is sent in hand 2", lambda s: in_play(s, 1, 2), "sent"),
        KillPoint("right after the card that ends hand 2 is sent", last_card_of_hand(1), "sent"),
    ]
    with running_server(database_url, tmp_path, away=AWAY) as server:
        table = create_table(server, "cinch", CINCH, [HUMAN] * 4)
        record = play_with_kills(server, database_url, table, plan, exact=True)
        # a finished game survives a kill too: its record is served again, and it is not listed
        server.kill()
        server.start()
        assert api(server, "GET", f"/api/tables/{table.id}/record") == record
        summary = api(server, "GET", f"/api/tables/{table.id}")
        assert summary["finished"] and summary["winner"] is not None
        assert table.id not in [t["id"] for t in api(server, "GET", "/api/tables")["tables"]]
    check_against_reference(database_url, table, record)


@pytest.mark.processes
def test_restart_restores_every_table(database_url: str, tmp_path: Path) -> None:
    """Several tables of different variants, each stopped at another point, all restored at once."""
    specs = [
        ("cinch", CINCH, [HUMAN] * 4, lambda s: in_play(s, 0, 2)),
        ("pidro", {"target": 21}, [HUMAN, BASIC, HUMAN, RANDOM], lambda s: s["game"]["hand_index"] == 1),
        ("king_pedro_canadian", {"target": 21}, [HUMAN, BASIC, HUMAN, BASIC], lambda s: s["seq"] >= 12),
    ]
    with running_server(database_url, tmp_path, away=AWAY) as server:
        tables: list[CreatedTable] = []
        players: list[Humans] = []
        snapshots: list[dict[int, State]] = []
        for variant, options, seats, stop in specs:
            table = create_table(server, variant, options, seats)
            humans = Humans(server, table)
            humans.connect()
            # stop where a human is to act, so nothing at this table moves until the restart
            outcome = humans.play(stop=lambda s, stop=stop: stop(s) and s["game"]["legal"] is not None)
            assert outcome.kind == "stopped", f"{variant} ended before its stop"
            tables.append(table)
            players.append(humans)
            snapshots.append(humans.settle())
        # a table still waiting for a player, and a finished one
        waiting = create_table(server, "cinch", CINCH, [HUMAN, BASIC, HUMAN, BASIC], claim=[0])
        done = create_table(server, "pidro", {"target": 1}, [HUMAN] * 4)
        finisher = Humans(server, done)
        finisher.connect()
        assert finisher.play().kind == "finished"
        finisher.close()
        done_record = api(server, "GET", f"/api/tables/{done.id}/record")

        server.kill()
        for humans in players:
            humans.close()
        for table, snapshot in zip(tables, snapshots, strict=True):
            assert len(stored_table(database_url, table.id).actions) == snapshot[table.humans[0]]["seq"]
        server.start()

        listed = {t["id"]: t for t in api(server, "GET", "/api/tables")["tables"]}
        assert set(listed) == {t.id for t in [*tables, waiting]}
        for table, humans, snapshot in zip(tables, players, snapshots, strict=True):
            first = humans.connect()
            assert set(first) == set(table.humans)
            for seat, state in first.items():
                assert same_view(state) == same_view(snapshot[seat]), f"{table.variant}: seat {seat}"
        summary = listed[waiting.id]
        assert summary["phase"] == "waiting" and summary["free_seats"] == [2]
        assert [s["claimed"] for s in summary["seats"]] == [True, True, False, True]
        assert summary["seats"][0]["name"] == "P0"
        assert api(server, "GET", f"/api/tables/{done.id}/record") == done_record

        # play goes on everywhere, and every game is the uninterrupted one
        claim_seat(server, waiting, 2)
        late = Humans(server, waiting)
        late.connect()
        records = []
        for table, humans in [*zip(tables, players, strict=True), (waiting, late)]:
            assert humans.play().kind == "finished"
            humans.close()
            records.append((table, api(server, "GET", f"/api/tables/{table.id}/record")))
    for table, record in [*records, (done, done_record)]:
        check_against_reference(database_url, table, record)


def test_in_process_the_next_start_shows_each_seat_the_table_it_last_saw(tmp_path: Path) -> None:
    """The restart above without a process (fast tier): a server started again on the same database
    shows every seat of a table stopped mid-hand the state it was last sent."""
    with in_process_server(tmp_path) as client:
        table, secrets = full_table(client)
        with client.websocket_connect(f"/ws/{table}") as ws:
            turn = room_of(client, table).state.current_player
            state = join_in_process(ws, secrets[turn])
            act_in_process(ws, state["game"]["legal"]["actions"][0]["action"], state["seq"])
            recv_until(ws, lambda m: m["type"] == "state" and m["seq"] > state["seq"])
        before = []
        for secret in secrets:
            with client.websocket_connect(f"/ws/{table}") as ws:
                before.append(same_view(join_in_process(ws, secret)))
    with in_process_server(tmp_path) as client:
        for secret, seen in zip(secrets, before, strict=True):
            with client.websocket_connect(f"/ws/{table}") as ws:
                assert same_view(join_in_process(ws, secret)) == seen
    assert before[0]["seq"] == 1
