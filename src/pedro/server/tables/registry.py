"""The server's loaded tables, and what the other server processes on the same database tell of them.

Unfinished tables stay loaded while they are in use; finished ones, and
unfinished ones left alone for ``idle_seconds``, are loaded on request. When
several processes share a PostgreSQL database, each loads every unfinished
table (the lobby is the same everywhere), applies the actions the others
commit as their news arrives (``on_news``), and drives the computer players
of the tables whose lease it holds (``on_survey``, see ``sync.cluster``).

A stored table whose game cannot be served (it no longer replays, or what a client is sent of it
cannot be encoded) is *broken*: logged once, left out of the lobby and refused to every client by
its own code, while the other tables are served on. It is found again when read at the next start,
so no mark is stored: the check is the same everywhere and follows the code.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from pedro.server.settings import ServerSettings
from pedro.server.storage.tables_db import NO_PROFILE, NewTable, NextTable, StoreError, TableRow
from pedro.server.sync.cluster import Survey
from pedro.server.sync.writer import AsyncStore
from pedro.server.tables.chat import NEWS_KINDS as CHAT_NEWS
from pedro.server.tables.room import Room, RoomSettings

log = logging.getLogger("pedro.server")

#: How often finished and idle tables nobody looks at are let go (they are read again when asked for).
SWEEP_SECONDS = 30.0


class Unservable(ValueError):
    """A table whose game cannot be played on or shown: it does not rebuild, or cannot be encoded."""


def servable(row: TableRow, store: AsyncStore, settings: RoomSettings) -> Room:
    """The room of a stored or new table, once all a client is sent of it encodes: the lobby's
    summary and the state message of every seat and of a spectator. A table that fails does so
    here, once, rather than at every client that opens it. ``Unservable`` says why."""
    try:
        room = Room(row, store, settings)
        orjson.dumps(room.summary())
        room.state_messages([None, *range(len(room.seats))])
    # replaying and encoding are pure: whatever they raise is the table's, never a passing fault
    except (ArithmeticError, LookupError, TypeError, ValueError, StoreError) as exc:
        raise Unservable(str(exc) or type(exc).__name__) from exc
    return room


class TableRegistry:
    def __init__(
        self,
        store: AsyncStore,
        settings: RoomSettings,
        process_id: str | None = None,
        idle_seconds: float = ServerSettings.idle_seconds,
    ) -> None:
        self.store = store
        self.settings = settings
        #: an unfinished table with no action, claim or visitor this long leaves the lobby and memory
        self.idle_seconds = idle_seconds
        #: this process's id among several sharing the database (None: it is alone)
        self.process_id = process_id
        self.rooms: dict[str, Room] = {}
        #: the broken tables this process has read, by id: why each cannot be served (see the module)
        self.broken: dict[str, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.TimerHandle | None = None

    def load(self) -> None:
        """At start, before anything is served (so the loop may wait on the database)."""
        since = datetime.now(UTC) - timedelta(seconds=self.idle_seconds)
        for row in self.store.store.load_tables(unfinished_only=True, active_since=since):
            room = self._restore(row)
            if room is not None:
                self.rooms[row.id] = room
        for room in self.rooms.values():
            self._started(room)
        log.info("%d unfinished tables restored (idle ones are read when opened)", len(self.rooms))
        self._sweeper = asyncio.get_running_loop().call_later(SWEEP_SECONDS, self._sweep)

    def _sweep(self) -> None:
        """Now and then, so that a server whose lobby nobody opens does not keep every game played."""
        self._let_go_unused()
        self._sweeper = asyncio.get_running_loop().call_later(SWEEP_SECONDS, self._sweep)

    def _let_go_unused(self) -> None:
        """Finished tables nobody watches, and idle ones: their link still opens them (``get``)."""
        unused = [
            table_id
            for table_id, room in self.rooms.items()
            if (room.over and not room.has_clients) or room.idle_for(self.idle_seconds)
        ]
        for table_id in unused:
            self.rooms.pop(table_id).stop()

    def _started(self, room: Room) -> None:
        """Start a restored room. A game that ended just before the server was killed may not be
        marked finished yet (the mark follows the last action's commit): it is marked now."""
        if room.finished and not room.row.finished:
            room.row.finished = True
            self.store.mark_finished(room.id)
        room.start()

    def _restore(self, row: TableRow) -> Room | None:
        """A stored table as a room; a broken one (bad options, an action the rules now refuse, a
        value no client can be sent) is logged, remembered and left out, not fatal."""
        try:
            return servable(row, self.store, self.settings)
        except Unservable as exc:
            self.broken[row.id] = str(exc)
            log.error("table %s is broken: it is left out of the lobby and not served: %s", row.id, exc)
            return None

    def is_broken(self, table_id: str) -> bool:
        """The table is stored but cannot be served (its clients are told so, not "no such table")."""
        return table_id in self.broken

    async def get(self, table_id: str) -> Room | None:
        room = self.rooms.get(table_id)
        if room is None and len(table_id) <= 40 and table_id not in self.broken:
            row = await self.store.load_table(table_id)
            # replaying a long game takes a while: in a thread, so the loop serves on meanwhile
            restored = await asyncio.to_thread(self._restore, row) if row is not None else None
            room = self.rooms.get(table_id)  # loaded by another request meanwhile
            if room is None and restored is not None:
                room = self.rooms[table_id] = restored
                self._started(room)  # its lease, if it is free, is taken at the next heartbeat
                if self.process_id is not None:
                    # news of the table that came while it was read was dropped (it was not loaded
                    # yet); what was committed before this read is read now, what came after is told
                    self._spawn(table_id, room.catch_up())
        return room

    def detached(self, table_id: str) -> Room | None:
        """A table's room as stored, neither kept nor started: a one-off read, safe to build in a thread."""
        row = (
            self.store.store.load_table(table_id)
            if len(table_id) <= 40 and table_id not in self.broken
            else None
        )
        return self._restore(row) if row is not None else None

    async def add(self, row: TableRow, previous: str | None = None) -> Room:
        """A new table, driven here: when the database is shared, its lease was taken with it.
        ``Unservable`` (nothing stored) if it could not be served. ``previous``: the finished table
        whose next game it is (ConflictError, nothing stored, if that one has its next already)."""
        room = servable(row, self.store, self.settings)
        await self.store.write(NewTable(row) if previous is None else NextTable(row, previous))
        self.rooms[row.id] = room
        room.driving = True
        room.start()
        return room

    def listed(self) -> list[Room]:
        """Open tables for the lobby; finished and idle rooms nobody is looking at are let go meanwhile."""
        self._let_go_unused()
        return [r for r in self.rooms.values() if r.row.listed and not r.over]

    def unfinished(self) -> list[str]:
        """The tables this process may drive (it holds leases for these only)."""
        return [table_id for table_id, room in self.rooms.items() if not room.over]

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            room.stop()
        for task in self._tasks:
            task.cancel()

    async def drain(self) -> None:
        """Before a restart: every room finishes the change under way and stops its computer players."""
        await asyncio.gather(*(room.drain() for room in list(self.rooms.values())))

    # ------------------------------------------------------------------ other server processes

    def on_news(self, payload: str | None) -> bool:
        """A commit of another server process (``tables_db.news_payload``), or None: news may have been
        missed. True if the cluster should look again at leases and presence."""
        if payload is None:
            for loaded in list(self.rooms.values()):
                self._spawn(loaded.id, loaded.catch_up())
                self._spawn(loaded.id, loaded.chat.catch_up())
            return True
        process, _, rest = payload.partition(" ")  # another's: the listener skips this one's own
        table_id, _, rest = rest.partition(" ")
        kind, _, text = rest.partition(" ")
        if kind == "left":
            return True  # its tables are free: take them at once
        room = self.rooms.get(table_id)
        if kind in ("new", "next"):  # so that the lobby lists it here too
            self._spawn(text or table_id, self.get(text or table_id))
        if kind == "new" or room is None:
            pass  # read above; or a table this process has not loaded: it reads it when asked
        elif kind.rstrip("st").isdigit():  # an action, marked if a stand-in made it (``news_payload``)
            seq, mark = kind.rstrip("st"), kind[-1]
            self._spawn(table_id, room.learn(int(seq), text, mark in "st", mark == "t"))
        elif kind == "back":
            room.come_back(int(text))
        elif kind in CHAT_NEWS:
            room.chat.learn(kind, text)
        elif kind in ("here", "gone"):
            room.remote_presence(int(text), process, kind == "here")
        elif kind == "seat":
            seat, secret_hash, profile, name = text.split(" ", 3)
            if not room.seats[int(seat)].claimed:
                room.seat_taken(int(seat), name, secret_hash, None if profile == NO_PROFILE else profile)
        elif kind == "seat-kind":
            seat, seat_kind, player = text.split(" ", 2)
            room.seat_changed(int(seat), seat_kind, None if player == NO_PROFILE else player)
        elif kind == "handed":
            seat, handed = text.split(" ", 1)
            room.seat_handed(int(seat), handed == "1")
        elif kind == "next":
            room.next_table_set(text)
        elif kind == "answered":
            seat, accepted = text.split(" ", 1)
            room.seat_answered(int(seat), accepted == "1")
        elif kind == "barred":
            room.viewer_barred(text)
        elif kind == "closed":
            room.table_closed()
        else:
            log.error("unreadable news from another server process: %r", payload[:80])
        return False

    def _spawn(self, table_id: str, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._finished(table_id, done))

    def _finished(self, table_id: str, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: could not catch up with the database: %s", table_id, task.exception())

    def on_survey(self, survey: Survey | None) -> None:
        """A heartbeat's findings: which tables are ours to drive, whose players are elsewhere
        (None: the heartbeat has failed for a while, so no lease is sure to be ours)."""
        if survey is None:
            for room in self.rooms.values():
                room.set_driving(False)
            return
        for table_id in survey.asked:
            asked = self.rooms.get(table_id)
            if asked is not None:
                asked.set_driving(table_id in survey.held)
                asked.set_remote(survey.remote.get(table_id, {}))
