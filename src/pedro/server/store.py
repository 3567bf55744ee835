"""Where tables live between restarts: SQLAlchemy over SQLite (default) or PostgreSQL.

A table is stored as what makes it reproducible: its rules, its seed and the
accepted actions in order. The game state is rebuilt by replaying them, so
there is one source of truth and nothing to keep in step. Each action is its
own committed row, written before anyone hears of it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

log = logging.getLogger("pedro.server")

metadata = MetaData()

tables_table = Table(
    "pedro_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("title", String(100), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON object of option values
    Column("seed", String(64), nullable=False),
    Column("listed", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished", Boolean, nullable=False, default=False, index=True),
)

seats_table = Table(
    "pedro_seats",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # "human" or "computer"
    Column("player", String(40)),  # the computer player's name
    Column("name", String(40)),
    Column("secret_hash", String(64)),  # sha256 of the seat's secret; NULL while free
)

actions_table = Table(
    "pedro_actions",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("text", String(400), nullable=False),  # record text: "<seat> <words>"
    Column("created_at", DateTime(timezone=True), nullable=False),
)


#: Built once: the statement run for every accepted action.
_INSERT_ACTION = insert(actions_table)


class StoreError(RuntimeError):
    """The database refused or could not be reached."""


class ConflictError(StoreError):
    """The write lost a race: the seat was taken, or the action's place was already filled."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    player: str | None = None
    name: str | None = None
    secret_hash: str | None = None


@dataclass
class TableRow:
    id: str
    title: str
    variant: str
    options: dict[str, Any]
    seed: str
    listed: bool
    created_at: datetime
    seats: list[SeatRow]
    finished: bool = False
    #: accepted actions in order, all hands together, as record text
    actions: list[str] = field(default_factory=list)


def hash_secret(secret: str) -> str:
    """Secrets are stored hashed, so a copy of the database cannot act for anyone."""
    return hashlib.sha256(secret.encode()).hexdigest()


def engine_url(url: str) -> str:
    """``postgresql://`` means psycopg 3, the driver this package installs."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'pedro.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL survives a killed process (not a power cut) and keeps
    # commits cheap; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Store:
    """The server's only door to the database; every method is one short transaction."""

    def __init__(self, url: str) -> None:
        self.url = engine_url(url)
        parsed = make_url(self.url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._appender: Connection | None = None

    def describe(self) -> str:
        """The database for logs, without a password."""
        return make_url(self.url).render_as_string(hide_password=True)

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration."""
        config = Config()
        config.set_main_option("script_location", str(files("pedro.server") / "migrations"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        try:
            with self.engine.begin() as connection:
                yield connection
        except IntegrityError as exc:
            raise ConflictError(str(exc.orig)) from exc
        except SQLAlchemyError as exc:
            raise StoreError(str(getattr(exc, "orig", None) or exc)) from exc

    # ------------------------------------------------------------------ writes

    def create_table(self, row: TableRow) -> None:
        with self._begin() as c:
            c.execute(
                insert(tables_table).values(
                    id=row.id,
                    title=row.title,
                    variant=row.variant,
                    options=json.dumps(row.options),
                    seed=row.seed,
                    listed=row.listed,
                    created_at=row.created_at,
                    finished=row.finished,
                )
            )
            c.execute(
                insert(seats_table),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "player": s.player,
                        "name": s.name,
                        "secret_hash": s.secret_hash,
                    }
                    for s in row.seats
                ],
            )

    def claim_seat(self, table_id: str, seat: int, name: str, secret_hash: str) -> None:
        """Take a free human seat; ConflictError if someone has it (checked in the same statement)."""
        with self._begin() as c:
            result = c.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.kind == "human",
                    seats_table.c.secret_hash.is_(None),
                )
                .values(name=name, secret_hash=secret_hash)
            )
            if result.rowcount != 1:
                raise ConflictError(f"seat {seat} is not free")

    def append_action(self, table_id: str, seq: int, text: str) -> None:
        """Commit action number ``seq`` (0-based); ConflictError if that place is taken."""
        row = {"table_id": table_id, "seq": seq, "text": text, "created_at": datetime.now(UTC)}
        # the hottest write: one connection kept for it saves a pool round trip per action
        if self._appender is None or self._appender.closed:
            self._appender = self.engine.connect()
        connection = self._appender
        try:
            connection.execute(_INSERT_ACTION, row)
            connection.commit()
        except SQLAlchemyError as exc:
            with suppress(SQLAlchemyError):
                connection.rollback()
            if not isinstance(exc, IntegrityError):
                self._appender = None  # reconnect next time (the server may have gone away)
                with suppress(SQLAlchemyError):
                    connection.close()
                raise StoreError(str(getattr(exc, "orig", None) or exc)) from exc
            raise ConflictError(str(exc.orig)) from exc

    def set_finished(self, table_id: str) -> None:
        with self._begin() as c:
            c.execute(update(tables_table).where(tables_table.c.id == table_id).values(finished=True))

    # ------------------------------------------------------------------ reads

    def load_table(self, table_id: str) -> TableRow | None:
        rows = self._load(tables_table.c.id == table_id)
        return rows[0] if rows else None

    def load_tables(self, *, unfinished_only: bool = False) -> list[TableRow]:
        return self._load(tables_table.c.finished.is_(False) if unfinished_only else None)

    def _load(self, where: Any) -> list[TableRow]:
        try:
            return self._read(where)
        except SQLAlchemyError as exc:
            raise StoreError(str(getattr(exc, "orig", None) or exc)) from exc

    def _read(self, where: Any) -> list[TableRow]:
        with self.engine.connect() as c:
            query = select(tables_table).order_by(tables_table.c.created_at)
            if where is not None:
                query = query.where(where)
            tables = {
                r.id: TableRow(
                    id=r.id,
                    title=r.title,
                    variant=r.variant,
                    options=json.loads(r.options),
                    seed=r.seed,
                    listed=r.listed,
                    created_at=_aware(r.created_at),
                    seats=[],
                    finished=r.finished,
                )
                for r in c.execute(query)
            }
            if not tables:
                return []
            ids = list(tables)
            for s in c.execute(
                select(seats_table).where(seats_table.c.table_id.in_(ids)).order_by(seats_table.c.seat)
            ):
                tables[s.table_id].seats.append(SeatRow(s.seat, s.kind, s.player, s.name, s.secret_hash))
            for a in c.execute(
                select(actions_table.c.table_id, actions_table.c.seq, actions_table.c.text)
                .where(actions_table.c.table_id.in_(ids))
                .order_by(actions_table.c.table_id, actions_table.c.seq)
            ):
                row = tables[a.table_id]
                if a.seq != len(row.actions):
                    raise StoreError(f"table {a.table_id}: action {len(row.actions)} is missing")
                row.actions.append(a.text)
        return list(tables.values())

    def ping(self) -> None:
        """A trivial query for the readiness check: the database answers and holds pedro's tables."""
        try:
            with self.engine.connect() as c:
                c.execute(select(tables_table.c.id).limit(1)).all()
        except SQLAlchemyError as exc:
            raise StoreError(str(getattr(exc, "orig", None) or exc)) from exc

    def close(self) -> None:
        if self._appender is not None:
            self._appender.close()
            self._appender = None
        self.engine.dispose()
