"""Practice tables: hints on request for the seat to play, made off the event loop; unrated, and say so."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import room_of, running_server, seats_spec

from pedro.players import make_player
from pedro.server.reviews import hints as practice
from pedro.server.reviews.compute import HintJob, hint
from pedro.server.storage.tables_db import Store

PATIENCE = 60.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path, review_processes=0) as c:
        yield c


def practice_table(client: TestClient, practice_on: bool = True) -> dict[str, Any]:
    body = {
        "variant": "cinch",
        "options": {},
        "seats": seats_spec("human", "basic", "basic", "basic"),
        "seat": 0,
        "name": "Ann",
        "practice": practice_on,
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def my_turn(client: TestClient, table: str) -> None:
    """Wait until the computer players have played up to seat 0's turn."""
    room = room_of(client, table)
    deadline = time.monotonic() + PATIENCE
    while room.state.current_player != 0 and time.monotonic() < deadline:
        client.get("/api/tables")  # lets the event loop run the computer players
        time.sleep(0.02)
    assert room.state.current_player == 0


def test_a_practice_table_says_so_and_is_stored_as_one(client: TestClient, tmp_path: Path) -> None:
    made = practice_table(client)
    assert made["summary"]["practice"] is True
    plain = practice_table(client, practice_on=False)
    assert plain["summary"]["practice"] is False
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    try:
        row = store.load_table(made["table"])
        assert row is not None and row.practice is True
        other = store.load_table(plain["table"])
        assert other is not None and other.practice is False
    finally:
        store.close()


def test_a_hint_values_every_legal_choice_of_the_seat_to_play(client: TestClient) -> None:
    made = practice_table(client)
    table, secret = made["table"], made["secret"]
    my_turn(client, table)
    room = room_of(client, table)
    response = client.get(f"/api/tables/{table}/hint", headers={"X-Pedro-Secret": secret})
    assert response.status_code == 200, response.text
    found = response.json()
    assert found["seat"] == 0 and found["seq"] == room.seq and found["unit"] == "score"
    legal = room.state.legal_actions()
    assert isinstance(legal, tuple) and found["legal"] == len(legal) and found["not_valued"] is None
    assert len(found["choices"]) == len(legal)
    values = [c["value"] for c in found["choices"]]
    assert values == sorted(values, reverse=True)
    # what the expert says from the seat's own observation, seeded by the table
    expert = make_player("expert", f"hints:{table}")
    est = expert.estimates(room.state.observation(0))  # type: ignore[attr-defined]
    assert [round(v, 3) for _, v in est.ranked()] == values


def test_hints_are_for_practice_tables_the_seats_player_and_its_turn(client: TestClient) -> None:
    plain = practice_table(client, practice_on=False)
    refused = client.get(f"/api/tables/{plain['table']}/hint", headers={"X-Pedro-Secret": plain["secret"]})
    assert refused.status_code == 403 and "practice tables only" in refused.json()["error"]
    # a hint's refusal has no fields (the page says it from practice.error.<code> alone)
    assert refused.json() == {"error": practice.MESSAGES["not_practice"], "code": "not_practice"}
    made = practice_table(client)
    table = made["table"]
    assert client.get("/api/tables/nope/hint").status_code == 404
    for headers in ({}, {"X-Pedro-Secret": "not it"}):
        refused = client.get(f"/api/tables/{table}/hint", headers=headers)
        assert refused.status_code == 403 and "secret" in refused.json()["error"]
    my_turn(client, table)
    room = room_of(client, table)
    # behind the API: seat 0 plays until another seat is to play (a stuck dealer's bid, say, leaves
    # it to name trumps next: the table's deal is not fixed)
    for _ in range(10):
        room.state.apply(room.state.legal_actions()[0])
        if room.state.current_player != 0:
            break
    assert room.state.current_player != 0
    refused = client.get(f"/api/tables/{table}/hint", headers={"X-Pedro-Secret": made["secret"]})
    assert refused.status_code == 409 and "not your turn" in refused.json()["error"]
    assert refused.json()["code"] == "not_turn"


def test_the_hint_runs_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = practice_table(client)
    table = made["table"]
    my_turn(client, table)
    release = threading.Event()
    started = threading.Event()

    def held(job: HintJob) -> dict[str, Any]:
        started.set()
        assert release.wait(PATIENCE)
        return hint(job)

    monkeypatch.setattr(practice, "hint", held)
    out: list[Any] = []
    asking = threading.Thread(
        target=lambda: out.append(
            client.get(f"/api/tables/{table}/hint", headers={"X-Pedro-Secret": made["secret"]})
        )
    )
    asking.start()
    try:
        assert started.wait(PATIENCE)
        assert client.get("/api/tables").status_code == 200  # served while the hint is made
        assert client.get(f"/api/tables/{table}").json()["practice"] is True
    finally:
        release.set()
        asking.join(PATIENCE)
    assert out and out[0].status_code == 200
