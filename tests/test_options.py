"""House-rule options (docs/rules.md §house-rules): parsing, effects, §option-constraints, records."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from pedro.cards import DIAMONDS, HEARTS, JK, SPADES, parse_card
from pedro.variants.catalog import VARIANTS, UnknownVariantError
from pedro.variants.model import (
    AllPassAction,
    AuctionModel,
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    MadeScores,
    PlainLead,
    Ruleset,
    Scoring,
    TrumpDiscardClaim,
)
from pedro.variants.options import (
    OPTIONS,
    PRESETS,
    OptionError,
    OptionSpec,
    apply_options,
    available_options,
    make_ruleset,
    option_values,
    options_dict,
    parse_option_args,
    parse_option_value,
)

#: Every option of docs/rules.md §house-rules but the preset and trump_discards_face.
RULES_OPTIONS = {
    "min_bid", "dealer_forced_bid", "slam", "bid_28_56", "keep_nontrumps", "excess_trumps",
    "discarded_scoring_trumps", "dealer_robs_discards", "discards_face_up", "trump_discard_claim",
    "first_lead_trump", "plain_lead", "scoring", "target", "end_rule", "bgo_threshold", "lose_at", "joker",
    "nine_card_deal", "double_max_bid", "deal_all_out", "discard_and_fill", "partnerships", "players",
    "protect", "low_rule", "fives_rank", "plain_honours_score", "discards_face", "cold_cards_face",
    "auction_model", "all_pass_action", "play_hand_size", "made_scores", "fold_mandatory",
    "relative_high_low", "defenders_score_when_set", "protect_may_equal", "off_jack_rank",
}  # fmt: skip


def _changed(before: Ruleset, after: Ruleset) -> dict[str, Any]:
    """Fields that differ (options excluded), as {name: new value}."""
    return {
        f.name: getattr(after, f.name)
        for f in fields(Ruleset)
        if f.name != "options" and getattr(before, f.name) != getattr(after, f.name)
    }


def _error(variant_id: str, options: dict[str, object]) -> str:
    with pytest.raises(OptionError) as info:
        make_ruleset(variant_id, options)
    assert isinstance(info.value, ValueError)
    return str(info.value)


# ---------------------------------------------------------------------------
# registry


def test_registry_covers_every_rules_option() -> None:
    assert RULES_OPTIONS | {"preset", "trump_discards_face"} == set(OPTIONS)
    for name, spec in OPTIONS.items():
        assert isinstance(spec, OptionSpec) and spec.name == name
        assert spec.description and spec.allowed_text()
        assert spec.value_type in (bool, int, str)
        assert set(spec.variants) <= set(VARIANTS)


def test_restricted_options_apply_only_to_their_variants() -> None:
    assert "joker" in available_options("sixty_three") and "joker" not in available_options("cinch")
    assert OPTIONS["players"].variants == ("pedro_sancho", "dom_pedro")
    assert OPTIONS["preset"].variants == ("cinch",)
    assert OPTIONS["off_jack_rank"].variants == ("piedro_jokers",)
    assert OPTIONS["fives_rank"].variants == ("petro_russian",)
    assert "scoring" in available_options("petro_russian")


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_option_at_the_variant_default_is_accepted_and_changes_nothing(variant_id: str) -> None:
    base = VARIANTS[variant_id]
    values = option_values(base)
    assert set(values) == set(available_options(variant_id)) - {"preset"}
    for name, value in values.items():
        rules = make_ruleset(variant_id, {name: value})
        assert rules == base, name
        assert rules.options == ((name, value),)
    # all at once, too
    assert make_ruleset(variant_id, values) == base


# ---------------------------------------------------------------------------
# parsing


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("slam", "true", True),
        ("slam", "Yes", True),
        ("slam", "1", True),
        ("slam", "false", False),
        ("slam", "no", False),
        ("slam", "0", False),
        ("min_bid", "6", 6),
        ("lose_at", "-150", -150),
        ("lose_at", "null", None),
        ("dealer_forced_bid", "None", None),
        ("scoring", "difference", "difference"),
        ("plain_lead", "MUST-FOLLOW", "must_follow"),
        ("discards_face", "up", "up"),
        ("play_hand_size", "6", 6),
        ("off_jack_rank", "3", 3),
        ("off_jack_rank", "below_jack", 5),
        ("off_jack_rank", "below_SJ", 7),
        ("off_jack_rank", "top", 1),
        ("preset", "cinch_min6_forced6", "cinch_min6_forced6"),
    ],
)
def test_parse_option_value(name: str, text: str, value: object) -> None:
    assert parse_option_value(name, text) == value
    assert type(parse_option_value(name, text)) is type(value)


@pytest.mark.parametrize(
    ("name", "text", "allowed"),
    [
        ("slam", "maybe", "true or false"),
        ("min_bid", "six", "an integer from 1 to 83"),
        ("min_bid", "0", "an integer from 1 to 83"),
        ("min_bid", "null", "an integer from 1 to 83"),
        ("scoring", "sum", "one of standard, difference"),
        ("play_hand_size", "5", "one of 6, 7"),
        ("players", "8", "an integer from 4 to 7"),
        ("lose_at", "10", "an integer from -10000 to -1 or null"),
        ("off_jack_rank", "below_nothing", "below_<card>"),
        ("end_rule", "x", "bidder_goes_out"),
    ],
)
def test_parse_option_value_rejects_bad_values_listing_allowed_ones(
    name: str, text: str, allowed: str
) -> None:
    with pytest.raises(OptionError) as info:
        parse_option_value(name, text)
    assert name in str(info.value)
    assert allowed in str(info.value)


def test_parse_option_value_unknown_name_lists_options() -> None:
    with pytest.raises(OptionError) as info:
        parse_option_value("slams", "true")
    assert "'slams'" in str(info.value)
    assert "slam" in str(info.value) and "low_rule" in str(info.value)


def test_parse_option_args() -> None:
    assert parse_option_args(["min_bid=6", " slam = yes", "lose_at=null", "plain_lead=any"]) == {
        "min_bid": 6,
        "slam": True,
        "lose_at": None,
        "plain_lead": "any",
    }
    assert parse_option_args([]) == {}
    with pytest.raises(OptionError, match="NAME=VALUE"):
        parse_option_args(["slam"])
    with pytest.raises(OptionError, match="twice"):
        parse_option_args(["slam=true", "slam=false"])


# ---------------------------------------------------------------------------
# unknown names, scope, types


def test_unknown_option_lists_the_variants_options() -> None:
    message = _error("cinch", {"jokers": True})
    assert "unknown option 'jokers' for cinch" in message
    for name in available_options("cinch"):
        assert name in message
    assert "fives_rank" not in message  # not a cinch option


def test_option_for_another_variant_is_refused() -> None:
    message = _error("cinch", {"joker": True})
    assert "does not apply to cinch" in message
    assert "sixty_three, eighty_three" in message
    assert "slam" in message  # the valid options are listed


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="valid variants: cinch, pidro"):
        make_ruleset("pedro", {})


@pytest.mark.parametrize(
    ("options", "allowed"),
    [
        ({"slam": "perhaps"}, "true or false"),
        ({"slam": 1}, "true or false"),
        ({"min_bid": True}, "an integer"),
        ({"min_bid": 6.5}, "an integer"),
        ({"scoring": 3}, "one of standard, difference"),
        ({"target": None}, "an integer from 1 to 10000"),
        ({"excess_trumps": "bury"}, "keep_and_bury, must_discard_to_6"),
    ],
)
def test_wrong_value_types_are_refused(options: dict[str, object], allowed: str) -> None:
    assert allowed in _error("cinch", options)


def test_typed_and_enum_values_are_accepted() -> None:
    rules = make_ruleset("cinch", {"scoring": Scoring.DIFFERENCE, "min_bid": "6", "slam": "yes"})
    assert rules.scoring is Scoring.DIFFERENCE and rules.min_bid == 6 and rules.slam
    assert rules.options == (("min_bid", 6), ("scoring", "difference"), ("slam", True))


# ---------------------------------------------------------------------------
# each option changes the right fields

SINGLE_FIELD_CASES: list[tuple[str, str, object, dict[str, Any]]] = [
    ("cinch", "min_bid", 6, {"min_bid": 6}),
    ("cinch", "dealer_forced_bid", 8, {"dealer_forced_bid": 8}),
    ("cinch", "slam", True, {"slam": True}),
    ("cinch", "bid_28_56", True, {"bid_28_56": True}),
    ("cinch", "keep_nontrumps", True, {"keep_nontrumps": True}),
    ("cinch", "excess_trumps", "must_discard_to_6", {"excess_trumps": ExcessTrumps.MUST_DISCARD_TO_6}),
    ("cinch", "dealer_robs_discards", True, {"dealer_robs_discards": True}),
    ("cinch", "first_lead_trump", True, {"first_lead_trump": True}),
    ("cinch", "plain_lead", "must_follow", {"plain_lead": PlainLead.MUST_FOLLOW}),
    ("cinch", "plain_lead", "any", {"plain_lead": PlainLead.ANY}),
    ("cinch", "scoring", "difference", {"scoring": Scoring.DIFFERENCE}),
    ("cinch", "low_rule", "dealt", {"low_rule": LowRule.DEALT}),
    ("cinch", "bgo_threshold", 50, {"bgo_threshold": 50}),
    ("cinch", "lose_at", -100, {"lose_at": -100}),
    ("cinch", "double_max_bid", True, {"double_max_bid": True}),
    ("king_pedro", "lose_at", None, {"lose_at": None}),
    ("king_pedro", "end_rule", "first_to_target_bidder_priority", {
        "end_rule": EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY}),
    ("king_pedro_canadian", "made_scores", "bid", {"made_scores": MadeScores.BID}),
    ("king_pedro_canadian", "fold_mandatory", False, {"fold_mandatory": False}),
    ("king_pedro_canadian", "lose_at", -100, {"lose_at": -100}),
    ("pidro", "cold_cards_face", "down", {"cold_cards_face_up": False}),
    ("pitch_fives", "first_lead_trump", True, {"first_lead_trump": True}),
    ("pitch_fives", "relative_high_low", True, {"relative_high_low": True}),
    ("pitch_fives", "partnerships", False, {"partnerships": False}),
    ("nicaragua", "play_hand_size", 6, {"play_hand_size": 6}),
    ("nicaragua", "low_rule", "dealt", {"low_rule": LowRule.DEALT}),
    ("pedro_sancho", "defenders_score_when_set", False, {"defenders_score_when_set": False}),
    ("pedro_sancho", "players", 6, {"players": 6}),
    ("dom_pedro", "players", 7, {"players": 7}),
    ("pedro_sancho", "partnerships", True, {"partnerships": True}),
    ("piedro_jokers", "protect", False, {"protect": False}),
    ("piedro_jokers", "protect_may_equal", True, {"protect_may_equal": True}),
    ("piedro_jokers", "auction_model", "until_one_left", {"auction": AuctionModel.UNTIL_ONE_LEFT}),
    ("petro_russian", "auction_model", "single_round", {"auction": AuctionModel.SINGLE_ROUND}),
    ("petro_russian", "low_rule", "holder", {"low_rule": LowRule.HOLDER}),
    ("petro_russian", "min_bid", 6, {"min_bid": 6}),
    ("sixty_three", "low_rule", "holder", {"low_rule": LowRule.HOLDER}),
    ("eighty_three", "min_bid", 1, {"min_bid": 1}),
    ("eighty_three", "min_bid", 40, {"min_bid": 40}),
    ("eighty_three", "plain_lead", "follow_or_trump_void_must_trump", {
        "plain_lead": PlainLead.FOLLOW_OR_TRUMP_VOID_MUST_TRUMP}),
    ("eighty_three", "double_max_bid", False, {"double_max_bid": False}),
    ("eighty_three", "target", 300, {"target": 300}),
    ("king_pedro", "trump_discards_face", "down", {"trump_discards_face_up": False}),
]  # fmt: skip


@pytest.mark.parametrize(("variant_id", "name", "value", "changes"), SINGLE_FIELD_CASES)
def test_option_changes_exactly_its_fields(
    variant_id: str, name: str, value: object, changes: dict[str, Any]
) -> None:
    base = VARIANTS[variant_id]
    rules = make_ruleset(variant_id, {name: value})
    assert _changed(base, rules) == changes
    assert rules.options == ((name, value),)


def test_all_pass_action_and_forced_bid_move_together() -> None:
    # pedro_sancho option all_pass_action=redeal (note S3): the forced bid goes away
    rules = make_ruleset("pedro_sancho", {"all_pass_action": "redeal_next_dealer"})
    assert _changed(VARIANTS["pedro_sancho"], rules) == {
        "all_pass_action": AllPassAction.REDEAL_NEXT_DEALER,
        "dealer_forced_bid": None,
    }
    # a redeal variant made dealer-forced takes the minimum unless a forced bid is given
    rules = make_ruleset("king_pedro", {"all_pass_action": "dealer_forced"})
    assert (rules.all_pass_action, rules.dealer_forced_bid) == (AllPassAction.DEALER_FORCED, 30)
    rules = make_ruleset("king_pedro", {"all_pass_action": "dealer_forced", "dealer_forced_bid": 35})
    assert rules.dealer_forced_bid == 35
    # nicaragua-style: forced bid below the minimum is allowed
    assert make_ruleset("cinch", {"dealer_forced_bid": 6}).dealer_forced_bid == 6


def test_joker_option_sixty_three() -> None:
    base = VARIANTS["sixty_three"]
    rules = make_ruleset("sixty_three", {"joker": True})
    assert rules.jokers == ("JK",)
    assert rules.trump_order == (*base.trump_order, "JK")
    assert "3" not in rules.point_map and rules.point_map["JK"] == 15
    assert rules.total_points == 63
    assert len(rules.deck) == 53 and rules.kitty_size == 0  # one card stays undealt
    assert set(_changed(base, rules)) == {"jokers", "trump_order", "points"}


def test_joker_option_eighty_three_false() -> None:
    base = VARIANTS["eighty_three"]
    rules = make_ruleset("eighty_three", {"joker": False})
    assert rules.jokers == ()
    assert "JK" not in rules.trump_order and rules.trump_order == tuple(
        ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "L5", "4", "3", "2"]
    )
    assert rules.point_map["3"] == 15 and "JK" not in rules.point_map
    assert rules.total_points == 83
    assert rules.kitty_size == 4  # 52 - 4 x 12
    assert set(_changed(base, rules)) == {"jokers", "trump_order", "points", "kitty_size"}


def test_fives_rank_standard_for_petro() -> None:
    rules = make_ruleset("petro_russian", {"fives_rank": "standard"})
    assert rules.trump_order == tuple(["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "L5", "4", "3", "2"])
    assert make_ruleset("petro_russian", {"fives_rank": "top"}) == VARIANTS["petro_russian"]


def test_plain_honours_score_for_petro() -> None:
    rules = make_ruleset("petro_russian", {"plain_honours_score": True})
    assert dict(rules.plain_points) == {"A": 1, "J": 1, "T": 1, "2": 1}
    assert rules.total_points == 26
    tables = rules.tables(HEARTS)
    assert tables.points[parse_card("AS")] == 1 and tables.points[parse_card("5S")] == 0
    assert tables.points[parse_card("5D")] == 5


def test_off_jack_rank_for_piedro() -> None:
    rules = make_ruleset("piedro_jokers", {"off_jack_rank": 1})
    assert rules.trump_order[:2] == ("OJ", "A")
    rules = make_ruleset("piedro_jokers", {"off_jack_rank": "below_sj"})
    assert rules.trump_order[4:8] == ("BJ", "SJ", "OJ", "T")
    rules = make_ruleset("piedro_jokers", {"off_jack_rank": 17})
    assert rules.trump_order[-1] == "OJ"
    assert rules.options == (("off_jack_rank", 17),)
    assert "an integer from 1 to 17" in _error("piedro_jokers", {"off_jack_rank": 18})


def test_discards_face_options() -> None:
    # petro face up -> down (English translation, note R2): every discard hidden
    rules = make_ruleset("petro_russian", {"discards_face": "down"})
    assert (rules.discards_face_up, rules.trump_discards_face_up) == (False, False)
    assert make_ruleset("petro_russian", {"discards_face_up": False}) == rules
    # king_pedro down is its default: discarded trumps stay face up (note G4)
    assert make_ruleset("king_pedro", {"discards_face": "down"}) == VARIANTS["king_pedro"]
    # pitch_fives up: everything public
    rules = make_ruleset("pitch_fives", {"discards_face": "up"})
    assert (rules.discards_face_up, rules.trump_discards_face_up) == (True, True)
    message = _error("cinch", {"discards_face": "up", "discards_face_up": False})
    assert "contradict" in message


def test_discards_face_up_defaults_claim_to_opponents() -> None:
    # docs/rules.md §house-rules: trump_discard_claim defaults to opponents once discards are face up
    # (note C5)
    rules = make_ruleset("cinch", {"discards_face_up": True})
    assert rules.trump_discard_claim is TrumpDiscardClaim.OPPONENTS
    assert (rules.discards_face_up, rules.trump_discards_face_up) == (True, True)
    rules = make_ruleset("cinch", {"discards_face_up": True, "trump_discard_claim": "anyone"})
    assert rules.trump_discard_claim is TrumpDiscardClaim.ANYONE
    rules = make_ruleset("cinch", {"discards_face_up": True, "trump_discard_claim": "none"})
    assert rules.trump_discard_claim is TrumpDiscardClaim.NONE
    # pidro already discards face up: restating it adds no claim
    assert make_ruleset("pidro", {"discards_face_up": True}).trump_discard_claim is TrumpDiscardClaim.NONE


def test_nine_card_deal() -> None:
    for variant_id in ("sixty_three", "eighty_three"):
        rules = make_ruleset(variant_id, {"nine_card_deal": True})
        assert rules.nine_card_deal
        assert (rules.hand_size, rules.packets, rules.kitty_size, rules.second_deal) == (9, (3,), 0, 0)
        assert rules.discard is DiscardPolicy.ALL_NONTRUMPS
        assert rules.fill is FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6
        assert rules.excess_trumps is ExcessTrumps.PASS_TO_PARTNER
        assert not rules.kitty_before_trump
    rules = make_ruleset("eighty_three", {"nine_card_deal": True, "joker": False})
    assert rules.kitty_size == 0 and len(rules.deck) == 52


def test_deal_all_out() -> None:
    rules = make_ruleset("pedro_sancho", {"deal_all_out": True})
    assert rules.deal_all_out and rules.first_deal_size == 13
    assert (rules.hand_size, rules.play_hand_size, rules.packets) == (13, 13, (1,))
    rules = make_ruleset("dom_pedro", {"deal_all_out": True, "players": 5})
    assert rules.first_deal_size == 10 == rules.play_hand_size  # 53 // 5, three cards undealt


def test_discard_and_fill() -> None:
    rules = make_ruleset("pedro_sancho", {"discard_and_fill": True})
    assert _changed(VARIANTS["pedro_sancho"], rules) == {
        "discard": DiscardPolicy.ALL_NONTRUMPS,
        "fill": FillPolicy.FILL_ALL_FROM_TOP,
    }
    rules = make_ruleset("pedro_sancho", {"discard_and_fill": True, "discards_face": "up"})
    assert rules.discards_face_up
    assert "discard_and_fill=true" in _error("pedro_sancho", {"discards_face": "up"})


def test_must_discard_to_6_with_scoring_trumps_to_opponents() -> None:
    rules = make_ruleset(
        "cinch", {"excess_trumps": "must_discard_to_6", "discarded_scoring_trumps": "to_opponents"}
    )
    assert rules.excess_trumps is ExcessTrumps.MUST_DISCARD_TO_6
    assert rules.discarded_scoring_trumps is DiscardedScoringTrumps.TO_OPPONENTS


# ---------------------------------------------------------------------------
# presets and implied defaults


def test_presets() -> None:
    assert PRESETS["cinch_min6_forced6"] == {"min_bid": 6, "dealer_forced_bid": 6}
    six = make_ruleset("cinch", {"preset": "cinch_min6_forced6"})
    assert (six.min_bid, six.dealer_forced_bid) == (6, 6)
    assert six.options == (("preset", "cinch_min6_forced6"),)
    seven = make_ruleset("cinch", {"preset": "cinch_min6_forced7"})
    assert (seven.min_bid, seven.dealer_forced_bid) == (6, 7)
    # restating a preset value is fine, contradicting it is not
    assert make_ruleset("cinch", {"preset": "cinch_min6_forced7", "min_bid": 6}) == seven
    message = _error("cinch", {"preset": "cinch_min6_forced7", "dealer_forced_bid": 6})
    assert "contradicts preset cinch_min6_forced7" in message and "dealer_forced_bid=7" in message
    message = _error("cinch", {"preset": "min6"})
    assert "cinch_min6_forced6, cinch_min6_forced7" in message
    assert "does not apply to pidro" in _error("pidro", {"preset": "cinch_min6_forced6"})


def test_cinch_target_switches_end_rule() -> None:
    # note C7: other targets use first_to_target_bidder_priority unless end_rule is given
    for target in (51, 52, 56, 61):
        rules = make_ruleset("cinch", {"target": target})
        assert rules.end_rule is EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY
        assert rules.target == target
    assert make_ruleset("cinch", {"target": 62}).end_rule is EndRule.BIDDER_GOES_OUT
    rules = make_ruleset("cinch", {"target": 51, "end_rule": "bidder_goes_out"})
    assert rules.end_rule is EndRule.BIDDER_GOES_OUT and rules.effective_bgo_threshold == 44
    # other variants keep their end rule
    assert make_ruleset("pidro", {"target": 52}).end_rule is EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY
    assert make_ruleset("king_pedro", {"target": 300}).end_rule is EndRule.SUCCESSFUL_BID_ONLY


# ---------------------------------------------------------------------------
# docs/rules.md §option-constraints: refused with what is allowed


CONSTRAINT_CASES: list[tuple[str, dict[str, object], list[str]]] = [
    # difference scoring needs two sides
    ("pedro_sancho", {"scoring": "difference"}, ["two sides", "scoring=standard"]),
    ("petro_russian", {"scoring": "difference"}, ["two sides", "scoring=standard"]),
    ("pitch_fives", {"partnerships": False, "scoring": "difference"}, ["two sides", "scoring=standard"]),
    # bid_28_56 needs single_round and 14 points
    ("king_pedro", {"bid_28_56": True}, ["single round", "auction_model=single_round"]),
    ("piedro_jokers", {"bid_28_56": True}, ["14-point", "17 points", "bid_28_56=false"]),
    ("cinch", {"bid_28_56": True, "auction_model": "until_one_left"}, ["auction_model=single_round"]),
    # slam needs max_bid == total points
    ("petro_russian", {"slam": True, "plain_honours_score": True}, ["maximum bid is 14", "26 points",
                                                                   "slam=false"]),
    # pass_to_partner needs partnerships
    ("pedro_sancho", {"excess_trumps": "pass_to_partner"}, ["partnerships", "keep_and_bury"]),
    ("petro_russian", {"excess_trumps": "pass_to_partner"}, ["partnerships", "must_discard_to_6"]),
    # trump_discard_claim needs face-up discards
    ("cinch", {"trump_discard_claim": "opponents"}, ["face up", "trump_discard_claim=none",
                                                    "discards_face_up=true"]),
    ("king_pedro", {"trump_discard_claim": "anyone"}, ["discards_face_up=true"]),
    # dealer_forced_bid and redeal are exclusive; a forced dealer needs a bid
    ("king_pedro", {"dealer_forced_bid": 30}, ["redeal_next_dealer", "all_pass_action=dealer_forced"]),
    ("cinch", {"all_pass_action": "redeal_next_dealer", "dealer_forced_bid": 7}, [
        "dealer_forced_bid=null"]),
    ("cinch", {"dealer_forced_bid": None}, ["all_pass_action=redeal_next_dealer", "dealer_forced_bid 1..14"]),
    ("cinch", {"dealer_forced_bid": 15}, ["dealer_forced_bid 1..14"]),
    # count_out only where an order exists
    ("cinch", {"end_rule": "count_out"}, ["count_out", "first_to_target_bidder_priority",
                                          "bidder_goes_out"]),
    ("king_pedro", {"end_rule": "count_out"}, ["successful_bid_only"]),
    # bidder_goes_out needs two sides
    ("pedro_sancho", {"end_rule": "bidder_goes_out"}, ["two sides", "count_out",
                                                       "first_to_target_bidder_priority"]),
    ("petro_russian", {"end_rule": "bidder_goes_out"}, ["two sides", "first_to_target_bidder_priority"]),
    # players 4..7 only for pedro_sancho / dom_pedro; partnerships only with 4
    ("cinch", {"players": 5}, ["does not apply to cinch", "pedro_sancho, dom_pedro"]),
    ("pedro_sancho", {"players": 3}, ["an integer from 4 to 7"]),
    ("dom_pedro", {"players": 6, "partnerships": True}, ["exactly 4 players", "partnerships=false"]),
    # coupled fields
    ("cinch", {"min_bid": 15}, ["min_bid 1..14"]),
    ("cinch", {"discarded_scoring_trumps": "to_opponents"}, ["excess_trumps=must_discard_to_6"]),
    ("king_pedro", {"keep_nontrumps": True}, ["keep_nontrumps=false"]),
    ("king_pedro", {"dealer_robs_discards": True}, ["dealer_robs_discards=false"]),
    ("nicaragua", {"dealer_robs_discards": False}, ["built into", "dealer_robs_discards=true"]),
    ("cinch", {"bgo_threshold": 50, "target": 51}, ["bgo_threshold=null", "end_rule=bidder_goes_out"]),
    ("pitch_fives", {"auction_model": "until_one_left"}, ["equal bid", "auction_model=single_round"]),
    ("pidro", {"auction_model": "until_one_left"}, ["auction_model=single_round"]),
    ("piedro_jokers", {"protect": False, "protect_may_equal": True}, ["protect=true"]),
    ("pedro_sancho", {"deal_all_out": True, "discard_and_fill": True}, ["not both"]),
    ("pidro", {"first_lead_trump": False}, ["only trumps", "first_lead_trump=true"]),
]  # fmt: skip


@pytest.mark.parametrize(("variant_id", "options", "fragments"), CONSTRAINT_CASES)
def test_constraint_is_refused_with_allowed_values(
    variant_id: str, options: dict[str, object], fragments: list[str]
) -> None:
    message = _error(variant_id, options)
    assert "allowed" in message or "valid options" in message
    for fragment in fragments:
        assert fragment in message


def test_constraints_pass_where_allowed() -> None:
    assert make_ruleset("cinch", {"bid_28_56": True, "slam": True}).bid_28_56
    assert make_ruleset("cinch", {"scoring": "difference"}).scoring is Scoring.DIFFERENCE
    assert make_ruleset("pedro_sancho", {"partnerships": True, "scoring": "difference"}).num_sides == 2
    rules = make_ruleset("pedro_sancho", {"partnerships": True, "end_rule": "bidder_goes_out"})
    assert rules.end_rule is EndRule.BIDDER_GOES_OUT
    assert make_ruleset("dom_pedro", {"end_rule": "first_to_target_bidder_priority"}).count_out_order
    rules = make_ruleset("king_pedro", {"all_pass_action": "dealer_forced", "dealer_forced_bid": 30})
    assert rules.dealer_forced_bid == 30
    assert make_ruleset("cinch", {"all_pass_action": "redeal_next_dealer"}).dealer_forced_bid is None
    assert make_ruleset("cinch", {"dealer_forced_bid": None, "all_pass_action": "redeal_next_dealer"})
    assert make_ruleset("petro_russian", {"slam": True}).slam


# ---------------------------------------------------------------------------
# records: round trip and JSON


ROUND_TRIPS: list[tuple[str, dict[str, object]]] = [
    ("cinch", {}),
    ("cinch", {"preset": "cinch_min6_forced6", "slam": True, "scoring": "difference"}),
    ("cinch", {"target": 51, "discards_face_up": True, "low_rule": "dealt"}),
    ("cinch", {"excess_trumps": "must_discard_to_6", "discarded_scoring_trumps": "to_opponents"}),
    ("sixty_three", {"joker": True, "nine_card_deal": True}),
    ("eighty_three", {"joker": False, "min_bid": 1, "plain_lead": "follow_or_trump_void_must_trump"}),
    ("piedro_jokers", {"off_jack_rank": "below_bj", "protect_may_equal": True}),
    ("petro_russian", {"fives_rank": "standard", "plain_honours_score": True, "discards_face": "down"}),
    ("pedro_sancho", {"players": 6, "deal_all_out": True, "all_pass_action": "redeal_next_dealer"}),
    ("king_pedro", {"lose_at": None, "all_pass_action": "dealer_forced"}),
    ("nicaragua", {"play_hand_size": 6}),
]


@pytest.mark.parametrize(("variant_id", "options"), ROUND_TRIPS)
def test_options_round_trip_through_a_record(variant_id: str, options: dict[str, object]) -> None:
    rules = make_ruleset(variant_id, options)
    record = json.loads(json.dumps({"variant": rules.id, "options": options_dict(rules)}))
    again = make_ruleset(record["variant"], record["options"])
    assert again == rules
    assert again.options == rules.options
    assert list(dict(rules.options)) == sorted(dict(rules.options))
    for value in dict(rules.options).values():
        assert value is None or type(value) in (bool, int, str)


def test_apply_options_on_top_of_options_keeps_the_record() -> None:
    base = make_ruleset("cinch", {"slam": True})
    rules = apply_options(base, {"min_bid": 6})
    assert rules.slam and rules.min_bid == 6
    assert rules.options == (("min_bid", 6), ("slam", True))
    assert make_ruleset("cinch", options_dict(rules)) == rules
    assert apply_options(base, {}) is base


# ---------------------------------------------------------------------------
# edge cases of docs/rules.md §edge-cases that are pure data


def test_edge_case_05_plain_lead_options() -> None:
    assert make_ruleset("cinch", {"plain_lead": "must_follow"}).plain_lead is PlainLead.MUST_FOLLOW
    assert make_ruleset("cinch", {"plain_lead": "any"}).plain_lead is PlainLead.ANY


def test_edge_case_22_petro_standard_fives() -> None:
    tables = make_ruleset("petro_russian", {"fives_rank": "standard"}).tables(DIAMONDS)
    assert tables.strength[parse_card("AD")] > tables.strength[parse_card("5H")]
    assert (
        tables.strength[parse_card("5D")]
        > tables.strength[parse_card("5H")]
        > tables.strength[parse_card("4D")]
    )


def test_edge_case_25_preset_min6_forced7() -> None:
    rules = make_ruleset("cinch", {"preset": "cinch_min6_forced7"})
    assert rules.min_bid == 6 and rules.dealer_forced_bid == 7


def test_edge_case_43_nicaragua_six_card_play() -> None:
    rules = make_ruleset("nicaragua", {"play_hand_size": 6})
    assert rules.hand_size == 7 and rules.play_hand_size == 6


def test_edge_case_67_difference_with_min_bid_six() -> None:
    rules = make_ruleset("cinch", {"scoring": "difference", "min_bid": 6})
    assert rules.scoring is Scoring.DIFFERENCE and rules.min_bid == 6 and rules.dealer_forced_bid == 7


def test_edge_case_69_bid_28_56_allowed_in_cinch() -> None:
    rules = make_ruleset("cinch", {"bid_28_56": True})
    assert rules.bid_28_56 and rules.auction is AuctionModel.SINGLE_ROUND and rules.total_points == 14


def test_edge_case_75_sixty_three_joker() -> None:
    rules = make_ruleset("sixty_three", {"joker": True})
    tables = rules.tables(SPADES)
    assert tables.points[parse_card("3S")] == 0
    assert tables.points[JK] == 15
    assert 0 < tables.strength[JK] < tables.strength[parse_card("2S")]
    assert rules.total_points == 63


def test_edge_case_83_cinch_target_51() -> None:
    rules = make_ruleset("cinch", {"target": 51})
    assert rules.target == 51 and rules.end_rule is EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY


def test_edge_case_92_canadian_has_no_minus_limit_unless_opted() -> None:
    assert VARIANTS["king_pedro_canadian"].lose_at is None
    assert make_ruleset("king_pedro_canadian", {"lose_at": -100}).lose_at == -100


def test_edge_case_99_cinch_face_up_discards_claimed_by_opponents() -> None:
    rules = make_ruleset("cinch", {"discards_face_up": True})
    assert rules.discards_face_up and rules.trump_discard_claim is TrumpDiscardClaim.OPPONENTS


def test_edge_case_101_dealer_robs_discards() -> None:
    assert not VARIANTS["cinch"].dealer_robs_discards
    assert make_ruleset("cinch", {"dealer_robs_discards": True}).dealer_robs_discards
