"""Game reviews, each finished hand's review of one seat kept once made (``pedro.server.reviews``),
and practice tables (hints on request, unrated: ``pedro.server.reviews.hints``).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "pedro_tables", sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "pedro_reviews",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("body", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pedro_reviews")
    with op.batch_alter_table("pedro_tables") as batch:
        batch.drop_column("practice")
