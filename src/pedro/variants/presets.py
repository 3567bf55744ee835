"""Presets: each value of the enum-valued option ``preset`` stands for a fixed set of other
options; a game record keeps the preset's name, not its expansion."""

from __future__ import annotations

from collections.abc import Mapping

from pedro.i18n import N_
from pedro.variants.option_spec import OptionError, OptionValue, option_text

#: Presets: one option value standing for several options (docs/rules.md §presets).
PRESETS: dict[str, dict[str, OptionValue]] = {
    "cinch_min6_forced6": {"min_bid": 6, "dealer_forced_bid": 6},
    "cinch_min6_forced7": {"min_bid": 6, "dealer_forced_bid": 7},
}


def expand(values: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Replace a preset by its options; explicit options must agree with the preset."""
    expanded = dict(values)
    preset = values.get("preset")
    if isinstance(preset, str):
        for name, value in PRESETS[preset].items():
            if name in values and values[name] != value:
                raise OptionError(
                    N_(
                        "option {given} contradicts preset {preset}, which sets {setting}; drop one of them "
                        "(allowed with this preset: {allowed})"
                    ),
                    given=f"{name}={option_text(values[name])}",
                    preset=preset,
                    setting=f"{name}={option_text(value)}",
                    allowed=f"{name}={option_text(value)}",
                )
            expanded[name] = value
    return expanded
