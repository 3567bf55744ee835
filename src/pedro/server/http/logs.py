"""How ``pedro serve`` logs: plain text for a terminal, or one JSON object per line for a log collector.

In JSON, each line carries ``time`` (ISO 8601, UTC), ``level``, ``logger`` and
``message``, plus the structured fields a log call gives (``table``, ``seat``,
``event``) and, for uvicorn's access log, the request's parts. Only those
named fields are copied from a record, so nothing a library attaches to one
(and nothing about a hidden card, which no log call names) reaches the log.
"""

from __future__ import annotations

import logging
import logging.config
from datetime import UTC, datetime
from typing import Any

import orjson

#: The ``--log-format`` choices.
LOG_FORMATS = ("text", "json")
#: Fields a log call may add with ``extra=`` (see :func:`fields`), copied to the JSON object.
_FIELDS = ("table", "seat", "event")
_TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def fields(table: str, event: str, seat: int | None = None) -> dict[str, Any]:
    """The ``extra=`` of a log call about a table, so JSON logs can be searched by table, seat and event."""
    extra: dict[str, Any] = {"table": table, "event": event}
    if seat is not None:
        extra["seat"] = seat
    return extra


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (newlines in a message or traceback are escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in _FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                entry[name] = value
        if record.name == "uvicorn.access":
            entry.update(_access_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(entry, default=str).decode()


def _access_fields(record: logging.LogRecord) -> dict[str, Any]:
    """uvicorn's access line ``client - "METHOD path HTTP/v" status`` as separate fields."""
    args = record.args
    if not isinstance(args, tuple) or len(args) != 5:
        return {}
    client, method, path, http_version, status = args
    return {
        "event": "http_request",
        "client": client,
        "method": method,
        "path": path,
        "http_version": http_version,
        "status": status,
    }


def log_config(log_format: str, level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for pedro and uvicorn alike: every logger to standard error.

    Given to uvicorn as its ``log_config`` too, so its error and access logs
    use the same format as pedro's own.
    """
    if log_format not in LOG_FORMATS:
        raise ValueError(f"unknown log format {log_format!r}; formats are: {', '.join(LOG_FORMATS)}")
    level = level.upper()
    formatter: dict[str, Any] = {"()": JsonFormatter} if log_format == "json" else {"format": _TEXT_FORMAT}
    handler = {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        # uvicorn overrides the "default" and "access" formatters when told to use colours
        "formatters": {"default": formatter, "access": dict(formatter)},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": level},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["default"], "level": level, "propagate": False},
            # alembic tells every step of a migration (multi-line texts); the store logs one line
            "alembic": {"level": "WARNING" if level == "INFO" else level},
        },
    }


def configure(log_format: str, level: str) -> dict[str, Any]:
    """Set up logging for ``pedro serve``; returns the configuration to hand to uvicorn."""
    config = log_config(log_format, level)
    logging.config.dictConfig(config)
    return config
