"""Duplicate tournaments for people: the same deals at every table, results compared deal by deal.

A director creates a tournament (variant, house rules, deals, tables, which
seats are computers and how strong); players join by its link and take a free
seat. A table starts when its human seats are taken, and plays the deals in
order, each deal a table of its own that ends after one hand: deal ``i`` is
the first hand of ``GameState(rules, seed=seed + i)``, the deal ``pedro
tournament --seed`` plays as its deal ``i``, so it is the same at every table.

Who holds which cards, and what everyone may see, is ``standings``.

A deal's results (score changes, replays) are shown once every table has
played it, so nobody still playing a deal learns its cards from another table.
Its tables' ids are kept as secret until then (the director sees "playing" or
"played" only: a director may be a player too), and nobody may watch such a
table or fetch its replay or record, but the players seated at it
(``hidden_deal``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

from pedro.players.levels import LEVELS
from pedro.server.http.errors import HttpError, option_refusal
from pedro.server.storage.tables_db import ConflictError, SeatRow, TableRow, hash_secret
from pedro.server.tables.game import GameOver
from pedro.server.tables.limits import CreationLimits, check_strength
from pedro.server.tables.registry import TableRegistry
from pedro.server.tournaments.queries import DealTable, TournamentRow, TournamentSeat, TournamentStore
from pedro.server.tournaments.requests import CreateTournament, JoinTournament
from pedro.server.tournaments.standings import complete_deals, entrant_of, home_seat, seating_of
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset

log = logging.getLogger("pedro.server")

#: Deal seeds are drawn below this (``seed + deal`` fits the database's 64-bit integer): far too
#: many to find a tournament's seed by trying them against the cards of one's own hand.
_SEED_LIMIT = 2**62

_LEVELS = {level.name: level for level in LEVELS}
#: Table ids known to show no hidden deal (not a deal, or a deal every table has played): kept,
#: as they stay so, up to this many.
_KNOWN_SHOWN = 10_000


class PlayedDeals:
    """A game-over listener: the tables of tournament deals that ended here, for the tournaments.

    The rooms are made before the tournaments (which start the deals' rooms), so what they tell
    waits here until the tournaments follow it (``Tournaments.start``).
    """

    def __init__(self) -> None:
        self.tables: asyncio.Queue[str] = asyncio.Queue()

    def __call__(self, over: GameOver) -> None:
        if over.game.hands is not None:  # a tournament's deal (no other table has a number of hands)
            self.tables.put_nowait(over.game.table_id)


class Tournaments:
    """The server's tournaments: created, joined, advanced deal by deal, and shown."""

    def __init__(
        self,
        store: TournamentStore,
        registry: TableRegistry,
        creations: CreationLimits,
        played: PlayedDeals,
    ) -> None:
        self.store = store
        self.registry = registry
        self.creations = creations
        self.played = played
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._following: asyncio.Task[None] | None = None
        self._shown: OrderedDict[str, None] = OrderedDict()
        #: tournaments found broken (logged once)
        self._broken: set[str] = set()

    # ------------------------------------------------------------------ creating and joining

    def new(self, spec: CreateTournament) -> tuple[TournamentRow, str]:
        """A tournament from a request, and its director's secret; HttpError if it is not valid."""
        if spec.variant not in VARIANTS:
            raise HttpError.of(422, "unknown_variant", variant=spec.variant, variants=", ".join(VARIANTS))
        try:
            rules = make_ruleset(spec.variant, spec.options)
        except OptionError as exc:
            raise option_refusal(exc) from None
        seats = []
        for t, table in enumerate(spec.seats):
            if len(table) != rules.players:
                raise HttpError.of(
                    400, "tournament_seat_count", table_no=t + 1, variant=rules.name, players=rules.players,
                    described=len(table),
                )  # fmt: skip
            for i, s in enumerate(table):
                if s.kind == "human":
                    if s.level is not None:
                        raise HttpError.of(400, "tournament_human_level", table_no=t + 1, seat_no=i + 1)
                    seats.append(TournamentSeat(t, i, "human"))
                    continue
                level = _LEVELS.get(s.level or "club")
                if level is None:
                    raise HttpError.of(
                        400, "unknown_level", table_no=t + 1, seat_no=i + 1, level=s.level,
                        levels=", ".join(_LEVELS),
                    )  # fmt: skip
                try:
                    check_strength(level.player, self.creations.limits)
                except HttpError as exc:
                    raise HttpError.of(
                        400, "tournament_seat_player", table_no=t + 1, seat_no=i + 1, why=exc.message
                    ) from None
                seats.append(TournamentSeat(t, i, "computer", player=level.player))
        director = secrets.token_urlsafe(24)
        row = TournamentRow(
            id=secrets.token_urlsafe(12),
            title=spec.title or f"{rules.name} duplicate",
            variant=rules.id,
            options=dict(spec.options),
            seed=secrets.randbelow(_SEED_LIMIT),
            deals=spec.deals,
            tables=len(spec.seats),
            director_hash=hash_secret(director),
            created_at=datetime.now(UTC),
            seats=seats,
        )
        return row, director

    def check_limits(self, client: str, row: TournamentRow) -> None:
        """The server's creation limits, a tournament counting as one new table; and each of its
        tables of computers only counts among the tables without a human seat, as they all play
        at once, beside those the server runs already."""
        first = self.deal_row(row, make_ruleset(row.variant, row.options), 0, 0)
        self.creations.check(client, first, self.registry.rooms)
        cap = self.creations.limits.computer_only_tables
        computers = sum(1 for t in range(row.tables) if all(s.kind == "computer" for s in row.table_seats(t)))
        running = self.creations.computer_only_running(self.registry.rooms)
        if computers and running + computers > cap:
            raise HttpError.of(429, "tournament_computers_cap", cap=cap, tables=computers, running=running)
        self.creations.created(client, row.id)

    async def create(self, row: TournamentRow) -> None:
        await asyncio.to_thread(self.store.create, row)
        log.info("tournament %s created: %s, %d tables, %d deals", row.id, row.variant, row.tables, row.deals)
        await self.advance(row.id)

    async def load(self, tournament_id: str) -> TournamentRow:
        """A stored tournament; refused 410 if its house rules are no longer allowed (stored
        before their bounds): its deals cannot be made, nor its standings shown."""
        row = await asyncio.to_thread(self.store.load, tournament_id)
        if row is None:
            raise HttpError.of(404, "no_tournament")
        try:
            make_ruleset(row.variant, row.options)
        except OptionError as exc:
            if tournament_id not in self._broken:
                self._broken.add(tournament_id)
                log.warning("tournament %s is broken: it is not served: %s", tournament_id, exc)
            raise HttpError.of(410, "tournament_broken") from None
        return row

    async def join(self, tournament_id: str, claim: JoinTournament) -> str:
        """Take a free human seat; the player's secret (the key to every deal's table)."""
        row = await self.load(tournament_id)
        free = ", ".join(f"{s.table_no + 1}/{s.seat + 1}" for s in row.seats if not s.claimed) or "–"
        table_no, seat_no = claim.table + 1, claim.seat + 1
        seat = row.seat(claim.table, claim.seat)
        if seat is None or seat.kind != "human":
            raise HttpError.of(400, "tournament_not_human", table_no=table_no, seat_no=seat_no, free=free)
        if seat.claimed:
            code = "tournament_full" if free == "–" else "tournament_seat_taken"
            raise HttpError.of(409, code, table_no=table_no, seat_no=seat_no, free=free)
        secret = secrets.token_urlsafe(24)
        try:
            await asyncio.to_thread(
                self.store.claim, tournament_id, claim.table, claim.seat, claim.name, hash_secret(secret)
            )
        except ConflictError:
            raise HttpError.of(
                409, "tournament_seat_just_taken", table_no=claim.table + 1, seat_no=claim.seat + 1
            ) from None
        log.info("tournament %s: table %d seat %d taken", tournament_id, claim.table + 1, claim.seat + 1)
        await self.advance(tournament_id)
        return secret

    # ------------------------------------------------------------------ playing the deals

    def deal_row(self, row: TournamentRow, rules: Ruleset, table_no: int, deal: int) -> TableRow:
        """The table that plays ``deal`` at ``table_no``: one hand from the seed ``seed + deal``, each
        seat held by its player as ``duplicate.seatings`` moves the entrants."""
        seating = seating_of(row, rules, table_no, deal)
        seats = []
        for seat in range(rules.players):
            home = row.seat(table_no, home_seat(rules, seating, table_no, seat))
            assert home is not None
            seats.append(SeatRow(seat, home.kind, home.player, home.name, home.secret_hash))
        return TableRow(
            id=secrets.token_urlsafe(16),
            title=f"{row.title} · table {table_no + 1}, deal {deal + 1}",
            variant=row.variant,
            options=dict(row.options),
            seed=str(row.seed + deal),
            listed=False,
            created_at=datetime.now(UTC),
            seats=seats,
            hands=1,
        )

    async def advance(self, tournament_id: str) -> None:
        """Record the deals just played and start each table's next: when its human seats are all
        taken, the first deal; when a deal is played, the next. Safe to run again at any time (a
        deal's table is made once, here or at another server process)."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            row = await self.load(tournament_id)
            rules = make_ruleset(row.variant, row.options)
            for table_no in range(row.tables):
                if not all(s.claimed for s in row.table_seats(table_no)):
                    continue
                played = [d for d in row.played if d.table_no == table_no]
                if played and played[-1].change is None:
                    current = played[-1]
                    change = await self._result(current)
                    if change is None:
                        continue
                    await asyncio.to_thread(self.store.record, row.id, table_no, current.deal, change)
                    log.info("tournament %s: table %d played deal %d", row.id, table_no + 1, current.deal + 1)
                next_deal = len(played)
                if next_deal < row.deals:
                    await self._start(row, rules, table_no, next_deal)

    async def _result(self, deal: DealTable) -> tuple[int, ...] | None:
        """A deal table's score change per side once it is played, else None."""
        room = await self.registry.get(deal.table_id)
        if room is None or not room.finished:
            return None
        return tuple(room.state.results[0].change)

    async def _start(self, row: TournamentRow, rules: Ruleset, table_no: int, deal: int) -> None:
        table = self.deal_row(row, rules, table_no, deal)
        try:
            await asyncio.to_thread(self.store.add_deal, row.id, table_no, deal, table)
        except ConflictError:
            return  # made meanwhile by another server process
        room = await self.registry.get(table.id)
        if room is not None:
            room.set_driving(True)  # its lease was taken with it
        log.info("tournament %s: table %d starts deal %d (%s)", row.id, table_no + 1, deal + 1, table.id)

    async def _follow(self) -> None:
        """Each deal played here moves its tournament on (``PlayedDeals``)."""
        while True:
            table_id = await self.played.tables.get()
            task = asyncio.get_running_loop().create_task(self._deal_played(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _deal_played(self, table_id: str) -> None:
        try:
            found = await asyncio.to_thread(self.store.tournament_of, table_id)
            if found is not None:
                await self.advance(found[0])
        except Exception:  # logged; the next look at the tournament advances it
            log.exception("table %s: its tournament could not move on", table_id)

    async def start(self) -> None:
        """After a (re)start: every unfinished tournament carries on where it was, and the deals
        played from now on move theirs on."""
        self._following = asyncio.get_running_loop().create_task(self._follow())
        for tournament_id in await asyncio.to_thread(self.store.unfinished):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not be resumed", tournament_id)

    async def stop(self) -> None:
        following = [self._following] if self._following is not None else []
        for task in [*following, *self._tasks]:
            task.cancel()
        await asyncio.gather(*following, *self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------ views

    def player(self, row: TournamentRow, secret: str) -> dict[str, Any]:
        """Where the player with ``secret`` sits, and the table of the deal it is to play now."""
        secret_hash = hash_secret(secret)
        home = next((s for s in row.seats if s.secret_hash == secret_hash), None)
        if home is None:
            raise HttpError.of(403, "not_tournament_player")
        rules = make_ruleset(row.variant, row.options)
        current = None
        for d in row.played:
            if d.table_no == home.table_no and d.change is None:
                seating = seating_of(row, rules, d.table_no, d.deal)
                seat = next(
                    s for s in range(rules.players) if home_seat(rules, seating, d.table_no, s) == home.seat
                )
                current = {"deal": d.deal, "table_id": d.table_id, "seat": seat, "url": f"/t/{d.table_id}"}
        return {
            "table": home.table_no,
            "seat": home.seat,
            "name": home.name,
            "entrant": entrant_of(rules, home.table_no, home.seat),
            "current": current,
        }

    def director(self, row: TournamentRow, secret: str) -> dict[str, Any]:
        """Every deal table so far, played or still playing; a table's id only once its deal is played
        at every table (a director may play too, and the id leads to the deal's cards)."""
        if not secrets.compare_digest(hash_secret(secret), row.director_hash):
            raise HttpError.of(403, "not_director")
        complete = complete_deals(row)
        return {
            "deals": [
                {
                    "table": d.table_no,
                    "deal": d.deal,
                    "table_id": d.table_id if d.deal in complete else None,
                    "played": d.change is not None,
                }
                for d in row.played
            ]
        }

    async def hidden_deal(self, table_id: str) -> bool:
        """The table plays (or played) a tournament's deal that some table has not played yet: nobody
        but its seated players may watch it or see its replay, as those show the deal's cards."""
        if len(table_id) > 40 or table_id in self._shown:  # longer: no table's id
            return False
        found = await asyncio.to_thread(self.store.tournament_of, table_id)
        if found is not None:
            row = await asyncio.to_thread(self.store.load, found[0])
            if row is not None and found[2] not in complete_deals(row):
                return True
        self._shown[table_id] = None
        while len(self._shown) > _KNOWN_SHOWN:
            self._shown.popitem(last=False)
        return False
