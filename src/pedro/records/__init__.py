"""Game records (``pedro-record/1``): write a game as JSON, read it back, replay it action by action.

A record holds only what chance and the players decided: each hand's deal
(first-deal hands, kitty, stock, and the ``wash`` when the stock ran dry) and
the written decisions as text. Everything else (automatic steps, points,
scores, the winner) follows from the rules, so a replay re-derives it and
checks every action on the way; see ``docs/records.md`` for the format.

>>> from pedro.engine.state import GameState
>>> from pedro.variants.options import make_ruleset
>>> state = GameState(make_ruleset("cinch"), seed=1)
>>> record = record_from_game(state, ["Ann", "Bo", "Cy", "Di"])
>>> result = replay(record)
>>> result.finished, len(result.results)
(False, 0)
"""

from pedro.records.model import FORMAT, HAND_FIELDS, RECORD_FIELDS, RecordError, ReplayError
from pedro.records.reading import pack_from_deal, read_record
from pedro.records.replaying import (
    BeforeAction,
    ReplayResult,
    ReplayStep,
    recorded_game,
    replay,
    replay_json,
    resume,
)
from pedro.records.writing import dumps_record, record_from_game, record_line, write_record

__all__ = [
    "FORMAT",
    "HAND_FIELDS",
    "RECORD_FIELDS",
    "BeforeAction",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "ReplayStep",
    "dumps_record",
    "pack_from_deal",
    "read_record",
    "record_from_game",
    "record_line",
    "recorded_game",
    "replay",
    "replay_json",
    "resume",
    "write_record",
]
