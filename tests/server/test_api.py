"""The JSON API of ``pedro serve`` (docs/server.md, "HTTP API"), in process."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import claim, create_table, room_of, running_server, seats_spec
from tests.server.replay_helpers import expand_frames

from pedro.players import LEVELS, PLAYERS
from pedro.records import replay
from pedro.server.settings import Limits
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import available_options, option_values

HUMANS = seats_spec("human", "human", "human", "human")
URLSAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_server(tmp_path) as client:
        yield client


def wait_finished(client: TestClient, table: str, timeout: float = 20.0) -> dict[str, Any]:
    """Poll the summary until the computer players have finished the game."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if summary["finished"]:
            return summary
        time.sleep(0.02)
    raise AssertionError(f"table {table} did not finish in {timeout} s")


def computer_game(client: TestClient, **kwargs: Any) -> str:
    """A table of four computer players, nobody sitting down: it plays itself (bot_delay 0)."""
    made = create_table(
        client,
        "cinch",
        options={"target": 21},
        seats=seats_spec("basic", "random", "basic", "random"),
        seat=None,
        name=None,
        **kwargs,
    )
    assert made["secret"] is None and made["seat"] is None
    table: str = made["table"]
    return table


# ---------------------------------------------------------------------------- variants


def test_variants_list_every_variant_its_options_and_the_computer_players(client: TestClient) -> None:
    response = client.get("/api/variants")
    assert response.status_code == 200
    body = response.json()
    assert body["players"] == list(PLAYERS) and {"basic", "random"} <= set(body["players"])
    # every player is described; the one that sees every card says it is no fair player
    assert set(body["player_descriptions"]) == set(PLAYERS)
    assert "not a fair player" in body["player_descriptions"]["omniscient"]
    # the strength levels, weakest first, each the player it stands for
    assert [(lv["name"], lv["player"]) for lv in body["levels"]] == [(lv.name, lv.player) for lv in LEVELS]
    assert all(lv["description"] for lv in body["levels"])
    assert [v["id"] for v in body["variants"]] == list(VARIANTS)
    for variant in body["variants"]:
        rules = VARIANTS[variant["id"]]
        assert variant["name"] == rules.name and variant["summary"]
        assert variant["players"] == rules.players and variant["partnerships"] == rules.partnerships
        names = [o["name"] for o in variant["options"]]
        assert set(names) == set(available_options(rules.id)) - {"preset"}, variant["id"]
        defaults = option_values(rules)
        for option in variant["options"]:
            assert set(option) >= {"name", "type", "description", "choices", "nullable", "minimum", "maximum"}
            assert option["type"] in ("bool", "int", "str"), option
            assert len(option["description"]) > 10, option
            assert option["default"] == defaults.get(option["name"]), option
            if option["choices"]:
                assert option["default"] in option["choices"] or option["nullable"], option
    cinch = next(v for v in body["variants"] if v["id"] == "cinch")
    target = next(o for o in cinch["options"] if o["name"] == "target")
    assert target["type"] == "int" and target["default"] == 62 and target["minimum"] == 1


# ---------------------------------------------------------------------------- creating tables


def test_create_a_table_and_read_its_summary(client: TestClient) -> None:
    body = {
        "variant": "pidro",
        "options": {"target": 31, "discards_face": "down"},
        "title": "  Friday  ",
        "listed": True,
        "seats": seats_spec("human", "basic", "human", "random"),
        "seat": 2,
        "name": "Ann",
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made = response.json()
    table = made["table"]
    assert made["seat"] == 2 and made["url"] == f"/t/{table}" and made["secret"]
    summary = client.get(f"/api/tables/{table}").json()
    assert made["summary"] == summary
    assert summary["id"] == table and summary["variant"] == "pidro" and summary["name"] == "Pidro"
    assert summary["title"] == "Friday"
    assert summary["options"] == {"target": 31, "discards_face": "down"} and summary["target"] == 31
    assert summary["players"] == 4 and summary["sides"] == [[0, 2], [1, 3]]
    assert [(s["seat"], s["kind"], s["player"], s["claimed"]) for s in summary["seats"]] == [
        (0, "human", None, False),
        (1, "computer", "basic", True),
        (2, "human", None, True),
        (3, "computer", "random", True),
    ]
    assert summary["seats"][2]["name"] == "Ann" and summary["free_seats"] == [0]
    assert summary["phase"] == "waiting", "play waits for the free human seat"
    assert summary["finished"] is False and summary["winner"] is None and summary["scores"] == [0, 0]
    assert summary["hand_index"] == 0 and summary["created"]


def test_computer_seats_are_named_seat_first_counted_from_one_by_their_level(client: TestClient) -> None:
    """Two computers of one level differ in their first characters; a spec that is no level stays."""
    made = create_table(client, seats=seats_spec("human", "basic", "beginner", "expert:3"), seat=0)
    names = [s["name"] for s in made["summary"]["seats"]]
    assert names == ["Ann", "2 · beginner", "3 · beginner", "4 · expert:3"]


def test_a_table_without_a_title_is_named_after_its_variant(client: TestClient) -> None:
    made = create_table(client, "king_pedro")
    assert made["summary"]["title"] == "King Pedro table"


def test_create_a_table_without_sitting_down(client: TestClient) -> None:
    made = create_table(client, "cinch", seat=None, name=None)
    assert made["secret"] is None and made["seat"] is None
    assert made["summary"]["free_seats"] == [0, 1, 2, 3]


def _body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"variant": "cinch", "seats": HUMANS, "seat": 0, "name": "Ann"}
    body.update(changes)
    return {k: v for k, v in body.items() if v is not DROP}


DROP = object()

#: (invalid request, words its error must contain: what was wrong, and what is allowed)
# refused 422 (a field's value is not allowed) but for these, 400 (they do not fit the game)
DOES_NOT_FIT = {
    "too few seats",
    "too many seats",
    "unknown computer player",
    "a human seat with a computer player",
    "creator's seat is a computer",
    "creator's seat does not exist",
}
BAD_REQUESTS: dict[str, tuple[Any, list[str]]] = {
    "unknown variant": (_body(variant="skat"), ["skat", "cinch", "pidro", "king_pedro"]),
    "missing variant": (_body(variant=DROP), ["variant", "required"]),
    "unknown option": (_body(options={"trumps_wild": True}), ["trumps_wild", "target", "min_bid"]),
    "option of the wrong type": (_body(options={"target": "lots"}), ["lots", "target", "integer"]),
    "option out of range": (_body(options={"target": 0}), ["target", "from 1 to 10000"]),
    "option not among its choices": (
        _body(options={"auction_model": "dutch"}),
        ["dutch", "single_round", "until_one_left"],
    ),
    "too few seats": (_body(seats=HUMANS[:3]), ["4 seats", "3"]),
    "too many seats": (_body(seats=[*HUMANS, HUMANS[0]]), ["4 seats", "5"]),
    "no seats": (_body(seats=[]), ["seats"]),
    "unknown computer player": (
        _body(seats=seats_spec("human", "genius", "human", "human")),
        ["seat 1", "genius", "random", "basic"],
    ),
    "a seat of an unknown kind": (
        _body(seats=[{"kind": "robot"}, *HUMANS[1:]]),
        ["seats.0.kind", "'human' or 'computer'"],
    ),
    "a human seat with a computer player": (
        _body(seats=[{"kind": "human", "player": "basic"}, *HUMANS[1:]]),
        ["seat 0", "human seat"],
    ),
    "creator's seat is a computer": (
        _body(seats=seats_spec("basic", "human", "human", "basic")),
        ["seat 0 is not a human seat", "[1, 2]"],
    ),
    "creator's seat does not exist": (_body(seat=7), ["seat 7", "[0, 1, 2, 3]"]),
    "negative seat": (_body(seat=-1), ["seat", "greater than or equal to 0"]),
    "missing name": (_body(name=DROP), ["name"]),
    "blank name": (_body(name="   "), ["name", "at least 1 character"]),
    "name too long": (_body(name="x" * 41), ["name", "40"]),
    "extra field": (_body(colour="red"), ["colour", "not permitted"]),
    "listed is not a bool": (_body(listed="yes"), ["listed", "boolean"]),
    "not an object": ([1, 2, 3], ["dictionary"]),
}


@pytest.mark.parametrize("case", list(BAD_REQUESTS))
def test_an_invalid_table_is_refused_with_a_message_saying_why(client: TestClient, case: str) -> None:
    body, words = BAD_REQUESTS[case]
    response = client.post("/api/tables", json=body)
    assert response.status_code == (400 if case in DOES_NOT_FIT else 422), response.text
    error = response.json()["error"]
    for word in words:
        assert word in error, f"{case}: {word!r} not in {error!r}"
    assert client.get("/api/tables").json() == {"tables": []}, "a refused request created a table"
    assert client.get("/healthz").json()["tables"] == 0


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    for content in (b"{variant: cinch", b"\xff\xfe\x00", b""):
        response = client.post("/api/tables", content=content, headers={"content-type": "application/json"})
        assert response.status_code == 400 and "not JSON" in response.json()["error"], response.text
    response = client.post(f"/api/tables/{create_table(client)['table']}/seats", content=b"seat=1&name=Cy")
    assert response.status_code == 400 and "not JSON" in response.json()["error"]


def test_a_huge_body_is_refused_with_413(client: TestClient) -> None:
    huge = _body(title="x" * 20000)
    response = client.post("/api/tables", json=huge)
    assert response.status_code == 413 and "16384 bytes" in response.json()["error"]
    # without a content-length (chunked), the body is cut off as it arrives
    chunks = iter([b'{"variant": "cinch", "title": "', b"x" * 10000, b"y" * 10000, b'"}'])
    response = client.post("/api/tables", content=chunks)
    assert response.status_code == 413, response.text
    response = client.post("/api/tables", content=b"{}", headers={"content-length": "99999999"})
    assert response.status_code == 413
    assert client.get("/healthz").json()["tables"] == 0
    made = create_table(client)  # the server is fine
    assert client.get(f"/api/tables/{made['table']}").status_code == 200


# ---------------------------------------------------------------------------- the lobby


@pytest.mark.slow
def test_the_lobby_lists_listed_unfinished_tables_only(client: TestClient) -> None:
    listed = create_table(client, "cinch", title="Open")["table"]
    unlisted = create_table(client, "pidro", title="Private", listed=False)["table"]
    finished = computer_game(client)
    wait_finished(client, finished)
    lobby = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in lobby] == [listed]
    assert lobby[0] == client.get(f"/api/tables/{listed}").json()
    # the unlisted and the finished table are still reachable by their ids
    assert client.get(f"/api/tables/{unlisted}").json()["title"] == "Private"
    assert client.get(f"/api/tables/{finished}").json()["finished"] is True


# ---------------------------------------------------------------------------- seats


def test_claim_free_seats(client: TestClient) -> None:
    made = create_table(client, "cinch", seats=seats_spec("human", "human", "basic", "human"))
    table = made["table"]
    response = client.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": " Cy "})
    assert response.status_code == 200
    answer = response.json()
    assert answer["seat"] == 1 and len(answer["secret"]) >= 32 and answer["secret"] != made["secret"]
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["seats"][1]["name"] == "Cy" and summary["seats"][1]["claimed"]
    assert summary["free_seats"] == [3] and summary["phase"] == "waiting"

    taken = client.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": "Dee"})
    assert taken.status_code == 409 and taken.json()["error"] == "seat 1 is taken; free seats: [3]"
    creator = client.post(f"/api/tables/{table}/seats", json={"seat": 0, "name": "Dee"})
    assert creator.status_code == 409
    computer = client.post(f"/api/tables/{table}/seats", json={"seat": 2, "name": "Dee"})
    assert (
        computer.status_code == 400
        and "seat 2 is not a human seat; free seats: [3]" in computer.json()["error"]
    )
    missing = client.post(f"/api/tables/{table}/seats", json={"seat": 4, "name": "Dee"})
    assert missing.status_code == 400 and "free seats: [3]" in missing.json()["error"]
    for bad in (
        {"seat": 3},
        {"seat": "3", "name": "Dee"},
        {"seat": 3, "name": ""},
        {"seat": 3, "name": "D", "x": 1},
    ):
        response = client.post(f"/api/tables/{table}/seats", json=bad)
        assert response.status_code == 422 and response.json()["error"], bad
    assert client.get(f"/api/tables/{table}").json() == summary, "a refused claim changed the table"

    assert claim(client, table, 3, "Eve")
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["free_seats"] == [] and summary["phase"] == "auction"
    full = client.post(f"/api/tables/{table}/seats", json={"seat": 3, "name": "Fay"})
    assert full.status_code == 409 and "free seats: none" in full.json()["error"]


# ---------------------------------------------------------------------------- not found


def test_unknown_tables_and_api_paths_are_404_with_a_json_error(client: TestClient) -> None:
    create_table(client)
    for table in ("nope", "A" * 22, "x" * 300, "%00"):
        for path in ("", "/record", "/replay"):
            response = client.get(f"/api/tables/{table}{path}")
            assert response.status_code == 404, (table, path)
            no_table = {"error": "no such table (check the link)", "code": "no_table", "fields": {}}
            assert response.json() == no_table
        response = client.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": "Cy"})
        assert response.status_code == 404 and "no such table" in response.json()["error"]
    for path in ("/api/nothing", "/api/tables/x/y/z", "/api/", "/api/tables/..%2F..%2Fetc%2Fpasswd"):
        response = client.get(path)
        assert response.status_code == 404 and response.headers["content-type"] == "application/json"
        assert response.json()["error"].startswith("no such API path /api/")


# ---------------------------------------------------------------------------- record and replay


def test_record_and_replay_wait_for_the_end_of_the_game(client: TestClient) -> None:
    table = create_table(client, seats=seats_spec("human", "basic", "basic", "basic"))["table"]
    for path in ("record", "replay"):
        response = client.get(f"/api/tables/{table}/{path}")
        assert response.status_code == 409 and "not over" in response.json()["error"]


def test_record_and_replay_of_a_finished_game(client: TestClient) -> None:
    table = computer_game(client)
    summary = wait_finished(client, table)
    assert summary["phase"] == "over" and summary["winner"] in (0, 1)
    assert max(summary["scores"]) >= 21
    actions = list(room_of(client, table).row.actions)

    response = client.get(f"/api/tables/{table}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "pedro-record/1" and record["variant"] == "cinch"
    result = replay(record)
    assert result.finished and result.winner == summary["winner"]
    assert list(result.state.scores) == summary["scores"]
    assert [step.text for hand in result.steps for step in hand] == actions

    replayed = client.get(f"/api/tables/{table}/replay").json()
    assert replayed["record"] == record and replayed["table"]["id"] == table
    frames = expand_frames(replayed["frames"])
    assert len(frames) == len(actions) + 1
    assert [f["seq"] for f in frames] == list(range(len(actions) + 1))
    assert frames[0]["last"] is None and frames[0]["hand_index"] == 0
    for frame, text in zip(frames[1:], actions, strict=True):
        seat, words = text.split(" ", 1)
        assert frame["last"]["seat"] == int(seat) and sorted(frame["last"]["action"].split()) == sorted(
            words.split()
        )
    assert sum(1 for f in frames if f["closed"] is not None) == len(result.results)
    assert frames[-1]["game"]["winner"] == summary["winner"] and frames[-1]["game"]["phase"] == "over"
    # at the end every hand is open: the first frame shows the whole first deal
    assert sorted(len(h) for h in frames[0]["hands"]) == [9, 9, 9, 9]


# ---------------------------------------------------------------------------- ids and secrets


def _entropy_bits(tokens: list[str]) -> float:
    """Shannon entropy per character of the tokens' characters taken together, times their length."""
    counts = Counter("".join(tokens))
    total = sum(counts.values())
    per_char = -sum(n / total * math.log2(n / total) for n in counts.values())
    return per_char * len(tokens[0])


def test_table_ids_and_secrets_are_long_random_tokens(tmp_path: Path) -> None:
    ids, secrets = [], []
    many = Limits(tables_per_minute=30, open_tables_per_client=30)  # 30 tables from one client
    with running_server(tmp_path, limits=many) as client:
        for _ in range(30):
            made = create_table(client)
            ids.append(made["table"])
            secrets.append(made["secret"])
            secrets.append(claim(client, made["table"], 1, "Cy"))
    assert len(set(ids)) == len(ids) and len(set(secrets)) == len(secrets)
    assert not set(ids) & set(secrets)
    for tokens, length in ((ids, 22), (secrets, 32)):
        assert all(len(t) >= length and set(t) <= URLSAFE for t in tokens), tokens
        # about 6 bits a character: at least 128 bits for an id, 192 for a secret
        assert _entropy_bits(tokens) > 5.5 * length
        # no shared structure: tokens made one after the other differ from the first character on
        assert len({t[:2] for t in tokens}) > len(tokens) // 2
    # secrets are stored hashed: the database never holds one
    data = b"".join(p.read_bytes() for p in tmp_path.glob("db.sqlite3*"))
    assert data and not [s for s in secrets if s.encode() in data]
    assert all(i.encode() in data for i in ids)
