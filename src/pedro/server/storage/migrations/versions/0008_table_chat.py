"""A table's chat: its lines (``pedro_chat``) and whether it is on (``pedro_tables.chat``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pedro_tables", sa.Column("chat", sa.Boolean, nullable=False, server_default=sa.true()))
    op.create_table(
        "pedro_chat",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("name", sa.String(40)),
        sa.Column("text", sa.String(2000)),
        sa.Column("phrase", sa.String(20)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pedro_chat")
    with op.batch_alter_table("pedro_tables") as batch:
        batch.drop_column("chat")
