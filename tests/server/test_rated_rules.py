"""Ratings that cannot be farmed: which games are rated, the table saying so before its start,
one seat of a table per profile, and names that only look like a computer's or a profile's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from tests.server.client_helpers import new_profile, room_of, running_server, seats_spec, services_of

from pedro.ratings import SeatTaker, unrated_reason
from pedro.server.storage.name_keys import name_key
from pedro.server.storage.schema import profiles_table
from pedro.server.storage.tables_db import SeatRow, TableRow, hash_secret
from pedro.server.tables.game import GameEnd

#: Each a Ｅxpert in another dress: full-width Ｅ, Cyrillic е, capitals.
EXPERT_LOOKALIKES = ("\uff25xpert", "\u0435xpert", "EXPERT")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as client:
        yield client


def end_reason(client: TestClient, table: str) -> tuple[str | None, int | None]:
    """What the game's end decides about the table as it stands (rated from the database's facts)."""
    rating = services_of(client).rated_games.finish_game(room_of(client, table).game_end())
    assert rating is not None
    return rating.reason, rating.reason_seat


def told(client: TestClient, table: str) -> tuple[bool, str | None, int | None]:
    """What the table says of its rating, checked equal in its summary, the lobby and its state message."""
    summary = client.get(f"/api/tables/{table}").json()
    state = json.loads(room_of(client, table).state_messages([None])[None])["table"]
    lobby = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[table]
    for said in (state, lobby):
        assert (said["rated"], said["unrated"], said["unrated_seat"]) == (
            summary["rated"],
            summary["unrated"],
            summary["unrated_seat"],
        )
    return summary["rated"], summary["unrated"], summary["unrated_seat"]


# ---------------------------------------------------------------------------- the rule


HUMAN = SeatTaker("human", profile="ann")
#: Computer levels, by name and by player.
LEVELS = ("club", "strong", "expert:3:bid=heuristic")


@pytest.mark.parametrize(
    ("variant", "options", "seats", "reason"),
    [
        ("cinch", {}, [HUMAN, *[SeatTaker("computer", "basic")] * 3], (None, None)),
        ("cinch", {"target": 100}, [HUMAN, *[SeatTaker("computer", p) for p in LEVELS]], (None, None)),
        ("cinch", {"target": 62, "slam": False}, [HUMAN, *[SeatTaker("human")] * 3], (None, None)),
        ("cinch", {"target": 61}, [HUMAN, *[SeatTaker("computer", "expert")] * 3], ("low_target", None)),
        ("cinch", {"slam": True}, [HUMAN, *[SeatTaker("computer", "expert")] * 3], ("house_rules", None)),
        ("cinch", {}, [HUMAN, *[SeatTaker("computer", "random")] * 3], ("unrated_player", 1)),
        (
            "cinch",
            {},
            [HUMAN, SeatTaker("computer"), SeatTaker("computer", "expert:9")],
            ("unrated_player", 2),
        ),
        ("cinch", {}, [HUMAN, SeatTaker("computer"), HUMAN, SeatTaker("computer")], ("shared_profile", 2)),
        ("cinch", {"target": 11}, [SeatTaker("human"), *[SeatTaker("computer")] * 3], ("no_profiles", None)),
    ],
)
def test_which_games_are_rated(
    variant: str, options: dict[str, Any], seats: list[SeatTaker], reason: tuple[str | None, int | None]
) -> None:
    assert unrated_reason(variant, options, False, None, seats) == reason


# ---------------------------------------------------------------------------- before and after


def test_the_table_says_before_the_start_what_its_end_will_say(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    bo = new_profile(client, "Bo")
    cases: list[tuple[dict[str, Any], tuple[bool, str | None, int | None]]] = [
        ({"seats": seats_spec("human", "basic", "heuristic", "basic")}, (True, None, None)),
        ({"seats": seats_spec("human", "basic", "heuristic", "random")}, (False, "unrated_player", 3)),
        (
            {"seats": seats_spec("human", *["basic"] * 3), "options": {"target": 11}},
            (False, "low_target", None),
        ),
        ({"seats": seats_spec("human", *["basic"] * 3), "options": {"target": 100}}, (True, None, None)),
        (
            {"seats": seats_spec("human", *["basic"] * 3), "options": {"slam": True}},
            (False, "house_rules", None),
        ),
        ({"seats": seats_spec("human", *["basic"] * 3), "practice": True}, (False, "practice", None)),
    ]
    for extra, expected in cases:
        body = {"variant": "cinch", "seat": 0, "profile": ann["secret"]} | extra
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        assert told(client, table) == expected, extra
        assert end_reason(client, table) == expected[1:], extra

    # seat by seat: nobody with a profile, then Bo sits with his, then Ann with hers
    body = {"variant": "cinch", "seats": seats_spec("human", "basic", "human", "basic"), "seat": 0}
    table = client.post("/api/tables", json=body | {"name": "Cy"}).json()["table"]
    assert told(client, table) == (False, "no_profiles", None)
    four = client.post("/api/tables", json=body | {"seats": seats_spec(*["human"] * 4), "name": "Cy"}).json()
    assert client.post(
        f"/api/tables/{four['table']}/seats", json={"seat": 1, "profile": bo["secret"]}
    ).is_success
    assert told(client, four["table"]) == (True, None, None)
    assert client.post(
        f"/api/tables/{four['table']}/seats", json={"seat": 3, "profile": ann["secret"]}
    ).is_success
    assert told(client, four["table"]) == (True, None, None)
    assert end_reason(client, four["table"]) == (None, None)
    assert end_reason(client, table) == ("no_profiles", None)


def test_a_game_against_random_is_not_rated_and_random_gets_no_profile(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    body = {
        "variant": "cinch",
        "seats": seats_spec("human", "random", "random", "random"),
        "seat": 0,
        "profile": ann["secret"],
    }
    table = client.post("/api/tables", json=body).json()["table"]
    assert told(client, table) == (False, "unrated_player", 1)
    assert end_reason(client, table) == ("unrated_player", 1)
    with services_of(client).store.engine.connect() as c:
        names = {r.name for r in c.execute(select(profiles_table.c.name))}
    assert names == {"Ann"}
    assert client.get("/api/leaderboard/cinch").json()["rows"] == []


# ---------------------------------------------------------------------------- one seat per profile


def test_a_profile_takes_one_seat_of_a_table(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    body = {
        "variant": "pitch_fives",
        "seats": seats_spec(*["human"] * 4),
        "seat": 0,
        "profile": ann["secret"],
    }
    table = client.post("/api/tables", json=body).json()["table"]
    second = client.post(f"/api/tables/{table}/seats", json={"seat": 2, "profile": ann["secret"]})
    assert second.status_code == 409 and second.json()["code"] == "profile_seated"
    assert second.json()["fields"] == {"seat": 0}
    assert not client.get(f"/api/tables/{table}").json()["seats"][2]["claimed"]
    # a profile's seat needs no name: the profile gives it; without a profile a name is needed
    bo = new_profile(client, "Bo")
    taken = client.post(f"/api/tables/{table}/seats", json={"seat": 2, "profile": bo["secret"]})
    assert taken.status_code == 200 and taken.json()["name"] == "Bo"
    nameless = client.post(f"/api/tables/{table}/seats", json={"seat": 1})
    assert nameless.status_code == 422 and nameless.json()["code"] == "need_name"


def test_a_game_where_a_profile_held_two_seats_anyway_is_not_rated(client: TestClient) -> None:
    ann = new_profile(client, "Ann")
    store = services_of(client).store
    seats = [
        SeatRow(s, "human", name="Ann", secret_hash=hash_secret(f"s{s}"), profile=ann["id"]) for s in (0, 2)
    ] + [SeatRow(s, "computer", player="basic") for s in (1, 3)]
    row = TableRow(
        "twice", "", "cinch", {}, "seed", True, datetime.now(UTC), sorted(seats, key=lambda s: s.seat)
    )
    store.create_table(row)
    end = GameEnd("twice", "cinch", {}, False, None, (0, 0), None, (), ())
    rating = services_of(client).rated_games.finish_game(end)
    assert rating is not None and (rating.rated, rating.reason, rating.reason_seat) == (
        False,
        "shared_profile",
        2,
    )


# ---------------------------------------------------------------------------- look-alike names


def test_names_that_look_alike_have_one_key() -> None:
    assert {name_key(n) for n in EXPERT_LOOKALIKES} == {"expert"}
    assert name_key("\uff21\uff4e\uff4e") == name_key("ANN") == "ann"
    assert name_key("\u0410nn") == "ann"  # Cyrillic А
    assert name_key("Åsa") != name_key("Asa")  # a letter of its own is not a look-alike


def test_profiles_are_refused_a_computer_s_or_a_profile_s_name_in_any_dress(client: TestClient) -> None:
    for name in EXPERT_LOOKALIKES:
        refused = client.post("/api/profiles", json={"name": name})
        assert refused.status_code == 409 and refused.json()["code"] == "name_for_computer", name
    ann = new_profile(client, "Ann")
    for name in ("\uff21\uff4e\uff4e", "\u0410nn", "ANN"):
        refused = client.post("/api/profiles", json={"name": name})
        assert refused.status_code == 409 and refused.json()["code"] == "name_taken", name
    bo = new_profile(client, "Bo")
    for name, code in (("\uff21nn", "name_taken"), ("\u0441lub", "name_for_computer")):  # Cyrillic с
        renamed = client.post("/api/profiles/rename", json={"secret": bo["secret"], "name": name})
        assert renamed.status_code == 409 and renamed.json()["code"] == code, name
    assert client.post("/api/profiles/rename", json={"secret": ann["secret"], "name": "ＡＮＮ"}).is_success


def test_a_person_without_a_profile_is_refused_such_names(client: TestClient) -> None:
    new_profile(client, "Ann")
    body = {"variant": "cinch", "seats": seats_spec(*["human"] * 4), "seat": 0}
    for name in (*EXPERT_LOOKALIKES, "random"):
        refused = client.post("/api/tables", json=body | {"name": name})
        assert refused.status_code == 409 and refused.json()["code"] == "name_for_computer", name
    refused = client.post("/api/tables", json=body | {"name": "\uff21\uff4e\uff4e"})
    assert refused.status_code == 409 and refused.json()["code"] == "name_taken"
    table = client.post("/api/tables", json=body | {"name": "Cy"}).json()["table"]
    for name, code in (
        ("\u0435xpert", "name_for_computer"),
        ("\uff21nn", "name_taken"),
        ("ann", "name_taken"),
    ):
        claimed = client.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": name})
        assert claimed.status_code == 409 and claimed.json()["code"] == code, name
    assert client.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": "Di"}).is_success
