"""Every number a house-rule option takes is bounded, and each variant's own value lies within.

A value past the bounds would reach the engine, the database and every JSON encoder (a target
of 10**30 cannot be sent to a client), so the schema says the range and refuses outside it.
"""

from __future__ import annotations

import pytest

from pedro.variants.catalog import VARIANTS
from pedro.variants.option_table import MAX_BID, MAX_TARGET
from pedro.variants.options import OPTIONS, OptionError, available_options, make_ruleset, option_values

INT_OPTIONS = [spec for spec in OPTIONS.values() if spec.value_type is int]


def test_every_int_option_has_a_least_and_a_greatest_value() -> None:
    assert INT_OPTIONS
    for spec in INT_OPTIONS:
        assert spec.minimum is not None and spec.maximum is not None, spec.name
        assert spec.minimum <= spec.maximum, spec.name
        # within what every JSON encoder takes (orjson: 64 bits)
        assert spec.minimum > -(2**53) and spec.maximum < 2**53, spec.name
        if spec.choices:
            assert all(spec.minimum <= c <= spec.maximum for c in spec.choices if isinstance(c, int))


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_each_variants_own_values_lie_within_the_bounds(variant_id: str) -> None:
    values = option_values(VARIANTS[variant_id])
    for name in available_options(variant_id):
        spec = OPTIONS[name]
        value = values.get(name)
        if spec.value_type is int and isinstance(value, int):
            assert spec.minimum is not None and spec.maximum is not None
            assert spec.minimum <= value <= spec.maximum, (variant_id, name, value)


def test_the_bounds_cover_the_catalog() -> None:
    assert max(rules.max_bid for rules in VARIANTS.values()) == MAX_BID
    assert 3 * max(rules.target for rules in VARIANTS.values()) <= MAX_TARGET


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 10**30}, "target; allowed: an integer from 1 to 10000"),
        ({"target": MAX_TARGET + 1}, "target; allowed: an integer from 1 to 10000"),
        ({"target": 0}, "target; allowed: an integer from 1 to 10000"),
        ({"min_bid": MAX_BID + 1}, "min_bid; allowed: an integer from 1 to 83"),
        ({"dealer_forced_bid": -(10**30)}, "dealer_forced_bid; allowed: an integer from 1 to 83 or null"),
        ({"lose_at": -(10**30)}, "lose_at; allowed: an integer from -10000 to -1 or null"),
        ({"bgo_threshold": 10**30}, "bgo_threshold; allowed: an integer from -10000 to 10000 or null"),
    ],
)
def test_values_past_the_bounds_are_refused_naming_the_range(options: dict[str, object], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        make_ruleset("cinch", options)


def test_the_extremes_within_the_bounds_make_a_game() -> None:
    assert make_ruleset("cinch", {"target": MAX_TARGET}).target == MAX_TARGET
    assert make_ruleset("king_pedro", {"lose_at": -MAX_TARGET}).lose_at == -MAX_TARGET
    assert make_ruleset("cinch", {"bgo_threshold": -MAX_TARGET}).bgo_threshold == -MAX_TARGET
