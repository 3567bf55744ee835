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
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Engine,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.sql.elements import ColumnElement

from pedro.server.storage.schema import (
    actions_table,
    barred_viewers_table,
    chat_table,
    seat_profiles_table,
    seats_table,
    stand_ins_table,
    tables_table,
)

#: Built once: the statement run for every accepted action (SQLite: one call, rows in C).
_INSERT_ACTION = insert(actions_table)
log = logging.getLogger("pedro.server")

#: PostgreSQL: a run of actions as three arrays in one statement (psycopg's executemany costs a
#: round of Python per row, and this runs for every action the server takes).
_INSERT_ACTIONS_PG = text(
    "INSERT INTO pedro_actions (table_id, seq, text, created_at) SELECT t, s, x, :at FROM "
    "unnest(CAST(:tables AS varchar[]), CAST(:seqs AS integer[]), CAST(:texts AS varchar[])) AS u(t, s, x)"
)
#: PostgreSQL channel on which every server process hears of the others' commits (``News``).
CHANNEL = "pedro_tables"
#: All of a transaction's news in one statement (one round trip), delivered in the array's order.
_NOTIFY_ALL = text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p")
#: A table's creator drives it from the start: its lease is taken in the creating transaction
#: (unless the process has been forgotten meanwhile; the heartbeat takes it then).
_LEASE_NEW = text(
    "INSERT INTO pedro_leases (table_id, holder) "
    "SELECT :table, id FROM pedro_processes WHERE id = :me ON CONFLICT (table_id) DO NOTHING"
)


class StoreError(RuntimeError):
    """The database refused or could not be reached."""


class ConflictError(StoreError):
    """The write lost a race: the seat was taken, or the action's place was already filled."""


def store_error(exc: SQLAlchemyError) -> StoreError:
    """The database's refusal as the server's error, in the driver's own words (not SQLAlchemy's)."""
    return StoreError(str(getattr(exc, "orig", None) or exc))


@dataclass
class SeatRow:
    seat: int
    kind: str
    player: str | None = None
    name: str | None = None
    secret_hash: str | None = None
    #: the profile that took the seat, written with it (a table shows whether its game will be rated)
    profile: str | None = None
    #: the host gave the seat to the computer for the rest of the game (``tables.host``)
    handed: bool = False
    #: held for its player of the previous game, who has not come yet (``tables.again``)
    pending: bool = False


#: A seat claim's news without a profile (no profile id has it: they are URL-safe tokens).
NO_PROFILE = "~"


def _seats_query(where: Any) -> Any:
    """The seats ``where`` selects, each with the profile that took it (if any), in seat order."""
    linked = seat_profiles_table.c
    joined = seats_table.outerjoin(
        seat_profiles_table,
        and_(linked.table_id == seats_table.c.table_id, linked.seat == seats_table.c.seat),
    )
    return (
        select(seats_table, linked.profile_id)
        .select_from(joined)
        .where(where)
        .order_by(seats_table.c.table_id, seats_table.c.seat)
    )


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(s.seat, s.kind, s.player, s.name, s.secret_hash, s.profile_id, s.handed, s.pending)


#: Chat lines a table keeps at hand per channel (and reads back at a start): the recent ones.
CHAT_HISTORY = 100


@dataclass(frozen=True)
class ChatRow:
    """A line of a table's chat, as stored (``pedro.server.tables.chat`` says who may read it)."""

    seq: int
    channel: str
    #: the speaking seat; None for a spectator, who speaks under ``name``
    seat: int | None
    name: str | None
    #: free text, or a quick phrase's code: one of the two
    text: str | None
    phrase: str | None
    at: datetime

    def news(self) -> str:
        """The line as other server processes are told it (JSON: far below NOTIFY's 8000 bytes)."""
        return json.dumps(
            [self.seq, self.channel, self.seat, self.name, self.text, self.phrase, self.at.isoformat()],
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_news(cls, text: str) -> ChatRow:
        seq, channel, seat, name, said, phrase, at = json.loads(text)
        return cls(seq, channel, seat, name, said, phrase, datetime.fromisoformat(at))


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
    #: a practice table: its players may ask for hints, and it is unrated
    practice: bool = False
    #: the game ends after this many hands (a duplicate tournament's deal); None: at the target score
    hands: int | None = None
    #: the hash of the host secret its creator was given; None: the table has no host
    host_hash: str | None = None
    #: the host closed the table before its game ended
    closed: bool = False
    #: the viewer ids of the spectators the host removed
    barred: set[str] = field(default_factory=set)
    #: the table of the next game, once a player asked to play again
    next_table: str | None = None
    #: the table's chat is on
    chat: bool = True
    #: its recent chat, at most ``CHAT_HISTORY`` lines per channel, in order
    chat_lines: list[ChatRow] = field(default_factory=list)
    #: seconds each decision of a human seat may take (``tables.clocks``); None: no clock
    clock: float | None = None
    #: the actions (their numbers) a stand-in made, and those of them a turn clock's running out made
    stand_ins: set[int] = field(default_factory=set)
    timed_out: set[int] = field(default_factory=set)
    #: when the last action was committed (None: no action yet): a turn clock counts from it (not
    #: part of what the table is: two reads of it are equal)
    last_action_at: datetime | None = field(default=None, compare=False)


@dataclass(frozen=True)
class News:
    """What other server processes may have committed of a table since this one last looked."""

    #: the actions from the number asked for on
    actions: list[str]
    #: every seat as stored now
    seats: list[SeatRow]
    closed: bool
    barred: set[str]
    next_table: str | None


@dataclass(frozen=True)
class NewTable:
    row: TableRow

    def describe(self) -> str:
        return f"table {self.row.id}"


@dataclass(frozen=True)
class SeatClaim:
    table_id: str
    seat: int
    name: str
    secret_hash: str
    profile: str | None = None

    def describe(self) -> str:
        return f"table {self.table_id}: seat {self.seat}"


@dataclass(frozen=True)
class NewAction:
    table_id: str
    seq: int
    text: str
    #: made by a stand-in for an away player (noted: such a game may not be rated)
    stand_in: bool = False
    #: made by the stand-in because the seat's turn clock ran out (a stand-in's action too)
    timed_out: bool = False

    def describe(self) -> str:
        return f"table {self.table_id}: action {self.seq}"


@dataclass(frozen=True)
class Finished:
    table_id: str

    def describe(self) -> str:
        return f"table {self.table_id}: finished"


@dataclass(frozen=True)
class SeatChange:
    """The host made a seat a person's (free) or a computer player's, before the start."""

    table_id: str
    seat: int
    kind: str
    player: str | None
    #: the seat's secret hash the host's change was made against: a claim meanwhile wins
    was: str | None

    def describe(self) -> str:
        return f"table {self.table_id}: seat {self.seat} made {self.kind}"


@dataclass(frozen=True)
class SeatHanded:
    """The host gave an away seat to the computer for the rest of the game, or gave it back."""

    table_id: str
    seat: int
    handed: bool

    def describe(self) -> str:
        return f"table {self.table_id}: seat {self.seat} {'handed over' if self.handed else 'given back'}"


@dataclass(frozen=True)
class Closed:
    """The host closed the table (its game unfinished): stored as finished too, so it is not
    restored, listed or counted against its creator as open."""

    table_id: str

    def describe(self) -> str:
        return f"table {self.table_id}: closed"


@dataclass(frozen=True)
class NextTable:
    """The next game's table, linked from the finished one's: once only (ConflictError if another
    request or server process set one up first)."""

    row: TableRow
    previous: str

    def describe(self) -> str:
        return f"table {self.previous}: next game {self.row.id}"


@dataclass(frozen=True)
class SeatAnswered:
    """A seat held for its player of the previous game: taken up (``accepted``) or given up."""

    table_id: str
    seat: int
    accepted: bool

    def describe(self) -> str:
        return f"table {self.table_id}: seat {self.seat} {'taken up' if self.accepted else 'given up'}"


@dataclass(frozen=True)
class ViewerBarred:
    table_id: str
    viewer: str

    def describe(self) -> str:
        return f"table {self.table_id}: a spectator removed"


@dataclass(frozen=True)
class NewChatLine:
    table_id: str
    line: ChatRow

    def describe(self) -> str:
        return f"table {self.table_id}: chat {self.line.seq}"


@dataclass(frozen=True)
class ChatSwitch:
    """A table's chat turned on or off."""

    table_id: str
    on: bool

    def describe(self) -> str:
        return f"table {self.table_id}: chat {'on' if self.on else 'off'}"


@dataclass(frozen=True)
class ClockBack:
    """A player its turn clock counted as away is back (``tables.clocks``): nothing is stored, the
    other server processes are told with the transaction's news."""

    table_id: str
    seat: int

    def describe(self) -> str:
        return f"table {self.table_id}: seat {self.seat} back"


#: One change to the database; ``Store.write_many`` commits several in one transaction.
Write = (
    NewTable
    | SeatClaim
    | NewAction
    | Finished
    | SeatChange
    | SeatHanded
    | Closed
    | ViewerBarred
    | NextTable
    | SeatAnswered
    | NewChatLine
    | ChatSwitch
    | ClockBack
)


def run_writes(writes: Sequence[Write], c: Connection, announce_as: str | None) -> None:
    """Execute ``writes`` in order on ``c`` (in its transaction); the actions in runs, one statement each.

    ``announce_as``: the process id under which the writes are announced to
    the other server processes (PostgreSQL), or None; a table created with
    it set is leased to that process in the same transaction.
    """
    now = datetime.now(UTC)
    actions: list[NewAction] = []
    for write in writes:
        if isinstance(write, NewAction):
            actions.append(write)
            continue
        if actions:
            _insert_actions(c, actions, now)
            actions = []
        if isinstance(write, NewTable | NextTable):
            _insert_table(c, write.row)
            if announce_as is not None:
                c.execute(_LEASE_NEW, {"table": write.row.id, "me": announce_as})
            if isinstance(write, NextTable):
                _link_next(c, write)
        elif isinstance(write, SeatClaim):
            _claim(c, write)
        elif isinstance(write, SeatChange):
            _change_seat(c, write)
        elif isinstance(write, SeatHanded):
            c.execute(
                update(seats_table)
                .where(seats_table.c.table_id == write.table_id, seats_table.c.seat == write.seat)
                .values(handed=write.handed)
            )
        elif isinstance(write, Closed):
            c.execute(
                update(tables_table)
                .where(tables_table.c.id == write.table_id)
                .values(closed=True, finished=True)
            )
        elif isinstance(write, SeatAnswered):
            _answer_seat(c, write)
        elif isinstance(write, ViewerBarred):
            c.execute(insert(barred_viewers_table).values(table_id=write.table_id, viewer=write.viewer))
        elif isinstance(write, NewChatLine):
            _insert_chat(c, write)
        elif isinstance(write, ChatSwitch):
            c.execute(update(tables_table).where(tables_table.c.id == write.table_id).values(chat=write.on))
        elif isinstance(write, ClockBack):
            pass  # news only
        else:
            c.execute(update(tables_table).where(tables_table.c.id == write.table_id).values(finished=True))
    if actions:
        _insert_actions(c, actions, now)
    if announce_as is not None:
        payloads = [p for p in (news_payload(announce_as, w) for w in writes) if p is not None]
        if payloads:
            c.execute(_NOTIFY_ALL, {"channel": CHANNEL, "payloads": payloads})


def _insert_actions(c: Connection, actions: Sequence[NewAction], now: datetime) -> None:
    if c.dialect.name == "postgresql":
        c.execute(
            _INSERT_ACTIONS_PG,
            {
                "at": now,
                "tables": [a.table_id for a in actions],
                "seqs": [a.seq for a in actions],
                "texts": [a.text for a in actions],
            },
        )
    else:
        c.execute(
            _INSERT_ACTION,
            [{"table_id": a.table_id, "seq": a.seq, "text": a.text, "created_at": now} for a in actions],
        )
    stood_in = [
        {"table_id": a.table_id, "seq": a.seq, "timed_out": a.timed_out}
        for a in actions
        if a.stand_in or a.timed_out
    ]
    if stood_in:
        c.execute(insert(stand_ins_table), stood_in)


def news_payload(process: str, write: Write) -> str | None:
    """What the other server processes are told of a write, delivered when it commits.

    ``"<process> <table> <seq> <text>"`` for an action (``<seq>s`` if a stand-in made it,
    ``<seq>t`` if it did as the seat's turn clock ran out),
    ``"<process> <table> seat <seat> <secret hash> <profile or ~> <name>"`` for a seat claim
    (so they need not read the database), ``"<process> <table> new"`` for a
    new table, ``"<process> <table> chat <line as JSON>"`` for a chat line (``ChatRow.news``) and
    ``"<process> <table> chat_switch on|off"`` for the chat turned on or off; the host's changes:
    ``"<process> <table> seat-kind <seat> <kind> <player or ~>"``, ``"<process> <table> handed <seat>
    <1 or 0>"``, ``"<process> <table> closed"`` and ``"<process> <table> barred <viewer>"``; play
    again: ``"<process> <table> next <next table>"`` (the next table is new too) and
    ``"<process> <table> answered <seat> <1 or 0>"``; ``"<process> <table> back <seat>"`` for a player back
    from a turn clock's away.
    """
    if isinstance(write, NewAction):
        mark = "t" if write.timed_out else "s" if write.stand_in else ""
        return f"{process} {write.table_id} {write.seq}{mark} {write.text}"
    if isinstance(write, SeatClaim):
        profile = write.profile or NO_PROFILE
        return f"{process} {write.table_id} seat {write.seat} {write.secret_hash} {profile} {write.name}"
    if isinstance(write, NewTable):
        return f"{process} {write.row.id} new"
    if isinstance(write, SeatChange):
        return f"{process} {write.table_id} seat-kind {write.seat} {write.kind} {write.player or NO_PROFILE}"
    if isinstance(write, SeatHanded):
        return f"{process} {write.table_id} handed {write.seat} {int(write.handed)}"
    if isinstance(write, Closed):
        return f"{process} {write.table_id} closed"
    if isinstance(write, ViewerBarred):
        return f"{process} {write.table_id} barred {write.viewer}"
    if isinstance(write, NextTable):
        return f"{process} {write.previous} next {write.row.id}"
    if isinstance(write, SeatAnswered):
        return f"{process} {write.table_id} answered {write.seat} {int(write.accepted)}"
    if isinstance(write, NewChatLine):
        return f"{process} {write.table_id} chat {write.line.news()}"
    if isinstance(write, ChatSwitch):
        return f"{process} {write.table_id} chat_switch {'on' if write.on else 'off'}"
    if isinstance(write, ClockBack):
        return f"{process} {write.table_id} back {write.seat}"
    return None


def _insert_chat(c: Connection, write: NewChatLine) -> None:
    line = write.line
    c.execute(
        insert(chat_table).values(
            table_id=write.table_id,
            seq=line.seq,
            channel=line.channel,
            seat=line.seat,
            name=line.name,
            text=line.text,
            phrase=line.phrase,
            created_at=line.at,
        )
    )


def _chat_row(r: Any) -> ChatRow:
    return ChatRow(r.seq, r.channel, r.seat, r.name, r.text, r.phrase, aware(r.created_at))


def _recent_chat(c: Connection, ids: list[str]) -> Iterator[tuple[str, ChatRow]]:
    """The tables' recent chat lines (``CHAT_HISTORY`` per channel), table by table, in order."""
    rank = (
        func.row_number()
        .over(partition_by=(chat_table.c.table_id, chat_table.c.channel), order_by=chat_table.c.seq.desc())
        .label("rank")
    )
    ranked = select(chat_table, rank).where(chat_table.c.table_id.in_(ids)).subquery()
    query = select(ranked).where(ranked.c.rank <= CHAT_HISTORY).order_by(ranked.c.table_id, ranked.c.seq)
    for r in c.execute(query):
        yield r.table_id, _chat_row(r)


def _insert_table(c: Connection, row: TableRow) -> None:
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
            practice=row.practice,
            hands=row.hands,
            host_hash=row.host_hash,
            chat=row.chat,
            clock=row.clock,
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
                "pending": s.pending,
            }
            for s in row.seats
        ],
    )
    profiles = [{"table_id": row.id, "seat": s.seat, "profile_id": s.profile} for s in row.seats if s.profile]
    if profiles:
        c.execute(insert(seat_profiles_table), profiles)


def _claim(c: Connection, claim: SeatClaim) -> None:
    result = c.execute(
        update(seats_table)
        .where(
            seats_table.c.table_id == claim.table_id,
            seats_table.c.seat == claim.seat,
            seats_table.c.kind == "human",
            seats_table.c.secret_hash.is_(None),
        )
        .values(name=claim.name, secret_hash=claim.secret_hash)
    )
    if result.rowcount != 1:
        raise ConflictError(f"seat {claim.seat} is not free")
    if claim.profile is not None:
        c.execute(
            insert(seat_profiles_table).values(
                table_id=claim.table_id, seat=claim.seat, profile_id=claim.profile
            )
        )


def _change_seat(c: Connection, change: SeatChange) -> None:
    """The seat as the host made it: free (its player, if any, loses it) or a computer's."""
    seat = and_(seats_table.c.table_id == change.table_id, seats_table.c.seat == change.seat)
    held = seats_table.c.secret_hash
    result = c.execute(
        update(seats_table)
        .where(seat, held.is_(None) if change.was is None else held == change.was)
        .values(kind=change.kind, player=change.player, name=None, secret_hash=None)
    )
    if result.rowcount != 1:
        raise ConflictError(f"seat {change.seat} was taken meanwhile")
    c.execute(
        delete(seat_profiles_table).where(
            seat_profiles_table.c.table_id == change.table_id, seat_profiles_table.c.seat == change.seat
        )
    )


def _link_next(c: Connection, write: NextTable) -> None:
    result = c.execute(
        update(tables_table)
        .where(tables_table.c.id == write.previous, tables_table.c.next_table.is_(None))
        .values(next_table=write.row.id)
    )
    if result.rowcount != 1:
        raise ConflictError(f"table {write.previous} has its next game already")


def _answer_seat(c: Connection, answer: SeatAnswered) -> None:
    """A held seat taken up by its player, or given up: then it is free, for anyone invited."""
    seat = and_(
        seats_table.c.table_id == answer.table_id,
        seats_table.c.seat == answer.seat,
        seats_table.c.pending.is_(True),
    )
    if answer.accepted:
        result = c.execute(update(seats_table).where(seat).values(pending=False))
    else:
        result = c.execute(update(seats_table).where(seat).values(pending=False, name=None, secret_hash=None))
        c.execute(
            delete(seat_profiles_table).where(
                seat_profiles_table.c.table_id == answer.table_id, seat_profiles_table.c.seat == answer.seat
            )
        )
    if result.rowcount != 1:
        raise ConflictError(f"seat {answer.seat} is not held for anyone")


def hash_secret(secret: str) -> str:
    """Secrets are stored hashed, so a copy of the database cannot act for anyone."""
    return hashlib.sha256(secret.encode()).hexdigest()


def engine_url(url: str) -> str:
    """``postgresql://`` means psycopg 3, the driver this package installs."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    """An SQLite database: one server process only (others may share a PostgreSQL one)."""
    return make_url(engine_url(url)).get_backend_name() == "sqlite"


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


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _barred(c: Connection, table_ids: list[str]) -> dict[str, set[str]]:
    """The spectators the hosts of ``table_ids`` removed, by table."""
    barred: dict[str, set[str]] = {}
    query = select(barred_viewers_table).where(barred_viewers_table.c.table_id.in_(table_ids))
    for row in c.execute(query):
        barred.setdefault(row.table_id, set()).add(row.viewer)
    return barred


class Store:
    """The server's only door to the database; every method is one short transaction."""

    def __init__(self, url: str, announce_as: str | None = None) -> None:
        """``announce_as``: the server process's id, under which its commits are announced to the
        other processes sharing the database (PostgreSQL), and its new tables leased to it."""
        self.url = engine_url(url)
        parsed = make_url(self.url)
        self.is_sqlite = is_sqlite(url)
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
        self._writer: Connection | None = None
        self._write_lock = threading.Lock()
        self.announce_as = announce_as

    def describe(self) -> str:
        """The database for logs, without a password."""
        return make_url(self.url).render_as_string(hide_password=True)

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration, said in one log line when it changed."""
        config = Config()
        config.set_main_option("script_location", str(files("pedro.server.storage") / "migrations"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            before = MigrationContext.configure(connection).get_current_revision()
            command.upgrade(config, "head")
            after = MigrationContext.configure(connection).get_current_revision()
        if before != after:
            log.info(
                "database %s: %s schema %s",
                self.describe(),
                "created at" if before is None else "upgraded to",
                after,
            )

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A transaction on the connection kept for writes: committed at the end, rolled back on error.

        Writes come one transaction after another (from the server's writer
        thread), so one connection kept open spares each of them a trip
        through the pool. A connection that failed is dropped, and the next
        write opens a new one (the database may have restarted).
        """
        with self._write_lock:
            connection = self._writer
            if connection is None or connection.closed or connection.invalidated:
                try:
                    connection = self._writer = self.engine.connect()
                except SQLAlchemyError as exc:
                    raise store_error(exc) from exc
            try:
                yield connection
                connection.commit()
            except BaseException as exc:
                with suppress(SQLAlchemyError):
                    connection.rollback()
                if isinstance(exc, IntegrityError):
                    raise ConflictError(str(exc.orig)) from exc
                if isinstance(exc, SQLAlchemyError):
                    self._writer = None
                    with suppress(SQLAlchemyError):
                        connection.close()
                    raise store_error(exc) from exc
                raise

    # ------------------------------------------------------------------ writes

    def create_table(self, row: TableRow) -> None:
        self._write_one(NewTable(row))

    def claim_seat(
        self, table_id: str, seat: int, name: str, secret_hash: str, profile: str | None = None
    ) -> None:
        """Take a free human seat; ConflictError if someone has it (checked in the same statement)."""
        self._write_one(SeatClaim(table_id, seat, name, secret_hash, profile))

    def append_action(
        self, table_id: str, seq: int, text: str, stand_in: bool = False, timed_out: bool = False
    ) -> None:
        """Commit action number ``seq`` (0-based); ConflictError if that place is taken."""
        self._write_one(NewAction(table_id, seq, text, stand_in, timed_out))

    def set_finished(self, table_id: str) -> None:
        self._write_one(Finished(table_id))

    def _write_one(self, write: Write) -> None:
        with self.transaction() as c:
            run_writes([write], c, self.announce_as)

    def write_many(self, writes: Sequence[Write]) -> list[StoreError | None]:
        """Commit ``writes`` together (group commit); the outcome of each, None where it was committed.

        One transaction and one commit for all of them, which is what makes a
        busy server cheap on PostgreSQL (a commit waits for the disk). If one
        of them conflicts, each is tried again in a transaction of its own, so
        one lost race does not cost the others; any other failure fails them
        all, and nothing of them was committed.
        """
        if not writes:
            return []
        try:
            with self.transaction() as c:
                run_writes(writes, c, self.announce_as)
        except ConflictError as exc:
            if len(writes) == 1:
                return [exc]
        except StoreError as exc:
            return [exc] * len(writes)
        else:
            return [None] * len(writes)
        outcomes: list[StoreError | None] = []
        for write in writes:
            try:
                self._write_one(write)
            except StoreError as exc:
                outcomes.append(exc)
            else:
                outcomes.append(None)
        return outcomes

    # ------------------------------------------------------------------ reads

    def load_table(self, table_id: str) -> TableRow | None:
        rows = self._load(tables_table.c.id == table_id)
        return rows[0] if rows else None

    def load_tables(
        self, *, unfinished_only: bool = False, active_since: datetime | None = None
    ) -> list[TableRow]:
        """Every table, or the unfinished ones; with ``active_since``, only those created or
        played on since then (the others are idle: read when someone opens them)."""
        where: ColumnElement[bool] = tables_table.c.finished.is_(False) if unfinished_only else true()
        if active_since is not None:
            recent_action = (
                select(actions_table.c.seq)
                .where(actions_table.c.table_id == tables_table.c.id)
                .where(actions_table.c.created_at >= active_since)
                .exists()
            )
            where = and_(where, or_(tables_table.c.created_at >= active_since, recent_action))
        return self._load(where)

    def load_news(self, table_id: str, start: int) -> News:
        """A table's actions from number ``start`` on, its seats and the host's marks: what another
        process may have committed since this one last looked."""
        try:
            with self.engine.connect() as c:
                actions = [
                    r.text
                    for r in c.execute(
                        select(actions_table.c.text)
                        .where(actions_table.c.table_id == table_id, actions_table.c.seq >= start)
                        .order_by(actions_table.c.seq)
                    )
                ]
                seats = [_seat_row(s) for s in c.execute(_seats_query(seats_table.c.table_id == table_id))]
                marks = c.execute(
                    select(tables_table.c.closed, tables_table.c.next_table).where(
                        tables_table.c.id == table_id
                    )
                ).one()
                barred = _barred(c, [table_id]).get(table_id, set())
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return News(actions, seats, marks.closed, barred, marks.next_table)

    def load_chat(self, table_id: str, after: int) -> list[ChatRow]:
        """A table's chat lines after number ``after``: what other processes may have said since."""
        try:
            with self.engine.connect() as c:
                query = (
                    select(chat_table)
                    .where(chat_table.c.table_id == table_id, chat_table.c.seq > after)
                    .order_by(chat_table.c.seq)
                )
                return [_chat_row(r) for r in c.execute(query)]
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

    def _load(self, where: Any) -> list[TableRow]:
        try:
            return self._read(where)
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

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
                    created_at=aware(r.created_at),
                    seats=[],
                    finished=r.finished,
                    practice=r.practice,
                    hands=r.hands,
                    host_hash=r.host_hash,
                    closed=r.closed,
                    next_table=r.next_table,
                    chat=r.chat,
                    clock=r.clock,
                )
                for r in c.execute(query)
            }
            if not tables:
                return []
            ids = list(tables)
            for s in c.execute(_seats_query(seats_table.c.table_id.in_(ids))):
                tables[s.table_id].seats.append(_seat_row(s))
            actions = actions_table.c
            for a in c.execute(
                select(actions.table_id, actions.seq, actions.text, actions.created_at)
                .where(actions.table_id.in_(ids))
                .order_by(actions.table_id, actions.seq)
            ):
                row = tables[a.table_id]
                if a.seq != len(row.actions):
                    raise StoreError(f"table {a.table_id}: action {len(row.actions)} is missing")
                row.actions.append(a.text)
                row.last_action_at = aware(a.created_at)
            for table_id, barred in _barred(c, ids).items():
                tables[table_id].barred = barred
            for table_id, line in _recent_chat(c, ids):
                tables[table_id].chat_lines.append(line)
            for m in c.execute(select(stand_ins_table).where(stand_ins_table.c.table_id.in_(ids))):
                tables[m.table_id].stand_ins.add(m.seq)
                if m.timed_out:
                    tables[m.table_id].timed_out.add(m.seq)
        return list(tables.values())

    def ping(self) -> None:
        """A trivial query for the readiness check: the database answers and holds pedro's tables."""
        try:
            with self.engine.connect() as c:
                c.execute(select(tables_table.c.id).limit(1)).all()
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

    def close(self) -> None:
        with self._write_lock:
            if self._writer is not None:
                with suppress(SQLAlchemyError):
                    self._writer.close()
                self._writer = None
        self.engine.dispose()
