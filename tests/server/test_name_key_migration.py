"""Profiles stored before names were compared by look-alike keys get the keys of their names."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from tests.server.durability_helpers import database
from tests.server.test_store import alembic_config

from pedro.server.profiles.queries import ProfileRefused, ProfileStore
from pedro.server.storage.schema import profiles_table
from pedro.server.storage.tables_db import Store

#: (id, name) in the order they were made; their keys were their names case-folded
OLD_PROFILES = [
    ("p1", "Ann"),
    ("p2", "\u0410nn"),  # a Cyrillic А, made after the Latin Ann: it keeps its name, not her key
    ("p3", "Ｂo"),  # full-width
    ("p4", "Иван"),
    ("p5", "Åsa"),
]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_at_0005(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with database(request.param, tmp_path) as url:
        store = Store(url)
        with store.engine.begin() as c:
            command.upgrade(alembic_config(c), "0005")
        start = datetime(2026, 11, 1, tzinfo=UTC)
        with store.engine.begin() as c:
            for k, (profile, name) in enumerate(OLD_PROFILES):
                row = {"id": profile, "name": name, "name_key": name.casefold(), "kind": "human"}
                c.execute(sa.insert(profiles_table).values(**row, created_at=start + timedelta(minutes=k)))
        yield store
        store.close()


def test_old_profiles_get_look_alike_keys_and_the_older_of_two_look_alikes_keeps_its_own(
    store_at_0005: Store,
) -> None:
    store = store_at_0005
    store.migrate()
    with store.engine.connect() as c:
        keys = dict(c.execute(sa.select(profiles_table.c.id, profiles_table.c.name_key)).all())
        names = dict(c.execute(sa.select(profiles_table.c.id, profiles_table.c.name)).all())
    assert keys == {"p1": "ann", "p2": "ann~2", "p3": "bo", "p4": keys["p4"], "p5": "åsa"}
    assert keys["p4"] != "иван"  # its look-alike letters folded
    assert names == dict(OLD_PROFILES)  # names are never changed
    profiles = ProfileStore(store)
    for look_alike in ("ANN", "\u0430nn", "BO", "Ив\u0061н", "Иван", "ÅSA"):  # \u0061: a Latin a
        with pytest.raises(ProfileRefused):
            profiles.create(look_alike)
    assert profiles.create("Ivan").profile.name == "Ivan"
