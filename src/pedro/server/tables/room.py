"""One table at the server: its game, its seats, who is connected, and the computer players.

The room is the only writer of its game. Every change goes the same way:
check it against the rules, commit it to the store, apply it, then tell the
clients. The commit is awaited (the loop serves the other tables meanwhile),
so each room holds a lock from the check to the announcement: an action
that arrives meanwhile waits its turn and is then checked against the new
state (usually ``stale``), never against the one being changed.

What each client is told is ``table_view``'s: the room hands it the game and
the table's facts (``facts``) and sends what it builds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from pedro.engine.actions import (
    ActionError,
    action_text,
    parse_action_text,
    parse_turn_text,
)
from pedro.engine.state import GameState
from pedro.ratings import SeatTaker, unrated_reason
from pedro.server.http.logs import fields
from pedro.server.settings import Limits, ServerSettings, TurnClocks
from pedro.server.storage.tables_db import (
    ConflictError,
    SeatAnswered,
    SeatRow,
    StoreError,
    TableRow,
    Write,
)
from pedro.server.sync.writer import AsyncStore, committed
from pedro.server.tables.acting import checked_action, computer_seat_name
from pedro.server.tables.chat import TableChat
from pedro.server.tables.clocks import TurnClock
from pedro.server.tables.computers import Computers, player_name
from pedro.server.tables.game import FinishedGame, GameEnd, GameOver, GameOverListener, table_game
from pedro.server.tables.refusals import RoomError as RoomError  # where the room's users import it
from pedro.server.tables.table_view import Seat, Table, TableFacts, ViewMemo, state_messages
from pedro.server.tables.views import PHASE_NAMES, rules_json

log = logging.getLogger("pedro.server")


class Client(Protocol):
    """A connection as the room sees it: somewhere to put messages."""

    seat: int | None

    #: a spectator's browser's id (``watch``), by which the host may remove it; None: none given
    viewer: str | None
    #: the name a spectator gave (``watch``), shown to the host; None: none given
    name: str | None

    def send(self, text: str | bytes) -> None:
        """Send a text message (bytes: UTF-8, as ``state`` messages are made)."""

    def replaced(self) -> None:
        """Another connection took this client's seat."""

    def removed(self, code: str, message: str) -> None:
        """The host removed this client (a spectator it barred, everyone at a closed table)."""


@dataclass(frozen=True)
class RoomSettings:
    away_seconds: float = ServerSettings.away_seconds
    bot_delay: float = ServerSettings.bot_delay
    #: told of each game as it ends here: its replay is built, it is rated, its tournament moves on
    game_over: tuple[GameOverListener, ...] = ()
    #: other server processes share the database: a room drives its computer players only while
    #: it holds the table's lease (``set_driving``), and tells ``presence`` who connects
    shared: bool = False
    #: told (table id, seat, connected) when a seat's player connects to or leaves this process
    presence: Callable[[str, int, bool], None] | None = None
    #: the chat's limits (``tables.chat``): a line's characters, and each person's pace
    chat_chars: int = Limits.chat_chars
    chat_messages: int = Limits.chat_messages
    chat_seconds: float = Limits.chat_seconds
    #: seconds a turn clock adds to a hand's first decision (``tables.clocks``)
    hand_pause: float = TurnClocks.hand_pause


@dataclass
class SeatState:
    row: SeatRow
    client: Client | None = None
    #: the other server processes where the seat's player is connected
    elsewhere: frozenset[str] = frozenset()
    #: monotonic time the seat's player left (or the server started); None while connected
    away_since: float | None = None

    @property
    def present(self) -> bool:
        """The seat's player is connected, here or to another server process."""
        return self.client is not None or bool(self.elsewhere)

    @property
    def claimed(self) -> bool:
        return self.row.kind == "computer" or self.row.secret_hash is not None


class Room:
    def __init__(
        self,
        row: TableRow,
        store: AsyncStore,
        settings: RoomSettings,
        clock: Callable[[], float] = time.monotonic,
        state: GameState | None = None,
    ) -> None:
        """``state``, if given, is the game already played through ``row.actions`` (checked as here)."""
        self.row = row
        self.store = store
        self.settings = settings
        self.clock = clock
        self.state = table_game(row.variant, row.options, row.seed, row.hands) if state is None else state
        self.rules = self.state.rules
        # the stored actions were legal when accepted; replaying proves it
        for text in row.actions if state is None else ():
            self.state.apply(self._stored(text)[1])
        now = clock()
        self.seats = [SeatState(s, away_since=now if s.kind == "human" else None) for s in row.seats]
        self._started = self._ready()
        self._table = Table(
            row.id,
            row.title,
            row.options,
            row.practice,
            row.hands,
            *self._forecast(),
            closed=row.closed,
            next=row.next_table,
            clock=row.clock,
        )
        began = time.time() if row.last_action_at is None else row.last_action_at.timestamp()
        #: the turn clock (``tables.clocks``): its deadline follows from the stored actions
        self._turns = TurnClock(row.clock, settings.hand_pause, began)
        self._turns.restored(
            [int(text.partition(" ")[0]) for text in row.actions], row.stand_ins, row.timed_out
        )
        if row.actions and not self.state.actions:  # the last action ended a hand
            self._turns.pause = settings.hand_pause
        self._clock_timer: asyncio.TimerHandle | None = None
        #: the parts of the state messages that change seldom, kept encoded between changes
        self._memo = ViewMemo()
        self.spectators: set[Client] = set()
        #: the last accepted action (seat, action), shown to each seat as far as it may see it
        self.last: tuple[int, int] | None = None
        if row.actions:
            self.last = parse_action_text(row.actions[-1], self.rules.max_bid)
        self._driver: asyncio.Task[None] | None = None
        #: the computer players (and stand-ins), one per seat and hand
        self._computers = Computers(row.variant, row.options, row.seed, row.hands)
        #: held from an action's check to its announcement (the commit is awaited in between)
        self._lock = asyncio.Lock()
        self._wakeups: set[asyncio.TimerHandle] = set()
        #: a stopped room starts no computer player again (the server is letting it go, or stopping)
        self.stopped = False
        #: this process drives the computer players (always, unless other processes share the table)
        self.driving = not settings.shared
        #: monotonic time of the latest action, seat claim or departure here (see ``idle_for``)
        self.active_at = now
        self.chat = TableChat(self, row.chat, row.chat_lines, settings.chat_messages, settings.chat_seconds)

    # ------------------------------------------------------------------ facts

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        return len(self.row.actions)

    @property
    def started(self) -> bool:
        """Play waits until every human seat has a player (kept up to date by ``seat_taken``)."""
        return self._started

    def _ready(self) -> bool:
        """Every seat has its player: taken, and not only held for the previous game's player."""
        return all(s.claimed and not s.row.pending for s in self.seats)

    @property
    def finished(self) -> bool:
        """The game is won, or the table's hands are played (a duplicate tournament's deal: ``row.hands``,
        the game's ``hand_limit``)."""
        return self.state.is_over

    @property
    def closed(self) -> bool:
        """The host closed the table before its game ended: nothing more is played at it."""
        return self.row.closed

    @property
    def over(self) -> bool:
        """Nothing more is played at the table: its game ended, or its host closed it."""
        return self.state.is_over or self.row.closed

    @property
    def rated(self) -> bool:
        """The game will count for ratings as the seats stand (``table_view.Table.rated``)."""
        return self._table.rated

    def _forecast(self) -> tuple[str | None, int | None]:
        """Why the game will not be rated as its seats stand (None: it will), and the seat it is
        about: the rule its end applies (``pedro.ratings.unrated_reason``), told from the start."""
        row = self.row
        takers = [SeatTaker(s.row.kind, s.row.player, s.row.profile) for s in self.seats]
        return unrated_reason(row.variant, row.options, row.practice, row.hands, takers)

    def profile_seat(self, profile: str) -> int | None:
        """The seat the profile took at this table, if any (a profile takes one seat of a table)."""
        return next((s.row.seat for s in self.seats if s.row.profile == profile), None)

    def stand_in(self, seat: int) -> bool:
        """A human seat played by the computer: its player is away (gone, or its turn clock ran out
        too often in a row: ``tables.clocks``), or the host handed it over."""
        s = self.seats[seat]
        if s.row.kind != "human" or s.row.secret_hash is None:
            return False
        return s.row.handed or self._turns.away(seat) or self.away(seat)

    def away(self, seat: int) -> bool:
        """The seat's player has been gone ``away_seconds`` (the host may then hand it over)."""
        s = self.seats[seat]
        return (
            not s.present
            and s.away_since is not None
            and self.clock() - s.away_since >= self.settings.away_seconds
        )

    def clock_runs(self) -> bool:
        """The turn clock runs for the decision to make: the table has one, play has started and is
        not over, and a person is to act (not a computer, nor a stand-in for one away)."""
        if self._turns.seconds is None or self.over or not self.started:
            return False
        seat = self.state.current_player
        return self.seats[seat].row.kind == "human" and not self.stand_in(seat)

    def clock_left(self) -> float | None:
        """Seconds the decision to make has left (0 or less: the stand-in makes it), or None: no
        clock runs."""
        return self._turns.left(time.time()) if self.clock_runs() else None

    @property
    def has_clients(self) -> bool:
        return bool(self.spectators) or any(s.client is not None for s in self.seats)

    def idle_for(self, seconds: float) -> bool:
        """An unfinished game nobody has touched for ``seconds``: no action, no claim, nobody
        connected here or to another server process. Such a table may be let go and read again
        when someone opens it, so abandoned tables neither fill the lobby nor cost memory."""
        return (
            not self.over
            and not self.has_clients
            and not any(s.elsewhere for s in self.seats)
            and self.clock() - self.active_at >= seconds
        )

    def computer_turn(self) -> bool:
        if self.over or not self.started:
            return False
        seat = self.state.current_player
        if self.seats[seat].row.kind == "computer" or self.stand_in(seat):
            return True
        left = self.clock_left()
        return left is not None and left <= 0

    # ------------------------------------------------------------------ clients

    def attach(self, client: Client, seat: int | None) -> None:
        if seat is None:
            self.spectators.add(client)
        else:
            s = self.seats[seat]
            old = s.client
            s.client = client
            s.away_since = None
            if old is not None and old is not client:
                old.replaced()
            elif old is None and self.settings.presence is not None:
                self.settings.presence(self.id, seat, True)
            log.info(
                "table %s: seat %d connected", self.id, seat, extra=fields(self.id, "seat_connected", seat)
            )
        client.seat = seat
        if seat is None:  # a spectator changes nothing the others see: only it is told
            client.send(self._state_texts([None])[None])
        else:
            self.broadcast()

    def detach(self, client: Client) -> None:
        self.spectators.discard(client)
        seat = client.seat
        if seat is not None and self.seats[seat].client is client:
            s = self.seats[seat]
            s.client = None
            if self.settings.presence is not None:
                self.settings.presence(self.id, seat, False)
            if not s.present:
                s.away_since = self.clock()
            self.active_at = self.clock()
            log.info(
                "table %s: seat %d disconnected",
                self.id,
                seat,
                extra=fields(self.id, "seat_disconnected", seat),
            )
            self._schedule_away_check()
            self.broadcast()

    def seat_taken(self, seat: int, name: str, secret_hash: str, profile: str | None = None) -> None:
        """A human seat was claimed (already committed by the caller), with ``profile`` if any."""
        s = self.seats[seat]
        s.row.name = name
        s.row.secret_hash = secret_hash
        s.row.profile = profile
        s.away_since = self.clock()
        log.info("table %s: seat %d taken", self.id, seat, extra=fields(self.id, "seat_taken", seat))
        if s.client is None:  # claimed but not connected: it counts as away in ``away_seconds``
            self._schedule_away_check()
        self._seats_changed()

    def _seats_changed(self) -> None:
        """A seat was taken or changed: whether the game is rated, and whether play may begin."""
        reason, reason_seat = self._forecast()
        self._table = replace(self._table, unrated=reason, unrated_seat=reason_seat)
        self.active_at = self.clock()
        started, self._started = self._started, self._ready()
        if self._started and not started:  # play begins: the first decision's clock starts now
            self._turns.restart(time.time())
        self.broadcast()
        self.kick()

    def seat_for_secret(self, secret_hash: str) -> int | None:
        for s in self.seats:
            if s.row.secret_hash is not None and s.row.secret_hash == secret_hash:
                return s.row.seat
        return None

    async def seat_claimed_elsewhere(self, secret_hash: str) -> int | None:
        """The seat of ``secret_hash`` if another server process has just let it be claimed (its
        news not here yet). Only a table with a free seat is asked about, and without the lock:
        a wrong secret costs a read of the seats, never the table's pace."""
        if not self.settings.shared or all(s.claimed for s in self.seats):
            return None
        stored = (await self.store.load_news(self.id, self.seq)).seats
        if not any(s.secret_hash == secret_hash for s in stored):
            return None
        await self.catch_up()
        return self.seat_for_secret(secret_hash)

    # ------------------------------------------------------------------ actions

    async def act(self, client: Client, text: str, seq: int) -> None:
        """A client's action: refused with RoomError (nothing changed) or committed and announced.

        A spectator is refused before the lock too, so that its refusals never wait for a
        commit; the seat is looked at again under the lock (it may have been taken over meanwhile)."""
        _seat_of(client)
        async with self._lock:
            await self._act(_seat_of(client), text, seq)

    async def _act(self, seat: int, text: str, seq: int) -> None:
        action = checked_action(
            self.state,
            seat,
            text,
            seq,
            table_seq=self.seq,
            started=self.started,
            name_of=self._name,
            closed=self.closed,
        )
        await self._commit(seat, action)

    async def back(self, client: Client) -> None:
        """A player the turn clock counted as away says it is back (``tables.clocks``); the other
        server processes are told."""
        seat = _seat_of(client)
        async with self._lock:
            if self.come_back(seat) and self.settings.shared:
                self.store.clock_back(self.id, seat)

    def come_back(self, seat: int) -> bool:
        """The seat's player is back (here or at another server process); False if it was not away."""
        if not self._turns.away(seat):
            return False
        to_act = self.started and not self.finished and self.state.current_player == seat
        self._turns.back(seat, to_act, time.time())
        self.broadcast()
        self.kick()
        return True

    async def _commit(self, seat: int, action: int, stand_in: bool = False, timed_out: bool = False) -> None:
        """Store, apply, announce; the caller holds the lock. StoreError: nothing changed.

        ``stand_in``: the computer acted for an away player, ``timed_out``: for a player whose turn
        clock ran out (a stand-in's action too; stored with the action: a game a stand-in played
        most of a seat's decisions of is not rated)."""
        text = action_text(seat, action, self.rules.max_bid)
        stand_in = stand_in or timed_out
        try:
            cancelled = await committed(
                self.store.append_action(self.id, self.seq, text, stand_in, timed_out)
            )
        except ConflictError:  # another server process filled this place first
            seq = self.seq
            await self._catch_up()
            raise RoomError(
                "stale", f"that was sent for state {seq}, but the game is at state {self.seq}"
            ) from None
        self._apply(seat, action, text, committed_here=True, stand_in=stand_in, timed_out=timed_out)
        if cancelled:
            raise asyncio.CancelledError

    def _apply(
        self,
        seat: int,
        action: int,
        text: str,
        *,
        committed_here: bool,
        stand_in: bool = False,
        timed_out: bool = False,
    ) -> None:
        """A committed action: apply it and tell the clients. The process that committed it also
        marks a finished game and has its replay built."""
        hand = self.state.hand_index
        if stand_in:
            self.row.stand_ins.add(self.seq)
        if timed_out:
            self.row.timed_out.add(self.seq)
        self.row.actions.append(text)
        self.state.apply(action)
        self.last = (seat, action)
        self.active_at = self.clock()
        self._turns.decided(seat, stand_in, timed_out, time.time(), self.state.hand_index != hand)
        if self.state.hand_index != hand or self.finished:
            log.info("table %s: hand %d finished", self.id, hand + 1)
        if self.finished:
            self.row.finished = True
            if committed_here:
                self.store.mark_finished(self.id)
                log.info("table %s: game over", self.id)
                if self.settings.game_over:
                    over = GameOver(self.finished_game(), self.game_end())
                    for listener in self.settings.game_over:
                        listener(over)
        self.broadcast()
        if self.finished:
            self.chat.game_over()
        self.kick()

    async def set_chat(self, on: bool) -> None:
        """Turn the table's chat on or off (its creator's choice): stored, then every client is told
        with a ``chat_history`` (empty while off), here and at the other server processes.
        StoreError: nothing changed."""
        await self.chat.switch(on)

    # ------------------------------------------------------------------ other server processes

    async def learn(self, seq: int, text: str, stand_in: bool = False, timed_out: bool = False) -> None:
        """Action number ``seq``, committed by another server process (told through the database),
        made by a stand-in or because a turn clock ran out (``tables_db.news_payload``)."""
        async with self._lock:
            if seq == self.seq:
                seat, action = self._stored(text)
                self._apply(seat, action, text, committed_here=False, stand_in=stand_in, timed_out=timed_out)
            elif seq > self.seq:  # news was missed: read what is missing
                await self._catch_up()

    async def catch_up(self) -> None:
        """Read the actions and seat claims other server processes committed (news may be lost)."""
        async with self._lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """The caller holds the lock."""
        news = await self.store.load_news(self.id, self.seq)
        for stored in news.seats:
            s = self.seats[stored.seat]
            if (stored.kind, stored.player) != (s.row.kind, s.row.player):
                self.seat_changed(stored.seat, stored.kind, stored.player)
            if s.row.pending and not stored.pending:  # taken up, or given up (and maybe taken since)
                self.seat_answered(stored.seat, stored.secret_hash == s.row.secret_hash)
            if stored.secret_hash is not None and s.row.secret_hash is None:
                self.seat_taken(stored.seat, stored.name or "", stored.secret_hash, stored.profile)
            if stored.handed != s.row.handed:
                self.seat_handed(stored.seat, stored.handed)
        for viewer in news.barred - self.row.barred:
            self.viewer_barred(viewer)
        if news.closed and not self.closed:
            self.table_closed()
        if news.next_table is not None and self.row.next_table is None:
            self.next_table_set(news.next_table)
        for text in news.actions:
            seat, action = self._stored(text)
            self._apply(seat, action, text, committed_here=False)

    def _stored(self, text: str) -> tuple[int, int]:
        """A stored action, checked to be in turn (a table that no longer replays is not served on)."""
        try:
            return parse_turn_text(text, self.rules.max_bid, self.state.current_player)
        except ActionError as exc:
            raise StoreError(f"table {self.id}: stored action {exc}") from None

    def set_remote(self, presence: dict[int, frozenset[str]]) -> None:
        """Where each seat's player is connected among the other server processes (a heartbeat's
        survey, which also notices processes that died)."""
        changed = [self._move(s, presence.get(s.row.seat, frozenset())) for s in self.seats]
        if any(changed):
            self.broadcast()
            self.kick()

    def remote_presence(self, seat: int, process: str, present: bool) -> None:
        """A seat's player connected to (or left) another server process."""
        s = self.seats[seat]
        if self._move(s, s.elsewhere | {process} if present else s.elsewhere - {process}):
            self.broadcast()
            self.kick()

    def _move(self, s: SeatState, elsewhere: frozenset[str]) -> bool:
        if elsewhere == s.elsewhere:
            return False
        was_present = s.present
        s.elsewhere = elsewhere
        if s.present:
            s.away_since = None
        elif was_present:
            s.away_since = self.clock()
            self._schedule_away_check()
        return was_present != s.present

    def set_driving(self, driving: bool) -> None:
        """This process took (or lost) the table's lease: its computer players are ours to drive."""
        if driving == self.driving:
            return
        self.driving = driving
        if driving:
            self.start()
        elif self._driver is not None:
            self._driver.cancel()

    # ------------------------------------------------------------------ the host's and the seats' changes

    async def commit_change(self, write: Write, apply: Callable[[], None]) -> None:
        """A change of the host's (``tables.host``) or of a held seat's (``tables.again``),
        checked by the caller: committed, then applied here. Under the lock, so no action is
        between its check and its commit."""
        async with self._lock:
            await self.store.write(write)
            apply()

    def seat_changed(self, seat: int, kind: str, player: str | None) -> None:
        """Before the start, the host made the seat a person's (free) or a computer's."""
        s = self.seats[seat]
        old = s.client
        s.row.kind, s.row.player = kind, player
        s.row.name = s.row.secret_hash = s.row.profile = None
        s.client, s.elsewhere = None, frozenset()
        s.away_since = self.clock() if kind == "human" else None
        if old is not None:
            old.removed("seat_changed", "the table's host changed your seat; take a free one to play")
        self._seats_changed()

    def seat_handed(self, seat: int, handed: bool) -> None:
        """The host gave the seat to the computer for the rest of the game, or gave it back."""
        self.seats[seat].row.handed = handed
        self.broadcast()
        self.kick()

    def viewer_barred(self, viewer: str) -> None:
        """The host removed a spectator: its pages here are closed, and it may not watch again."""
        self.row.barred.add(viewer)
        for client in [c for c in self.spectators if c.viewer == viewer]:
            self.spectators.discard(client)
            client.removed("removed", "the table's host removed you as a spectator")

    def table_closed(self) -> None:
        """The host closed the table: everyone is told, and its computers stop."""
        self.row.closed = self.row.finished = True
        self._table = replace(self._table, closed=True)
        if self._driver is not None:
            self._driver.cancel()
        self.broadcast()

    def seat_answered(self, seat: int, accepted: bool) -> None:
        """The seat held for its player of the previous game was taken up, or given up (free)."""
        row = self.seats[seat].row
        row.pending = False
        if not accepted:
            row.name = row.secret_hash = row.profile = None
        self._seats_changed()

    async def take_up(self, seat: int) -> None:
        """The player of the previous game came to the seat held for them."""
        if self.seats[seat].row.pending:
            try:
                await self.commit_change(
                    SeatAnswered(self.id, seat, True), lambda: self.seat_answered(seat, True)
                )
            except ConflictError:  # answered at another server process: read how
                await self.catch_up()

    def next_table_set(self, table_id: str) -> None:
        """The next game's table was set up: every page of this one is told."""
        self.row.next_table = table_id
        self._table = replace(self._table, next=table_id)
        self.broadcast()

    def spectator_list(self) -> list[dict[str, str | None]]:
        """The spectators watching through this process, once per browser (for the host)."""
        seen: dict[str | None, str | None] = {}
        for client in self.spectators:
            if client.viewer is not None:
                seen.setdefault(client.viewer, client.name)
        return [{"viewer": viewer, "name": name} for viewer, name in sorted(seen.items(), key=str)]

    # ------------------------------------------------------------------ computer players

    def kick(self) -> None:
        """Start the computer-player driver if a computer is to act and none is running; else wake
        it when the turn clock runs out."""
        if self.stopped:
            return
        if self._to_drive():
            if self._driver is None or self._driver.done():
                self._driver = asyncio.get_running_loop().create_task(self._drive())
            return
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        left = self.clock_left()
        if self.driving and left is not None:
            self._clock_timer = asyncio.get_running_loop().call_later(left + 0.01, self.kick)

    def _to_drive(self) -> bool:
        """A computer (or a stand-in) is to act, and this process drives the table."""
        return self.driving and self.computer_turn()

    async def _drive(self) -> None:
        while self._to_drive():
            await asyncio.sleep(self.settings.bot_delay)
            if not self._to_drive():
                return
            seat = self.state.current_player
            row = self.seats[seat].row
            seq = self.seq
            # a thread keeps the tables served while a slow player thinks (the solver lets go of
            # the GIL); the player is given a copy of the game, as the game goes on meanwhile
            action = await asyncio.to_thread(
                self._computers.decide,
                self.state.clone(),
                player_name(row.kind, row.player),
                seq,
                tuple(self.row.actions),
            )
            try:
                async with self._lock:
                    if self.seq != seq or not self._to_drive():
                        continue  # the player came back and acted meanwhile
                    # a person's decision not made by a stand-in for one away: the clock ran out
                    timed_out = row.kind == "human" and not self.stand_in(seat)
                    await self._commit(seat, action, stand_in=row.kind == "human", timed_out=timed_out)
            except RoomError:
                continue  # another server process committed first; this room has caught up
            except StoreError as exc:
                log.error(
                    "table %s: could not store a computer action (%s); retrying",
                    self.id,
                    exc,
                    extra=fields(self.id, "store_failed", seat),
                )
                await asyncio.sleep(1.0)

    def _schedule_away_check(self) -> None:
        """Look again when the seat that just left (or every seat, after a restart) counts as away."""
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.settings.away_seconds + 0.01, self._away_check)
        self._wakeups.add(handle)

    def _away_check(self) -> None:
        self._wakeups = {
            h for h in self._wakeups if not h.cancelled() and h.when() > asyncio.get_running_loop().time()
        }
        self.broadcast()  # the seat now shows as played by the computer
        self.kick()

    def start(self) -> None:
        """After a (re)start: arm the away timers and let computers move."""
        if any(s.row.kind == "human" for s in self.seats) and not self.over:
            self._schedule_away_check()
        self.kick()

    def stop(self) -> None:
        self.stopped = True
        if self._driver is not None:
            self._driver.cancel()
        if self._clock_timer is not None:
            self._clock_timer.cancel()
        for handle in self._wakeups:
            handle.cancel()

    async def drain(self) -> None:
        """Stop for a restart, and return once the computer-player driver has ended and no
        change is under way.

        The driver is cancelled where it waits; a cancelled commit still finishes
        (``committed`` shields it). Taking the lock waits for a client's action whose
        commit is under way, so it is applied and announced before the clients are told
        to reconnect.
        """
        self.stop()
        if self._driver is not None and not self._driver.done():
            await asyncio.wait([self._driver])
        async with self._lock:
            pass

    # ------------------------------------------------------------------ views

    def _name(self, seat: int) -> str:
        row = self.seats[seat].row
        if row.name:
            return row.name
        if row.kind == "computer":
            return computer_seat_name(seat, row.player)
        return f"Seat {seat + 1}"

    def seat_facts(self) -> tuple[Seat, ...]:
        """Each seat as the table shows it now (made at every change: positional arguments and
        a list are quicker than keywords and a generator)."""
        return tuple(
            [
                Seat(
                    s.row.seat,
                    self._name(s.row.seat),
                    s.row.kind,
                    s.row.player,
                    s.claimed,
                    s.row.kind == "computer" or s.present,
                    self.stand_in(s.row.seat),
                    s.row.handed,
                    s.row.pending,
                )
                for s in self.seats
            ]
        )

    def seats_json(self) -> list[dict[str, Any]]:
        return [seat.json() for seat in self.seat_facts()]

    def facts(self) -> TableFacts:
        """What the state messages tell besides the game (``table_view``)."""
        left = self.clock_left()
        return TableFacts(
            self._table,
            self.seat_facts(),
            self.seq,
            self._started,
            self.last,
            None if left is None else round(max(left, 0.0), 2),
            self.seq - 1 in self.row.timed_out,
        )

    def summary(self) -> dict[str, Any]:
        """The table as the lobby and the API describe it (public)."""
        return {
            "id": self.id,
            "title": self.row.title,
            "variant": self.rules.id,
            "name": self.rules.name,
            "options": self.row.options,
            "players": self.rules.players,
            "seats": self.seats_json(),
            "free_seats": [s.row.seat for s in self.seats if not s.claimed],
            "phase": PHASE_NAMES[self.state.phase] if self.started else "waiting",
            "hand_index": self.state.hand_index,
            "scores": list(self.state.scores),
            "finished": self.finished,
            "closed": self.closed,
            "next": self.row.next_table,
            "winner": self.state.winner,
            "created": self.row.created_at.isoformat(),
            "practice": self.row.practice,
            "rated": self.rated,
            "unrated": self._table.unrated,
            "unrated_seat": self._table.unrated_seat,
            "hands": self.row.hands,
            "clock": self.row.clock,
        } | rules_json(self.rules)

    def state_messages(self, seats: Iterable[int | None]) -> dict[int | None, str]:
        """The ``state`` message for each of ``seats`` (None: a spectator)."""
        return {seat: text.decode() for seat, text in self._state_texts(seats).items()}

    def _state_texts(self, seats: Iterable[int | None]) -> dict[int | None, bytes]:
        """The ``state`` message for each of ``seats``, encoded (UTF-8 JSON), as they are sent."""
        return state_messages(self.state, self.facts(), seats, self._memo)

    def broadcast(self) -> None:
        """Send each connected client the table as its seat sees it."""
        clients: list[Client] = [s.client for s in self.seats if s.client is not None]
        clients.extend(self.spectators)
        if not clients:
            return
        messages = self._state_texts(client.seat for client in clients)
        for client in clients:
            client.send(messages[client.seat])

    def game_end(self) -> GameEnd:
        """What the finished game's rating is made from (the hands' results are the game's own)."""
        return GameEnd(
            table_id=self.id,
            variant=self.row.variant,
            options=dict(self.row.options),
            practice=self.row.practice,
            hands=self.row.hands,
            scores=tuple(self.state.scores),
            winner=self.state.winner,
            results=tuple(self.state.results),
            actions=tuple(self.row.actions),
        )

    def finished_game(self) -> FinishedGame:
        """What the finished game's record and replay are built from; RoomError before the end.

        (A record or replay shows every hand, so they come at the end.)
        """
        if not self.finished:
            raise RoomError(
                "unfinished", "the game is not over; its record shows every hand, so it comes at the end"
            )
        return FinishedGame(
            table_id=self.id,
            variant=self.row.variant,
            options=dict(self.row.options),
            seed=self.row.seed,
            actions=tuple(self.row.actions),
            names=tuple(self._name(s) for s in range(self.rules.players)),
            summary=self.summary(),
            hands=self.row.hands,
            timed_out=tuple(sorted(self.row.timed_out)),
        )


def _seat_of(client: Client) -> int:
    """The seat a client acts for; RoomError for a spectator."""
    if client.seat is None:
        raise RoomError("auth", "spectators cannot act; take a seat to play")
    return client.seat
