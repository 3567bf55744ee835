"""``pedro serve``: the browser game, with its database, on uvicorn."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from platformdirs import user_data_dir
from rich.console import Console
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from pedro.server.limits import Limits
from pedro.server.store import Store, default_url

#: Exit status for a usage error, as typer/click use.
USAGE_ERROR = 2


def default_database() -> str:
    return default_url(Path(user_data_dir("pedro", appauthor=False)))


def _hidden(text: str) -> str:
    """Passwords in database URLs are not printed."""
    return re.sub(r"(://[^:/@\s]+:)[^@\s]+@", r"\1***@", text)


def run(
    console: Console,
    *,
    host: str,
    port: int,
    database: str | None,
    away: float,
    bot_delay: float,
    log_level: str,
    limits: Limits,
    forwarded_allow_ips: str | None = None,
) -> int:
    import uvicorn

    from pedro.server.app import ServerSettings, create_app

    url = database or default_database()
    try:
        store = Store(url)  # the URL, the connection and the schema are checked before uvicorn starts
        store.migrate()
        store.close()
    except (ArgumentError, SQLAlchemyError, ImportError) as exc:
        reason = str(getattr(exc, "orig", None) or exc)
        console.print(f"[red]error:[/] cannot use database {_hidden(url)!r}: {_hidden(reason)}")
        console.print("give an SQLite file (sqlite:///path/pedro.sqlite3) or postgresql://user:pass@host/db")
        return USAGE_ERROR
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(ServerSettings(database=url, away_seconds=away, bot_delay=bot_delay, limits=limits))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    console.print(
        f"pedro is serving at [bold]http://{shown}:{port}/[/] — open it in a browser (Ctrl-C stops)"
    )
    console.print(f"games are stored in {store.describe()}")
    from pedro.server.protocol import MAX_FRAME_BYTES

    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        # the app answers a message over its own limit (4 KiB) with "too_big"; the transport
        # only closes a connection (1009) on a message too large to read at all
        ws_max_size=MAX_FRAME_BYTES,
        # the address limits count by: X-Forwarded-For is believed from these proxies only
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
    return 0
