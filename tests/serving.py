"""Real servers and databases for the server tests: a ``pedro serve`` process, a PostgreSQL database.

PostgreSQL comes from ``PEDRO_TEST_POSTGRES_URL`` (CI starts a server and sets
it). Without it the PostgreSQL tests skip, unless ``PEDRO_REQUIRE_SERVICES``
is set (as CI does), in which case they fail: CI must never pass by skipping.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

POSTGRES_ENV = "PEDRO_TEST_POSTGRES_URL"
REQUIRE_ENV = "PEDRO_REQUIRE_SERVICES"


def require_or_skip(what: str) -> None:
    """Skip a test whose service is missing, or fail it where services are required."""
    if os.environ.get(REQUIRE_ENV):
        pytest.fail(f"{what} is required here ({REQUIRE_ENV} is set) but is not available")
    pytest.skip(f"{what} is not available")


@contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test; dropped afterwards."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        require_or_skip(f"PostgreSQL ({POSTGRES_ENV})")
        raise AssertionError("unreachable")
    name = f"pedro_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(make_url(base).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        _drop(admin, name)
        admin.dispose()


def _drop(admin: Engine, name: str) -> None:
    """Drop a test database; retried, as an autovacuum worker may hold it for a moment."""
    for attempt in range(20):
        try:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
            return
        except OperationalError:
            if attempt == 19:
                raise
            time.sleep(0.25)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """A ``pedro serve`` child process on a free local port."""

    database: str
    port: int
    log_path: Path
    bot_delay: float = 0.0
    away: float = 60.0
    #: further ``pedro serve`` options, e.g. ``("--tables-per-minute", "2")``
    args: tuple[str, ...] = ()
    #: start the worker processes with the server, as ``pedro serve`` does unless told; else
    #: (``--no-start-workers``) each starts at its first job: a test that never builds a replay
    #: or a review saves some 3 core-seconds of their start-up (the whole suite starts dozens)
    start_workers: bool = False
    #: PostgreSQL: a server started again after a kill is a new process to the database, whose
    #: tables' computers wait until the killed one's lease lapses: short here, so a test does not
    #: wait seconds at each restart; yet four heartbeats long, so a slow heartbeat on a busy
    #: machine does not make a live process dead
    heartbeat: float = 0.5
    lease: float = 2.0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        command = [
            sys.executable, "-m", "pedro.cli.main", "serve",
            "--port", str(self.port), "--database", self.database,
            "--bot-delay", str(self.bot_delay), "--away", str(self.away),
            "--heartbeat-seconds", str(self.heartbeat), "--lease-seconds", str(self.lease), *self.args,
            "--start-workers" if self.start_workers else "--no-start-workers",
        ]  # fmt: skip
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"pedro serve exited early:\n{self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"pedro serve did not answer within {timeout} s:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        """``kill -9``: no shutdown code runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def running_server(
    database: str,
    log_dir: Path,
    *,
    bot_delay: float = 0.0,
    away: float = 60.0,
    args: tuple[str, ...] = (),
    start_workers: bool = False,
) -> Iterator[ServerProcess]:
    server = ServerProcess(
        database, free_port(), log_dir / "server.log", bot_delay=bot_delay, away=away, args=args,
        start_workers=start_workers,
    )  # fmt: skip
    server.start()
    try:
        yield server
    finally:
        server.stop()
