"""The table view stands alone: importing it brings the engine and the view builders, nothing of the
server around them, so a browser running Python (Pyodide) with pedro's engine can build the messages,
and without orjson (which Pyodide lacks) it builds the same bytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pedro
from pedro.engine.state import GameState
from pedro.server.tables import json_bytes, table_view, views
from pedro.server.tables.table_view import Seat, Table, TableFacts, ViewMemo, state_messages
from pedro.variants.options import make_ruleset

#: The parts of pedro the view may bring (a name, or a package ending in ".").
ALLOWED = (
    "pedro",
    "pedro.cards",
    "pedro.display",
    "pedro.engine",
    "pedro.engine.",
    "pedro.i18n",
    "pedro.marks",
    "pedro.observation_json",
    "pedro.variants",
    "pedro.variants.",
    "pedro.server",
    "pedro.server.tables",
    "pedro.server.tables.json_bytes",
    "pedro.server.tables.views",
    "pedro.server.tables.table_view",
)
#: What a browser has no use for, or cannot run: the server's database, web framework, event loop.
FORBIDDEN = ("sqlalchemy", "alembic", "psycopg", "starlette", "uvicorn", "anyio", "asyncio", "pydantic")


def test_importing_the_table_view_brings_nothing_of_the_server() -> None:
    code = "import sys, pedro.server.tables.table_view; print(' '.join(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=str(Path(pedro.__file__).parents[1]))
    loaded = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert "pedro.server.tables.table_view" in loaded
    ours = [m for m in loaded if m == "pedro" or m.startswith("pedro.")]
    allowed = [m for m in ours if any(m == a or (a.endswith(".") and m.startswith(a)) for a in ALLOWED)]
    assert ours == allowed
    assert [m for m in loaded if m.split(".")[0] in FORBIDDEN] == []


def _messages_of_a_played_game(variant: str) -> list[bytes]:
    """Every seat's and a spectator's message after each action of a seeded game, one memo throughout."""
    state = GameState(make_ruleset(variant), seed=7)
    n = state.rules.players
    table = Table("t1", "", {}, False, None, "no_profiles", None)
    seats = tuple(Seat(s, f"P{s}", "computer", "random", True, True, False) for s in range(n))
    memo = ViewMemo()
    sent: list[bytes] = []
    seq = 0
    last: tuple[int, int] | None = None
    while not state.is_over and seq < 400:
        facts = TableFacts(table, seats, seq, True, last)
        sent += state_messages(state, facts, [*range(n), None], memo).values()
        seat, action = state.current_player, state.legal_actions()[0]
        state.apply(action)
        last, seq = (seat, action), seq + 1
    return sent


@pytest.mark.parametrize("variant", ["cinch", "pidro", "sixty_three"])
def test_without_orjson_the_messages_are_the_same_bytes(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_orjson = _messages_of_a_played_game(variant)
    monkeypatch.setattr(table_view, "dumps", json_bytes._json_dumps)
    monkeypatch.setattr(views, "encoded_once", json_bytes._json_encoded_once)
    assert _messages_of_a_played_game(variant) == with_orjson
