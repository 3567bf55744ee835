"""What the offline app's worker calls for records: the open game's record, an opened record's
replay. JSON text in and out, as ``worker``'s calls.

A module of its own because records bring pydantic: the worker installs pydantic's compiled core
and imports this module only at the first call that needs it (``RECORD_CALLS`` in
static/soloworker.js), which keeps about a second off every start of the app.
"""

from __future__ import annotations

import json

from pedro.records import RecordError, ReplayError, record_from_game, recorded_game
from pedro.server.finished.replay_frames import replay_frames
from pedro.server.offline.worker import open_table
from pedro.server.tables.views import rules_json


def record() -> str:
    """The open game so far as a ``pedro-record/1`` record (``null`` when no game is open)."""
    table = open_table()
    if table is None:
        return "null"
    return json.dumps(record_from_game(table.state, table.names), ensure_ascii=False)


def replay(text: str) -> str:
    """An opened record's replay, as a server's ``GET /api/tables/{id}/replay`` answers it
    (``{"table", "record", "frames"}``), or an error saying what is wrong with the record."""
    try:
        state, actions = recorded_game(text)
    except (RecordError, ReplayError) as exc:
        return json.dumps({"type": "error", "code": "bad_record", "message": str(exc)})
    names = json.loads(text).get("names")
    frames = replay_frames(state, actions)
    rules = state.rules
    summary = {"id": "imported", "title": "", "options": dict(rules.options), "hands": None}
    body = {"table": summary | rules_json(rules), "record": record_from_game(state, names), "frames": frames}
    return json.dumps(body, ensure_ascii=False)
