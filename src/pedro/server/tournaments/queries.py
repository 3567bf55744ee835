"""Where duplicate tournaments live between restarts: their seats and each deal's table.

A tournament is stored as what decides it: its rules, its deal seed, who sits
where, and for each table and deal the id of the table that plays it, with
the deal's score change per side once it is played. The deals themselves are
ordinary tables (``tables_db.TableRow`` with ``hands`` = 1), so they are played,
stored, restored and replayed like every other game.

These are blocking calls on ``Store``'s engine; the server runs them in a thread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update

from pedro.server.storage.schema import tournament_deals_table, tournament_seats_table, tournaments_table
from pedro.server.storage.tables_db import ConflictError, NewTable, Store, TableRow, aware, run_writes


@dataclass
class TournamentSeat:
    """A seat of a tournament table, as it is at the first deal."""

    table_no: int
    seat: int
    kind: str
    player: str | None = None
    name: str | None = None
    secret_hash: str | None = None

    @property
    def claimed(self) -> bool:
        return self.kind == "computer" or self.secret_hash is not None


@dataclass
class DealTable:
    """The table that plays deal ``deal`` at tournament table ``table_no``."""

    table_no: int
    deal: int
    table_id: str
    #: the score change per side once played; None while the deal is played
    change: tuple[int, ...] | None = None


@dataclass
class TournamentRow:
    id: str
    title: str
    variant: str
    options: dict[str, Any]
    seed: int
    deals: int
    tables: int
    director_hash: str
    created_at: datetime
    seats: list[TournamentSeat]
    played: list[DealTable] = field(default_factory=list)

    def seat(self, table_no: int, seat: int) -> TournamentSeat | None:
        for s in self.seats:
            if s.table_no == table_no and s.seat == seat:
                return s
        return None

    def table_seats(self, table_no: int) -> list[TournamentSeat]:
        return sorted((s for s in self.seats if s.table_no == table_no), key=lambda s: s.seat)

    def deal_table(self, table_no: int, deal: int) -> DealTable | None:
        for d in self.played:
            if d.table_no == table_no and d.deal == deal:
                return d
        return None

    @property
    def finished(self) -> bool:
        return sum(1 for d in self.played if d.change is not None) == self.tables * self.deals


class TournamentStore:
    """The tournaments' rows in the server's database (the tables of ``storage.schema``, migration 0005)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, row: TournamentRow) -> None:
        with self.store.transaction() as c:
            c.execute(
                insert(tournaments_table).values(
                    id=row.id,
                    title=row.title,
                    variant=row.variant,
                    options=json.dumps(row.options),
                    seed=row.seed,
                    deals=row.deals,
                    tables=row.tables,
                    director_hash=row.director_hash,
                    created_at=row.created_at,
                )
            )
            c.execute(
                insert(tournament_seats_table),
                [
                    {
                        "tournament_id": row.id,
                        "table_no": s.table_no,
                        "seat": s.seat,
                        "kind": s.kind,
                        "player": s.player,
                        "name": s.name,
                        "secret_hash": s.secret_hash,
                    }
                    for s in row.seats
                ],
            )

    def claim(self, tournament_id: str, table_no: int, seat: int, name: str, secret_hash: str) -> None:
        """ConflictError if the seat is not a free human seat (taken meanwhile, perhaps elsewhere)."""
        t = tournament_seats_table.c
        with self.store.transaction() as c:
            result = c.execute(
                update(tournament_seats_table)
                .where(
                    t.tournament_id == tournament_id,
                    t.table_no == table_no,
                    t.seat == seat,
                    t.kind == "human",
                    t.secret_hash.is_(None),
                )
                .values(name=name, secret_hash=secret_hash)
            )
            if result.rowcount != 1:
                raise ConflictError(f"seat {seat} of table {table_no + 1} is not free")

    def add_deal(self, tournament_id: str, table_no: int, deal: int, table: TableRow) -> None:
        """The table of a deal, created and linked in one transaction; ConflictError if the deal
        already has its table (another request, or another server process, made it first)."""
        with self.store.transaction() as c:
            run_writes([NewTable(table)], c, self.store.announce_as)
            c.execute(
                insert(tournament_deals_table).values(
                    tournament_id=tournament_id, table_no=table_no, deal=deal, table_id=table.id
                )
            )

    def record(self, tournament_id: str, table_no: int, deal: int, change: tuple[int, ...]) -> None:
        """A deal's result at one table (the same result may be recorded twice: it never changes)."""
        d = tournament_deals_table.c
        with self.store.transaction() as c:
            c.execute(
                update(tournament_deals_table)
                .where(d.tournament_id == tournament_id, d.table_no == table_no, d.deal == deal)
                .values(change=json.dumps(list(change)))
            )

    def load(self, tournament_id: str) -> TournamentRow | None:
        if len(tournament_id) > 40:
            return None
        with self.store.engine.connect() as c:
            r = c.execute(select(tournaments_table).where(tournaments_table.c.id == tournament_id)).first()
            if r is None:
                return None
            s, d = tournament_seats_table.c, tournament_deals_table.c
            seats = [
                TournamentSeat(x.table_no, x.seat, x.kind, x.player, x.name, x.secret_hash)
                for x in c.execute(
                    select(tournament_seats_table)
                    .where(s.tournament_id == tournament_id)
                    .order_by(s.table_no, s.seat)
                )
            ]
            played = [
                DealTable(
                    x.table_no, x.deal, x.table_id, None if x.change is None else tuple(json.loads(x.change))
                )
                for x in c.execute(
                    select(tournament_deals_table)
                    .where(d.tournament_id == tournament_id)
                    .order_by(d.table_no, d.deal)
                )
            ]
        return TournamentRow(
            id=r.id,
            title=r.title,
            variant=r.variant,
            options=json.loads(r.options),
            seed=r.seed,
            deals=r.deals,
            tables=r.tables,
            director_hash=r.director_hash,
            created_at=aware(r.created_at),
            seats=seats,
            played=played,
        )

    def unfinished(self) -> list[str]:
        """The tournaments some of whose deals are still to be played, oldest first."""
        t, d = tournaments_table.c, tournament_deals_table.c
        done = (
            select(d.tournament_id, func.count().label("n"))
            .where(d.change.is_not(None))
            .group_by(d.tournament_id)
            .subquery()
        )
        query = (
            select(t.id)
            .outerjoin(done, done.c.tournament_id == t.id)
            .where(func.coalesce(done.c.n, 0) < t.tables * t.deals)
            .order_by(t.created_at)
        )
        with self.store.engine.connect() as c:
            return [r.id for r in c.execute(query)]

    def tournament_of(self, table_id: str) -> tuple[str, int, int] | None:
        """(tournament, table number, deal) of a deal's table, or None for another table."""
        d = tournament_deals_table.c
        with self.store.engine.connect() as c:
            r = c.execute(select(d.tournament_id, d.table_no, d.deal).where(d.table_id == table_id)).first()
        return None if r is None else (r.tournament_id, r.table_no, r.deal)
