"""A damaged record is refused with a ReplayError, never with any other exception.

Records come from other tools and hand edits; whatever is wrong with one,
``pedro replay`` must say what, not crash.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pedro.players.games import play_game
from pedro.records import ReplayError, record_from_game, replay
from pedro.variants.catalog import VARIANTS

_JUNK: list[Any] = [None, 0, -1, 99, 1.5, "", "x", "AS", "10h", "JK", [], {}, ["AS"], [[]], True]


def _record(variant: str, seed: int) -> dict[str, Any]:
    rules = VARIANTS[variant]
    state = play_game(rules, ["basic"] * rules.players, seed, 2)
    return json.loads(json.dumps(record_from_game(state)))


_BASE = {v: _record(v, 3) for v in ("cinch", "pidro", "king_pedro_canadian", "eighty_three", "nicaragua")}


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree, as a path of keys and indexes."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*prefix, index))
    return out


def _damage(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    damaged = copy.deepcopy(record)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(damaged)[1:])
        parent = damaged
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        kind = rng.randrange(4)
        if kind == 0:
            parent[key] = rng.choice(_JUNK)
        elif kind == 1 and isinstance(parent, dict):
            del parent[key]
        elif kind == 1 and isinstance(parent, list):
            parent.pop(key)
        elif kind == 2 and isinstance(parent, list) and len(parent) > 1:
            other = rng.randrange(len(parent))
            parent[key], parent[other] = parent[other], parent[key]
        elif isinstance(parent[key], str):
            text = parent[key]
            cut = rng.randrange(len(text) + 1)
            parent[key] = text[:cut] + rng.choice(["", " ", "9", "S", "play", "x"]) + text[cut + 1 :]
    return damaged


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(_BASE)), seed=st.integers(0, 2**32 - 1))
def test_damaged_records_are_refused_with_a_reason(variant: str, seed: int) -> None:
    damaged = _damage(_BASE[variant], random.Random(seed))
    try:
        replay(damaged)
    except ReplayError as error:
        assert str(error)  # a message that says what is wrong
