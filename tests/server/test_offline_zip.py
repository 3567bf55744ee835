"""The offline app's python/pedro.zip: what the browser's worker imports, with nothing else there.

A CPython whose ``sys.path`` holds only the standard library, pedro.zip, the pinned pure wheels and
this machine's pydantic_core (the app's is the WebAssembly build of the same release) stands in
for Pyodide: numpy, numba, orjson and openskill are missing there, as in the browser, and the
worker's module imports and plays.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pydantic_core

from pedro.server.offline.bundle import LEFT_OUT, pedro_zip
from pedro.server.offline.runtime import pinned_files

SCRIPT = """
import json, sys
sys.path[:] = json.loads(sys.argv[1])
for blocked in ("numpy", "numba", "orjson", "openskill"):
    sys.modules[blocked] = None
from pedro.server.offline import worker
setup = {"variant": "cinch", "seats": [None, "beginner", "club", "beginner"], "name": "A", "seed": "7"}
worker.open_game(json.dumps({"setup": setup}))
state = json.loads(worker.receive('{"type": "join"}'))[-1]
assert state["type"] == "state" and state["you"] == 0, state
assert len(worker.fingerprint(json.dumps(setup), 1)) == 64
from pedro.server.offline import record_calls
assert json.loads(record_calls.record())["variant"] == "cinch"
print(json.dumps({
    "outside": sorted({m.split(".")[0] for m, v in sys.modules.items() if v is not None
                       and getattr(v, "__file__", None) and not v.__file__.startswith(tuple(sys.argv[2:]))}),
    "pedro": sys.modules["pedro"].__file__,
}))
"""


def test_the_worker_imports_pedro_from_the_zip_and_the_pinned_wheels(tmp_path: Path) -> None:
    archive = tmp_path / "pedro.zip"
    archive.write_bytes(pedro_zip())
    # the machine's build of pydantic_core alone, in a folder of its own
    core = tmp_path / "core"
    core.mkdir()
    (core / "pydantic_core").symlink_to(Path(str(pydantic_core.__file__)).parent)
    wheels = [str(f.path) for f in pinned_files() if f.path.suffix == ".whl" and "none-any" in f.path.name]
    stdlib = [p for p in sys.path if p.startswith(sys.base_prefix) and "-packages" not in p]
    path = [*stdlib, str(archive), *wheels, str(core)]
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", SCRIPT, json.dumps(path), *path],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["pedro"].startswith(str(archive))
    assert answer["outside"] == []


def test_the_zip_leaves_out_what_the_worker_never_imports() -> None:
    names = zipfile.ZipFile(io.BytesIO(pedro_zip())).namelist()
    assert "pedro/players/expert.py" in names and "pedro/server/tables/table_view.py" in names
    assert not [n for n in names if n.removeprefix("pedro/").startswith(LEFT_OUT)]
    assert all(n.endswith(".py") for n in names)
    assert pedro_zip() == pedro_zip()  # the same source, the same bytes
