"""Records and replays of finished games: built off the event loop, once, kept, and served compressed.

A slow build is made by replacing the build function with one that waits for
the test's word (the app then runs with ``worker_processes=0``: threads of the test's
process, which see the replaced function); nothing here depends on how fast
the machine is. One test runs the real worker process.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import create_table, running_server, seats_spec, services_of
from tests.server.replay_helpers import computer_game, expand_frames

from pedro.records import record_from_game, replay
from pedro.server.finished import routes as finished_routes
from pedro.server.finished.bodies import record_body, replay_body
from pedro.server.finished.body_cache import BodyCache
from pedro.server.finished.from_database import StoredTable, stored_body
from pedro.server.finished.workers import WORKER_NICENESS, WorkerError, Workers, _without_cyclic_gc
from pedro.server.http.compressed import accepts_gzip
from pedro.server.http.response_body import Body
from pedro.server.storage.tables_db import SeatRow, Store, TableRow
from pedro.server.tables.game import FinishedGame
from pedro.server.tables.registry import TableRegistry
from pedro.variants.options import make_ruleset

#: how long a test waits for something that must happen at once (a generous bound, not a measure)
PATIENCE = 20.0


def store_finished_game(tmp_path: Path, variant: str = "cinch", seed: str = "served") -> str:
    """A finished game of computer players written to the database the test server will open."""
    return store_game(tmp_path, variant, computer_game(make_ruleset(variant, {}), seed), seed)


def store_game(
    tmp_path: Path, variant: str, actions: list[str], seed: str = "served", *, finished: bool = True
) -> str:
    """A table of computer players with these actions, marked ``finished`` or not."""
    rules = make_ruleset(variant, {})
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.migrate()
    row = TableRow(
        id=secrets.token_urlsafe(16),
        title="done",
        variant=rules.id,
        options={},
        seed=seed,
        listed=False,
        created_at=datetime.now(UTC),
        seats=[SeatRow(s, "computer", player="basic") for s in range(rules.players)],
    )
    store.create_table(row)
    for seq, text in enumerate(actions):
        store.append_action(row.id, seq, text)
    if finished:
        store.set_finished(row.id)
    store.close()
    return row.id


def bodies(client: TestClient) -> BodyCache:
    cache: BodyCache = services_of(client).bodies.cache
    return cache


def in_thread(call: Callable[[], httpx.Response]) -> tuple[threading.Thread, list[httpx.Response]]:
    """Run a request in a thread of its own; its response lands in the list."""
    out: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    return thread, out


class HeldBuild:
    """Stands for ``stored_body`` (the build of a stored table's body): counts its calls and waits
    for ``release`` before building."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, table: StoredTable) -> Body:
        self.calls += 1
        self.started.set()
        assert self.release.wait(PATIENCE), "the test never released the build"
        return stored_body(table)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldBuild]:
    build = HeldBuild()
    monkeypatch.setattr(finished_routes, "stored_body", build)
    yield build
    build.release.set()  # a failed test leaves no build waiting


@pytest.fixture
def finished(tmp_path: Path) -> str:
    return store_finished_game(tmp_path)


@pytest.fixture
def threaded(tmp_path: Path, finished: str) -> Iterator[TestClient]:
    """The app with builds in threads of this process (so a replaced build function is seen)."""
    with running_server(tmp_path, worker_processes=0) as client:
        yield client


# ---------------------------------------------------------------------------- off the loop, once


def test_the_server_answers_while_a_replay_is_built(
    threaded: TestClient, finished: str, held: HeldBuild
) -> None:
    fetch, replayed = in_thread(lambda: threaded.get(f"/api/tables/{finished}/replay"))
    assert held.started.wait(PATIENCE)
    # the build is held: were it on the event loop, nothing else could be answered now
    health, answered = in_thread(lambda: threaded.get("/healthz"))
    health.join(PATIENCE)
    assert answered and answered[0].status_code == 200, "/healthz waited for the replay's build"
    table, summary = in_thread(lambda: threaded.get(f"/api/tables/{finished}"))
    table.join(PATIENCE)
    assert summary and summary[0].json()["finished"] is True
    assert not replayed, "the replay was answered before its build finished"
    held.release.set()
    fetch.join(PATIENCE)
    assert replayed and replayed[0].status_code == 200
    assert held.calls == 1


def test_concurrent_fetches_of_a_replay_share_one_build(
    threaded: TestClient, finished: str, held: HeldBuild, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = bodies(threaded)
    asked: list[object] = []
    real_get = cache.get

    async def counted_get(key: Any, build: Any) -> Body:
        asked.append(key)
        return await real_get(key, build)

    monkeypatch.setattr(cache, "get", counted_get)
    fetches = [in_thread(lambda: threaded.get(f"/api/tables/{finished}/replay")) for _ in range(5)]
    deadline = time.monotonic() + PATIENCE
    while len(asked) < 5 and time.monotonic() < deadline:  # every request waits on the cache
        time.sleep(0.01)
    assert len(asked) == 5 and held.started.wait(PATIENCE)
    held.release.set()
    answers = []
    for thread, out in fetches:
        thread.join(PATIENCE)
        assert out and out[0].status_code == 200
        answers.append(out[0].content)
    assert held.calls == 1, f"{held.calls} builds for 5 concurrent requests"
    assert len(set(answers)) == 1
    # and later requests are served from the cache
    assert threaded.get(f"/api/tables/{finished}/replay").content == answers[0]
    assert held.calls == 1 and cache.builds == 1


def test_a_request_that_gives_up_does_not_stop_the_build(
    threaded: TestClient, finished: str, held: HeldBuild
) -> None:
    cache = bodies(threaded)
    key = ("replay", finished)

    async def give_up() -> None:
        waiting = asyncio.ensure_future(cache.get(key, lambda: _never()))
        await asyncio.sleep(0)
        waiting.cancel()

    fetch, replayed = in_thread(lambda: threaded.get(f"/api/tables/{finished}/replay"))
    assert held.started.wait(PATIENCE)
    threaded.portal.call(give_up)  # type: ignore[union-attr]
    held.release.set()
    fetch.join(PATIENCE)
    assert replayed and replayed[0].status_code == 200 and held.calls == 1


async def _never() -> Body:
    raise AssertionError("a second build was started for a key already being built")


@pytest.mark.slow  # starts the worker process
def test_a_stored_finished_game_is_replayed_without_loading_its_table(tmp_path: Path, finished: str) -> None:
    with running_server(tmp_path) as client:  # the worker process, as the server runs it
        registry = services_of(client).registry
        assert finished not in registry.rooms  # a finished table is not loaded at start
        response = client.get(f"/api/tables/{finished}/replay")
        assert response.status_code == 200, response.text
        assert finished not in registry.rooms, "the replay loaded the table for good"
        body = response.json()
        record = body["record"]
        result = replay(record)
        assert result.finished and body["table"]["id"] == finished and body["table"]["finished"]
        frames = expand_frames(body["frames"])
        assert len(frames) == sum(len(h["actions"]) for h in record["hands"]) + 1
        assert frames[-1]["game"]["phase"] == "over"
        assert frames[-1]["game"]["sheet"][-1]["score"] == list(result.state.scores)
        assert record_from_game(result.state, record["names"]) == record

        downloaded = client.get(f"/api/tables/{finished}/record")
        assert downloaded.status_code == 200 and downloaded.json() == record
        assert downloaded.headers["content-disposition"] == (
            f'attachment; filename="pedro-cinch-{finished[:8]}.json"'
        )
        for _ in range(3):
            assert client.get(f"/api/tables/{finished}/record").json() == record
            assert client.get(f"/api/tables/{finished}/replay").content == response.content
        assert bodies(client).builds == 2  # one record, one replay
        assert len(bodies(client)) == 2


def test_a_stored_game_is_played_once_and_built_as_its_restored_table_would_be(
    threaded: TestClient, finished: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    restored: list[str] = []
    real_detached = TableRegistry.detached

    def detached(registry: TableRegistry, table_id: str) -> Any:
        restored.append(table_id)
        return real_detached(registry, table_id)

    monkeypatch.setattr(TableRegistry, "detached", detached)
    replayed = threaded.get(f"/api/tables/{finished}/replay")
    recorded = threaded.get(f"/api/tables/{finished}/record")
    assert replayed.status_code == recorded.status_code == 200
    assert restored == [], "the server restored the table besides the worker's play of it"
    # the same bodies as those built from the table restored, as a loaded table's are
    game = real_detached(services_of(threaded).registry, finished).finished_game()
    assert replayed.content == replay_body(game).plain()
    assert recorded.content == record_body(game).plain()
    assert recorded.headers["content-disposition"] == f'attachment; filename="{game.filename()}"'


def _damaged(actions: list[str], how: str) -> list[str]:
    seat, _, words = actions[0].partition(" ")
    if how == "not an action":
        return ["0 play ZZ", *actions[1:]]
    if how == "out of turn":
        return [f"{(int(seat) + 1) % 4} {words}", *actions[1:]]
    return [f"{seat} play AS", *actions[1:]]  # a play in the auction


@pytest.mark.parametrize(
    ("how", "path", "processes"),
    [
        *(
            (how, path, 0)
            for how in ("not an action", "out of turn", "illegal")
            for path in ("replay", "record")
        ),
        # the refusal comes back from a worker process (started: slow)
        pytest.param("illegal", "replay", 1, marks=pytest.mark.slow),
    ],
)
def test_a_stored_game_that_no_longer_plays_is_not_found_and_nothing_is_kept(
    tmp_path: Path, how: str, path: str, processes: int, caplog: pytest.LogCaptureFixture
) -> None:
    actions = _damaged(computer_game(make_ruleset("cinch", {}), "damaged"), how)
    table = store_game(tmp_path, "cinch", actions, "damaged")
    with running_server(tmp_path, worker_processes=processes) as client:
        response = client.get(f"/api/tables/{table}/{path}")
        assert response.status_code == 404 and "no such table" in response.json()["error"]
        assert bodies(client).builds == 0 and len(bodies(client)) == 0
    assert f"table {table} could not be restored and is not served" in caplog.text


@pytest.mark.parametrize("processes", [0, pytest.param(1, marks=pytest.mark.slow)])  # 1: a worker process
def test_a_stored_game_marked_finished_too_soon_is_refused(tmp_path: Path, processes: int) -> None:
    actions = computer_game(make_ruleset("cinch", {}), "soon")
    table = store_game(tmp_path, "cinch", actions[: len(actions) // 2], "soon")
    with running_server(tmp_path, worker_processes=processes) as client:
        for path in ("replay", "record"):
            response = client.get(f"/api/tables/{table}/{path}")
            assert response.status_code == 409 and "not over" in response.json()["error"]
        assert bodies(client).builds == 0


def test_a_stored_game_over_but_not_yet_marked_finished_is_served(tmp_path: Path) -> None:
    actions = computer_game(make_ruleset("cinch", {}), "unmarked")
    table = store_game(tmp_path, "cinch", actions, "unmarked", finished=False)
    with running_server(tmp_path, worker_processes=0) as client:
        response = client.get(f"/api/tables/{table}/replay")
        assert response.status_code == 200
        assert len(response.json()["frames"]) == len(actions) + 1


# ---------------------------------------------------------------------------- compressed


def _raw(client: TestClient, path: str, accept: str) -> tuple[httpx.Headers, bytes]:
    """The response's headers and bytes as sent (not decoded by the client)."""
    with client.stream("GET", path, headers={"Accept-Encoding": accept}) as response:
        assert response.status_code == 200
        return response.headers, b"".join(response.iter_raw())


@pytest.mark.parametrize("path", ["replay", "record"])
def test_gzip_is_served_when_accepted_and_plain_json_otherwise(
    threaded: TestClient, finished: str, path: str
) -> None:
    url = f"/api/tables/{finished}/{path}"
    headers, sent = _raw(threaded, url, "gzip, deflate, br")
    assert headers["content-encoding"] == "gzip"
    assert "accept-encoding" in headers["vary"].lower()
    assert int(headers["content-length"]) == len(sent)
    value = orjson.loads(gzip.decompress(sent))
    assert headers["content-type"] == "application/json"
    for refused in ("identity", "gzip;q=0, identity", "br", ""):
        plain_headers, plain = _raw(threaded, url, refused)
        assert "content-encoding" not in plain_headers, refused
        assert "accept-encoding" in plain_headers["vary"].lower()
        assert int(plain_headers["content-length"]) == len(plain)
        assert orjson.loads(plain) == value
    assert len(sent) < len(plain)


def test_which_accept_encoding_headers_allow_gzip() -> None:
    allowing = [
        "gzip",
        "deflate, gzip",
        "gzip;q=0.5",
        "br;q=1.0, GZIP;q=0.1",
        "*",
        "x-gzip",
        "identity, *;q=1",
    ]
    refusing = ["", "identity", "br, deflate", "gzip;q=0", "gzip;q=0.0, *", "*;q=0", "gzip;q=nonsense"]
    assert [h for h in allowing if not accepts_gzip(h)] == []
    assert [h for h in refusing if accepts_gzip(h)] == []


# ---------------------------------------------------------------------------- refusals


def test_unfinished_and_unknown_games_are_refused_and_nothing_is_built(threaded: TestClient) -> None:
    table = create_table(threaded, seats=seats_spec("human", "basic", "basic", "basic"))["table"]
    for path in ("record", "replay"):
        response = threaded.get(f"/api/tables/{table}/{path}")
        assert response.status_code == 409 and "not over" in response.json()["error"]
        missing = threaded.get(f"/api/tables/{'x' * 22}/{path}")
        assert missing.status_code == 404 and missing.json()["error"] == "no such table (check the link)"
        assert threaded.get(f"/api/tables/{'y' * 300}/{path}").status_code == 404
    assert bodies(threaded).builds == 0 and len(bodies(threaded)) == 0


def test_a_worker_that_died_is_a_503_and_the_next_request_builds_again(
    threaded: TestClient, finished: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies(table: StoredTable) -> Body:
        raise WorkerError("a worker process stopped before it answered")

    monkeypatch.setattr(finished_routes, "stored_body", dies)
    response = threaded.get(f"/api/tables/{finished}/replay")
    assert response.status_code == 503 and "try again" in response.json()["error"]
    monkeypatch.setattr(finished_routes, "stored_body", stored_body)
    assert threaded.get(f"/api/tables/{finished}/replay").status_code == 200


# ---------------------------------------------------------------------------- the cache


def _body(size: int, tag: int = 0) -> Body:
    return Body(bytes([tag]) * size, size)


def test_the_cache_keeps_the_most_recently_used_bodies_within_its_bytes() -> None:
    async def run() -> None:
        cache = BodyCache(max_bytes=100)

        def built(body: Body) -> Callable[[], Any]:
            async def build() -> Body:
                return body

            return build

        a, b, c = _body(40, 1), _body(40, 2), _body(40, 3)
        assert await cache.get("a", built(a)) is a
        assert await cache.get("b", built(b)) is b
        assert await cache.get("a", built(_body(40, 9))) is a  # kept: not built again, and now recent
        assert await cache.get("c", built(c)) is c  # 120 bytes: "b", the least recently used, goes
        assert cache.bytes == 80 and len(cache) == 2
        assert await cache.get("b", built(_body(40, 7))) != b
        huge = _body(101)
        assert await cache.get("huge", built(huge)) is huge  # served, but larger than the cache
        assert len(cache) == 2 and cache.bytes == 80
        assert cache.builds == 5

    asyncio.run(run())


def test_a_failed_build_reaches_every_waiter_and_is_not_kept() -> None:
    async def run() -> None:
        cache = BodyCache(max_bytes=1000)
        gate = asyncio.Event()
        calls = 0

        async def failing() -> Body:
            nonlocal calls
            calls += 1
            await gate.wait()
            raise RuntimeError("broken")

        waiters = [asyncio.ensure_future(cache.get("k", failing)) for _ in range(3)]
        await asyncio.sleep(0)
        gate.set()
        results = await asyncio.gather(*waiters, return_exceptions=True)
        assert calls == 1 and all(isinstance(r, RuntimeError) for r in results)
        assert len(cache) == 0

        async def good() -> Body:
            return _body(10)

        assert (await cache.get("k", good)).size == 10

    asyncio.run(run())


def test_a_game_that_ends_has_its_replay_built_before_anyone_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def counted(game: FinishedGame) -> Body:
        calls.append(game.table_id)
        return replay_body(game)

    monkeypatch.setattr(finished_routes, "replay_body", counted)
    with running_server(tmp_path, worker_processes=0) as client:
        seats = seats_spec("basic", "basic", "basic", "basic")
        table = create_table(client, "cinch", seats=seats, seat=None, options={"target": 11})["table"]
        cache = bodies(client)
        deadline = time.monotonic() + 10 * PATIENCE
        while cache.builds < 2 and time.monotonic() < deadline:  # the replay, then the record
            time.sleep(0.05)
        assert client.get(f"/api/tables/{table}").json()["finished"]
        assert calls == [table], "the replay was not built when the game ended"
        response = client.get(f"/api/tables/{table}/replay")
        assert response.status_code == 200 and expand_frames(response.json()["frames"])
        assert calls == [table] and cache.builds == 2, "the replay was built again when asked for"


# ---------------------------------------------------------------------------- the worker process


@pytest.mark.slow
def test_the_worker_process_starts_with_the_server(tmp_path: Path, finished: str) -> None:
    with running_server(tmp_path, start_workers=True) as client:
        workers: Workers = services_of(client).workers
        # started before any request, and ready when its first one comes
        assert len(workers.warm_ups) == workers.processes == 1
        assert workers.warm_ups[0].result(timeout=PATIENCE) is None
        response = client.get(f"/api/tables/{finished}/replay")
        assert response.status_code == 200 and expand_frames(response.json()["frames"])


def test_a_job_runs_with_the_cyclic_garbage_collector_off() -> None:
    def job(_: None) -> bool:
        return gc.isenabled()

    def fails(_: None) -> None:
        raise ValueError("the job failed")

    assert gc.isenabled()
    assert _without_cyclic_gc(job, None) is False
    assert gc.isenabled()
    with pytest.raises(ValueError, match="failed"):
        _without_cyclic_gc(fails, None)
    assert gc.isenabled(), "a failed job left the collector off"


def test_a_worker_gives_way_to_the_server() -> None:
    """Replays are built at a lower priority than the event loop's (niceness of the worker's jobs)."""

    async def niceness() -> int:
        workers = Workers(1)
        try:
            return await workers.run(os.nice, 0)
        finally:
            workers.close()

    assert asyncio.run(niceness()) == min(19, os.nice(0) + WORKER_NICENESS)
