"""Profiles' name keys made again as names are now compared: look-alike letters folded.

A profile's ``name_key`` was its name case-folded; it is now the look-alike key of
``pedro.server.storage.name_keys.name_key`` (NFKC, confusable letters as the ASCII ones they look
like, case-folded). A profile stored before kept its old key, so a name written with such letters
(a Cyrillic "Аnn") could be taken again in other letters, and a look-alike of it was not refused.
This gives every profile the key of its name as of this revision. Two stored names may now key
alike (an "Ann" and a Cyrillic "Аnn" made before): the older profile keeps the key, and each later
one gets it with a ``~N`` suffix, so it stays unique (a name typed so later is refused as taken);
such profiles are logged.

The key is computed by the function of this revision's code: should it change again, a new
migration makes the keys again.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from pedro.server.storage.name_keys import KEY_CHARS, name_key

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

log = logging.getLogger("pedro.server")

_profiles = sa.table(
    "pedro_profiles",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("created_at", sa.DateTime),
)


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_profiles.c.id, _profiles.c.name, _profiles.c.name_key).order_by(
            _profiles.c.created_at, _profiles.c.id
        )
    ).all()
    keys = rekeyed([(row.id, row.name) for row in rows])
    changed = {row.id: keys[row.id] for row in rows if keys[row.id] != row.name_key}
    if not changed:
        return
    # first every changed key out of the way (a new key may be another profile's old one), then the new
    for profile in changed:
        connection.execute(
            sa.update(_profiles).where(_profiles.c.id == profile).values(name_key=f"~{profile}"[:KEY_CHARS])
        )
    for profile, key in changed.items():
        connection.execute(sa.update(_profiles).where(_profiles.c.id == profile).values(name_key=key))


def rekeyed(profiles: list[tuple[str, str]]) -> dict[str, str]:
    """Each profile's new key, oldest first: a key taken already gets the first free ``~N`` suffix.

    >>> rekeyed([("a", "Ann"), ("b", "\\u0410nn"), ("c", "ANN"), ("d", "Bo")])
    {'a': 'ann', 'b': 'ann~2', 'c': 'ann~3', 'd': 'bo'}
    """
    taken: set[str] = set()
    out: dict[str, str] = {}
    for profile, name in profiles:
        key = base = name_key(name)
        n = 1
        while key in taken:
            n += 1
            suffix = f"~{n}"
            key = base[: KEY_CHARS - len(suffix)] + suffix
        if key != base:
            log.warning("profile %s: its name %r looks like an older profile's; both are kept", profile, name)
        taken.add(key)
        out[profile] = key
    return out


def downgrade() -> None:
    """The keys stay as they are: any key is a valid one for the revision before."""
