"""Each finished game's rating in the database, applied exactly once, and how it went.

A finished game is linked to the profiles that played it and rated in one transaction that first
inserts the game's row in ``pedro_rated_games``: a second attempt (another server process, or a
retry) finds the row and changes nothing. Rating transactions also take one lock among themselves
(PostgreSQL: an advisory lock; SQLite: its write lock, taken by that first insert), so two games
ending at once never read the same rating before either writes it. The ratings themselves are
``pedro.ratings``'s: this module only reads what a game's end needs and writes what it decided.
Every method is one short transaction and blocks: the server calls them in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from pedro.engine.actions import parse_turn_text
from pedro.engine.state import HandResult
from pedro.players.levels import level_of
from pedro.ratings import (
    RATED_COMPUTERS,
    Rating,
    SeatTaker,
    rate_game,
    side_ranks,
    stood_in_for_most,
    unrated_reason,
)
from pedro.server.storage.name_keys import name_key
from pedro.server.storage.schema import (
    profile_games_table,
    profiles_table,
    rated_games_table,
    ratings_table,
    seat_profiles_table,
    seats_table,
    stand_ins_table,
    tables_table,
)
from pedro.server.storage.tables_db import Store, TableRow, store_error
from pedro.server.tables.game import GameEnd, table_game
from pedro.variants.model import Ruleset
from pedro.variants.options import make_ruleset

#: PostgreSQL advisory lock key that rating transactions take in turn (any constant of pedro's).
_RATING_LOCK = 0x7065_6472_6F52  # "pedroR"
#: At start, finished games up to this old that were never rated are rated then (their server stopped
#: between the game's end and its rating).
CATCH_UP_AGE = timedelta(days=7)


@dataclass(frozen=True)
class RatingChange:
    seat: int
    profile: str
    name: str
    kind: str
    before: float
    after: float


@dataclass(frozen=True)
class GameRating:
    """A finished game's rating: whether it was rated, why not, and each profile's change."""

    table_id: str
    rated: bool
    reason: str | None
    reason_seat: int | None
    changes: tuple[RatingChange, ...] = ()

    def json(self) -> dict[str, Any]:
        return {
            "table": self.table_id,
            "rated": self.rated,
            "reason": self.reason,
            "reason_seat": self.reason_seat,
            "changes": [
                {
                    "seat": c.seat,
                    "profile": c.profile,
                    "name": c.name,
                    "kind": c.kind,
                    "before": c.before,
                    "after": c.after,
                }
                for c in self.changes
            ],
        }


def _computer_id(name: str) -> str:
    return f"cpu:{name}"[:40]


def game_end_of(row: TableRow) -> GameEnd:
    """A stored finished game's end, its game played again (in a worker process: it takes a while).

    ValueError (a plain one, which comes back from a worker process whole) if the stored actions
    no longer play or the game is not over."""
    state = table_game(row.variant, row.options, row.seed, row.hands)
    try:
        for text_ in row.actions:
            state.apply(parse_turn_text(text_, state.rules.max_bid, state.current_player)[1])
    except ValueError as exc:
        raise ValueError(f"table {row.id}: stored action {exc}") from None
    if not state.is_over:
        raise ValueError(f"table {row.id}: its game is not over")
    return GameEnd(
        table_id=row.id,
        variant=row.variant,
        options=dict(row.options),
        practice=row.practice,
        hands=row.hands,
        scores=tuple(state.scores),
        winner=state.winner,
        results=tuple(state.results),
        actions=tuple(row.actions),
    )


def _seat_of(action_text: str) -> int:
    """The seat that made a stored action ("<seat> <words>")."""
    return int(action_text.split(" ", 1)[0])


@dataclass(frozen=True)
class SeatFigures:
    """One seat's bids and points over a game's hands (its side's score changes)."""

    hands: int
    points: int
    bids_won: int
    bids_made: int
    bids_set: int


def seat_figures(results: Sequence[HandResult], seat: int, side: int) -> SeatFigures:
    """What a profile page sums: the hands, the side's points, and the seat's bids won, made and set."""
    won = [r for r in results if r.bidder == seat]
    return SeatFigures(
        hands=len(results),
        points=sum(r.change[side] for r in results if side < len(r.change)),
        bids_won=len(won),
        bids_made=sum(1 for r in won if r.made is True),
        bids_set=sum(1 for r in won if r.made is False),
    )


class RatedGames:
    """The finished games' ratings and links to their profiles, on the server's database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        self.is_sqlite = store.is_sqlite

    def _insert_ignore(self, table: Any) -> Any:
        """An INSERT that does nothing where a row with the same key exists."""
        return (sqlite_insert(table) if self.is_sqlite else pg_insert(table)).on_conflict_do_nothing()

    def finish_game(self, end: GameEnd, now: datetime | None = None) -> GameRating | None:
        """Link a finished game to its profiles and apply its rating: once. None if it was done
        before (by this or another server process)."""
        try:
            with self.engine.begin() as c:
                return self._finish(c, end, now or datetime.now(UTC))
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

    def _finish(self, c: Connection, end: GameEnd, now: datetime) -> GameRating | None:
        if not self.is_sqlite:
            c.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _RATING_LOCK})
        guard = self._insert_ignore(rated_games_table).values(
            table_id=end.table_id, rated=False, finished_at=now
        )
        if c.execute(guard.returning(rated_games_table.c.table_id)).first() is None:
            return None  # rated already (psycopg gives no rowcount for ON CONFLICT DO NOTHING)
        rules = make_ruleset(end.variant, end.options)
        seats, linked, stood_in = self._table_facts(c, end.table_id)
        reason, reason_seat = self._unrated_reason(end, seats, linked, stood_in)
        if reason == "no_profiles":  # nobody to link it to
            c.execute(
                update(rated_games_table)
                .where(rated_games_table.c.table_id == end.table_id)
                .values(reason=reason)
            )
            return GameRating(end.table_id, False, reason, None)
        players = [self._player_at(c, seat, seats, linked, now) for seat in range(rules.players)]
        profile_ids = [p for p in players if not p.startswith("guest:")]
        before = {
            r.profile_id: Rating(r.mu, r.sigma, r.games)
            for r in c.execute(
                select(ratings_table).where(
                    ratings_table.c.profile_id.in_(profile_ids), ratings_table.c.variant == end.variant
                )
            )
        }
        rated = reason is None
        after = rate_game(rules, players, before, end.scores, end.winner) if rated else {}
        changes = self._link_seats(c, end, rules, players, before, after, now)
        self._store_ratings(c, end.variant, before, after)
        c.execute(
            update(rated_games_table)
            .where(rated_games_table.c.table_id == end.table_id)
            .values(rated=rated, reason=reason, reason_seat=reason_seat)
        )
        return GameRating(end.table_id, rated, reason, reason_seat, tuple(changes))

    @staticmethod
    def _table_facts(c: Connection, table_id: str) -> tuple[dict[int, Any], dict[int, str], set[int]]:
        """The table's seats, the profiles linked to seats, and the actions computers stood in for
        (those a turn clock's running out handed to the stand-in among them: they count alike)."""
        seats = {r.seat: r for r in c.execute(select(seats_table).where(seats_table.c.table_id == table_id))}
        linked = {
            r.seat: r.profile_id
            for r in c.execute(select(seat_profiles_table).where(seat_profiles_table.c.table_id == table_id))
        }
        stood_in = {
            r.seq
            for r in c.execute(select(stand_ins_table.c.seq).where(stand_ins_table.c.table_id == table_id))
        }
        return seats, linked, stood_in

    def _player_at(
        self, c: Connection, seat: int, seats: Mapping[int, Any], linked: Mapping[int, str], now: datetime
    ) -> str:
        """Who is rated for a seat: its profile, its computer level's profile, or a guest (not kept)."""
        row = seats.get(seat)
        if seat in linked:
            return linked[seat]
        if row is not None and row.kind == "computer" and (row.player or "basic") in RATED_COMPUTERS:
            return self._computer_profile(c, row.player or "basic", now)
        return f"guest:{seat}"  # a person without a profile (a newcomer), or an unrated computer: not kept

    @staticmethod
    def _link_seats(
        c: Connection,
        end: GameEnd,
        rules: Ruleset,
        players: list[str],
        before: Mapping[str, Rating],
        after: Mapping[str, Rating],
        now: datetime,
    ) -> list[RatingChange]:
        """Write each profile's line of the game (its figures, and its rating change if rated)."""
        profile_ids = [p for p in players if not p.startswith("guest:")]
        names = {
            r.id: (r.name, r.kind)
            for r in c.execute(
                select(profiles_table.c.id, profiles_table.c.name, profiles_table.c.kind).where(
                    profiles_table.c.id.in_(profile_ids)
                )
            )
        }
        places = side_ranks(end.scores, end.winner)
        changes: list[RatingChange] = []
        for seat, player in enumerate(players):
            if player.startswith("guest:"):
                continue
            side = rules.side_of(seat)
            figures = seat_figures(end.results, seat, side)
            new = after.get(player)
            old = before.get(player, Rating())
            c.execute(
                insert(profile_games_table).values(
                    table_id=end.table_id,
                    seat=seat,
                    profile_id=player,
                    variant=end.variant,
                    finished_at=now,
                    place=places[side],
                    sides=rules.num_sides,
                    hands=figures.hands,
                    points=figures.points,
                    bids_won=figures.bids_won,
                    bids_made=figures.bids_made,
                    bids_set=figures.bids_set,
                    rated=new is not None,
                    mu=new.mu if new is not None else None,
                    sigma=new.sigma if new is not None else None,
                    shown_before=old.shown if new is not None else None,
                    shown_after=new.shown if new is not None else None,
                )
            )
            if new is not None and all(ch.profile != player for ch in changes):  # two seats: one change
                name, kind = names.get(player, (player, "human"))
                changes.append(RatingChange(seat, player, name, kind, old.shown, new.shown))
        return changes

    @staticmethod
    def _store_ratings(
        c: Connection, variant: str, before: Mapping[str, Rating], after: Mapping[str, Rating]
    ) -> None:
        """Write the new ratings: an update where the profile had one in the variant, else an insert."""
        for player, new in after.items():
            if player.startswith("guest:"):
                continue
            values = {"mu": new.mu, "sigma": new.sigma, "games": new.games}
            if player in before:
                c.execute(
                    update(ratings_table)
                    .where(ratings_table.c.profile_id == player, ratings_table.c.variant == variant)
                    .values(**values)
                )
            else:
                c.execute(insert(ratings_table).values(profile_id=player, variant=variant, **values))

    @staticmethod
    def _unrated_reason(
        end: GameEnd, seats: Mapping[int, Any], linked: Mapping[int, str], stood_in: set[int]
    ) -> tuple[str | None, int | None]:
        """Why a game is not rated (the reason's code, and the seat it is about), or (None, None):
        ``pedro.ratings.unrated_reason``, which the table showed before the start, then whether a
        stand-in played most of a person's decisions."""
        takers = [
            SeatTaker(seats[s].kind, seats[s].player, linked.get(s)) if s in seats else SeatTaker("human")
            for s in range(max(seats, default=-1) + 1)
        ]
        reason = unrated_reason(end.variant, end.options, end.practice, end.hands, takers)
        if reason[0] is not None:
            return reason
        decisions: dict[int, int] = {}
        by_stand_in: dict[int, int] = {}
        for seq, action in enumerate(end.actions):
            seat = _seat_of(action)
            decisions[seat] = decisions.get(seat, 0) + 1
            if seq in stood_in:
                by_stand_in[seat] = by_stand_in.get(seat, 0) + 1
        for seat in sorted(seats):
            if seats[seat].kind == "human" and stood_in_for_most(
                decisions.get(seat, 0), by_stand_in.get(seat, 0)
            ):
                return "stand_in", seat
        return None, None

    def _computer_profile(self, c: Connection, player: str, now: datetime) -> str:
        """The profile of a computer seat's level (or player), made the first time it is needed."""
        name = level_of(player)  # the profile of a computer seat: its level, else the player as given
        profile_id = _computer_id(name)
        c.execute(
            self._insert_ignore(profiles_table).values(
                id=profile_id, name=name[:40], name_key=name_key(name), kind="computer", created_at=now
            )
        )
        return profile_id

    def unrated(self, since: datetime, limit: int = 100) -> list[str]:
        """Finished tables created since ``since`` whose game was never rated, oldest first."""
        t = tables_table.c
        rated = select(rated_games_table.c.table_id).where(rated_games_table.c.table_id == t.id).exists()
        try:
            with self.engine.connect() as c:
                rows = c.execute(
                    select(t.id)
                    .where(t.finished.is_(True), t.created_at >= since, ~rated)
                    .order_by(t.created_at)
                    .limit(limit)
                )
                return [r.id for r in rows]
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

    def game_rating(self, table_id: str) -> GameRating | bool:
        """A finished game's rating as it was applied; else whether the table exists (its game goes
        on, or has just ended and is being rated)."""
        g = profile_games_table.c
        try:
            with self.engine.connect() as c:
                row = c.execute(
                    select(rated_games_table).where(rated_games_table.c.table_id == table_id)
                ).first()
                if row is None:
                    found = c.execute(select(tables_table.c.id).where(tables_table.c.id == table_id))
                    return found.first() is not None
                rows = c.execute(
                    select(
                        g.seat,
                        g.profile_id,
                        profiles_table.c.name,
                        profiles_table.c.kind,
                        g.shown_before,
                        g.shown_after,
                    )
                    .join(profiles_table, profiles_table.c.id == g.profile_id)
                    .where(g.table_id == table_id, g.rated.is_(True))
                    .order_by(g.seat)
                ).all()
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        changes: dict[str, RatingChange] = {}
        for r in rows:  # one change per profile: two seats of one computer level moved it once
            changes.setdefault(
                r.profile_id,
                RatingChange(r.seat, r.profile_id, r.name, r.kind, r.shown_before, r.shown_after),
            )
        return GameRating(table_id, row.rated, row.reason, row.reason_seat, tuple(changes.values()))
