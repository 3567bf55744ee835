"""``pedro serve``: the browser game, with its database, on uvicorn."""

from __future__ import annotations

import dataclasses
import errno
import logging
import math
import re
import socket
from pathlib import Path

from platformdirs import user_data_dir
from rich.console import Console
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from pedro.server.http.logs import LOG_FORMATS
from pedro.server.settings import ServerSettings
from pedro.server.storage.single_process import DatabaseInUse, hold_database
from pedro.server.storage.tables_db import Store, default_url

#: Exit status for a usage error, as typer/click use.
USAGE_ERROR = 2
LOG_LEVELS = ("debug", "info", "warning", "error")
log = logging.getLogger("pedro.serve")


def default_database() -> str:
    return default_url(Path(user_data_dir("pedro", appauthor=False)))


def _hidden(text: str) -> str:
    """Passwords in database URLs are not printed."""
    return re.sub(r"(://[^:/@\s]+:)[^@\s]+@", r"\1***@", text)


def _root_path(text: str) -> str | None:
    """``/games/pedro`` (or ``games/pedro/``) as uvicorn wants it: a leading slash, none at the end."""
    path = "/" + text.strip("/") if text.strip("/") else ""
    if any(c.isspace() or c in "?#\"'<>\\" for c in path):
        return None
    return path


def _usage_error(console: Console, json_logs: bool, message: str, hint: str) -> int:
    """A bad setting: said on the console, or as a JSON log line where logs are JSON."""
    if json_logs:
        log.error("%s (%s)", message, hint)
    else:
        console.print(f"[red]error:[/] {message}")
        console.print(hint)
    return USAGE_ERROR


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be served (in use, or not this machine's), or None when it can.

    Checked before anything is read or restored from the database: a second server on a taken
    port would restore the first one's tables, then die when uvicorn found the port taken.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"cannot serve at {host}: {exc.strerror}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} is in use at {host} (another pedro serve, or another program)"
            return f"cannot serve at {host}:{port}: {exc.strerror}"
    return None


def run(
    console: Console,
    *,
    host: str,
    port: int,
    settings: ServerSettings,
    log_level: str = "info",
    forwarded_allow_ips: str | None = None,
    log_format: str = "text",
    root_path: str = "",
    proxy_headers: bool = True,
) -> int:
    """Serve with ``settings`` (an empty database: the user's own) until stopped."""
    import uvicorn

    from pedro.server.app import create_app
    from pedro.server.http import logs
    from pedro.server.http.lifecycle import GracefulServer

    if log_format not in LOG_FORMATS:
        console.print(f"[red]error:[/] --log-format is one of: {', '.join(LOG_FORMATS)} (not {log_format!r})")
        return USAGE_ERROR
    if log_level.lower() not in LOG_LEVELS:
        console.print(f"[red]error:[/] --log-level is one of: {', '.join(LOG_LEVELS)} (not {log_level!r})")
        return USAGE_ERROR
    json_logs = log_format == "json"
    log_config = logs.configure(log_format, log_level)
    root = _root_path(root_path)
    if root is None:
        return _usage_error(
            console, json_logs, f"--root-path {root_path!r} is not a URL path", "give a path such as /pedro"
        )
    taken = _port_taken(host, port)
    if taken is not None:
        return _usage_error(console, json_logs, taken, "give another port with --port, or stop what uses it")
    url = settings.database or default_database()
    try:
        held = hold_database(url)  # open while serving: the file is this process's
    except DatabaseInUse as exc:
        return _usage_error(
            console,
            json_logs,
            str(exc),
            "an SQLite file serves one process: stop the other, or give another --database "
            "(several processes share a PostgreSQL database)",
        )
    try:
        store = Store(url)  # the URL, the connection and the schema are checked before uvicorn starts
        store.migrate()
        store.close()
    except (ArgumentError, SQLAlchemyError, ImportError) as exc:
        reason = str(getattr(exc, "orig", None) or exc)
        return _usage_error(
            console,
            json_logs,
            f"cannot use database {_hidden(url)!r}: {_hidden(reason)}",
            "give an SQLite file (sqlite:///path/pedro.sqlite3) or postgresql://user:pass@host/db",
        )
    app = create_app(dataclasses.replace(settings, database=url))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    # under --root-path the page is meant to be opened through the proxy that strips the prefix
    proxied = f" for a proxy that serves it at {root}/" if root else ""
    if json_logs:  # standard output and error may go to one log collector: only JSON lines there
        where = store.describe()
        log.info(
            "serving at %s%s; games are stored in %s", address, proxied, where, extra={"event": "serving"}
        )
    else:
        opened = proxied or " — open it in a browser"
        console.print(f"pedro is serving at [bold]{address}[/]{opened} (Ctrl-C stops)")
        console.print(f"games are stored in {store.describe()}")
    from pedro.server.http.http_protocol import header_deadline
    from pedro.server.http.ws_protocol import WebSocketProtocol
    from pedro.server.tables.protocol import MAX_FRAME_BYTES

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=log_config,
        log_level=log_level.lower(),
        # uvicorn's HTTP protocol, with a deadline for a request's headers (it has none of its own)
        http=header_deadline(settings.header_timeout),
        timeout_keep_alive=settings.keep_alive_timeout,
        # uvicorn's WebSocket protocol, compressing only messages long enough to gain by it
        ws=WebSocketProtocol,
        # the app answers a message over its own limit (4 KiB) with "too_big"; the transport
        # only closes a connection (1009) on a message too large to read at all
        ws_max_size=MAX_FRAME_BYTES,
        # the address limits count by: X-Forwarded-For is believed from these proxies only
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        root_path=root,
        # the drain has told the clients and closed their sockets; what is left gets this long
        timeout_graceful_shutdown=math.ceil(settings.shutdown_timeout),
    )
    server = GracefulServer(config, app.services.lifecycle.shutdown)
    try:
        server.run()
    finally:
        if held is not None:
            held.close()
    return 0 if server.started else 1
