"""Player profiles and ratings: profiles and their move codes, the profile at each seat, the
stand-ins' actions, and per finished game its rating guard and each profile's result
(``pedro.server.profiles``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _table_fk() -> sa.Column[str]:
    return sa.Column(
        "table_id", sa.String(40), sa.ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True
    )


def _profile_fk(*, primary_key: bool = False, index: bool = False) -> sa.Column[str]:
    return sa.Column(
        "profile_id",
        sa.String(40),
        sa.ForeignKey("pedro_profiles.id", ondelete="CASCADE"),
        nullable=False,
        primary_key=primary_key,
        index=index,
    )


def upgrade() -> None:
    op.create_table(
        "pedro_profiles",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("secret_hash", sa.String(64), unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "pedro_profile_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        _profile_fk(),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "pedro_seat_profiles",
        _table_fk(),
        sa.Column("seat", sa.Integer, primary_key=True),
        _profile_fk(),
    )
    op.create_table("pedro_stand_ins", _table_fk(), sa.Column("seq", sa.Integer, primary_key=True))
    op.create_table(
        "pedro_rated_games",
        _table_fk(),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("reason", sa.String(20)),
        sa.Column("reason_seat", sa.Integer),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "pedro_ratings",
        _profile_fk(primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "pedro_profile_games",
        _table_fk(),
        sa.Column("seat", sa.Integer, primary_key=True),
        _profile_fk(index=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("sides", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("bids_won", sa.Integer, nullable=False),
        sa.Column("bids_made", sa.Integer, nullable=False),
        sa.Column("bids_set", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float),
        sa.Column("sigma", sa.Float),
        sa.Column("shown_before", sa.Float),
        sa.Column("shown_after", sa.Float),
    )


def downgrade() -> None:
    for name in (
        "pedro_profile_games",
        "pedro_ratings",
        "pedro_rated_games",
        "pedro_stand_ins",
        "pedro_seat_profiles",
        "pedro_profile_codes",
        "pedro_profiles",
    ):
        op.drop_table(name)
