"""The table view stands alone: importing it brings the engine and the view builders, nothing of the
server around them, so a browser running Python (Pyodide) with pedro's engine can build the messages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pedro

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
