"""Game reviews over HTTP: made hand by hand in the review workers, kept in the database, shown with progress.

``GET /api/tables/{table}/review/{seat}`` answers the review of a seat of a
table, ``POST /api/review`` the review of a seat of an uploaded
``pedro-record/1`` record (docs/server.md, "Game review"). A review not yet
made is started in the background and answered ``202`` with its progress
(hands done of hands to do); the page asks again until it is ``200``.

The event loop only looks things up and waits: the game is played, and each
hand valued, in a worker process of their own pool (``--review-workers``),
so a review never holds up the tables or the replays. A table's reviewed
hands are stored (``reviews.queries``) as they are made, once per game,
seat and hand; an upload's are kept in memory for a while (it has no table).

Until a game is over, a seat's review is shown only to the seat's player
(the seat's secret, sent in the ``X-Pedro-Secret`` header) and covers the
hands finished so far; it holds nothing the seat did not see
(``reviews.compute``). After the game, anyone may read any seat's.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.i18n import N_
from pedro.server.finished.workers import WorkerError, Workers
from pedro.server.http.compressed import body_response
from pedro.server.http.errors import HttpError, Refusals
from pedro.server.http.request_body import BodyRefusals, read_body
from pedro.server.http.response_body import Body
from pedro.server.reviews.compute import (
    HandJob,
    Outline,
    ReviewGame,
    outline,
    review_hand,
    summary,
)
from pedro.server.reviews.queries import SavedReviews
from pedro.server.storage.tables_db import StoreError, TableRow, hash_secret
from pedro.server.tables.game import HiddenDeals
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room

log = logging.getLogger("pedro.server")

#: The largest uploaded record, in bytes (a long game's record is some tens of kilobytes).
MAX_RECORD_BYTES = 2 * 2**20
#: Uploads whose reviews are kept in memory (the oldest are forgotten first).
_KEPT_UPLOADS = 32
#: Finished tables whose outline, and seats whose complete review, are kept in memory.
KEPT = 64
#: The header that carries a seat's secret.
_SECRET_HEADER = "x-pedro-secret"
#: The user-visible messages, together (they may be translated).
MESSAGES = {
    "no_table": "no such table (check the link)",
    "bad_seat": "seat {seat}: this game has seats 0 to {last}",
    "not_yours": (
        "until the game is over, the review of seat {seat} is shown only to its player "
        "(open it from the browser that sits there)"
    ),
    "bad_upload": 'send {{"record": <a pedro-record/1 record>, "seat": N}}',
    "too_big": "the record is larger than {limit} bytes",
    "not_json": "the request body is not JSON",
    "failed": "the review could not be made: {why}",
    "bad_record": "{why}",
    "invalid_record": "the record is not valid: {why}",
    "seat_not_number": "seat {seat!r}: a seat is a number from 0",
}

#: A refused review: said in the page's language from ``review.error.<code>``.
_refuse = Refusals(MESSAGES)
#: How an uploaded record's body is refused (the review's own codes and limit).
_UPLOAD_REFUSALS = BodyRefusals(
    too_big=lambda limit: _refuse(413, "too_big", limit=limit),
    not_json=lambda why: _refuse(400, "not_json"),
    invalid=lambda exc, allowed: _refuse(422, "bad_upload"),
)
#: Why a review failed when the database did (the store's own words go to the log only).
NO_DATABASE = N_("the game database is not available")

_Key = tuple[str, str, int]  # ("table" or "upload", table id or record digest, seat)


@dataclass
class Progress:
    """A review being made (or made, for an upload): hands done of ``total``."""

    total: int
    #: the hands made here (an upload's are kept here; a table's go to the database)
    hands: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: hands made before (a table's, read from the database)
    done: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = None


class Reviews:
    """The reviews under way and of uploads; a table's finished hands are read from the store."""

    def __init__(self, workers: Workers, saved: SavedReviews, registry: TableRegistry, player: str) -> None:
        self.workers = workers
        self.registry = registry
        self.saved = saved
        self.player = player
        self.running: dict[_Key, Progress] = {}
        self.uploads: OrderedDict[_Key, Progress] = OrderedDict()
        self._outlines: OrderedDict[str, Outline] = OrderedDict()
        #: finished tables' seat names and hands, and their complete reviews, kept a while
        self._finished: OrderedDict[str, tuple[tuple[str, ...], int]] = OrderedDict()
        self._bodies: OrderedDict[_Key, Body] = OrderedDict()

    # ------------------------------------------------------------------ tables

    async def of_table(
        self,
        request: Request,
        table_id: str,
        seat: int,
        secret: str | None,
        hidden: bool = False,
    ) -> Response:
        """A table's seat's review: from memory or the database when made, else its progress.

        ``hidden``: a tournament's deal not yet played at every table, whose reviews (its cards)
        only the seat's own player may read, as before a game ends.
        """
        key: _Key = ("table", table_id, seat)
        names, hands, over, room = await self._outline_of_table(table_id, seat, secret, hidden)
        head = {"table": table_id, "seat": seat, "names": list(names), "over": over, "player": self.player}
        body = self._bodies.get(key)
        if body is not None and over:
            self._bodies.move_to_end(key)
            return await body_response(request, body)
        progress = self.running.get(key)
        if progress is not None and progress.task is not None:
            return _progress(head, progress)
        if progress is not None and progress.error is not None:
            del self.running[key]  # said once; asked again, it is tried again
            return _progress(head, progress)
        stored = await asyncio.to_thread(self.saved.load, table_id, seat, self.player)
        missing = [h for h in range(1, hands + 1) if h not in stored]
        if not missing:
            # decompressed and put together in a thread: a long game's review is large
            body = await asyncio.to_thread(_assemble, head, stored, hands)
            if over:
                self._bodies[key] = body
                _trim(self._bodies)
            return await body_response(request, body)
        if room is None:
            room = await _room(self.registry, table_id)
        progress = self.running[key] = Progress(hands, done=hands - len(missing))

        async def save(hand: int, body: dict[str, Any]) -> None:
            data = gzip.compress(orjson.dumps(body), mtime=0)
            await asyncio.to_thread(self.saved.save, table_id, seat, self.player, hand, data)

        progress.task = asyncio.get_running_loop().create_task(
            self._make(key, progress, _game_of(room), seat, missing, save, forget=True)
        )
        return _progress(head, progress)

    async def _outline_of_table(
        self, table_id: str, seat: int, secret: str | None, hidden: bool
    ) -> tuple[tuple[str, ...], int, bool, Room | None]:
        """The table's seat names, hands played, whether it is over, and its room if it was read
        (a finished table's outline is kept, so that its room need not be): after the checks that
        the seat exists and that the asker may read its review."""
        known = None if hidden else self._finished.get(table_id)
        if known is not None:
            names, hands = known
            if not 0 <= seat < len(names):
                raise _refuse(400, "bad_seat", seat=seat, last=len(names) - 1)
            return names, hands, True, None
        room = await _room(self.registry, table_id)
        names = _names(room)
        over, hands = room.finished, len(room.state.results)
        if not 0 <= seat < len(names):
            raise _refuse(400, "bad_seat", seat=seat, last=len(names) - 1)
        if (hidden or not over) and (
            secret is None or room.seats[seat].row.secret_hash != hash_secret(secret)
        ):
            if hidden:
                raise HttpError.of(403, "tournament_deal_hidden")
            raise _refuse(403, "not_yours", seat=seat)
        if over and not hidden:  # a finished game never changes: its outline is kept
            self._finished[table_id] = (names, hands)
            _trim(self._finished)
        return names, hands, over, room

    # ------------------------------------------------------------------ uploads

    async def of_upload(self, record: dict[str, Any], seat: int) -> Response:
        game = ReviewGame(record=record)
        digest = hashlib.sha256(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)).hexdigest()
        shape = await self._outline(digest, game)
        if not 0 <= seat < shape.players:
            raise _refuse(400, "bad_seat", seat=seat, last=shape.players - 1)
        key: _Key = ("upload", digest, seat)
        head = {
            "table": None,
            "seat": seat,
            "names": list(shape.names),
            "over": shape.over,
            "player": self.player,
        }
        progress = self.uploads.get(key)
        if progress is not None and progress.error is not None and progress.task is None:
            error, progress = progress.error, None
            del self.uploads[key]  # asked again: tried again
            raise _refuse(503, "failed", why=error)
        if progress is None:
            progress = self.uploads[key] = Progress(shape.hands)
            while len(self.uploads) > _KEPT_UPLOADS:
                self.uploads.popitem(last=False)

            async def keep(hand: int, body: dict[str, Any]) -> None:
                return None

            hands = list(range(1, shape.hands + 1))
            progress.task = asyncio.get_running_loop().create_task(
                self._make(key, progress, game, seat, hands, keep, forget=False)
            )
        self.uploads.move_to_end(key)
        if len(progress.hands) == progress.total:
            return JSONResponse(_review(head, [progress.hands[h] for h in range(1, progress.total + 1)]))
        return _progress(head, progress)

    async def _outline(self, digest: str, game: ReviewGame) -> Outline:
        """The uploaded record's seats and hands, checked in a worker (a long record takes a while)."""
        shape = self._outlines.get(digest)
        if shape is None:
            try:
                shape = await self.workers.run(outline, game)
            except ValueError as exc:
                raise _refuse(400, "invalid_record", why=str(exc)) from None
            self._outlines[digest] = shape
            while len(self._outlines) > _KEPT_UPLOADS:
                self._outlines.popitem(last=False)
        return shape

    # ------------------------------------------------------------------ the work

    async def _make(
        self,
        key: _Key,
        progress: Progress,
        game: ReviewGame,
        seat: int,
        hands: list[int],
        keep: Callable[[int, dict[str, Any]], Awaitable[None]],
        forget: bool,
    ) -> None:
        """Review ``hands`` one by one in the workers, keeping each as it comes."""
        start = time.perf_counter()
        try:
            for hand in hands:
                body = await self.workers.run(review_hand, HandJob(game, hand, seat, self.player))
                await keep(hand, body)
                if forget:
                    progress.done += 1  # a table's hands are read back from the database
                else:
                    progress.hands[hand] = body
            log.info(
                "review of %s seat %d: %d hands in %.1f s",
                key[1][:12],
                seat,
                len(hands),
                time.perf_counter() - start,
            )
        except (WorkerError, StoreError, ValueError) as exc:
            log.error("review of %s seat %d failed: %s", key[1][:12], seat, exc)
            # the reason is shown to the player: the store's own words stay in the log
            progress.error = NO_DATABASE if isinstance(exc, StoreError) else str(exc)
        finally:
            progress.task = None
            if forget and progress.error is None:
                self.running.pop(key, None)

    async def stop(self) -> None:
        tasks = [p.task for p in [*self.running.values(), *self.uploads.values()] if p.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _names(room: Room) -> tuple[str, ...]:
    return tuple(s["name"] or f"Seat {i + 1}" for i, s in enumerate(room.seats_json()))


def _game_of(room: Room) -> ReviewGame:
    row: TableRow = room.row
    names = _names(room)
    return ReviewGame(row.variant, dict(row.options), row.seed, tuple(row.actions), names, hands=row.hands)


async def _room(registry: TableRegistry, table_id: str) -> Room:
    room = registry.rooms.get(table_id)
    if room is None and len(table_id) <= 40:
        room = await asyncio.to_thread(registry.detached, table_id)
    if room is None:
        raise _refuse(404, "no_table")
    return room


def _review(head: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return head | {"status": "done", "hands": hands, "summary": summary(hands)}


def _assemble(head: dict[str, Any], stored: dict[int, bytes], hands: int) -> Body:
    """The review of a table's seat from its stored hands (in a thread)."""
    made = [orjson.loads(gzip.decompress(stored[h])) for h in range(1, hands + 1)]
    return Body.of_json(_review(head, made))


def _trim(kept: OrderedDict[Any, Any]) -> None:
    while len(kept) > KEPT:
        kept.popitem(last=False)


def _progress(head: dict[str, Any], progress: Progress) -> Response:
    status = {"status": "working", "done": progress.done + len(progress.hands), "total": progress.total}
    if progress.error is not None:
        status = {"status": "failed", **_refuse(503, "failed", why=progress.error).body()}
    return JSONResponse(head | status, status_code=202 if progress.error is None else 503)


# ---------------------------------------------------------------------------- endpoints


class ReviewRoutes:
    """The review endpoints: a table's seat's review, and an uploaded record's."""

    def __init__(self, reviews: Reviews, hidden: HiddenDeals) -> None:
        self.reviews = reviews
        self.hidden = hidden

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/tables/{table}/review/{seat}", self.table_review),
            Route("/api/review", self.upload_review, methods=["POST"]),
        ]

    async def table_review(self, request: Request) -> Response:
        seat_text = request.path_params["seat"]
        if not seat_text.isdigit():
            raise _refuse(400, "seat_not_number", seat=seat_text)
        table_id = request.path_params["table"]
        return await self.reviews.of_table(
            request,
            table_id,
            int(seat_text),
            request.headers.get(_SECRET_HEADER),
            hidden=await self.hidden.hidden_deal(table_id),
        )

    async def upload_review(self, request: Request) -> Response:
        upload = await read_body(request, _Upload, "", limit=MAX_RECORD_BYTES, refusals=_UPLOAD_REFUSALS)
        return await self.reviews.of_upload(upload.record, upload.seat)


class _Upload(BaseModel):
    """An uploaded record to review, and the seat whose review is asked for (other fields are
    let be: an upload never refused them)."""

    model_config = ConfigDict(strict=True)

    record: dict[str, Any]
    seat: int
