"""Reviewed hands in the database: each seat's review, hand by hand, kept once it is made.

A table's review is made hand by hand in the review workers (``reviews.compute``), and each hand's
review is kept here (gzip-compressed JSON, ``pedro_reviews``) as it comes, once per game, seat,
review player and hand. These are blocking calls on ``Store``'s engine; the server runs them in a
thread.
"""

from __future__ import annotations

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pedro.server.storage.schema import reviews_table
from pedro.server.storage.tables_db import Store, store_error


class SavedReviews:
    """The reviewed hands of the tables' seats, on the server's database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def load(self, table_id: str, seat: int, player: str) -> dict[int, bytes]:
        """The stored reviews of a seat's hands (hand -> body), as ``player`` made them."""
        t = reviews_table.c
        try:
            with self.engine.connect() as c:
                rows = c.execute(
                    select(t.hand, t.body).where(t.table_id == table_id, t.seat == seat, t.player == player)
                )
                return {r.hand: bytes(r.body) for r in rows}
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

    def save(self, table_id: str, seat: int, player: str, hand: int, body: bytes) -> None:
        """Keep a hand's review; one made meanwhile by another process is kept instead (same values)."""
        row = {"table_id": table_id, "seat": seat, "player": player, "hand": hand, "body": body}
        try:
            with self.engine.begin() as c:
                c.execute(insert(reviews_table).values(**row))
        except IntegrityError:
            pass
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
