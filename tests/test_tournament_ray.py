"""``pedro tournament --backend ray``: the same results as the local backend, and clean errors.

The Ray tests start a local Ray instance of their own (2 CPUs, no dashboard,
its files in a fresh short temporary folder, which Unix socket paths need) and
check that it leaves no process behind. Without Ray they skip, unless
``PEDRO_REQUIRE_SERVICES`` is set (as CI does), in which case they fail.
Only one test starts Ray, so that parallel test workers never run two at once.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from tests.serving import require_or_skip
from typer.testing import CliRunner

from pedro.cli.main import app
from pedro.tournament import play_duplicate_deal, run_tournament
from pedro.tournament.ray_backend import (
    INSTALL_HINT,
    MAX_CHUNK,
    RayBackend,
    RayBackendError,
    chunks,
    parse_address,
)

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

runner = CliRunner()
GAME = ["tournament", "--variant", "cinch", "--players", "basic,random", "--seed", "5"]


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def require_ray() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        require_or_skip(f"Ray ({INSTALL_HINT})")


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ray_processes(temp_dir: str) -> list[int]:
    """Processes started for the Ray instance whose files are in ``temp_dir`` (all inherit RAY_TMPDIR)."""
    marker = f"RAY_TMPDIR={temp_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            env = (entry / "environ").read_bytes()
        except OSError:  # gone, or not ours
            continue
        if marker in env.split(b"\0"):
            found.append(int(entry.name))
    return found


def wait_until_gone(temp_dir: str, seconds: float = 20.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := ray_processes(temp_dir)) and time.monotonic() < deadline:
        time.sleep(0.25)
    return left


@pytest.fixture
def ray_temp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A short folder for Ray's sessions and sockets, outside the repository, removed afterwards."""
    require_ray()
    temp_dir = tempfile.mkdtemp(prefix="pedro-ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    monkeypatch.setenv("RAY_TMPDIR", temp_dir)
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    try:
        yield temp_dir
    finally:
        shutil.rmtree(temp_dir, ignore_errors=True)


# ---------------------------------------------------------------------------
# on a local Ray instance


@pytest.mark.slow
def test_ray_gives_the_local_results_and_leaves_no_process(tmp_path: Path, ray_temp_dir: str) -> None:
    on_ray, local = tmp_path / "ray.json", tmp_path / "local.json"
    args = [*GAME, "--deals", "14", "--games", "1"]
    result = runner.invoke(app, [*args, "--backend", "ray", "--jobs", "2", "--out", str(on_ray)])
    assert result.exit_code == 0, result.output
    assert "on a local Ray instance with 2 CPUs" in result.output and "A − B per deal" in result.output
    assert wait_until_gone(ray_temp_dir) == [], "the local Ray instance left processes behind"
    result = runner.invoke(app, [*args, "--out", str(local)])
    assert result.exit_code == 0, result.output
    ray_doc = json.loads(on_ray.read_text(encoding="utf-8"))
    local_doc = json.loads(local.read_text(encoding="utf-8"))
    assert [d["index"] for d in ray_doc["deals"]] == list(range(14)) and len(ray_doc["games"]) == 1
    assert ray_doc == local_doc  # settings, summary, every deal and game (there are no timings)

    # the library: 1 CPU, so 14 deals go out as 4 chunks; the bar advances once per deal and game
    ticks: list[int] = []
    with RayBackend(num_cpus=1) as backend:
        assert backend.cpus == 1 and backend.describe() == "a local Ray instance with 1 CPU"
        assert ray_processes(ray_temp_dir), "the processes of a running instance are seen"
        got = run_tournament(
            "pitch_fives",
            {},
            ["random", "basic"],
            seed=40,
            deals=14,
            games=2,
            backend=backend,
            advance=lambda: ticks.append(1),
        )
        # an error in a task comes back named, without Ray's remote traceback
        bad = partial(play_duplicate_deal, "cinch", {}, ("basic", "nobody"), 0)
        with pytest.raises(RayBackendError, match="UnknownPlayerError: unknown player 'nobody'") as error:
            list(backend.map_unordered(bad, range(3)))
        assert "Traceback" not in str(error.value)
    assert len(ticks) == 16
    assert got == run_tournament("pitch_fives", {}, ["random", "basic"], seed=40, deals=14, games=2)
    assert wait_until_gone(ray_temp_dir) == [], "the Ray backend left processes behind"


# ---------------------------------------------------------------------------
# errors


def test_an_unreachable_address_is_a_clear_error(ray_temp_dir: str) -> None:
    started = time.monotonic()
    address = f"127.0.0.1:{free_port()}"
    result = runner.invoke(app, [*GAME, "--deals", "2", "--backend", "ray", "--address", address])
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())
    assert f"error: cannot reach a Ray cluster at {address}" in output and "ray start --head" in output
    no_traceback(result)
    assert time.monotonic() - started < 15
    assert ray_processes(ray_temp_dir) == []


def test_a_malformed_address_is_a_clear_error(ray_temp_dir: str) -> None:
    result = runner.invoke(app, [*GAME, "--deals", "2", "--backend", "ray", "--address", "head-node"])
    assert result.exit_code == 2, result.output
    assert "bad Ray address 'head-node'" in " ".join(result.output.split())
    no_traceback(result)


def test_missing_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    result = runner.invoke(app, [*GAME, "--deals", "2", "--backend", "ray"])
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())
    assert "needs Ray, which is not installed" in output and "pip install 'pedro[ray]'" in output
    no_traceback(result)
    with pytest.raises(RayBackendError, match=r"pip install 'pedro\[ray\]'"):
        RayBackend().start()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--address", "127.0.0.1:6379"], "--address is only valid with --backend ray"),
        (["--backend", "ray", "--address", "auto", "--jobs", "3"], "with --address the whole cluster"),
        (["--backend", "ray", "--address", " "], "--address is empty"),
        (["--backend", "spark"], "unknown backend 'spark'; backends are: local, ray"),
    ],
)
def test_backend_usage_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*GAME, "--deals", "2", *args])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and message in " ".join(result.output.split())
    no_traceback(result)


def test_importing_pedro_does_not_import_ray() -> None:
    code = (
        "import sys, pedro, pedro.tournament, pedro.tournament.ray_backend, pedro.cli.main, "
        "pedro.cli.tournament_cmd; print('ray' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------
# pieces


def test_chunks_cover_the_deals_in_order() -> None:
    for n, cpus in ((1, 4), (14, 1), (100, 2), (5000, 8), (7, 100)):
        parts = chunks(range(n), cpus)
        assert [i for part in parts for i in part] == list(range(n))
        sizes = [len(p) for p in parts]
        assert max(sizes) <= MAX_CHUNK and min(sizes) >= 1
        assert len(parts) >= min(n, 4 * cpus) or max(sizes) == MAX_CHUNK
    assert [list(p) for p in chunks(range(14), 1)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13]]


def test_addresses() -> None:
    assert parse_address("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert parse_address("ray://head:10001") == ("head", 10001)
    assert parse_address("[::1]:6379") == ("::1", 6379)
    assert parse_address("auto") is None
    for bad in ("head", "head:", ":6379", "head:http", "head:70000", "head:0"):
        with pytest.raises(RayBackendError, match="bad Ray address"):
            parse_address(bad)
