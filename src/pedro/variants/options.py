"""House-rule options: named, typed changes applied on top of a catalog variant.

This module reads options (from the command line, a record or a Python caller), checks
them against the variant and applies them; each option is an :class:`OptionSpec`
(``pedro.variants.option_spec``) in :data:`OPTIONS` (``pedro.variants.option_table``),
and ``pedro.variants.presets`` expands the presets. Options set to the variant's own
value are accepted and change nothing. Values are JSON-friendly (``bool``, ``int``,
``str`` or ``None``) so that the options of a game record rebuild exactly the same rules::

    rules = make_ruleset("cinch", {"preset": "cinch_min6_forced6", "slam": True})
    assert make_ruleset(rules.id, options_dict(rules)) == rules
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, replace
from typing import Any

from pedro.i18n import N_
from pedro.variants.catalog import get_variant
from pedro.variants.constraints import CLASH, first_broken
from pedro.variants.model import EndRule, Ruleset, TrumpDiscardClaim
from pedro.variants.option_spec import OptionError, OptionSpec, OptionValue, option_text, plain
from pedro.variants.option_table import OPTIONS
from pedro.variants.presets import PRESETS, expand

__all__ = [
    "OPTIONS",
    "PRESETS",
    "OptionError",
    "OptionSpec",
    "OptionValue",
    "apply_options",
    "available_options",
    "make_ruleset",
    "option_text",
    "option_values",
    "options_dict",
    "parse_option_args",
    "parse_option_value",
]


# ---------------------------------------------------------------------------
# parsing


def _spec(name: str, variant_id: str | None = None) -> OptionSpec:
    spec = OPTIONS.get(name)
    if spec is None:
        if variant_id is None:
            raise OptionError(
                N_("unknown option {name}; valid options: {options}"),
                name=repr(name),
                options=", ".join(OPTIONS),
            )
        raise OptionError(
            N_("unknown option {name} for {variant}; valid options for {of_variant}: {options}"),
            name=repr(name),
            variant=variant_id,
            of_variant=variant_id,
            options=", ".join(available_options(variant_id)),
        )
    return spec


def parse_option_value(name: str, text: str) -> OptionValue:
    """Turn the text of ``--option name=text`` into the option's typed value."""
    return _spec(name.strip()).parse(text)


def parse_option_args(args: Iterable[str]) -> dict[str, OptionValue]:
    """Parse ``["name=value", ...]`` from the command line into a typed options dict."""
    result: dict[str, OptionValue] = {}
    for arg in args:
        name, sep, text = arg.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(
                N_("option {option} must be written NAME=VALUE, e.g. min_bid=6; valid options: {options}"),
                option=repr(arg),
                options=", ".join(OPTIONS),
            )
        if name in result:
            raise OptionError(N_("option {name} is given twice; give each option once"), name=name)
        result[name] = parse_option_value(name, text)
    return result


# ---------------------------------------------------------------------------
# applying


def available_options(variant_id: str) -> list[str]:
    """Names of the options that apply to ``variant_id``, in registry order."""
    return [name for name, spec in OPTIONS.items() if spec.applies_to(variant_id)]


def option_values(rules: Ruleset) -> dict[str, OptionValue]:
    """The value of every applicable option in ``rules`` (presets excluded), for help screens."""
    return {
        name: spec.read(rules)
        for name, spec in OPTIONS.items()
        if spec.applies_to(rules.id) and name != "preset"
    }


def options_dict(rules: Ruleset) -> dict[str, OptionValue]:
    """The options a ruleset was built with, as stored in a game record."""
    return {name: plain(value) for name, value in rules.options}


def _validated(variant_id: str, options: Mapping[str, object]) -> dict[str, OptionValue]:
    """Check option names, their scope for the variant and their values; normalise the values."""
    values: dict[str, OptionValue] = {}
    for raw_name, raw_value in options.items():
        name = str(raw_name).strip()
        spec = _spec(name, variant_id)
        if not spec.applies_to(variant_id):
            raise OptionError(
                N_(
                    "option {name} does not apply to {variant} (only to {variants}); "
                    "valid options for {of_variant}: {options}"
                ),
                name=name,
                variant=variant_id,
                of_variant=variant_id,
                variants=", ".join(spec.variants),
                options=", ".join(available_options(variant_id)),
            )
        values[name] = spec.check(raw_value)
    return values


def apply_options(base: Ruleset, options: Mapping[str, object]) -> Ruleset:
    """A new ruleset: ``base`` with ``options`` applied, checked and recorded in ``options``.

    Options already recorded in ``base`` stay recorded (the new values win);
    only the new ones are applied, on top of ``base``'s fields.
    """
    given = _validated(base.id, options)
    if not given:
        return base
    expanded = expand(given)
    rules: Ruleset = _Draft(**_fields_of(base))
    for name, spec in OPTIONS.items():
        if name in expanded:
            rules = spec.write(rules, expanded[name])
    rules = _implied(base, rules, expanded)
    _check_constraints(base, rules, expanded)
    recorded = dict(base.options) | given
    return Ruleset(**(_fields_of(rules) | {"options": tuple(sorted(recorded.items()))}))


class _Draft(Ruleset):
    """A ruleset while options are written into it, one at a time: checked once, when complete,
    since one option may pass through a combination that a later one mends (players, then partnerships).
    """

    def __post_init__(self) -> None:
        pass


def _fields_of(rules: Ruleset) -> dict[str, Any]:
    return {f.name: getattr(rules, f.name) for f in fields(rules)}


def make_ruleset(variant_id: str, options: Mapping[str, object] | None = None) -> Ruleset:
    """The catalog variant ``variant_id`` with house-rule ``options`` applied.

    >>> rules = make_ruleset("cinch", {"min_bid": 6, "dealer_forced_bid": 6})
    >>> rules.min_bid, rules.dealer_forced_bid, rules.options
    (6, 6, (('dealer_forced_bid', 6), ('min_bid', 6)))
    >>> make_ruleset("cinch", {"min_bid": 15})
    Traceback (most recent call last):
    ...
    pedro.variants.option_spec.OptionError: min_bid=15 is above the maximum bid 14; allowed: min_bid 1..14
    """
    return apply_options(get_variant(variant_id), options or {})


def _implied(base: Ruleset, rules: Ruleset, given: Mapping[str, OptionValue]) -> Ruleset:
    """Defaults the rules tie to other options, applied only where the user did not decide."""
    # note C7: cinch's bidder-goes-out belongs to 62; other targets use bidder priority
    if (
        "target" in given
        and "end_rule" not in given
        and base.end_rule is EndRule.BIDDER_GOES_OUT
        and rules.target != base.target
    ):
        rules = replace(rules, end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY)
    # docs/rules.md §house-rules: once discards are face up, trump_discard_claim defaults to opponents
    # (note C5)
    if (
        ("discards_face_up" in given or "discards_face" in given)
        and "trump_discard_claim" not in given
        and not base.discards_face_up
        and rules.discards_face_up
        and rules.trump_discard_claim is TrumpDiscardClaim.NONE
    ):
        rules = replace(rules, trump_discard_claim=TrumpDiscardClaim.OPPONENTS)
    return rules


def _check_constraints(base: Ruleset, rules: Ruleset, given: Mapping[str, OptionValue]) -> None:
    """Refuse the combinations of docs/rules.md §option-constraints, saying what is allowed."""
    broken = first_broken(base, rules, given)
    if broken is not None:
        raise OptionError(CLASH, problem=broken.problem_text(rules), allowed=broken.allowed_text(rules))
