"""A table's chat: who may say what, who reads it, and where it is kept.

A seat's player talks on the ``table`` channel, which everyone at the table reads. A spectator,
who sees the hands being played, talks on the ``spectators`` channel, which the seats read only
while no hand is being played: before the game starts (a seat is still free) and once it is over,
when the seats are sent the chat again with the spectators' lines in it. The next hand is dealt
as the last one ends, so there is no pause between hands in which a kibitzer's word could not
help a player. A spectator speaks under a name given with each message; without one, it reads only.
Only the clients that asked for the chat (``"chat": true`` in their ``join`` or ``watch``) are
sent it, so a program that plays through the WebSocket is sent what it always was.

The server writes nothing into the chat itself: every line is a person's, so no line depends on
a card. A line is committed to the database before anyone reads it (it outlives a restart, and
other server processes on the same PostgreSQL database are told it with the tables' news); it is
never part of the game's record. The table's creator may turn the chat off (``switch``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from datetime import UTC, datetime
from typing import Literal, Protocol
from weakref import WeakKeyDictionary, WeakSet

from pedro.server.storage.tables_db import CHAT_HISTORY, ChatRow, ConflictError, StoreError
from pedro.server.sync.writer import AsyncStore, committed
from pedro.server.tables.messages import Chat, ChatHistory, ChatLine, Phrase
from pedro.server.tables.refusals import RoomError
from pedro.server.tables.table_view import Seat

Channel = Literal["table", "spectators"]
CHANNELS: tuple[Channel, ...] = ("table", "spectators")
#: The news kinds of the chat (``tables_db.news_payload``), which ``TableChat.learn`` reads.
NEWS_KINDS = frozenset({"chat", "chat_switch"})
#: Tries at a line's number when other server processes keep taking it first.
_TRIES = 3


def utc_now() -> datetime:
    return datetime.now(UTC)


class Client(Protocol):
    """A connection as the chat sees it (``room.Client``)."""

    seat: int | None

    def send(self, text: str | bytes) -> None: ...


class SeatHolder(Protocol):
    @property
    def client(self) -> Client | None: ...


class Room(Protocol):
    """What the chat needs of its room (``room.Room``)."""

    @property
    def id(self) -> str: ...

    @property
    def store(self) -> AsyncStore: ...

    @property
    def started(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def seats(self) -> Sequence[SeatHolder]: ...

    @property
    def spectators(self) -> AbstractSet[Client]: ...

    def seat_facts(self) -> tuple[Seat, ...]: ...


class TableChat:
    """The chat of one room: its recent lines per channel, whether it is on, and each speaker's pace.

    ``messages`` lines per person in any ``seconds`` (a seat's player, whatever its connections;
    a spectator's connection); more are refused with ``chat_rate`` and nothing is sent."""

    def __init__(
        self,
        room: Room,
        on: bool,
        lines: Iterable[ChatRow],
        messages: int,
        seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.room = room
        self.on = on
        self.messages = messages
        self.seconds = seconds
        self.clock = clock
        self.recent: dict[str, deque[ChatRow]] = {c: deque(maxlen=CHAT_HISTORY) for c in CHANNELS}
        #: the highest line number this room holds (-1: none)
        self.known = -1
        self.next_seq = 0
        for line in lines:
            self._keep(line)
        self._seat_times: dict[int, deque[float]] = {}
        self._spectator_times: WeakKeyDictionary[Client, deque[float]] = WeakKeyDictionary()
        #: the clients that asked for the chat (a client that leaves the room is no longer sent it)
        self.readers: WeakSet[Client] = WeakSet()

    # ------------------------------------------------------------------ who reads what

    def _in_hand(self) -> bool:
        """A hand is being played: the seats do not read the spectators (who see the hands)."""
        return self.room.started and not self.room.finished

    def reads(self, seat: int | None, channel: str) -> bool:
        return channel == "table" or seat is None or not self._in_hand()

    def lines_for(self, seat: int | None) -> list[ChatRow]:
        """The recent lines ``seat`` (None: a spectator) may read, in order, at most ``CHAT_HISTORY``."""
        lines = [line for c in CHANNELS if self.reads(seat, c) for line in self.recent[c]]
        return sorted(lines, key=lambda line: line.seq)[-CHAT_HISTORY:]

    def _clients(self) -> list[Client]:
        """The room's clients that read the chat."""
        clients: list[Client] = [s.client for s in self.room.seats if s.client is not None]
        clients.extend(self.room.spectators)
        return [client for client in clients if client in self.readers]

    # ------------------------------------------------------------------ messages

    def _line(self, line: ChatRow, names: list[str]) -> ChatLine:
        channel: Channel = "table" if line.channel == "table" else "spectators"
        phrase: Phrase | None = line.phrase  # type: ignore[assignment]  # checked when it was said
        return ChatLine(
            seq=line.seq,
            channel=channel,
            seat=line.seat,
            name=names[line.seat] if line.seat is not None else line.name or "",
            text=line.text,
            phrase=phrase,
            at=line.at.isoformat(),
        )

    def _names(self) -> list[str]:
        return [seat.name for seat in self.room.seat_facts()]

    def history(self, seat: int | None) -> str:
        """The ``chat_history`` message for ``seat`` (None: a spectator)."""
        names = self._names()
        lines = [self._line(line, names) for line in self.lines_for(seat)] if self.on else []
        return json.dumps(ChatHistory(type="chat_history", on=self.on, lines=lines), ensure_ascii=False)

    def welcome(self, client: Client) -> None:
        """A client that has joined or is watching asks for the chat: it is sent what it may read,
        and every line said from now on that it may read."""
        self.readers.add(client)
        client.send(self.history(client.seat))

    def resend(self) -> None:
        """Every client is sent the chat again (what it may read has changed)."""
        texts: dict[int | None, str] = {}
        for client in self._clients():
            if client.seat not in texts:
                texts[client.seat] = self.history(client.seat)
            client.send(texts[client.seat])

    def game_over(self) -> None:
        """The game has ended: the seats may now read the spectators' lines too."""
        if self.on and self.recent["spectators"]:
            self.resend()

    # ------------------------------------------------------------------ saying

    async def say(self, client: Client, text: str | None, phrase: str | None, name: str | None) -> None:
        """A client's line: refused with RoomError (nothing sent), or committed and sent to its readers.

        StoreError: the database did not take it (nothing sent)."""
        if not self.on:
            raise RoomError("chat_off", "the table's chat is turned off")
        seat = client.seat
        if seat is None and name is None:
            raise RoomError("chat_name", "a spectator needs a name to chat: send it as the message's name")
        channel: Channel = "table" if seat is not None else "spectators"
        self._spend(client)
        for _ in range(_TRIES):
            line = ChatRow(
                self.next_seq, channel, seat, None if seat is not None else name, text, phrase, utc_now()
            )
            self.next_seq += 1
            try:
                cancelled = await committed(self.room.store.add_chat(self.room.id, line))
            except ConflictError:  # another server process took the number: learn what it said
                await self.catch_up()
                continue
            self.add(line)
            if cancelled:
                raise asyncio.CancelledError
            return
        raise StoreError("the chat line's number was taken again and again")

    def _spend(self, client: Client) -> None:
        """Count a line against its speaker's pace; RoomError ``chat_rate`` past it (nothing counted)."""
        if client.seat is not None:
            times = self._seat_times.setdefault(client.seat, deque())
        else:
            times = self._spectator_times.setdefault(client, deque())
        now = self.clock()
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) >= self.messages:
            wait = max(1, round(self.seconds - (now - times[0]) + 0.5))
            raise RoomError(
                "chat_rate",
                f"at most {self.messages} chat messages in {self.seconds:g} seconds; "
                f"this one was not sent: send it again in {wait} s",
            )
        times.append(now)

    def add(self, line: ChatRow) -> None:
        """A committed line (here or by another server process): kept, and sent to its readers."""
        if not self._keep(line):
            return
        names = self._names()
        text = json.dumps(Chat(type="chat", **self._line(line, names)), ensure_ascii=False)
        for client in self._clients():
            if self.reads(client.seat, line.channel):
                client.send(text)

    def _keep(self, line: ChatRow) -> bool:
        """Hold a line among the recent ones; False if it is held already."""
        if line.channel not in self.recent or any(held.seq == line.seq for held in self.recent[line.channel]):
            return False
        self.recent[line.channel].append(line)
        self.known = max(self.known, line.seq)
        self.next_seq = max(self.next_seq, line.seq + 1)
        return True

    # ------------------------------------------------------------------ on and off

    async def switch(self, on: bool) -> None:
        """Turn the chat on or off: stored, then every client here is told (and the other server
        processes, with the tables' news). StoreError: nothing changed."""
        if await committed(self.room.store.set_chat(self.room.id, on)):
            self.switched(on)
            raise asyncio.CancelledError
        self.switched(on)

    def switched(self, on: bool) -> None:
        if on != self.on:
            self.on = on
            self.resend()

    # ------------------------------------------------------------------ other server processes

    def learn(self, kind: str, text: str) -> None:
        """News of another server process (``NEWS_KINDS``): a line said there, or the chat switched."""
        if kind == "chat":
            self.add(ChatRow.from_news(text))
        else:
            self.switched(text == "on")

    async def catch_up(self) -> None:
        """Read the lines other server processes committed that this one has not heard of."""
        for line in await self.room.store.load_chat(self.room.id, self.known):
            self.add(line)
