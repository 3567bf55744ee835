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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pedro.analysis import ChoiceEstimator
from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState
from pedro.i18n import N_
from pedro.observation_json import label, words
from pedro.players import make_player
from pedro.server.finished.workers import Workers
from pedro.server.storage.tables_db import hash_secret
from pedro.server.tables.registry import TableRegistry
from pedro.variants.options import make_ruleset

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


@dataclass(frozen=True)
class HintJob:
    """A worker's job: the expert's estimates for ``seat`` after ``actions``."""

    table_id: str
    variant: str
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: str = ""
    actions: tuple[str, ...] = ()
    seat: int = 0


def hint(job: HintJob) -> dict[str, Any]:
    """In a worker: every legal choice of ``seat`` now, valued, best first."""
    state = GameState(make_ruleset(job.variant, dict(job.options)), seed=job.seed)
    for text in job.actions:
        state.apply(parse_action_text(text, state.rules.max_bid)[1])
    obs = state.observation(job.seat)
    rules = state.rules
    expert = cast(ChoiceEstimator, make_player("expert", f"hints:{job.table_id}"))
    est = expert.estimates(obs)
    if est is None:
        return {"unit": None, "choices": [], "legal": 0, "not_valued": N_("no hint for this decision")}
    return {
        "unit": est.unit,
        "choices": [
            {"action": words(a, rules), "label": label(a, rules), "value": round(v, 3)}
            for a, v in est.ranked()
        ],
        "legal": est.legal,
        "not_valued": est.note() or None,
    }


class Hints:
    """Hints made in the review workers, kept per table and moment."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers
        self.kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    async def for_seat(self, registry: TableRegistry, table_id: str, secret: str | None) -> dict[str, Any]:
        room = await registry.get(table_id)
        if room is None:
            raise HintError(404, "no_table")
        if not room.row.practice:
            raise HintError(403, "not_practice")
        seat = room.seat_for_secret(hash_secret(secret)) if secret else None
        if seat is None:
            raise HintError(403, "no_secret")
        if room.finished:
            raise HintError(409, "over")
        if not room.started or room.state.current_player != seat:
            raise HintError(409, "not_turn")
        key = (table_id, room.seq)
        found = self.kept.get(key)
        if found is None:
            row = room.row
            job = HintJob(table_id, row.variant, dict(row.options), row.seed, tuple(row.actions), seat)
            found = self.kept[key] = {"seq": room.seq, "seat": seat} | await self.workers.run(hint, job)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return found


class HintError(Exception):
    """A refused hint: the ``MESSAGES`` code, which the browser translates, and its English message."""

    def __init__(self, status: int, code: str) -> None:
        super().__init__(MESSAGES[code])
        self.status = status
        self.code = code
        self.message = MESSAGES[code]


async def hint_endpoint(request: Request) -> Response:
    hints: Hints = request.app.state.hints
    registry: TableRegistry = request.app.state.registry
    try:
        found = await hints.for_seat(
            registry, request.path_params["table"], request.headers.get("x-pedro-secret")
        )
    except HintError as exc:
        return JSONResponse({"error": exc.message, "code": exc.code}, status_code=exc.status)
    return JSONResponse(found)
