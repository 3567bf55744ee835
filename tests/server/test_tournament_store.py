"""Duplicate tournaments in the database, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.server.durability_helpers import database

from pedro.server.storage.tables_db import ConflictError, SeatRow, Store, TableRow, hash_secret
from pedro.server.tournaments.queries import TournamentRow, TournamentSeat, TournamentStore

T0 = datetime(2026, 11, 27, 12, 0, 0, 250000, tzinfo=UTC)
#: a deal seed as the server draws them, below 2**62: beyond a 32-bit column
SEED = 2**62 - 12345


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with database(request.param, tmp_path) as url:
        store = Store(url)
        store.migrate()
        yield store
        store.close()


def tournament(tid: str = "tour1") -> TournamentRow:
    seats = [TournamentSeat(t, s, "human") if s % 2 == 0 else TournamentSeat(t, s, "computer", "heuristic")
             for t in range(2) for s in range(4)]  # fmt: skip
    return TournamentRow(tid, "Club night", "cinch", {"min_bid": 6}, SEED, 3, 2, hash_secret("d"), T0, seats)


def deal_table(table_id: str, seed: str) -> TableRow:
    seats = [SeatRow(s, "computer", "basic") for s in range(4)]
    return TableRow(table_id, "deal", "cinch", {}, seed, False, T0, seats, hands=1)


def test_a_tournament_is_stored_joined_and_played_deal_by_deal(store: Store) -> None:
    tournaments = TournamentStore(store)
    tournaments.create(tournament())
    assert tournaments.load("nope") is None
    loaded = tournaments.load("tour1")
    assert loaded is not None
    assert (loaded.title, loaded.options, loaded.seed, loaded.deals, loaded.tables) == (
        "Club night", {"min_bid": 6}, SEED, 3, 2,
    )  # fmt: skip
    assert loaded.created_at == T0 and loaded.director_hash == hash_secret("d")
    assert [(s.table_no, s.seat, s.kind, s.player) for s in loaded.seats][:2] == [
        (0, 0, "human", None), (0, 1, "computer", "heuristic"),
    ]  # fmt: skip
    tournaments.claim("tour1", 1, 2, "Ann", hash_secret("ann"))
    with pytest.raises(ConflictError):
        tournaments.claim("tour1", 1, 2, "Bob", hash_secret("bob"))  # taken
    with pytest.raises(ConflictError):
        tournaments.claim("tour1", 1, 1, "Bob", hash_secret("bob"))  # a computer's
    seat = tournaments.load("tour1").seat(1, 2)  # type: ignore[union-attr]
    assert seat is not None and (seat.name, seat.secret_hash) == ("Ann", hash_secret("ann"))

    tournaments.add_deal("tour1", 0, 0, deal_table("deal-a", "12345"))
    with pytest.raises(ConflictError):  # a deal has one table, however many processes try
        tournaments.add_deal("tour1", 0, 0, deal_table("deal-b", "12345"))
    assert store.load_table("deal-b") is None  # nothing of the refused deal was kept
    table = store.load_table("deal-a")
    assert table is not None and table.hands == 1 and table.seed == "12345"
    assert tournaments.tournament_of("deal-a") == ("tour1", 0, 0)
    assert tournaments.tournament_of("elsewhere") is None
    assert tournaments.unfinished() == ["tour1"]

    tournaments.record("tour1", 0, 0, (3, -1))
    loaded = tournaments.load("tour1")
    assert loaded is not None
    played = loaded.deal_table(0, 0)
    assert played is not None and played.change == (3, -1) and not loaded.finished
    for table_no in range(2):
        for deal in range(3):
            if (table_no, deal) != (0, 0):
                tournaments.add_deal(
                    "tour1", table_no, deal, deal_table(f"d{table_no}{deal}", str(12345 + deal))
                )
                tournaments.record("tour1", table_no, deal, (0, 2))
    loaded = tournaments.load("tour1")
    assert loaded is not None and loaded.finished
    assert tournaments.unfinished() == []


def test_tables_keep_their_number_of_hands(store: Store) -> None:
    store.create_table(deal_table("one-hand", "7"))
    plain = deal_table("to-the-target", "8")
    plain.hands = None
    store.create_table(plain)
    assert store.load_table("one-hand").hands == 1  # type: ignore[union-attr]
    assert store.load_table("to-the-target").hands is None  # type: ignore[union-attr]
