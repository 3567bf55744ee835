"""``pedro serve --log-format json``: one JSON object per line, with the fields a collector searches by.

The whole server's log in JSON is checked in test_shutdown.py (a real process);
here the formatter and the configuration, record by record.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

import pytest

from pedro.server.http.logs import JsonFormatter, fields, log_config


def record(name: str, message: str, *args: object, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord(name, logging.INFO, __file__, 1, message, args, None)
    made.__dict__.update(extra)
    return made


def test_a_record_is_one_json_line_with_its_fields() -> None:
    line = JsonFormatter().format(
        record("pedro.server", "table %s: seat %d connected", "T1", 2, **fields("T1", "seat_connected", 2))
    )
    assert "\n" not in line
    entry = json.loads(line)
    moment = datetime.fromisoformat(entry.pop("time"))
    assert moment.utcoffset() is not None and moment.utcoffset().total_seconds() == 0  # type: ignore[union-attr]
    assert abs((datetime.now(UTC) - moment).total_seconds()) < 3600
    assert entry == {
        "level": "INFO",
        "logger": "pedro.server",
        "message": "table T1: seat 2 connected",
        "table": "T1",
        "seat": 2,
        "event": "seat_connected",
    }


def test_only_named_fields_are_copied() -> None:
    """Whatever else a library attaches to a record (uvicorn's coloured copy) stays out."""
    entry = json.loads(JsonFormatter().format(record("uvicorn.error", "Started", color_message="\x1b[36m")))
    assert set(entry) == {"time", "level", "logger", "message"}


def test_uvicorn_access_lines_come_apart() -> None:
    access = record(
        "uvicorn.access", '%s - "%s %s HTTP/%s" %d', "10.0.0.9:5000", "GET", "/readyz", "1.1", 503
    )
    entry = json.loads(JsonFormatter().format(access))
    assert entry["message"] == '10.0.0.9:5000 - "GET /readyz HTTP/1.1" 503'
    assert (entry["client"], entry["method"], entry["path"], entry["status"]) == (
        "10.0.0.9:5000",
        "GET",
        "/readyz",
        503,
    )
    assert entry["event"] == "http_request"


def test_a_traceback_stays_on_the_line() -> None:
    try:
        raise RuntimeError("database went away")
    except RuntimeError:
        failed = logging.LogRecord("pedro.server", logging.ERROR, __file__, 1, "oops", (), sys.exc_info())
    entry = json.loads(JsonFormatter().format(failed))
    assert entry["level"] == "ERROR"
    assert "RuntimeError: database went away" in entry["exception"]


def test_every_logger_goes_through_the_same_formatter() -> None:
    config = log_config("json", "warning")
    assert config["formatters"]["default"] == {"()": JsonFormatter}
    for name in ("uvicorn", "uvicorn.access"):
        assert config["loggers"][name]["handlers"] == ["default"]
        assert config["loggers"][name]["level"] == "WARNING"
    assert config["root"] == {"handlers": ["default"], "level": "WARNING"}
    with pytest.raises(ValueError, match="unknown log format 'xml'"):
        log_config("xml", "info")
