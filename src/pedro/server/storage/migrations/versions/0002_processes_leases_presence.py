"""Server processes, table leases and seat presence: several processes on one PostgreSQL database.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pedro_processes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pedro_processes_seen_at", "pedro_processes", ["seen_at"])
    op.create_table(
        "pedro_leases",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "holder", sa.String(40), sa.ForeignKey("pedro_processes.id", ondelete="CASCADE"), nullable=False
        ),
    )
    op.create_table(
        "pedro_presence",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column(
            "process",
            sa.String(40),
            sa.ForeignKey("pedro_processes.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )


def downgrade() -> None:
    op.drop_table("pedro_presence")
    op.drop_table("pedro_leases")
    op.drop_index("ix_pedro_processes_seen_at", "pedro_processes")
    op.drop_table("pedro_processes")
