"""Profiles and ratings through the HTTP API and a played game (docs/server.md, "Profiles and ratings")."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import (
    act,
    choose,
    create_table,
    join,
    new_profile,
    recv,
    room_of,
    running_server,
    seats_spec,
    watch,
)

from pedro.ratings import Rating, rate_game
from pedro.server.http.errors import MESSAGES, HttpError
from pedro.server.http.request_body import MAX_NAME_CHARS
from pedro.server.profiles import rater
from pedro.server.profiles import routes as profiles_module
from pedro.server.profiles.rated_games import GameRating, RatedGames
from pedro.server.storage.tables_db import StoreError, hash_secret
from pedro.server.tables import websocket
from pedro.server.tables.game import GameEnd
from pedro.variants.options import make_ruleset


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as client:
        yield client


def rating_of(client: TestClient, table: str, timeout: float = 20.0) -> dict[str, Any]:
    """The finished game's rating, once the server has applied it (it is applied in a thread)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = client.get(f"/api/tables/{table}/rating")
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        if not answer["pending"]:
            return answer
        time.sleep(0.02)
    raise AssertionError(f"table {table} was not rated in {timeout} s")


def play_out(client: TestClient, table: str, secret: str, seed: int = 11) -> list[dict[str, Any]]:
    """Play the seat of ``secret`` to the game's end (random legal choices); every message the
    seat and a spectator were sent."""
    room = room_of(client, table)
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    with (
        client.websocket_connect(f"/ws/{table}") as ws,
        client.websocket_connect(f"/ws/{table}") as spectator,
    ):
        state = join(ws, secret)
        seen.append(watch(spectator))
        acted_at = -1
        deadline = time.monotonic() + 60
        while not state["finished"]:
            assert time.monotonic() < deadline, "the game did not finish"
            if state["game"]["legal"] is not None and state["seq"] > acted_at:
                act(ws, choose(state, rng, room), state["seq"])
                acted_at = state["seq"]
            state = recv(ws)
            assert state["type"] == "state", state
            seen.append(state)
    return seen


# ---------------------------------------------------------------------------- profiles


def test_a_profile_is_made_once_per_name(client: TestClient) -> None:
    ann = new_profile(client, "  Ann\u202e  ")  # cleaned as seat names are
    assert ann["name"] == "Ann" and len(ann["secret"]) >= 32 and ann["id"] != ann["secret"]
    taken = client.post("/api/profiles", json={"name": "aNN"})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    assert taken.json()["code"] == "name_taken" and taken.json()["fields"] == {"name": "aNN"}
    kept = client.post("/api/profiles", json={"name": "Expert"})
    assert kept.status_code == 409 and "computer player" in kept.json()["error"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"name": ""}, "at least 1 character"),
        ({"name": "x" * (MAX_NAME_CHARS + 1)}, f"at most {MAX_NAME_CHARS} characters"),
        ({"name": "Ann", "secret": "mine"}, "secret"),
        ({}, "name"),
        ([1, 2], "name"),
    ],
)
def test_an_invalid_profile_request_says_why(client: TestClient, body: Any, says: str) -> None:
    response = client.post("/api/profiles", json=body)
    assert response.status_code == 422 and says in response.json()["error"], response.text


def test_profile_errors(client: TestClient) -> None:
    assert client.post("/api/profiles", content=b"{not json").status_code == 400
    assert client.get("/api/profiles/nobody").status_code == 404
    assert client.post("/api/profiles/me", json={"secret": "wrong"}).status_code == 403
    assert client.post("/api/profiles/code", json={"secret": "wrong"}).status_code == 403
    bad = client.post("/api/profiles/adopt", json={"code": "AAAAA-AAAAA"})
    assert bad.status_code == 400 and "not valid" in bad.json()["error"]
    unknown = client.get("/api/leaderboard/bridge")
    assert unknown.status_code == 404 and "cinch" in unknown.json()["error"]
    assert client.get("/api/tables/nothing/rating").status_code == 404
    going = create_table(client)
    assert client.get(f"/api/tables/{going['table']}/rating").json() == {
        "table": going["table"],
        "pending": True,
    }
    made = create_table(client, seats=seats_spec("human", "basic", "basic", "basic"), seat=None, name=None)
    refused = client.post(
        f"/api/tables/{made['table']}/seats", json={"seat": 0, "name": "X", "profile": "wrong"}
    )
    assert refused.status_code == 403 and "not known" in refused.json()["error"]
    assert client.get(f"/api/tables/{made['table']}").json()["free_seats"] == [0], (
        "a refused claim took the seat"
    )


def test_a_move_code_moves_the_profile_to_another_browser(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    code = client.post("/api/profiles/code", json={"secret": ann["secret"]}).json()
    assert len(code["code"]) == 11 and code["expires"]
    moved = client.post("/api/profiles/adopt", json={"code": code["code"]}).json()
    assert moved["id"] == ann["id"] and moved["name"] == "Ann" and moved["secret"] != ann["secret"]
    assert client.post("/api/profiles/me", json={"secret": moved["secret"]}).json()["id"] == ann["id"]
    assert client.post("/api/profiles/me", json={"secret": ann["secret"]}).status_code == 403
    assert client.post("/api/profiles/adopt", json={"code": code["code"]}).status_code == 400


def test_a_profile_is_renamed_and_deleted_by_its_holder(client: TestClient) -> None:
    ann, bo = new_profile(client, "Ann"), new_profile(client, "Bo")
    rename = "/api/profiles/rename"
    renamed = client.post(rename, json={"secret": ann["secret"], "name": "  Annie  "})
    assert renamed.status_code == 200 and renamed.json() == {"id": ann["id"], "name": "Annie"}
    assert client.get(f"/api/profiles/{ann['id']}").json()["name"] == "Annie"
    for body, status, code in (
        ({"secret": ann["secret"], "name": "BO"}, 409, "name_taken"),
        ({"secret": ann["secret"], "name": "expert"}, 409, "name_for_computer"),
        ({"secret": "wrong", "name": "Cy"}, 403, "unknown_profile"),
        ({"secret": ann["secret"], "name": "   "}, 422, "bad_request"),
        ({"secret": ann["secret"]}, 422, "bad_request"),
    ):
        refused = client.post(rename, json=body)
        assert refused.status_code == status and refused.json()["code"] == code, refused.text
        assert refused.json()["code"] in MESSAGES
    assert client.get(f"/api/profiles/{ann['id']}").json()["name"] == "Annie"
    assert client.post("/api/profiles/delete", json={"secret": "wrong"}).json()["code"] == "unknown_profile"
    deleted = client.post("/api/profiles/delete", json={"secret": ann["secret"]})
    assert deleted.status_code == 200 and deleted.json() == {"id": ann["id"], "deleted": True}
    assert client.get(f"/api/profiles/{ann['id']}").status_code == 404
    assert client.post("/api/profiles/me", json={"secret": ann["secret"]}).status_code == 403
    assert client.post("/api/profiles/delete", json={"secret": ann["secret"]}).status_code == 403
    assert client.get(f"/api/profiles/{bo['id']}").json()["name"] == "Bo"
    assert new_profile(client, "Annie")["id"] != ann["id"]


def test_a_profile_fills_the_seat_name(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    bo = new_profile(client, "Bo")
    body = {
        "variant": "cinch",
        "seats": seats_spec("human", "human", "basic", "basic"),
        "seat": 0,
        "profile": ann["secret"],
    }
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    claimed = client.post(
        f"/api/tables/{table}/seats", json={"seat": 1, "name": "typed", "profile": bo["secret"]}
    )
    assert claimed.status_code == 200 and claimed.json()["name"] == "Bo"
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["name"] for s in seats[:2]] == ["Ann", "Bo"]
    no_seat = client.post("/api/tables", json=body | {"seat": None})
    assert no_seat.status_code == 400 and "seat" in no_seat.json()["error"]


def test_tables_say_whether_they_are_rated(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    body = {"variant": "cinch", "seats": seats_spec("human", "basic", "basic", "basic"), "seat": 0}
    rated = client.post("/api/tables", json=body | {"profile": ann["secret"]}).json()
    practice = client.post("/api/tables", json=body | {"name": "Bo", "practice": True}).json()
    assert rated["summary"]["rated"] is True and rated["summary"]["unrated"] is None
    assert (practice["summary"]["rated"], practice["summary"]["unrated"]) == (False, "no_profiles")
    lobby = {t["id"]: (t["rated"], t["unrated"]) for t in client.get("/api/tables").json()["tables"]}
    assert lobby == {rated["table"]: (True, None), practice["table"]: (False, "no_profiles")}


# ---------------------------------------------------------------------------- played games


def test_a_played_game_moves_the_ratings_as_the_library_says(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(websocket, "RATE_PER_SECOND", 1e6)
    ann = new_profile(client, "Ann")
    body = {
        "variant": "cinch",
        "seats": seats_spec("human", "basic", "heuristic", "basic"),
        "seat": 0,
        "profile": ann["secret"],
    }
    made = client.post("/api/tables", json=body).json()
    table = made["table"]
    seen = play_out(client, table, made["secret"])
    summary = client.get(f"/api/tables/{table}").json()
    rating = rating_of(client, table)
    assert rating["rated"] is True and rating["reason"] is None

    rules = make_ruleset("cinch", {})
    players = [ann["id"], "cpu:beginner", "cpu:club", "cpu:beginner"]
    expected = rate_game(rules, players, {}, summary["scores"], summary["winner"])
    assert {c["profile"]: c["after"] for c in rating["changes"]} == pytest.approx(
        {p: r.shown for p, r in expected.items()}
    )
    assert {c["seat"]: c["name"] for c in rating["changes"]} == {
        0: "Ann",
        1: "beginner",
        2: "club",
    }
    assert all(c["before"] == pytest.approx(Rating().shown) for c in rating["changes"])

    page = client.get(f"/api/profiles/{ann['id']}").json()
    assert page["name"] == "Ann" and [g["table"] for g in page["games"]] == [table]
    assert page["ratings"] == [
        {
            "variant": "cinch",
            "rating": pytest.approx(expected[ann["id"]].shown),
            "mu": pytest.approx(expected[ann["id"]].mu),
            "sigma": pytest.approx(expected[ann["id"]].sigma),
            "games": 1,
        }
    ]
    assert page["totals"][0]["games"] == 1 and page["totals"][0]["hands"] == len(
        client.get(f"/api/tables/{table}/record").json()["hands"]
    )
    board = client.get("/api/leaderboard/cinch").json()
    assert {row["name"]: row["kind"] for row in board["rows"]} == {
        "Ann": "human",
        "beginner": "computer",
        "club": "computer",
    }
    mine = client.post("/api/profiles/me", json={"secret": ann["secret"]}).json()
    assert mine == page

    # the secret is its holder's alone: no other answer or message shows it, nor its hash
    others = [
        client.get(f"/api/profiles/{ann['id']}").text,
        client.get("/api/leaderboard/cinch").text,
        client.get(f"/api/tables/{table}").text,
        client.get("/api/tables").text,
        client.get(f"/api/tables/{table}/rating").text,
        client.get(f"/api/tables/{table}/record").text,
        json.dumps(seen),
    ]
    for text in others:
        assert ann["secret"] not in text and hash_secret(ann["secret"]) not in text


def test_a_practice_game_is_not_rated(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(websocket, "RATE_PER_SECOND", 1e6)
    ann = new_profile(client, "Ann")
    body = {
        "variant": "cinch",
        "seats": seats_spec("human", "basic", "basic", "basic"),
        "seat": 0,
        "profile": ann["secret"],
        "practice": True,
    }
    made = client.post("/api/tables", json=body).json()
    play_out(client, made["table"], made["secret"])
    rating = rating_of(client, made["table"])
    assert (rating["rated"], rating["reason"], rating["changes"]) == (False, "practice", [])
    page = client.get(f"/api/profiles/{ann['id']}").json()
    assert page["ratings"] == [] and [g["rated"] for g in page["games"]] == [False]


def test_a_game_a_stand_in_played_is_not_rated_and_says_why(tmp_path: Path) -> None:
    # Ann sits down and never connects: the computer stands in for every decision of hers
    with running_server(tmp_path, away_seconds=0.01) as client:
        ann = new_profile(client, "Ann")
        body = {
            "variant": "cinch",
            "seats": seats_spec("human", "basic", "basic", "basic"),
            "seat": 0,
            "profile": ann["secret"],
        }
        made = client.post("/api/tables", json=body).json()
        rating = rating_of(client, made["table"], timeout=60)
        assert (rating["rated"], rating["reason"], rating["reason_seat"]) == (False, "stand_in", 0)
        assert client.get("/api/leaderboard/cinch").json()["rows"] == []


def test_a_rating_the_database_refused_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rater, "RETRY_SECONDS", (0.0,))
    calls: list[str] = []
    real = RatedGames.finish_game

    def refused_once(self: RatedGames, end: GameEnd, now: datetime | None = None) -> GameRating | None:
        calls.append(end.table_id)
        if len(calls) == 1:
            raise StoreError("the database went away for a moment")
        return real(self, end, now)

    monkeypatch.setattr(RatedGames, "finish_game", refused_once)
    with running_server(tmp_path, away_seconds=0.01) as client:
        ann = new_profile(client, "Ann")
        body = {
            "variant": "cinch",
            "seats": seats_spec("human", "basic", "basic", "basic"),
            "seat": 0,
            "profile": ann["secret"],
        }
        table = client.post("/api/tables", json=body).json()["table"]
        assert rating_of(client, table, timeout=60)["reason"] == "stand_in"
    assert calls == [table, table]


def test_a_game_its_server_did_not_rate_is_rated_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {
        "variant": "cinch",
        "seats": seats_spec("human", "basic", "heuristic", "basic"),
        "seat": 0,
    }
    # the first server stops rating games (as if it stopped between a game's end and its rating)
    with monkeypatch.context() as patched:
        patched.setattr(rater.Rater, "__call__", lambda self, over: None)
        with running_server(tmp_path, away_seconds=0.01, worker_processes=0) as client:
            ann = new_profile(client, "Ann")
            table = client.post("/api/tables", json=body | {"profile": ann["secret"]}).json()["table"]
            deadline = time.monotonic() + 60
            while not client.get(f"/api/tables/{table}").json()["finished"]:
                assert time.monotonic() < deadline, "the game did not finish"
                time.sleep(0.05)
            time.sleep(0.3)
            assert client.get(f"/api/tables/{table}/rating").json()["pending"] is True
    with running_server(tmp_path, away_seconds=0.01, worker_processes=0) as client:
        rating = rating_of(client, table)
        assert (rating["rated"], rating["reason"], rating["reason_seat"]) == (False, "stand_in", 0)
        page = client.get(f"/api/profiles/{ann['id']}").json()
        assert [g["table"] for g in page["games"]] == [table]


def test_one_address_makes_a_few_profiles_an_hour(client: TestClient) -> None:
    for n in range(profiles_module.PROFILES_PER_HOUR):
        new_profile(client, f"P{n}")
    refused = client.post("/api/profiles", json={"name": "One more"})
    assert refused.status_code == 429 and "an hour" in refused.json()["error"]
    assert client.post("/api/profiles", json={"name": "One more"}).status_code == 429


def test_the_profile_limit_forgets_after_an_hour() -> None:
    now = [0.0]
    limit = profiles_module.ProfileLimit(most=2, clock=lambda: now[0])
    limit.made("a")
    limit.made("a")
    limit.check("b")
    with pytest.raises(HttpError) as refused:
        limit.check("a")
    assert refused.value.status == 429 and "3600 s" in refused.value.message
    now[0] = profiles_module.HOUR
    limit.check("a")
