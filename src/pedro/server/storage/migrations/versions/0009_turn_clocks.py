"""Turn clocks: a table's seconds per decision, and the decisions a stand-in made when one ran out.

``pedro_tables.clock`` is NULL for a table without a clock (every table made before). A decision
the clock's running out handed to the stand-in is a stand-in's decision (a row of
``pedro_stand_ins``, which the rating's stand-in rule counts) marked ``timed_out``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pedro_tables", sa.Column("clock", sa.Float))
    op.add_column(
        "pedro_stand_ins", sa.Column("timed_out", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("pedro_stand_ins") as batch:
        batch.drop_column("timed_out")
    with op.batch_alter_table("pedro_tables") as batch:
        batch.drop_column("clock")
