"""Profiles and ratings in the database (``pedro.server.profiles.queries``), on SQLite and PostgreSQL:
names, move codes, and a finished game's rating, applied once and as openskill computes it."""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select
from tests.server.durability_helpers import database

from pedro.engine.actions import action_text
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.server.profiles.queries import ProfileRefused, ProfileStore
from pedro.server.profiles.rated_games import RatedGames, game_end_of, seat_figures
from pedro.server.storage.schema import (
    profile_codes_table,
    profile_games_table,
    profiles_table,
    rated_games_table,
    ratings_table,
    seat_profiles_table,
    tables_table,
)
from pedro.server.storage.tables_db import NewAction, SeatRow, Store, TableRow, hash_secret
from pedro.server.tables.game import GameEnd
from pedro.variants.options import make_ruleset

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
#: Who plays each seat of the scripted game: seat 0 is the person (Ann's profile), played here by
#: the club player; the computer seats are a level each (seats 0 and 2 are partners in cinch).
PLAYERS = ("heuristic", "basic", "heuristic", "random")
#: The computer seats as the table stores them: a rated level each. Seat 3's moves are random's
#: (quick), which the rating never looks at: it rates the result.
STORED = ("club", "beginner", "club", "strong")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as database_url:
        yield database_url


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    store = Store(url)
    store.migrate()
    yield store
    store.close()


@pytest.fixture
def profiles(store: Store) -> ProfileStore:
    return ProfileStore(store)


@pytest.fixture
def games(store: Store) -> RatedGames:
    return RatedGames(store)


@functools.cache
def _played_actions(seed: str) -> tuple[tuple[int, int], ...]:
    state = GameState(make_ruleset("cinch", {}), seed=seed)
    players = [make_player(name, seed=f"{seed}:{seat}") for seat, name in enumerate(PLAYERS)]
    actions = []
    while not state.is_over:
        seat = state.current_player
        action = players[seat].act(state.observation(seat))
        state.apply(action)
        actions.append((seat, action))
    return tuple(actions)


def played_game(seed: str = "rated") -> tuple[GameState, list[tuple[int, int]]]:
    """A whole cinch game (to its own target: a rated game), every seat a computer player seeded by
    the seat, and its actions. The players decide once a seed (``heuristic`` takes seconds a game);
    each test gets the game of its own, played again from their actions."""
    actions = _played_actions(seed)
    state = GameState(make_ruleset("cinch", {}), seed=seed)
    for _, action in actions:
        state.apply(action)
    return state, list(actions)


def stored_game(
    store: Store,
    game: tuple[GameState, list[tuple[int, int]]],
    profile: str | None,
    *,
    table_id: str = "t1",
    practice: bool = False,
) -> GameEnd:
    """The table of a played game in the database (seat 0 taken by ``profile``), and its end."""
    state, played = game
    seats = [SeatRow(0, "human", name="Ann", secret_hash=hash_secret("seat"), profile=profile)] + [
        SeatRow(seat, "computer", player=STORED[seat]) for seat in (1, 2, 3)
    ]
    row = TableRow(
        id=table_id,
        title="Friday",
        variant="cinch",
        options={},
        seed="rated",
        listed=True,
        created_at=T0,
        seats=seats,
        practice=practice,
    )
    store.create_table(row)
    actions = tuple(action_text(seat, action, state.rules.max_bid) for seat, action in played)
    return GameEnd(
        table_id=table_id,
        variant="cinch",
        options={},
        practice=practice,
        hands=None,
        scores=tuple(state.scores),
        winner=state.winner,
        results=tuple(state.results),
        actions=actions,
    )


def count(store: Store, table: Any) -> int:
    with store.engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(table)).scalar_one())


# ---------------------------------------------------------------------------- profiles


def test_a_name_is_taken_once_whatever_its_case(profiles: ProfileStore) -> None:
    ann = profiles.create("Ann Ö")
    with pytest.raises(ProfileRefused) as taken:
        profiles.create("ANN ö")
    assert taken.value.reason == "name_taken" and taken.value.fields == {"name": "ANN ö"}
    assert profiles.by_secret(ann.secret) == ann.profile
    assert profiles.by_id(ann.profile.id) == ann.profile
    assert profiles.by_secret("not a secret") is None


def test_a_profile_is_renamed_by_the_rules_of_its_creation(profiles: ProfileStore) -> None:
    ann = profiles.create("Ann")
    bo = profiles.create("Bo")
    renamed = profiles.rename(ann.secret, "Annie")
    assert renamed == profiles.by_id(ann.profile.id) and renamed.name == "Annie"
    assert profiles.rename(ann.secret, "ANNIE").name == "ANNIE"  # its own name, in another case
    with pytest.raises(ProfileRefused) as taken:
        profiles.rename(ann.secret, "bO")
    assert taken.value.reason == "name_taken" and profiles.by_id(bo.profile.id) == bo.profile
    with pytest.raises(ProfileRefused) as kept:
        profiles.rename(ann.secret, "Club")
    assert kept.value.reason == "name_for_computer"
    with pytest.raises(ProfileRefused) as unknown:
        profiles.rename("not a secret", "Cy")
    assert unknown.value.reason == "unknown_profile"
    assert profiles.create("Ann").profile.name == "Ann"  # the old name is free again


def test_a_deleted_profile_leaves_its_games_and_the_others_ratings(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    end = stored_game(store, played_game(), ann.profile.id)
    rating = games.finish_game(end, now=T0)
    assert rating is not None and rating.rated
    profiles.move_code(ann.secret, now=T0)
    others = {"cpu:club", "cpu:beginner", "cpu:strong"}

    def rows(table: Any) -> set[str]:
        with store.engine.connect() as c:
            return {r.profile_id for r in c.execute(select(table.c.profile_id))}

    assert rows(ratings_table) == others | {ann.profile.id}
    assert rows(profile_games_table) == others | {ann.profile.id}
    before = {r.profile_id: (r.mu, r.sigma, r.games) for r in _all(store, ratings_table)}

    assert profiles.delete(ann.secret) == ann.profile
    assert profiles.by_id(ann.profile.id) is None and profiles.by_secret(ann.secret) is None
    for table in (ratings_table, profile_games_table, seat_profiles_table, profile_codes_table):
        assert ann.profile.id not in rows(table)
    # the game, its rating's record and every other profile's ratings and games are as they were
    assert rows(profile_games_table) == others and count(store, tables_table) == 1
    assert count(store, rated_games_table) == 1
    assert {r.profile_id: (r.mu, r.sigma, r.games) for r in _all(store, ratings_table)} == {
        p: v for p, v in before.items() if p != ann.profile.id
    }
    after = games.game_rating(end.table_id)
    assert not isinstance(after, bool) and after.rated
    assert {c.profile for c in after.changes} == others
    loaded = store.load_table(end.table_id)
    assert loaded is not None and loaded.seats[0].name == "Ann" and loaded.seats[0].profile is None
    with pytest.raises(ProfileRefused) as gone:
        profiles.delete(ann.secret)
    assert gone.value.reason == "unknown_profile"
    assert profiles.create("Ann").profile.id != ann.profile.id  # the name is free again


def _all(store: Store, table: Any) -> list[Any]:
    with store.engine.connect() as c:
        return list(c.execute(select(table)))


def test_computer_players_names_are_kept_for_them(profiles: ProfileStore) -> None:
    for name in ("Expert", "club", "random", "HEURISTIC"):
        with pytest.raises(ProfileRefused) as kept:
            profiles.create(name)
        assert kept.value.reason == "name_for_computer"


def test_the_secret_is_stored_hashed_only(store: Store, profiles: ProfileStore) -> None:
    ann = profiles.create("Ann")
    with store.engine.connect() as c:
        rows = [dict(r._mapping) for r in c.execute(select(profiles_table))]
    assert ann.secret not in json.dumps(rows, default=str)
    assert rows[0]["secret_hash"] == hash_secret(ann.secret)


def test_a_move_code_moves_the_profile_once(profiles: ProfileStore) -> None:
    ann = profiles.create("Ann")
    code, expires = profiles.move_code(ann.secret, now=T0)
    assert expires == T0 + timedelta(minutes=15)
    moved = profiles.adopt(code.lower(), now=T0 + timedelta(minutes=5))  # typed as it comes
    assert moved.profile == ann.profile and moved.secret != ann.secret
    assert profiles.by_secret(moved.secret) == ann.profile
    assert profiles.by_secret(ann.secret) is None, "the old browser's secret still works"
    with pytest.raises(ProfileRefused, match="bad_move_code"):
        profiles.adopt(code, now=T0 + timedelta(minutes=6))


def test_a_move_code_expires_and_a_new_one_replaces_it(profiles: ProfileStore) -> None:
    ann = profiles.create("Ann")
    first, _ = profiles.move_code(ann.secret, now=T0)
    second, _ = profiles.move_code(ann.secret, now=T0)
    with pytest.raises(ProfileRefused, match="bad_move_code"):
        profiles.adopt(first, now=T0)
    with pytest.raises(ProfileRefused, match="bad_move_code"):
        profiles.adopt(second, now=T0 + timedelta(minutes=15))
    with pytest.raises(ProfileRefused) as unknown:
        profiles.move_code("not a secret")
    assert unknown.value.reason == "unknown_profile"


# ---------------------------------------------------------------------------- ratings


def test_a_rated_game_moves_the_ratings_as_openskill_says(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    game = played_game()
    state = game[0]
    end = stored_game(store, game, ann.profile.id)
    rating = games.finish_game(end, now=T0)
    assert rating is not None and rating.rated and rating.reason is None

    # the same result straight from openskill: sides (0, 2) and (1, 3), the winner first
    model = PlackettLuce()
    ranks = [1.0, 2.0] if state.winner == 0 else [2.0, 1.0]
    (ann_after, club_after), (beginner_after, strong_after) = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=ranks
    )
    expected = {
        ann.profile.id: ann_after,
        "cpu:club": club_after,
        "cpu:beginner": beginner_after,
        "cpu:strong": strong_after,
    }
    with store.engine.connect() as c:
        stored = {r.profile_id: r for r in c.execute(select(ratings_table))}
    assert set(stored) == set(expected)
    for player, want in expected.items():
        assert stored[player].mu == pytest.approx(want.mu) and stored[player].sigma == pytest.approx(
            want.sigma
        )
        assert stored[player].games == 1 and stored[player].variant == "cinch"
    assert ann_after.mu > 25 if state.winner == 0 else ann_after.mu < 25
    change = {c.profile: c for c in rating.changes}
    assert change[ann.profile.id].before == pytest.approx(0.0)
    assert change[ann.profile.id].after == pytest.approx(ann_after.mu - 3 * ann_after.sigma)
    assert change["cpu:club"].name == "club" and change["cpu:club"].kind == "computer"

    page = profiles.profile_page(ann.profile.id)
    assert page is not None
    figures = seat_figures(state.results, 0, 0)
    assert page["games"][0] | {"at": None} == {
        "table": "t1",
        "title": "Friday",
        "variant": "cinch",
        "seat": 0,
        "at": None,
        "place": 1 if state.winner == 0 else 2,
        "sides": 2,
        "hands": len(state.results),
        "points": figures.points,
        "bids_won": figures.bids_won,
        "bids_made": figures.bids_made,
        "bids_set": figures.bids_set,
        "rated": True,
        "before": pytest.approx(0.0),
        "after": pytest.approx(ann_after.mu - 3 * ann_after.sigma),
    }
    assert figures.bids_won == figures.bids_made + figures.bids_set
    assert figures.hands > 1 and sum(r.bidder == 0 for r in state.results) == figures.bids_won
    assert page["history"] == [
        {
            "variant": "cinch",
            "table": "t1",
            "at": T0.isoformat(),
            "rating": pytest.approx(change[ann.profile.id].after),
        }
    ]
    assert ann.secret not in json.dumps(page) and hash_secret(ann.secret) not in json.dumps(page)
    board = profiles.leaderboard("cinch")
    assert [row["rank"] for row in board] == [1, 2, 3, 4]
    assert [row["rating"] for row in board] == sorted((row["rating"] for row in board), reverse=True)
    assert {row["name"]: row["kind"] for row in board} == {
        "Ann": "human",
        "club": "computer",
        "beginner": "computer",
        "strong": "computer",
    }
    assert profiles.leaderboard("pedro") == []
    again = games.game_rating("t1")
    assert not isinstance(again, bool) and again.rated and {c.profile for c in again.changes} == set(expected)


@pytest.mark.slow
def test_the_second_game_starts_from_the_first_ones_ratings(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    first = games.finish_game(stored_game(store, played_game("one"), ann.profile.id, table_id="t1"))
    assert first is not None
    second = games.finish_game(stored_game(store, played_game("two"), ann.profile.id, table_id="t2"))
    assert second is not None and second.rated
    ann_first = next(c for c in first.changes if c.profile == ann.profile.id)
    ann_second = next(c for c in second.changes if c.profile == ann.profile.id)
    assert ann_second.before == pytest.approx(ann_first.after)
    with store.engine.connect() as c:
        games = c.execute(select(ratings_table.c.games).where(ratings_table.c.profile_id == ann.profile.id))
        assert games.scalar_one() == 2


def test_a_game_is_rated_once_even_by_two_store_handles_at_once(
    store: Store, profiles: ProfileStore, url: str, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    end = stored_game(store, played_game(), ann.profile.id)
    others = [Store(url) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[Any] = [None, None]

    def rate(i: int) -> None:
        barrier.wait(30)
        try:
            outcomes[i] = RatedGames(others[i]).finish_game(end)
        except BaseException as exc:  # reported below
            outcomes[i] = exc

    threads = [threading.Thread(target=rate, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for other in others:
        other.close()
    assert not any(isinstance(o, BaseException) for o in outcomes), outcomes
    assert sorted(o is None for o in outcomes) == [False, True], "rated twice, or never"
    assert games.finish_game(end) is None
    with store.engine.connect() as c:
        assert set(c.execute(select(ratings_table.c.games)).scalars()) == {1}
    assert count(store, rated_games_table) == 1


def test_a_practice_game_is_linked_but_not_rated(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    rating = games.finish_game(stored_game(store, played_game(), ann.profile.id, practice=True))
    assert rating is not None and not rating.rated and rating.reason == "practice" and rating.changes == ()
    assert count(store, ratings_table) == 0
    page = profiles.profile_page(ann.profile.id)
    assert page is not None and [g["rated"] for g in page["games"]] == [False] and page["history"] == []


def test_a_duplicate_tournaments_deal_is_not_rated(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    """A tournament's deal is one hand, scored by matchpoints at the tournament: not a rated game."""
    ann = profiles.create("Ann")
    end = dataclasses.replace(stored_game(store, played_game(), ann.profile.id), hands=1)
    rating = games.finish_game(end)
    assert rating is not None and not rating.rated and rating.reason == "tournament_deal"
    assert count(store, ratings_table) == 0


def test_a_game_a_stand_in_played_most_of_is_not_rated(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    end = stored_game(store, played_game(), ann.profile.id)
    ann_actions = [seq for seq, text in enumerate(end.actions) if text.startswith("0 ")]
    most = ann_actions[: len(ann_actions) // 2 + 1]
    store.write_many(
        [NewAction("t1", seq, text, stand_in=seq in most) for seq, text in enumerate(end.actions)]
    )
    rating = games.finish_game(end)
    assert rating is not None and not rating.rated
    assert (rating.reason, rating.reason_seat) == ("stand_in", 0)
    assert count(store, ratings_table) == 0


def test_a_stand_in_for_half_the_decisions_or_fewer_does_not_stop_the_rating(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    ann = profiles.create("Ann")
    end = stored_game(store, played_game(), ann.profile.id)
    ann_actions = [seq for seq, text in enumerate(end.actions) if text.startswith("0 ")]
    half = ann_actions[: len(ann_actions) // 2]
    store.write_many(
        [NewAction("t1", seq, text, stand_in=seq in half) for seq, text in enumerate(end.actions)]
    )
    rating = games.finish_game(end)
    assert rating is not None and rating.rated


def test_a_game_without_profiles_is_neither_linked_nor_rated(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    assert games.game_rating("t1") is False  # no such table
    end = stored_game(store, played_game(), None)
    assert games.game_rating("t1") is True  # the table is there, its rating not yet
    rating = games.finish_game(end)
    assert rating is not None and (rating.rated, rating.reason) == (False, "no_profiles")
    assert count(store, ratings_table) == 0 and count(store, profiles_table) == 0


def test_a_stored_game_played_again_ends_as_it_did(store: Store, profiles: ProfileStore) -> None:
    end = stored_game(store, played_game(), None)
    row = store.load_table("t1")
    assert row is not None
    row.actions = list(end.actions)
    assert game_end_of(row) == end
    row.actions = row.actions[:-1]
    with pytest.raises(ValueError, match="not over"):
        game_end_of(row)


@pytest.mark.slow
def test_finished_games_never_rated_are_found(
    store: Store, profiles: ProfileStore, games: RatedGames
) -> None:
    first = stored_game(store, played_game("one"), None, table_id="t1")
    stored_game(store, played_game("two"), None, table_id="t2")
    stored_game(store, played_game("three"), None, table_id="t3")
    store.set_finished("t1")
    store.set_finished("t2")
    assert games.unrated(T0 - timedelta(days=1)) == ["t1", "t2"]  # t3 is not marked finished
    assert games.unrated(T0 + timedelta(days=1)) == []  # older than asked
    games.finish_game(first)
    assert games.unrated(T0 - timedelta(days=1)) == ["t2"]


def test_a_stored_game_that_no_longer_plays_is_a_plain_value_error(store: Store) -> None:
    end = stored_game(store, played_game(), None)
    row = store.load_table("t1")
    assert row is not None
    row.actions = [end.actions[1], *end.actions[1:]]  # the second seat first: out of turn
    with pytest.raises(ValueError, match="stored action") as raised:
        game_end_of(row)
    assert type(raised.value) is ValueError  # it pickles: it comes back from a worker process
