"""Duplicate tournaments (``pedro.server.tournaments``): the tournaments, their seats, and each
deal's table; a table may end after a number of hands (a tournament's deal is one hand).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pedro_tables", sa.Column("hands", sa.Integer))
    op.create_table(
        "pedro_tournaments",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False),
        sa.Column("director_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    tournament = sa.ForeignKey("pedro_tournaments.id", ondelete="CASCADE")
    op.create_table(
        "pedro_tournament_seats",
        sa.Column("tournament_id", sa.String(40), tournament, primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("player", sa.String(40)),
        sa.Column("name", sa.String(40)),
        sa.Column("secret_hash", sa.String(64)),
    )
    op.create_table(
        "pedro_tournament_deals",
        sa.Column(
            "tournament_id",
            sa.String(40),
            sa.ForeignKey("pedro_tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column(
            "table_id",
            sa.String(40),
            sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("change", sa.Text),
    )


def downgrade() -> None:
    op.drop_table("pedro_tournament_deals")
    op.drop_table("pedro_tournament_seats")
    op.drop_table("pedro_tournaments")
    with op.batch_alter_table("pedro_tables") as batch:
        batch.drop_column("hands")
