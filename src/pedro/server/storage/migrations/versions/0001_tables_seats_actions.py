"""Tables, their seats and their accepted actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pedro_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
    )
    op.create_table(
        "pedro_seats",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("player", sa.String(40)),
        sa.Column("name", sa.String(40)),
        sa.Column("secret_hash", sa.String(64)),
    )
    op.create_table(
        "pedro_actions",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pedro_tables_finished", "pedro_tables", ["finished"])


def downgrade() -> None:
    op.drop_index("ix_pedro_tables_finished", "pedro_tables")
    op.drop_table("pedro_actions")
    op.drop_table("pedro_seats")
    op.drop_table("pedro_tables")
