"""Duplicate tournaments for people: the same deals at every table, results compared deal by deal.

A director creates a tournament (variant, house rules, deals, tables, which
seats are computers and how strong); players join by its link and take a free
seat. A table starts when its human seats are taken, and plays the deals in
order, each deal a table of its own that ends after one hand: deal ``i`` is
the first hand of ``GameState(rules, seed=seed + i)``, the deal ``pedro
tournament --seed`` plays as its deal ``i``, so it is the same at every table.

Who holds which cards is ``pedro.tournament.duplicate.seatings``: an entrant
(a pair, or a player alone) stays at its table, and on odd deals the entrants
of a table hold the next side's cards; the matchpoints are that module's too.
Here only the seats are mapped: the player of a seat at a table's first deal
(its *home* seat) sits, at a later deal, in the seat of the same place within
the side whose cards the entrant holds then.

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
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pedro.players.levels import LEVELS
from pedro.server.http.errors import HttpError, option_refusal
from pedro.server.http.request_body import MAX_NAME_CHARS, Name, Strict, Title, read_body
from pedro.server.storage.tables_db import ConflictError, SeatRow, TableRow, hash_secret
from pedro.server.tables.game import FinishedGame
from pedro.server.tables.limits import CreationLimits, LimitError, check_strength
from pedro.server.tables.registry import TableRegistry
from pedro.server.tournaments.queries import DealTable, TournamentRow, TournamentSeat, TournamentStore
from pedro.tournament.duplicate import Seating, matchpoints, seatings
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset

log = logging.getLogger("pedro.server")

#: The most deals and tables a tournament may have.
MAX_DEALS = 32
MAX_TABLES = 8
#: Deal seeds are drawn below this (``seed + deal`` fits the database's 64-bit integer): far too
#: many to find a tournament's seed by trying them against the cards of one's own hand.
SEED_LIMIT = 2**62

_LEVELS = {level.name: level for level in LEVELS}
#: Table ids known to show no hidden deal (not a deal, or a deal every table has played): kept,
#: as they stay so, up to this many.
KNOWN_SHOWN = 10_000


# ---------------------------------------------------------------------------- requests


class TournamentSeatSpec(Strict):
    kind: Literal["human", "computer"]
    #: a computer's strength level (``beginner``, ``club``, ``strong``, ``expert``)
    level: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


class CreateTournament(Strict):
    variant: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    title: Title = ""
    deals: Annotated[int, Field(ge=1, le=MAX_DEALS)]
    #: per table, its seats at the first deal
    seats: list[list[TournamentSeatSpec]] = Field(min_length=2, max_length=MAX_TABLES)


class JoinTournament(Strict):
    table: Annotated[int, Field(ge=0)]
    seat: Annotated[int, Field(ge=0)]
    name: Name


class Secret(Strict):
    secret: Annotated[str, StringConstraints(min_length=1, max_length=100)]


# ---------------------------------------------------------------------------- seats


def sides_of(rules: Ruleset) -> list[list[int]]:
    return rules.sides()


def home_seat(rules: Ruleset, seating: Seating, table_no: int, seat: int) -> int:
    """The home seat of the player who sits in ``seat`` at ``seating``'s deal: the entrant holding
    that seat's side, and the seat of the same place within the entrant's home side."""
    sides = sides_of(rules)
    side = rules.side_of(seat)
    entrant = seating.entrants[side]
    return sides[entrant - table_no * len(sides)][sides[side].index(seat)]


def entrant_of(rules: Ruleset, table_no: int, seat: int) -> int:
    """The entrant a home seat belongs to (``duplicate``'s numbering: ``table * sides + side``)."""
    return table_no * len(sides_of(rules)) + rules.side_of(seat)


def level_of(player: str | None) -> str | None:
    for level in LEVELS:
        if level.player == player:
            return level.name
    return None


def seat_name(s: TournamentSeat) -> str:
    if s.kind == "computer":
        return f"{level_of(s.player) or s.player} computer"
    return s.name or f"Seat {s.seat + 1}"


# ---------------------------------------------------------------------------- the tournaments


class Tournaments:
    """The server's tournaments: created, joined, advanced deal by deal, and shown."""

    def __init__(self, store: TournamentStore, registry: TableRegistry, creations: CreationLimits) -> None:
        self.store = store
        self.registry = registry
        self.creations = creations
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._shown: OrderedDict[str, None] = OrderedDict()

    # ------------------------------------------------------------------ creating and joining

    def new(self, spec: CreateTournament) -> tuple[TournamentRow, str]:
        """A tournament from a request, and its director's secret; HttpError if it is not valid."""
        if spec.variant not in VARIANTS:
            raise HttpError.of(400, "unknown_variant", variant=spec.variant, variants=", ".join(VARIANTS))
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
                except LimitError as exc:
                    raise HttpError.of(
                        400, "tournament_seat_player", table_no=t + 1, seat_no=i + 1, why=str(exc)
                    ) from None
                seats.append(TournamentSeat(t, i, "computer", player=level.player))
        director = secrets.token_urlsafe(24)
        row = TournamentRow(
            id=secrets.token_urlsafe(12),
            title=spec.title or f"{rules.name} duplicate",
            variant=rules.id,
            options=dict(spec.options),
            seed=secrets.randbelow(SEED_LIMIT),
            deals=spec.deals,
            tables=len(spec.seats),
            director_hash=hash_secret(director),
            created_at=datetime.now(UTC),
            seats=seats,
        )
        return row, director

    def check_limits(self, client: str, row: TournamentRow) -> None:
        """The server's creation limits, a tournament counting as one new table; a tournament of
        computers only counts each of its tables among the tables without a human seat."""
        first = self.deal_row(row, make_ruleset(row.variant, row.options), 0, 0)
        try:
            self.creations.check(client, first, self.registry.rooms)
        except LimitError as exc:
            raise HttpError(exc.status, exc.message, None, exc.code, exc.fields) from None
        cap = self.creations.limits.computer_only_tables
        if all(s.kind == "computer" for s in row.seats) and row.tables > cap:
            raise HttpError.of(429, "tournament_computers_cap", cap=cap)
        self.creations.created(client, row.id)

    async def create(self, row: TournamentRow) -> None:
        await asyncio.to_thread(self.store.create, row)
        log.info("tournament %s created: %s, %d tables, %d deals", row.id, row.variant, row.tables, row.deals)
        await self.advance(row.id)

    async def load(self, tournament_id: str) -> TournamentRow:
        row = await asyncio.to_thread(self.store.load, tournament_id)
        if row is None:
            raise HttpError.of(404, "no_tournament")
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
        seating = _seating(row, rules, table_no, deal)
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

    def game_over(self, game: FinishedGame) -> None:
        """A table's game ended: if it is a tournament's deal, the tournament moves on."""
        room = self.registry.rooms.get(game.table_id)
        if room is None or room.row.hands is None:
            return
        task = asyncio.get_running_loop().create_task(self._deal_played(game.table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deal_played(self, table_id: str) -> None:
        try:
            found = await asyncio.to_thread(self.store.tournament_of, table_id)
            if found is not None:
                await self.advance(found[0])
        except Exception:  # logged; the next look at the tournament advances it
            log.exception("table %s: its tournament could not move on", table_id)

    async def resume(self) -> None:
        """After a (re)start: every unfinished tournament carries on where it was."""
        for tournament_id in await asyncio.to_thread(self.store.unfinished):
            try:
                await self.advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not be resumed", tournament_id)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

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
                seating = _seating(row, rules, d.table_no, d.deal)
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
        while len(self._shown) > KNOWN_SHOWN:
            self._shown.popitem(last=False)
        return False


def complete_deals(row: TournamentRow) -> set[int]:
    """The deals every table has played: their tables and results may be shown."""
    played: dict[int, int] = {}
    for d in row.played:
        if d.change is not None:
            played[d.deal] = played.get(d.deal, 0) + 1
    return {deal for deal, tables in played.items() if tables == row.tables}


def _seating(row: TournamentRow, rules: Ruleset, table_no: int, deal: int) -> Seating:
    return seatings(row.tables, len(sides_of(rules)), row.deals)[deal * row.tables + table_no]


def summary(row: TournamentRow) -> dict[str, Any]:
    """The tournament as everyone may see it: seats, progress, the results of the deals every table
    has played (no other: their cards are still being played somewhere), and the standings."""
    rules = make_ruleset(row.variant, row.options)
    sides = sides_of(rules)
    seated = seatings(row.tables, len(sides), row.deals)
    changes = {(d.deal, d.table_no): d.change for d in row.played if d.change is not None}
    shown = complete_deals(row)
    standings = matchpoints(seated, changes)
    per_deal = {s.entrant: s.per_deal for s in standings}
    names = {
        entrant_of(rules, t, side[0]): [seat_name(_home(row, t, s)) for s in side]
        for t in range(row.tables)
        for side in sides
    }
    results = []
    for deal in range(row.deals):
        at_tables = [d for d in row.played if d.deal == deal]
        played = sorted(d.table_no for d in at_tables if d.change is not None)
        complete = deal in shown
        rows = []
        if complete:
            for d in sorted(at_tables, key=lambda d: d.table_no):
                seating = seated[deal * row.tables + d.table_no]
                assert d.change is not None
                rows.append(
                    {
                        "table": d.table_no,
                        "table_id": d.table_id,
                        "entrants": list(seating.entrants),
                        "change": list(d.change),
                        "matchpoints": [per_deal[e][deal] for e in seating.entrants],
                    }
                )
        results.append({"deal": deal, "complete": complete, "played": played, "tables": rows})
    progress = []
    for t in range(row.tables):
        played_here = [d for d in row.played if d.table_no == t]
        done = sum(1 for d in played_here if d.change is not None)
        progress.append(
            {
                "table": t,
                "started": bool(played_here),
                "played": done,
                "deal": None if done == row.deals or not played_here else played_here[-1].deal,
            }
        )
    return {
        "id": row.id,
        "title": row.title,
        "variant": rules.id,
        "name": rules.name,
        "options": row.options,
        "players": rules.players,
        "partnerships": rules.partnerships,
        "deals": row.deals,
        "tables": row.tables,
        # the seed gives every card of every deal: shown once every deal is played
        "seed": row.seed if row.finished else None,
        "created": row.created_at.isoformat(),
        "seats": [
            [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": level_of(s.player),
                    "name": seat_name(s) if s.claimed else None,
                    "claimed": s.claimed,
                    "entrant": entrant_of(rules, t, s.seat),
                }
                for s in row.table_seats(t)
            ]
            for t in range(row.tables)
        ],
        "free_seats": [[s.table_no, s.seat] for s in row.seats if not s.claimed],
        "entrants": [{"entrant": e, "names": n} for e, n in sorted(names.items())],
        "progress": progress,
        "results": results,
        "standings": [
            {
                "entrant": s.entrant,
                "per_deal": list(s.per_deal),
                "total": s.total,
                "most": s.most,
                "share": s.share,
            }
            for s in standings
        ],
        "finished": row.finished,
    }


def _home(row: TournamentRow, table_no: int, seat: int) -> TournamentSeat:
    s = row.seat(table_no, seat)
    assert s is not None
    return s


# ---------------------------------------------------------------------------- HTTP


def _tournaments(request: Request) -> Tournaments:
    tournaments: Tournaments = request.app.state.tournaments
    return tournaments


def _answer(exc: HttpError) -> Response:
    return JSONResponse(exc.body(), status_code=exc.status)


async def tournaments_endpoint(request: Request) -> Response:
    """``POST /api/tournaments``: a new tournament, its link and its director's secret."""
    tournaments = _tournaments(request)
    try:
        spec = await read_body(request, CreateTournament, 'see docs/server.md, "Duplicate tournaments"')
        row, director = tournaments.new(spec)
        client = request.client.host if request.client is not None else "unknown"
        tournaments.check_limits(client, row)
        await tournaments.create(row)
        created = await tournaments.load(row.id)
    except HttpError as exc:
        return _answer(exc)
    body = {"tournament": row.id, "director_secret": director, "url": f"/d/{row.id}"}
    return JSONResponse(body | {"summary": summary(created)}, status_code=201)


async def tournament_endpoint(request: Request) -> Response:
    """``GET /api/tournaments/{id}``: the public view (the standings as they are now)."""
    tournaments = _tournaments(request)
    try:
        tournament_id = request.path_params["tournament"]
        row = await tournaments.load(tournament_id)
        if not row.finished:
            await tournaments.advance(tournament_id)  # a result missed (a crash) is picked up here
            row = await tournaments.load(tournament_id)
    except HttpError as exc:
        return _answer(exc)
    return JSONResponse(summary(row))


async def join_endpoint(request: Request) -> Response:
    """``POST /api/tournaments/{id}/seats``: take a free seat; the secret opens every deal's table."""
    tournaments = _tournaments(request)
    try:
        claim = await read_body(
            request,
            JoinTournament,
            f'send {{"table": T, "seat": S, "name": "..."}} (names: 1 to {MAX_NAME_CHARS} characters)',
        )
        tournament_id = request.path_params["tournament"]
        secret = await tournaments.join(tournament_id, claim)
        row = await tournaments.load(tournament_id)
    except HttpError as exc:
        return _answer(exc)
    return JSONResponse(
        {"table": claim.table, "seat": claim.seat, "secret": secret} | tournaments.player(row, secret)
    )


async def me_endpoint(request: Request) -> Response:
    """``POST /api/tournaments/{id}/me``: where the player with this secret plays now."""
    tournaments = _tournaments(request)
    try:
        asked = await read_body(request, Secret, 'send {"secret": "..."}')
        row = await tournaments.load(request.path_params["tournament"])
        return JSONResponse(tournaments.player(row, asked.secret))
    except HttpError as exc:
        return _answer(exc)


async def director_endpoint(request: Request) -> Response:
    """``POST /api/tournaments/{id}/director``: every deal table, playing or played."""
    tournaments = _tournaments(request)
    try:
        asked = await read_body(request, Secret, 'send {"secret": "..."}')
        row = await tournaments.load(request.path_params["tournament"])
        return JSONResponse(tournaments.director(row, asked.secret))
    except HttpError as exc:
        return _answer(exc)
