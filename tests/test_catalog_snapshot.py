"""The catalog's variants, field by field, as pinned in tests/golden/variant_fields.json.

The variants are written as differences from a base; this pins what they
are, so rewriting how they are written cannot change a rule. Regenerate the
file only for a deliberate change of the rules.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from pedro.variants.catalog import VARIANTS

SNAPSHOT = json.loads((Path(__file__).parent / "golden" / "variant_fields.json").read_text(encoding="utf-8"))


def test_the_catalog_holds_the_pinned_variants() -> None:
    assert list(VARIANTS) == list(SNAPSHOT)


@pytest.mark.parametrize("variant_id", sorted(SNAPSHOT))
def test_variant_fields_are_pinned(variant_id: str) -> None:
    rules = VARIANTS[variant_id]
    # repr keeps the types: an enum member, a tuple, True and 1 all stay apart
    assert {f.name: repr(getattr(rules, f.name)) for f in fields(rules)} == SNAPSHOT[variant_id]
