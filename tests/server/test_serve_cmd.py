"""``pedro serve``'s settings: a bad one is said in one plain line (a JSON one where logs are JSON)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from rich.console import Console

from pedro.cli import serve_cmd
from pedro.server.http.logs import configure, fields
from pedro.server.settings import Limits, ServerSettings

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
    given: dict[str, object] = {"host": "127.0.0.1", "port": 1, "settings": settings, "log_level": "info"}
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
    result = CliRunner().invoke(app, ["serve"], env={"PEDRO_DATABASE": url})
    assert result.exit_code == serve_cmd.USAGE_ERROR
    assert "cannot use database 'postgresql://pedro:***@127.0.0.1:1/pedro'" in result.output
    assert "secret" not in result.output
