"""What a form that starts a game offers (``GET /api/variants``): every variant, its house rules
with their values and bounds, and the computer players. The offline app's form reads the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pedro.players import DESCRIPTIONS, LEVELS, PLAYERS
from pedro.players.levels import Level
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset
from pedro.variants.options import OPTIONS, available_options, option_values


def _option_json(name: str, rules: Ruleset, variant_value: Any) -> dict[str, Any]:
    spec = OPTIONS[name]
    return {
        "name": name,
        "type": spec.value_type.__name__,
        "description": spec.description,
        "choices": list(spec.choices),
        "nullable": spec.nullable,
        "minimum": spec.minimum,
        "maximum": spec.maximum_for(rules),
        "default": variant_value,
    }


def variants_json(
    levels: Sequence[Level] = LEVELS, players: Sequence[str] = tuple(PLAYERS)
) -> dict[str, Any]:
    """Every variant with its house rules, and the computer players: the strength ``levels``, then
    ``players`` by their own names."""
    variants = []
    for rules in VARIANTS.values():
        values = option_values(rules)
        variants.append(
            {
                "id": rules.id,
                "name": rules.name,
                "summary": rules.summary,
                "players": rules.players,
                "partnerships": rules.partnerships,
                "options": [
                    _option_json(name, rules, values.get(name))
                    for name in available_options(rules.id)
                    if name != "preset"
                ],
            }
        )
    return {
        "variants": variants,
        "players": list(players),
        "player_descriptions": {p: DESCRIPTIONS[p] for p in players if p in DESCRIPTIONS},
        "levels": [{"name": lv.name, "player": lv.player, "description": lv.description} for lv in levels],
    }
