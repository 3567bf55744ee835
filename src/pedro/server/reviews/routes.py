"""Game reviews over HTTP: made hand by hand in the review workers, kept in the database, shown with progress.

``GET /api/tables/{table}/review/{seat}`` answers the review of a seat of a
table, ``POST /api/review`` the review of a seat of an uploaded
``pedro-record/1`` record (docs/server.md, "Game review"). A review not yet
made is started in the background and answered ``202`` with its progress
(hands done of hands to do, and its place in the queue); the page asks again until it is
``200``. Reviews wait their turn in ``reviews.queue``, which bounds how many one address
and the whole server may have asked for; a game longer than ``Limits.review_max_hands``
hands is refused.

The event loop only looks things up and waits: the game is played, and each
hand valued, in a worker process of their own pool (``--review-workers``),
so a review never holds up the tables or the replays. A table's reviewed
hands are stored (``reviews.queries``) as they are made, once per game,
seat and hand; an upload's are kept in memory for a while (it has no table), and an
upload that leaves memory takes its review with it, made or not.

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
from pedro.server.http.request_body import BodyRefusals, client_address, read_body
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
from pedro.server.reviews.queue import Key, Progress, ReviewQueue
from pedro.server.storage.tables_db import StoreError, TableRow, hash_secret
from pedro.server.tables.game import HiddenDeals
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room

log = logging.getLogger("pedro.server")

#: The largest uploaded record, in bytes (a long game's record is some tens of kilobytes).
MAX_RECORD_BYTES = 2 * 2**20
#: Uploads whose reviews are kept in memory (the oldest are forgotten first, their work dropped).
KEPT_UPLOADS = 32
#: Finished tables whose outline, and seats whose complete review, are kept in memory.
KEPT = 64
#: Digits past which a seat number is not read (every one is out of range; Python refuses to read
#: more than 4300).
_SEAT_DIGITS = 9
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
    "too_long": (
        "this game has {hands} hands; the server reviews games of up to {limit} hands "
        "(pedro analyze reviews any game on your own computer)"
    ),
    "too_many_reviews": (
        "you have {limit} reviews waiting or under way, the most one address may have; "
        "try again when one is done (in about {wait} s)"
    ),
    "reviews_busy": (
        "the server has {limit} reviews waiting or under way, the most it takes; try again in about {wait} s"
    ),
    "upload_gone": (
        "this upload's review is no longer kept (the server keeps the last {kept} uploads'); "
        "upload the record again"
    ),
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


class Reviews:
    """The reviews under way and of uploads; a table's finished hands are read from the store."""

    def __init__(
        self,
        workers: Workers,
        saved: SavedReviews,
        registry: TableRegistry,
        player: str,
        queue: ReviewQueue,
        max_hands: int,
    ) -> None:
        self.workers = workers
        self.registry = registry
        self.saved = saved
        self.player = player
        self.queue = queue
        self.max_hands = max_hands
        self.running: dict[Key, Progress] = {}
        self.uploads: OrderedDict[Key, Progress] = OrderedDict()
        self._outlines: OrderedDict[str, Outline] = OrderedDict()
        #: finished tables' seat names and hands, and their complete reviews, kept a while
        self._finished: OrderedDict[str, tuple[tuple[str, ...], int]] = OrderedDict()
        self._bodies: OrderedDict[Key, Body] = OrderedDict()

    # ------------------------------------------------------------------ tables

    async def of_table(
        self,
        request: Request,
        table_id: str,
        seat: int,
        secret: str | None,
        address: str,
        hidden: bool = False,
    ) -> Response:
        """A table's seat's review: from memory or the database when made, else its progress.

        ``hidden``: a tournament's deal not yet played at every table, whose reviews (its cards)
        only the seat's own player may read, as before a game ends.
        """
        key: Key = ("table", table_id, seat)
        names, hands, over, room = await self._outline_of_table(table_id, seat, secret, hidden)
        head = {"table": table_id, "seat": seat, "names": list(names), "over": over, "player": self.player}
        body = self._bodies.get(key)
        if body is not None and over:
            self._bodies.move_to_end(key)
            return await body_response(request, body)
        progress = self.running.get(key)
        if progress is not None and progress.task is not None:
            return self._progress(key, progress)
        if progress is not None and progress.error is not None:
            del self.running[key]  # said once; asked again, it is tried again
            return self._progress(key, progress)
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
        if key in self.running:  # asked for again while the room was read
            return self._progress(key, self.running[key])
        self._admit(hands, address)
        progress = self.running[key] = Progress(hands, done=hands - len(missing), head=head)
        self.queue.join(key, address, progress)

        async def save(hand: int, body: dict[str, Any]) -> None:
            data = gzip.compress(orjson.dumps(body), mtime=0)
            await asyncio.to_thread(self.saved.save, table_id, seat, self.player, hand, data)

        progress.task = asyncio.get_running_loop().create_task(
            self._make(key, progress, _game_of(room), seat, missing, save, forget=True)
        )
        return self._progress(key, progress)

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

    async def of_upload(self, record: dict[str, Any], seat: int, address: str) -> Response:
        """An uploaded record's seat's review: answered at once, made when its turn comes."""
        digest = hashlib.sha256(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)).hexdigest()
        key: Key = ("upload", digest, seat)
        if key not in self.uploads:
            await self._start_upload(key, record, address)
        return self.upload_review(key)

    async def _start_upload(self, key: Key, record: dict[str, Any], address: str) -> None:
        """Check the record (its length first: the check's cost grows with it) and queue its review."""
        listed = record.get("hands")
        # a record lists the hand being played when it was written too, which is not reviewed
        self._admit(len(listed) - 1 if isinstance(listed, list) else 0, address)
        game = ReviewGame(record=record)
        shape = await self._outline(key[1], game)
        seat = key[2]
        if not 0 <= seat < shape.players:
            raise _refuse(400, "bad_seat", seat=seat, last=shape.players - 1)
        if key in self.uploads:  # asked for again while the record was checked
            return
        self._admit(shape.hands, address)
        head = {"table": None, "seat": seat, "names": list(shape.names), "over": shape.over}
        progress = self.uploads[key] = Progress(shape.hands, head=head | {"player": self.player})
        self.queue.join(key, address, progress)
        while len(self.uploads) > KEPT_UPLOADS:
            self._drop(*self.uploads.popitem(last=False))

        async def keep(hand: int, body: dict[str, Any]) -> None:
            return None

        hands = list(range(1, shape.hands + 1))
        progress.task = asyncio.get_running_loop().create_task(
            self._make(key, progress, game, seat, hands, keep, forget=False)
        )

    def upload_review(self, key: Key) -> Response:
        """What is known of an upload's review: made, under way, waiting, or failed (said once)."""
        progress = self.uploads.get(key)
        if progress is None:
            raise _refuse(404, "upload_gone", kept=KEPT_UPLOADS)
        self.uploads.move_to_end(key)
        if progress.error is not None and progress.task is None:
            del self.uploads[key]  # asked again: tried again
            raise _refuse(503, "failed", why=progress.error)
        if len(progress.hands) == progress.total:
            hands = [progress.hands[h] for h in range(1, progress.total + 1)]
            return JSONResponse(_review(progress.head, hands))
        return self._progress(key, progress)

    def _drop(self, key: Key, progress: Progress) -> None:
        """An upload left memory: its review, if not made yet, is not made."""
        if progress.task is not None:
            progress.task.cancel()
        self.queue.leave(key)

    async def _outline(self, digest: str, game: ReviewGame) -> Outline:
        """The uploaded record's seats and hands, checked by replaying it: in a thread, as the
        review workers may be busy for minutes and the record is at most ``max_hands`` hands
        long (some milliseconds a hand)."""
        shape = self._outlines.get(digest)
        if shape is None:
            try:
                shape = await asyncio.to_thread(outline, game)
            except ValueError as exc:
                raise _refuse(400, "invalid_record", why=str(exc)) from None
            self._outlines[digest] = shape
            while len(self._outlines) > KEPT_UPLOADS:
                self._outlines.popitem(last=False)
        return shape

    def _admit(self, hands: int, address: str) -> None:
        """Refuse a review whose game is too long, or one more than ``address`` or the server
        may have waiting or under way."""
        if hands > self.max_hands:
            raise _refuse(422, "too_long", hands=hands, limit=self.max_hands)
        refusal = self.queue.refusal(address)
        if refusal is not None:
            retry = {"Retry-After": str(refusal.wait)}
            raise _refuse(429, refusal.code, retry, limit=refusal.limit, wait=refusal.wait)

    def _progress(self, key: Key, progress: Progress) -> Response:
        """A ``202`` while the review waits or is made, with its place in the queue; a ``503``
        once if it failed."""
        if progress.error is not None:
            body = {"status": "failed", **_refuse(503, "failed", why=progress.error).body()}
            return JSONResponse(progress.head | body, status_code=503)
        place = self.queue.place(key)
        status = {
            "status": "queued" if place else "working",
            "place": place,
            "done": progress.made,
            "total": progress.total,
        }
        if key[0] == "upload":
            status["id"] = key[1]
        return JSONResponse(progress.head | status, status_code=202)

    # ------------------------------------------------------------------ the work

    async def _make(
        self,
        key: Key,
        progress: Progress,
        game: ReviewGame,
        seat: int,
        hands: list[int],
        keep: Callable[[int, dict[str, Any]], Awaitable[None]],
        forget: bool,
    ) -> None:
        """When its turn comes, review ``hands`` one by one in the workers, keeping each as it comes."""
        try:
            await self.queue.wait_turn(key)
            start = time.perf_counter()
            for hand in hands:
                began = time.perf_counter()
                body = await self.workers.run(review_hand, HandJob(game, hand, seat, self.player))
                self.queue.timed(time.perf_counter() - began)
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
            self.queue.leave(key)
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
            Route("/api/review/{upload}/{seat}", self.uploaded_review),
        ]

    async def table_review(self, request: Request) -> Response:
        table_id = request.path_params["table"]
        return await self.reviews.of_table(
            request,
            table_id,
            _seat(request),
            request.headers.get(_SECRET_HEADER),
            client_address(request),
            hidden=await self.hidden.hidden_deal(table_id),
        )

    async def upload_review(self, request: Request) -> Response:
        upload = await read_body(request, _Upload, "", limit=MAX_RECORD_BYTES, refusals=_UPLOAD_REFUSALS)
        return await self.reviews.of_upload(upload.record, upload.seat, client_address(request))

    async def uploaded_review(self, request: Request) -> Response:
        """An upload's review asked for again by its id (the record's digest): no need to send the
        record at every look."""
        return self.reviews.upload_review(("upload", request.path_params["upload"], _seat(request)))


def _seat(request: Request) -> int:
    """The seat in the request's path, a number from 0."""
    text: str = request.path_params["seat"]
    if not (text.isascii() and text.isdigit()):
        raise _refuse(400, "seat_not_number", seat=text)
    return int(text) if len(text) < _SEAT_DIGITS else 10**_SEAT_DIGITS  # out of range, as any this long


class _Upload(BaseModel):
    """An uploaded record to review, and the seat whose review is asked for (other fields are
    let be: an upload never refused them)."""

    model_config = ConfigDict(strict=True)

    record: dict[str, Any]
    seat: int
