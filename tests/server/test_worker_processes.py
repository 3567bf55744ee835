"""``pedro serve``'s worker processes: started with the server unless told, never outliving it.

Linux only: the processes are found through ``/proc``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from tests.server.client_helpers import running_server as in_process_server
from tests.serving import running_server

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name, in parentheses, may hold spaces
    return fields[0], int(fields[1])


def _workers_of(pid: int) -> list[int]:
    """The worker processes ``pid`` spawned (multiprocessing's resource tracker left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        stat = _stat(int(entry.name))
        if stat is None or stat[1] != pid:
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except (FileNotFoundError, ProcessLookupError):
            continue
        if b"multiprocessing.spawn" in command and b"resource_tracker" not in command:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


@pytest.mark.processes
def test_the_workers_start_with_the_server_and_end_when_it_is_killed(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, start_workers=True) as server:
        assert server.process is not None
        # the replays' worker and the reviews' one, started before the server answers
        workers = _workers_of(server.process.pid)
        assert len(workers) == 2
        server.kill()  # no shutdown code runs: each worker must notice by itself
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "a worker outlived its killed server"


@pytest.mark.processes
def test_no_worker_starts_before_its_first_job_when_told(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, start_workers=False) as server:
        assert server.process is not None
        assert _workers_of(server.process.pid) == []


def test_in_process_no_worker_starts_before_its_first_job_when_told(tmp_path: Path) -> None:
    """The same promise in this process (fast tier): a server told not to start its workers has
    started none once it answers."""
    before = set(_workers_of(os.getpid()))
    with in_process_server(tmp_path, start_workers=False) as client:
        assert client.get("/api/tables").status_code == 200
        assert set(_workers_of(os.getpid())) == before
