"""Game reviews over HTTP: the values ``pedro analyze`` gives, made off the event loop, kept, and shown
only to the seat's player until the game is over (``pedro.server.reviews``).

The reviews here use ``expert:4`` (few worlds: fast) and run in threads of the test's process
(``review_processes=0``), so a test may replace the review function; one test runs a real worker.
"""

from __future__ import annotations

import copy
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from tests.server.client_helpers import CARD_RE, running_server
from tests.server.durability_helpers import database

from pedro.cards import cards_of, format_card
from pedro.cli import analyze_cmd
from pedro.engine.actions import action_text, parse_action_text
from pedro.engine.choices import CardChoice
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.records import record_from_game
from pedro.server.reviews import routes as reviews_module
from pedro.server.reviews.compute import HandJob, ReviewGame, review_hand
from pedro.server.reviews.queries import SavedReviews
from pedro.server.storage.tables_db import SeatRow, Store, TableRow, hash_secret
from pedro.variants.options import make_ruleset

PLAYER = "expert:4"
SECRET = "ann's secret"
PATIENCE = 120.0


def game_actions(hands: int, extra: int = 0, seed: str = "review") -> list[str]:
    """A cinch game of ``basic`` players: ``hands`` hands, then ``extra`` actions of the next."""
    rules = make_ruleset("cinch", {})
    state = GameState(rules, seed=seed)
    players = [make_player("basic", f"{seed}:{s}") for s in range(rules.players)]
    actions: list[str] = []
    while not state.is_over and (len(state.results) < hands or len(actions) < _length(state) + extra):
        seat = state.current_player
        action = players[seat].act(state.observation(seat))
        actions.append(action_text(seat, action, rules.max_bid))
        state.apply(action)
    return actions


def _length(state: GameState) -> int:
    """Actions up to the end of the finished hands."""
    return sum(len(h) for h in state.hand_actions[: len(state.results)])


def store_table(
    tmp_path: Path, actions: list[str], *, finished: bool, options: dict[str, Any] | None = None
) -> str:
    """A cinch table stored with these actions: seat 0 a human (``SECRET``), the others computers."""
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.migrate()
    row = TableRow(
        id=secrets.token_urlsafe(16),
        title="reviewed",
        variant="cinch",
        options=options or {},
        seed="review",
        listed=False,
        created_at=datetime.now(UTC),
        seats=[SeatRow(0, "human", name="Ann", secret_hash=hash_secret(SECRET))]
        + [SeatRow(s, "computer", player="basic") for s in (1, 2, 3)],
    )
    store.create_table(row)
    for seq, text in enumerate(actions):
        store.append_action(row.id, seq, text)
    if finished:
        store.set_finished(row.id)
    store.close()
    return row.id


def finished_game(tmp_path: Path) -> tuple[str, list[str]]:
    """A finished table (a short game: the first to 11 points wins) and its actions."""
    rules = make_ruleset("cinch", {"target": 11})
    state = GameState(rules, seed="review")
    players = [make_player("basic", f"review:{s}") for s in range(rules.players)]
    actions = []
    while not state.is_over:
        seat = state.current_player
        action = players[seat].act(state.observation(seat))
        actions.append(action_text(seat, action, rules.max_bid))
        state.apply(action)
    return store_table(tmp_path, actions, finished=True, options={"target": 11}), actions


@pytest.fixture
def server(tmp_path: Path) -> Callable[..., Any]:
    def start(**settings: Any) -> Any:
        settings.setdefault("review_processes", 0)
        settings.setdefault("review_player", PLAYER)
        return running_server(tmp_path, **settings)

    return start


_REVIEWED: dict[tuple[object, ...], dict[str, Any]] = {}


def reviewed(job: HandJob) -> dict[str, Any]:
    """``review_hand``, each hand computed once for this module: the tests that put their own
    function in its place check when and how often the server asks for a hand, not its values
    (which the tests above compare with ``pedro analyze``'s), so they share the seconds of search."""
    game = job.game
    assert game.record is None, "only a table's game is shared"
    key = (
        game.variant,
        tuple(sorted(game.options.items())),
        game.seed,
        game.actions,
        job.hand,
        job.seat,
        job.player,
    )
    if key not in _REVIEWED:
        _REVIEWED[key] = review_hand(job)
    return copy.deepcopy(_REVIEWED[key])


def until_done(call: Callable[[], httpx.Response]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Ask until the review is made: the progress answers seen, and the review."""
    seen = []
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        response = call()
        body = response.json()
        if response.status_code == 200:
            assert body["status"] == "done"
            return seen, body
        assert response.status_code == 202, body
        assert (body["status"], body["place"] > 0) in {("working", False), ("queued", True)}, body
        assert 0 <= body["done"] <= body["total"]
        seen.append(body)
        time.sleep(0.05)
    raise AssertionError("the review was not made in time")


def analyzed(tmp_path: Path, record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = tmp_path / "out.txt"
    with out.open("w") as f:
        code = analyze_cmd.run(
            Console(file=f, width=200), path, seats=[seat], player=PLAYER, as_json=True,
            err_console=Console(file=open(tmp_path / "err.txt", "w")),  # noqa: SIM115
        )  # fmt: skip
    assert code == 0
    rows: list[dict[str, Any]] = json.loads(out.read_text())["decisions"]
    return rows


# ---------------------------------------------------------------------------- what a review says


@pytest.mark.slow
def test_a_review_gives_the_values_pedro_analyze_gives_the_same_seat(tmp_path: Path, server: Any) -> None:
    table, _ = finished_game(tmp_path)
    with server() as client:
        progress, review = until_done(lambda: client.get(f"/api/tables/{table}/review/1"))
        record = client.get(f"/api/tables/{table}/record").json()
    assert progress and progress[0]["done"] == 0 and progress[0]["total"] == len(record["hands"])
    assert review["over"] is True and review["seat"] == 1 and review["player"] == PLAYER
    entries = [e for h in review["hands"] for e in h["entries"]]
    rows = analyzed(tmp_path, record, 1)
    assert len(entries) == len(rows) > 5
    for entry, row in zip(entries, rows, strict=True):
        assert (entry["hand"], entry["number"]) == (row["hand"], row["number"]) and row["seat"] == 1
        assert [c["value"] for c in entry["choices"]] == [round(c["value"], 3) for c in row["choices"]][:12]
        assert entry["cost"] == (round(row["cost"], 3) if row["cost"] is not None else None)
        assert entry["verdict"] == row["verdict"]
    # the summary: what each part of the game cost, the costliest decisions first
    lost = review["summary"]["lost"]
    for part in ("bidding", "exchange", "play"):
        expected = sum(e["cost"] or 0 for e in entries if e["part"] == part)
        assert lost[part] == pytest.approx(expected, abs=1e-6)
    mistakes = review["summary"]["mistakes"]
    assert [m["cost"] for m in mistakes] == sorted((m["cost"] for m in mistakes), reverse=True)
    assert all(m["cost"] > 0 and m["best"] for m in mistakes)


@pytest.mark.slow
def test_reviewed_hands_are_kept_in_the_database_and_made_once(
    tmp_path: Path, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = finished_game(tmp_path)
    made: list[int] = []

    def counted(job: HandJob) -> dict[str, Any]:
        made.append(job.hand)
        return reviewed(job)

    monkeypatch.setattr(reviews_module, "review_hand", counted)
    with server() as client:
        _, first = until_done(lambda: client.get(f"/api/tables/{table}/review/0"))
        again = client.get(f"/api/tables/{table}/review/0")
        assert again.status_code == 200 and again.json() == first
    hands = len(first["hands"])
    assert sorted(made) == list(range(1, hands + 1))
    stored = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    assert set(SavedReviews(stored).load(table, 0, PLAYER)) == set(range(1, hands + 1))
    stored.close()
    with server() as client:  # a restarted server reads them
        response = client.get(f"/api/tables/{table}/review/0")
        assert response.status_code == 200 and response.json() == first
    assert len(made) == hands


@pytest.mark.slow
def test_the_progress_rises_hand_by_hand_before_the_review_is_done(
    tmp_path: Path, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = finished_game(tmp_path)

    def paced(job: HandJob) -> dict[str, Any]:
        time.sleep(0.15)  # long enough for the page's asks to fall between two hands
        return reviewed(job)

    monkeypatch.setattr(reviews_module, "review_hand", paced)
    with server() as client:
        seen, review = until_done(lambda: client.get(f"/api/tables/{table}/review/0"))
    total = len(review["hands"])
    assert total >= 2 and seen and seen[0]["total"] == total
    counts = [body["done"] for body in seen]
    assert counts == sorted(counts), counts
    # hands are reported as they are made, not only at the end
    assert any(0 < done < total for done in counts), counts


@pytest.mark.slow
def test_the_work_runs_off_the_event_loop(
    tmp_path: Path, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = finished_game(tmp_path)
    release = threading.Event()

    def held(job: HandJob) -> dict[str, Any]:
        assert release.wait(PATIENCE)
        return reviewed(job)

    monkeypatch.setattr(reviews_module, "review_hand", held)
    with server() as client:
        try:
            started = client.get(f"/api/tables/{table}/review/0")
            assert started.status_code == 202
            # a hand's review is under way in the worker: the server answers everything else meanwhile
            for _ in range(3):
                assert client.get("/api/tables").status_code == 200
                progress = client.get(f"/api/tables/{table}/review/0")
                assert progress.status_code == 202 and progress.json()["done"] == 0
        finally:
            release.set()
        until_done(lambda: client.get(f"/api/tables/{table}/review/0"))


@pytest.mark.slow
def test_a_real_worker_process_makes_the_review(tmp_path: Path, server: Any) -> None:
    table, _ = finished_game(tmp_path)
    with server(review_processes=1) as client:
        _, review = until_done(lambda: client.get(f"/api/tables/{table}/review/3"))
    assert review["hands"] and review["summary"]["decisions"] > 0


# ---------------------------------------------------------------------------- who may read it


def visible_to(actions: list[str], seat: int, hand: int) -> set[str]:
    """Every card ``seat`` could see at any moment of hand ``hand`` (1-based)."""
    rules = make_ruleset("cinch", {})
    state = GameState(rules, seed="review")
    seen: set[int] = set()
    for text in actions:
        if state.hand_index == hand - 1:
            obs = state.observation(seat)
            seen.update(obs.hand, obs.own_discards, obs.seen)
            for trick in [*obs.tricks, *([obs.trick] if obs.trick is not None else [])]:
                for _, cards in trick.plays:
                    seen.update(cards)
            for group in (*obs.face_up, *obs.shown):
                seen.update(group)
            if isinstance(obs.legal, CardChoice):
                seen.update(cards_of(obs.legal.pool))
        state.apply(parse_action_text(text, rules.max_bid)[1])
    return {format_card(c) for c in seen}


@pytest.mark.slow
def test_before_the_end_a_seats_review_is_its_players_only_and_shows_only_what_it_saw(
    tmp_path: Path, server: Any
) -> None:
    actions = game_actions(hands=1, extra=3)
    table = store_table(tmp_path, actions, finished=False)
    url = f"/api/tables/{table}/review"
    with server(away_seconds=3600) as client:
        for seat, headers in ((0, {}), (0, {"X-Pedro-Secret": "wrong"}), (1, {"X-Pedro-Secret": SECRET})):
            refused = client.get(f"{url}/{seat}", headers=headers)
            assert refused.status_code == 403
            assert f"the review of seat {seat} is shown only to its player" in refused.json()["error"]
        _, review = until_done(lambda: client.get(f"{url}/0", headers={"X-Pedro-Secret": SECRET}))
        assert client.get(f"/api/tables/{table}/replay").status_code == 409  # no open hands yet
    assert review["over"] is False and [h["hand"] for h in review["hands"]] == [1]
    entries = review["hands"][0]["entries"]
    assert entries
    seen = visible_to(actions, 0, 1)
    shown = set(CARD_RE.findall(json.dumps(review, ensure_ascii=False)))
    assert shown and shown <= seen, f"cards seat 0 never saw: {shown - seen}"
    # what the review shows of each decision is the seat's own hand at that moment
    hands = {}
    state = _played([])
    for i, text in enumerate(actions):
        hands[i] = sorted(format_card(c) for c in state.observation(0).hand)
        state.apply(parse_action_text(text, state.rules.max_bid)[1])
    for entry in entries:
        assert sorted(entry["seen"]["hand"]) == hands[entry["index"]]


def _played(actions: list[str]) -> GameState:
    rules = make_ruleset("cinch", {})
    state = GameState(rules, seed="review")
    for text in actions:
        state.apply(parse_action_text(text, rules.max_bid)[1])
    return state


@pytest.mark.slow
def test_after_the_end_anyone_may_read_any_seats_review(
    tmp_path: Path, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = finished_game(tmp_path)
    monkeypatch.setattr(reviews_module, "review_hand", reviewed)
    with server() as client:
        _, review = until_done(lambda: client.get(f"/api/tables/{table}/review/0"))  # no secret
    assert review["over"] is True


# ---------------------------------------------------------------------------- bad requests and uploads


def test_bad_requests_get_clear_errors(tmp_path: Path, server: Any) -> None:
    table, _ = finished_game(tmp_path)
    with server() as client:
        cases = [
            (client.get("/api/tables/nope/review/0"), 404, "no such table"),
            (client.get(f"/api/tables/{table}/review/4"), 400, "seat 4: this game has seats 0 to 3"),
            (client.get(f"/api/tables/{table}/review/x"), 400, "a seat is a number"),
            (client.post("/api/review", content=b"{not json"), 400, "not JSON"),
            (client.post("/api/review", json=[1, 2]), 422, '"record"'),
            (client.post("/api/review", json={"record": {"format": "x"}, "seat": 0}), 400, "not valid"),
            (client.post("/api/review", json={"record": {}, "seat": "0"}), 422, '"seat": N'),
            (client.post("/api/review", content=b" " * (reviews_module.MAX_RECORD_BYTES + 1)), 413, "larger"),
        ]
        for response, status, words in cases:
            assert response.status_code == status, response.text
            assert words in response.json()["error"]
        record = client.get(f"/api/tables/{table}/record").json()
        response = client.post("/api/review", json={"record": record, "seat": 5})
        assert (
            response.status_code == 400 and "seat 5: this game has seats 0 to 3" in response.json()["error"]
        )
        # the codes and fields the browser translates the message from
        assert response.json()["code"] == "bad_seat" and response.json()["fields"] == {"seat": 5, "last": 3}
        assert client.get("/api/tables/nope/review/0").json()["code"] == "no_table"
        assert client.post("/api/review", json=[1, 2]).json()["code"] == "bad_upload"
        # an upload is refused in the review's own codes, its fields said (review.error.<code>)
        limit = reviews_module.MAX_RECORD_BYTES
        assert client.post("/api/review", content=b" " * (limit + 1)).json() == {
            "error": f"the record is larger than {limit} bytes",
            "code": "too_big",
            "fields": {"limit": limit},
        }
        assert client.post("/api/review", content=b"{not json").json() == {
            "error": "the request body is not JSON",
            "code": "not_json",
            "fields": {},
        }
        for upload in ({"record": record}, {"record": record, "seat": True}, {"record": [1], "seat": 0}):
            refused = client.post("/api/review", json=upload)
            assert refused.status_code == 422 and refused.json() == {
                "error": 'send {"record": <a pedro-record/1 record>, "seat": N}',
                "code": "bad_upload",
                "fields": {},
            }


@pytest.mark.slow
def test_an_uploaded_record_is_reviewed_as_its_table_is_and_entries_point_at_their_actions(
    tmp_path: Path, server: Any
) -> None:
    """Also: each entry points at the replay frame before its action (one review of seat 0 for both)."""
    table, actions = finished_game(tmp_path)
    with server() as client:
        _, from_table = until_done(lambda: client.get(f"/api/tables/{table}/review/0"))
        for entry in (e for h in from_table["hands"] for e in h["entries"]):
            # the seat's own action, at that place
            assert actions[entry["index"]].startswith("0 "), (entry["index"], actions[entry["index"]])
        record = client.get(f"/api/tables/{table}/record").json()
        progress, uploaded = until_done(
            lambda: client.post("/api/review", json={"record": record, "seat": 0})
        )
    assert progress and uploaded["table"] is None
    assert uploaded["hands"] == from_table["hands"] and uploaded["summary"] == from_table["summary"]


# ---------------------------------------------------------------------------- the store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with database(request.param, tmp_path) as url:
        store = Store(url)
        store.migrate()
        yield store
        store.close()


def test_reviews_are_stored_per_table_seat_player_and_hand(store: Store) -> None:
    table = "t1"
    store.create_table(
        TableRow(
            table, "t", "cinch", {}, "s", False, datetime.now(UTC), [SeatRow(s, "human") for s in range(4)]
        )
    )
    saved = SavedReviews(store)
    assert saved.load(table, 0, PLAYER) == {}
    saved.save(table, 0, PLAYER, 1, b"\x1f\x8bone")
    saved.save(table, 0, PLAYER, 2, b"two")
    saved.save(table, 0, PLAYER, 1, b"again")  # made twice (two processes): the first is kept
    saved.save(table, 1, PLAYER, 1, b"seat 1")
    saved.save(table, 0, "expert", 1, b"another player")
    assert saved.load(table, 0, PLAYER) == {1: b"\x1f\x8bone", 2: b"two"}
    assert saved.load(table, 1, PLAYER) == {1: b"seat 1"}
    assert saved.load(table, 0, "expert") == {1: b"another player"}
    assert saved.load("other", 0, PLAYER) == {}


def test_review_game_of_a_table_is_its_record() -> None:
    actions = game_actions(hands=1)
    state = _played(actions)
    game = ReviewGame("cinch", {}, "review", tuple(actions), ("A", "B", "C", "D"))
    assert game.as_record() == record_from_game(state, ["A", "B", "C", "D"])


@pytest.mark.slow
def test_a_failed_review_says_why_once_and_is_tried_again(
    tmp_path: Path, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, _ = finished_game(tmp_path)
    calls: list[int] = []

    def failing(job: HandJob) -> dict[str, Any]:
        calls.append(job.hand)
        if len(calls) == 1:
            raise ValueError("a worker's bad day")
        return reviewed(job)

    monkeypatch.setattr(reviews_module, "review_hand", failing)
    url = f"/api/tables/{table}/review/0"
    with server() as client:
        assert client.get(url).status_code == 202
        deadline = time.monotonic() + PATIENCE
        while (failed := client.get(url)).status_code == 202 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert failed.status_code == 503
        assert failed.json()["error"] == "the review could not be made: a worker's bad day"
        _, review = until_done(lambda: client.get(url))
    assert review["hands"] and calls[0] == calls[1] == 1
