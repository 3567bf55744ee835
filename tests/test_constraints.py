"""docs/rules.md §option-constraints as a table: every rule fires, and a Ruleset checks itself when made."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from pedro import i18n
from pedro.variants.catalog import VARIANTS
from pedro.variants.constraints import CLASH, CONSTRAINTS, RulesetError, first_broken
from pedro.variants.model import (
    AllPassAction,
    AuctionModel,
    DiscardedScoringTrumps,
    EndRule,
    ExcessTrumps,
    Scoring,
    TrumpDiscardClaim,
)
from pedro.variants.options import OptionError, make_ruleset

#: For each constraint of the table, fields that break it (and nothing before it) in a catalog variant.
BREAKING_FIELDS: dict[str, tuple[str, dict[str, Any]]] = {
    "players_in_range": ("cinch", {"players": 5, "partnerships": False}),
    "partnerships_of_four": ("pedro_sancho", {"players": 6, "partnerships": True}),
    "min_bid_at_most_max": ("cinch", {"min_bid": 15}),
    "redeal_without_forced_bid": ("cinch", {"all_pass_action": AllPassAction.REDEAL_NEXT_DEALER}),
    "forced_dealer_has_a_bid": ("cinch", {"dealer_forced_bid": None}),
    "forced_bid_in_range": ("cinch", {"dealer_forced_bid": 15}),
    "equal_bid_in_one_round": ("cinch", {"dealer_may_equal": True, "auction": AuctionModel.UNTIL_ONE_LEFT}),
    "bid_28_56_in_one_round": ("king_pedro", {"bid_28_56": True}),
    "bid_28_56_of_14_points": ("piedro_jokers", {"bid_28_56": True}),
    "slam_of_all_points": ("cinch", {"slam": True, "max_bid": 13}),
    "difference_of_two_sides": ("pedro_sancho", {"scoring": Scoring.DIFFERENCE}),
    "bidder_goes_out_of_two_sides": ("pedro_sancho", {"end_rule": EndRule.BIDDER_GOES_OUT}),
    "count_out_has_an_order": ("cinch", {"end_rule": EndRule.COUNT_OUT}),
    "bgo_threshold_with_bidder_goes_out": ("king_pedro", {"bgo_threshold": 50}),
    "pass_to_partner_needs_partners": ("pedro_sancho", {"excess_trumps": ExcessTrumps.PASS_TO_PARTNER}),
    "scoring_discards_need_must_discard": (
        "cinch",
        {"discarded_scoring_trumps": DiscardedScoringTrumps.TO_OPPONENTS},
    ),
    "claims_need_face_up_discards": ("cinch", {"trump_discard_claim": TrumpDiscardClaim.OPPONENTS}),
    "keep_nontrumps_with_discard_all": ("king_pedro", {"keep_nontrumps": True}),
    "robbing_needs_the_dealer_to_fill": ("king_pedro", {"dealer_robs_discards": True}),
    "robbing_built_into_the_fill": ("nicaragua", {"dealer_robs_discards": False}),
    "deal_all_out_without_stock": ("cinch", {"deal_all_out": True}),
    "protect_may_equal_needs_protect": ("cinch", {"protect_may_equal": True}),
    "trumps_only_lead_trumps": ("pidro", {"first_lead_trump": False}),
}

#: The two constraints on the options themselves: (variant, options) that break them.
BREAKING_OPTIONS: dict[str, tuple[str, dict[str, object]]] = {
    "discards_face_contradiction": ("cinch", {"discards_face": "up", "discards_face_up": False}),
    "no_discards_no_visibility": ("pedro_sancho", {"discards_face_up": True}),
}


def test_every_constraint_has_a_breaking_example() -> None:
    assert sorted(BREAKING_FIELDS | BREAKING_OPTIONS) == sorted(c.name for c in CONSTRAINTS)
    assert len({c.name for c in CONSTRAINTS}) == len(CONSTRAINTS)


@pytest.mark.parametrize("name", sorted(BREAKING_FIELDS))
def test_replace_cannot_build_a_ruleset_that_breaks_a_constraint(name: str) -> None:
    variant, changes = BREAKING_FIELDS[name]
    constraint = next(c for c in CONSTRAINTS if c.name == name)
    with pytest.raises(RulesetError) as refused:
        replace(VARIANTS[variant], **changes)
    assert refused.value.constraint is constraint
    assert "; allowed: " in str(refused.value)


@pytest.mark.parametrize("name", sorted(BREAKING_OPTIONS))
def test_option_constraints_fire_through_options_only(name: str) -> None:
    variant, options = BREAKING_OPTIONS[name]
    constraint = next(c for c in CONSTRAINTS if c.name == name)
    base = VARIANTS[variant]
    assert first_broken(base, base, {}) is None
    with pytest.raises(OptionError) as refused:
        make_ruleset(variant, options)
    assert str(refused.value) == constraint.message(base)


def test_replace_with_invalid_players_names_the_rule_and_what_is_allowed() -> None:
    with pytest.raises(RulesetError, match=r"^cinch cannot be played by 3 players; allowed: players 4\.\.4$"):
        replace(VARIANTS["cinch"], players=3)
    with pytest.raises(ValueError, match="partnerships need exactly 4 players, but players=5"):
        replace(VARIANTS["dom_pedro"], players=5, partnerships=True)


def test_valid_replace_and_options_still_build() -> None:
    assert replace(VARIANTS["dom_pedro"], players=5).players == 5
    # end_rule first, partnerships after: checked once the options are all written
    rules = make_ruleset("pedro_sancho", {"partnerships": True, "end_rule": "bidder_goes_out"})
    assert type(rules) is type(VARIANTS["cinch"]) and rules.end_rule is EndRule.BIDDER_GOES_OUT


def test_every_catalog_variant_passes_the_table() -> None:
    for rules in VARIANTS.values():
        assert first_broken(rules, rules, {}) is None, rules.id


def _refusal(name: str) -> OptionError:
    """The refusal of the options that break constraint ``name`` (fields written as options where they
    are; the others through a variant's replace, then checked against the table as options are)."""
    if name in BREAKING_OPTIONS:
        variant, options = BREAKING_OPTIONS[name]
        with pytest.raises(OptionError) as refused:
            make_ruleset(variant, options)
        return refused.value
    variant, changes = BREAKING_FIELDS[name]
    with pytest.raises(RulesetError) as broken:
        replace(VARIANTS[variant], **changes)
    error = broken.value
    return OptionError(CLASH, problem=error.problem, allowed=error.allowed)


@pytest.mark.parametrize("lang", ["fi", "sv"])
@pytest.mark.parametrize("name", sorted(BREAKING_FIELDS | BREAKING_OPTIONS))
def test_every_clash_is_said_in_the_players_language_and_stays_english_for_the_api(
    name: str, lang: str
) -> None:
    refusal = _refusal(name)
    english = str(refusal)
    problem_en, allowed_en = refusal.fields["problem"], refusal.fields["allowed"]
    assert refusal.is_clash and english == f"{problem_en}; allowed: {allowed_en}"
    with i18n.speaking(lang):
        said = refusal.translated()
        problem = i18n.translate(problem_en)
    assert str(refusal) == english  # the message itself stays English (the API's, the records')
    assert said != english and problem != problem_en, said
    # no English sentence left: the problem is translated whole, and the joint too
    english_words = {"needs", "cannot", "only", "but", "with", "players", "has", "is", "the"}
    # option syntax (min_bid=15, deal_all_out) left out
    words = {w for w in re.findall(r"[\w=.]+", problem) if not re.search(r"[_=\d]", w)}
    assert not english_words & words, problem
    assert "; allowed: " not in said
    # the numbers the English gives are all said
    assert sorted(re.findall(r"\d+", said)) == sorted(re.findall(r"\d+", english))


def test_a_clash_through_options_keeps_its_two_parts() -> None:
    with pytest.raises(OptionError) as refused:
        make_ruleset("cinch", {"min_bid": 15})
    error = refused.value
    assert str(refused.value) == "min_bid=15 is above the maximum bid 14; allowed: min_bid 1..14"
    assert error.fields == {"problem": "min_bid=15 is above the maximum bid 14", "allowed": "min_bid 1..14"}
    with i18n.speaking("fi"):
        assert error.translated() == "min_bid=15 on suurempi kuin suurin tarjous 14; sallittu: min_bid 1..14"
    with i18n.speaking("sv"):
        assert error.translated() == "min_bid=15 är högre än det högsta budet 14; tillåtet: min_bid 1..14"
    assert error.translated() == str(error)  # English: the message itself
