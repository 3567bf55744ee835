"""Exactly-once rating across server processes, so that no game moves a rating twice: two
``pedro serve`` processes on one PostgreSQL database that start at the same moment both look
for the finished games nobody rated (their server stopped between a game's end and its rating)
and rate them; each game is rated once, whichever process gets there first, and the ratings are
those of one pass."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient
from tests.server.test_ratings_store import STORED, played_game
from tests.serving import ServerProcess, free_port, postgres_database

from pedro.engine.actions import action_text
from pedro.server.app import create_app
from pedro.server.profiles.queries import ProfileStore
from pedro.server.profiles.rated_games import CATCH_UP_AGE, RatedGames
from pedro.server.settings import ServerSettings
from pedro.server.storage.schema import profile_games_table, rated_games_table, ratings_table
from pedro.server.storage.tables_db import SeatRow, Store, TableRow, hash_secret

#: finished games left unrated: enough that both processes' catch-ups run at the same time
GAMES = 8
#: every table's game is the same one: which game a table holds does not matter to how often it is
#: rated, and each game played costs a second or more of ``heuristic``'s decisions
SEED = "once"


def stored_finished_game(store: Store, table_id: str, seed: str, ann: str, bo: str) -> None:
    """A finished game of Ann (seat 0) and Bo (seat 2) against two computers, never rated."""
    state, played = played_game(seed)
    seats = [
        SeatRow(0, "human", name="Ann", secret_hash=hash_secret(f"{table_id}:0"), profile=ann),
        SeatRow(1, "computer", player=STORED[1]),
        SeatRow(2, "human", name="Bo", secret_hash=hash_secret(f"{table_id}:2"), profile=bo),
        SeatRow(3, "computer", player=STORED[3]),
    ]
    row = TableRow(
        id=table_id,
        title="",
        variant="cinch",
        options={},
        seed=seed,
        listed=True,
        created_at=datetime.now(UTC),
        seats=seats,
    )
    store.create_table(row)
    for seq, (seat, action) in enumerate(played):
        store.append_action(table_id, seq, action_text(seat, action, state.rules.max_bid))
    store.set_finished(table_id)


def counts(store: Store) -> dict[str, Any]:
    with store.engine.connect() as c:
        games = {r.profile_id: r.games for r in c.execute(select(ratings_table))}
        rated = int(c.execute(select(func.count()).select_from(rated_games_table)).scalar_one())
        links = int(c.execute(select(func.count()).select_from(profile_games_table)).scalar_one())
    return {"games": games, "rated": rated, "links": links}


@pytest.mark.postgres
@pytest.mark.processes
def test_two_processes_catching_up_rate_each_finished_game_once(tmp_path: Path) -> None:
    with postgres_database() as url:
        store = Store(url)
        store.migrate()
        profiles = ProfileStore(store)
        games = RatedGames(store)
        ann, bo = profiles.create("Ann").profile.id, profiles.create("Bo").profile.id
        for n in range(GAMES):
            stored_finished_game(store, f"t{n}", SEED, ann, bo)
        since = datetime.now(UTC) - CATCH_UP_AGE
        assert len(games.unrated(since)) == GAMES
        servers = [ServerProcess(url, free_port(), tmp_path / f"server-{k}.log") for k in range(2)]
        # both start at once: each rates, as it starts, the finished games it finds unrated
        starting = [threading.Thread(target=server.start) for server in servers]
        try:
            for thread in starting:
                thread.start()
            for thread in starting:
                thread.join()
            deadline = time.monotonic() + 120
            while games.unrated(since):
                assert time.monotonic() < deadline, "the processes did not rate the games"
                time.sleep(0.1)
            time.sleep(1.0)  # a second rating, were there one, would land meanwhile
            found = counts(store)
        finally:
            for server in servers:
                server.stop()
            store.close()
        assert all(server.process is not None for server in servers)
        assert found["rated"] == GAMES
        # Ann, Bo and the two computers' levels: one rated game each per table, one link per seat
        assert found["games"] == {
            ann: GAMES,
            bo: GAMES,
            "cpu:beginner": GAMES,
            "cpu:strong": GAMES,
        }, found
        assert found["links"] == 4 * GAMES


def test_in_process_two_servers_catching_up_on_one_sqlite_file_rate_each_game_once(tmp_path: Path) -> None:
    """The promise above without processes or PostgreSQL (fast tier): two servers started together
    in this process, their catch-ups racing on one SQLite file, rate each finished game once."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store(url)
    store.migrate()
    profiles = ProfileStore(store)
    ann, bo = profiles.create("Ann").profile.id, profiles.create("Bo").profile.id
    games = 2
    for n in range(games):
        stored_finished_game(store, f"t{n}", SEED, ann, bo)
    rated = RatedGames(store)
    since = datetime.now(UTC) - CATCH_UP_AGE
    settings = ServerSettings(database=url, worker_processes=0, review_processes=0, start_workers=False)
    try:
        with TestClient(create_app(settings)), TestClient(create_app(settings)):
            deadline = time.monotonic() + 60
            while rated.unrated(since):
                assert time.monotonic() < deadline, "the servers did not rate the games"
                time.sleep(0.05)
            time.sleep(0.3)  # a second rating, were there one, would land meanwhile
        found = counts(store)
    finally:
        store.close()
    assert found["rated"] == games
    assert found["games"] == {ann: games, bo: games, "cpu:beginner": games, "cpu:strong": games}, found
    assert found["links"] == 4 * games
