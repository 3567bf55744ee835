"""Practice tables: a player may ask for a hint, the expert's value of each legal choice now.

``GET /api/tables/{table}/hint`` with the seat's secret (``X-Pedro-Secret``)
answers, at a practice table and on the seat's turn, what ``pedro play
--hints`` shows: every legal choice with the expert's estimate, from the
seat's own observation. The estimate is made in a review worker process (the
game played to now, then the expert asked), never on the event loop; a hint
asked again at the same moment is answered from memory. Practice tables are
unrated, and their pages say so.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.finished.workers import Workers
from pedro.server.http.errors import Refusals
from pedro.server.reviews.compute import HintJob, hint
from pedro.server.storage.tables_db import hash_secret
from pedro.server.tables.registry import TableRegistry

#: Hints kept in memory (one per table and moment).
KEPT = 256
#: The user-visible messages, together (they may be translated).
MESSAGES = {
    "no_table": "no such table (check the link)",
    "not_practice": "hints are given at practice tables only (this table is not one)",
    "no_secret": "send your seat's secret (the X-Pedro-Secret header) to ask for a hint",
    "over": "the game is over: its review (on the replay page) values every decision",
    "not_turn": "a hint is for your own turn, and it is not your turn",
}


#: A refused hint: said in the page's language from ``practice.error.<code>`` (an answer without
#: fields: it never had any).
_refuse = Refusals(MESSAGES, with_fields=False)


class Hints:
    """Hints made in the review workers, kept per table and moment."""

    def __init__(self, workers: Workers, registry: TableRegistry) -> None:
        self.workers = workers
        self.registry = registry
        self.kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/tables/{table}/hint", self.hint)]

    async def hint(self, request: Request) -> Response:
        """``GET /api/tables/{table}/hint``, the seat's secret in ``X-Pedro-Secret``."""
        found = await self.for_seat(request.path_params["table"], request.headers.get("x-pedro-secret"))
        return JSONResponse(found)

    async def for_seat(self, table_id: str, secret: str | None) -> dict[str, Any]:
        room = await self.registry.get(table_id)
        if room is None:
            raise _refuse(404, "no_table")
        if not room.row.practice:
            raise _refuse(403, "not_practice")
        seat = room.seat_for_secret(hash_secret(secret)) if secret else None
        if seat is None:
            raise _refuse(403, "no_secret")
        if room.finished:
            raise _refuse(409, "over")
        if not room.started or room.state.current_player != seat:
            raise _refuse(409, "not_turn")
        key = (table_id, room.seq)
        found = self.kept.get(key)
        if found is None:
            row = room.row
            job = HintJob(table_id, row.variant, dict(row.options), row.seed, tuple(row.actions), seat)
            found = self.kept[key] = {"seq": room.seq, "seat": seat} | await self.workers.run(hint, job)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return found
