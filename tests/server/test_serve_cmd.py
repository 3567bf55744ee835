"""``pedro serve``'s settings: a bad one is said in one plain line (a JSON one where logs are JSON)."""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from tests.serving import free_port, running_server

from pedro.cli import serve_cmd
from pedro.server.http.logs import configure, fields
from pedro.server.settings import Limits, ServerSettings
from pedro.server.storage.single_process import hold_database, lock_path

#: the newest migration: a new database is created at it
HEAD = sorted(
    p.name[:4]
    for p in (Path(serve_cmd.__file__).parents[1] / "server/storage/migrations/versions").glob("0*.py")
)[-1]
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "pedro", "pedro.server", "pedro.serve")


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """``pedro serve`` configures logging for the process: put back what pytest had."""
    saved = {
        name: (logger.handlers[:], logger.level, logger.propagate)
        for name in LOGGERS
        for logger in [logging.getLogger(name)]
    }
    yield
    for name, (handlers, level, propagate) in saved.items():
        logger = logging.getLogger(name)
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


def test_configured_json_logs_reach_standard_error(
    restore_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    configure("json", "info")
    logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "1.2.3.4:1", "GET", "/", "1.1", 200)
    logging.getLogger("pedro.server").info("hello", extra=fields("T9", "created"))
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(e["logger"], e.get("path"), e.get("table")) for e in lines] == [
        ("uvicorn.access", "/", None),
        ("pedro.server", None, "T9"),
    ]


def run(console: Console, database: str = "sqlite:///:memory:", **options: object) -> int:
    settings = ServerSettings(database=database, bot_delay=0.0, limits=Limits())
    given: dict[str, object] = {
        "host": "127.0.0.1",
        "port": free_port(),
        "settings": settings,
        "log_level": "info",
    }
    return serve_cmd.run(console, **(given | options))  # type: ignore[arg-type]


def test_bad_settings_are_said_plainly(restore_logging: None, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    console = Console(file=out, width=200)
    assert run(console, log_format="xml") == serve_cmd.USAGE_ERROR
    assert "--log-format is one of: text, json (not 'xml')" in out.getvalue()
    assert run(console, log_level="loud") == serve_cmd.USAGE_ERROR
    assert "--log-level is one of: debug, info, warning, error (not 'loud')" in out.getvalue()
    assert run(console, root_path="/a b") == serve_cmd.USAGE_ERROR
    assert "--root-path '/a b' is not a URL path" in out.getvalue()
    assert "Traceback" not in out.getvalue()


def test_with_json_logs_even_a_bad_database_is_a_json_line(
    restore_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    code = run(Console(file=out), log_format="json", database="postgresql://u:secret@127.0.0.1:1/x")
    assert code == serve_cmd.USAGE_ERROR
    assert out.getvalue() == ""
    errors = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert errors[-1]["level"] == "ERROR" and "cannot use database" in errors[-1]["message"]
    assert "secret" not in errors[-1]["message"]


@pytest.mark.parametrize(
    ("given", "root"), [("", ""), ("/", ""), ("/pedro", "/pedro"), ("pedro/", "/pedro"), ("/a/b/", "/a/b")]
)
def test_root_path_is_normalised(given: str, root: str) -> None:
    assert serve_cmd._root_path(given) == root


def test_the_database_url_may_come_from_the_environment(restore_logging: None) -> None:
    """PEDRO_DATABASE keeps a password out of the command line (and of ``ps``)."""
    from typer.testing import CliRunner

    from pedro.cli.main import app

    url = "postgresql://pedro:secret@127.0.0.1:1/pedro"
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port())], env={"PEDRO_DATABASE": url})
    assert result.exit_code == serve_cmd.USAGE_ERROR
    assert "cannot use database 'postgresql://pedro:***@127.0.0.1:1/pedro'" in result.output
    assert "secret" not in result.output


def test_a_taken_port_is_said_before_the_database_is_touched(restore_logging: None, tmp_path: Path) -> None:
    """A second server on a taken port would restore the first one's tables, then die in uvicorn."""
    out = io.StringIO()
    database = tmp_path / "pedro.sqlite3"
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        code = run(Console(file=out, width=200), database=f"sqlite:///{database}", port=port)
    assert code == serve_cmd.USAGE_ERROR
    assert out.getvalue().splitlines() == [
        f"error: port {port} is in use at 127.0.0.1 (another pedro serve, or another program)",
        "give another port with --port, or stop what uses it",
    ]
    assert not database.exists()


def test_a_second_server_on_an_sqlite_file_is_refused(restore_logging: None, tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    held = hold_database(database)
    assert held is not None
    try:
        out = io.StringIO()
        assert run(Console(file=out, width=300), database=database) == serve_cmd.USAGE_ERROR
        said = out.getvalue()
        assert f"process {os.getpid()} is serving this SQLite file already" in said
        assert "several processes share a PostgreSQL database" in said
    finally:
        held.close()
    # let go (as when the holder ends, however it ends): the file may be taken again
    again = hold_database(database)
    assert again is not None
    again.close()


def test_only_an_sqlite_file_is_held(tmp_path: Path) -> None:
    assert lock_path(f"sqlite:///{tmp_path / 'x.sqlite3'}") == tmp_path / "x.sqlite3.lock"
    assert lock_path("sqlite:///:memory:") is None
    assert lock_path("postgresql://u:p@localhost/db") is None


@pytest.mark.processes
def test_a_killed_servers_sqlite_file_serves_again_and_a_first_start_says_one_line(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with running_server(database, tmp_path) as first:
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "pedro.cli.main",
                "serve",
                "--port",
                str(free_port()),
                "--database",
                database,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=os.environ | {"COLUMNS": "300"},
        )
        assert second.returncode == serve_cmd.USAGE_ERROR
        assert first.process is not None
        assert f"process {first.process.pid} is serving this SQLite file" in second.stdout
        assert "Traceback" not in second.stdout + second.stderr
        first.kill()  # kill -9: no shutdown code lets the file go, the operating system does
        first.start()
    log = first.log_path.read_text()
    # one line for the new database, none of alembic's steps
    assert "alembic" not in log
    assert sum(line.endswith(f": created at schema {HEAD}") for line in log.splitlines()) == 1


def test_a_lease_shorter_than_two_heartbeats_is_refused(restore_logging: None) -> None:
    """One late heartbeat would make a live process dead to the others and lose it its tables."""
    from typer.testing import CliRunner

    from pedro.cli.main import app

    flags = ["serve", "--port", str(free_port()), "--heartbeat-seconds", "1", "--lease-seconds", "1.5"]
    result = CliRunner().invoke(app, flags, env={"PEDRO_DATABASE": "sqlite:///:memory:", "COLUMNS": "200"})
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "--lease-seconds 1.5 is less than twice --heartbeat-seconds 1.0" in said, result.output
