"""Alembic environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pedro.server.storage.schema import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is None:
    # run from the alembic command line: ``-x url=...`` names the database
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///path/pedro.sqlite3 upgrade head")
    with create_engine(url).begin() as own:
        context.configure(connection=own, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
