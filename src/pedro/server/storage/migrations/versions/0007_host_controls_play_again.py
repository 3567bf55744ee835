"""Host controls and play again: the hash of a table's host secret, a closed mark, seats the host
gave to a computer, the spectators the host removed (``pedro.server.tables.host``); the table of
the next game played by the same people, and the seats held there for a player who has not come
yet (``pedro.server.tables.again``).

Tables made before this revision have no host: nobody holds their secret.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pedro_tables", sa.Column("host_hash", sa.String(64)))
    op.add_column("pedro_tables", sa.Column("closed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("pedro_tables", sa.Column("next_table", sa.String(40)))
    op.add_column("pedro_seats", sa.Column("handed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("pedro_seats", sa.Column("pending", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "pedro_barred_viewers",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("viewer", sa.String(64), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("pedro_barred_viewers")
    with op.batch_alter_table("pedro_seats") as batch:
        batch.drop_column("pending")
        batch.drop_column("handed")
    with op.batch_alter_table("pedro_tables") as batch:
        batch.drop_column("next_table")
        batch.drop_column("closed")
        batch.drop_column("host_hash")
