"""The variant catalog against the variants of docs/rules.md §variants and its notes, rule by rule."""

from __future__ import annotations

import pytest

from pedro.cards import CLUBS, DIAMONDS, HEARTS, JK, SPADES, parse_card
from pedro.variants.catalog import VARIANTS, UnknownVariantError, get_variant
from pedro.variants.model import (
    AllPassAction,
    AuctionModel,
    BuryRule,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    MadeScores,
    OutOfTrumps,
    PlainLead,
    Ruleset,
    Scoring,
)

IDS = [
    "cinch",
    "pidro",
    "nicaragua",
    "pitch_fives",
    "pedro_sancho",
    "dom_pedro",
    "king_pedro",
    "king_pedro_canadian",
    "sixty_three",
    "eighty_three",
    "piedro_jokers",
    "petro_russian",
]

TOTAL_POINTS = {
    "cinch": 14,
    "pidro": 14,
    "nicaragua": 14,
    "pitch_fives": 9,
    "pedro_sancho": 18,
    "dom_pedro": 36,
    "king_pedro": 44,
    "king_pedro_canadian": 62,
    "sixty_three": 63,
    "eighty_three": 83,
    "piedro_jokers": 17,
    "petro_russian": 14,
}

STANDARD = "A K Q J T 9 8 7 6 5 L5 4 3 2"
NO_L5 = "A K Q J T 9 8 7 6 5 4 3 2"

#: trump order (high to low) and card points of every variant (table rows "trump order", "card points").
TRUMPS_AND_POINTS: dict[str, tuple[str, dict[str, int]]] = {
    "cinch": (STANDARD, {"A": 1, "J": 1, "T": 1, "5": 5, "L5": 5, "2": 1}),
    "pidro": (STANDARD, {"A": 1, "J": 1, "T": 1, "5": 5, "L5": 5, "2": 1}),
    "nicaragua": (STANDARD, {"A": 1, "J": 1, "T": 1, "5": 5, "L5": 5, "2": 1}),
    "pitch_fives": (NO_L5, {"A": 1, "J": 1, "T": 1, "5": 5, "2": 1}),
    "pedro_sancho": (NO_L5, {"A": 1, "J": 1, "T": 1, "9": 9, "5": 5, "2": 1}),
    "dom_pedro": (NO_L5 + " JK", {"A": 1, "J": 1, "T": 1, "9": 9, "5": 5, "3": 3, "2": 1, "JK": 15}),
    "king_pedro": (STANDARD, {"A": 1, "K": 30, "J": 1, "T": 1, "5": 5, "L5": 5, "2": 1}),
    "king_pedro_canadian": (STANDARD, {"A": 1, "K": 30, "J": 1, "T": 10, "9": 9, "5": 5, "L5": 5, "2": 1}),
    "sixty_three": (
        STANDARD,
        {"A": 1, "K": 25, "J": 1, "T": 1, "9": 9, "5": 5, "L5": 5, "3": 15, "2": 1},
    ),
    "eighty_three": (
        STANDARD + " JK",
        {"A": 1, "K": 25, "Q": 20, "J": 1, "T": 1, "9": 9, "5": 5, "L5": 5, "2": 1, "JK": 15},
    ),
    "piedro_jokers": (
        "A K Q J OJ BJ SJ T 9 8 7 6 5 L5 4 3 2",
        {"A": 1, "J": 1, "OJ": 1, "BJ": 1, "SJ": 1, "T": 1, "5": 5, "L5": 5, "2": 1},
    ),
    "petro_russian": ("5 L5 A K Q J T 9 8 7 6 4 3 2", {"A": 1, "J": 1, "T": 1, "5": 5, "L5": 5, "2": 1}),
}

#: (deck size, hand size, packets, kitty, second deal, stock left after dealing)
DEALS = {
    "cinch": (52, 9, (3,), 0, 0, 16),
    "pidro": (52, 9, (3,), 0, 0, 16),
    "nicaragua": (52, 7, (3, 4), 0, 0, 24),
    "pitch_fives": (52, 6, (3,), 0, 0, 28),
    "pedro_sancho": (52, 6, (3,), 0, 0, 28),
    "dom_pedro": (53, 6, (3,), 0, 0, 29),
    "king_pedro": (52, 12, (3,), 4, 0, 0),
    "king_pedro_canadian": (52, 9, (3,), 0, 4, 0),
    "sixty_three": (52, 9, (3,), 0, 4, 0),
    "eighty_three": (53, 12, (3,), 5, 0, 0),
    "piedro_jokers": (54, 9, (3,), 0, 0, 18),
    "petro_russian": (52, 9, (3,), 0, 0, 16),
}

#: auction: (model, min, max, dealer_may_equal, max_bid_rebid, forced bid or None, double, protect)
AUCTIONS = {
    "cinch": (AuctionModel.SINGLE_ROUND, 7, 14, False, False, 7, False, False),
    "pidro": (AuctionModel.SINGLE_ROUND, 6, 14, False, True, 6, False, False),
    "nicaragua": (AuctionModel.SINGLE_ROUND, 7, 14, False, False, 6, False, False),
    "pitch_fives": (AuctionModel.SINGLE_ROUND, 2, 9, True, False, 2, False, False),
    "pedro_sancho": (AuctionModel.SINGLE_ROUND, 1, 18, True, False, 1, False, False),
    "dom_pedro": (AuctionModel.SINGLE_ROUND, 1, 36, True, False, 1, False, False),
    "king_pedro": (AuctionModel.UNTIL_ONE_LEFT, 30, 44, False, False, None, False, False),
    "king_pedro_canadian": (AuctionModel.UNTIL_ONE_LEFT, 30, 62, False, False, None, False, False),
    "sixty_three": (AuctionModel.UNTIL_ONE_LEFT, 1, 63, False, False, None, False, False),
    "eighty_three": (AuctionModel.UNTIL_ONE_LEFT, 30, 83, False, False, None, True, False),
    "piedro_jokers": (AuctionModel.SINGLE_ROUND, 9, 17, False, False, 9, False, True),
    "petro_russian": (AuctionModel.UNTIL_ONE_LEFT, 7, 14, False, False, 7, False, False),
}

#: exchange: (discard, non-trump discards up, trump discards up, fill, excess, play hand size, fold)
EXCHANGES = {
    "cinch": (
        DiscardPolicy.ALL_NONTRUMPS, False, False, FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
        ExcessTrumps.KEEP_AND_BURY, 6, False,
    ),
    "pidro": (
        DiscardPolicy.ALL_NONTRUMPS, True, True, FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
        ExcessTrumps.KILL_NONSCORING_FACE_UP, 6, False,
    ),
    "nicaragua": (
        DiscardPolicy.ANY_CARDS, False, False, FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS,
        ExcessTrumps.KEEP_AND_BURY, 7, False,
    ),
    "pitch_fives": (
        DiscardPolicy.ALL_NONTRUMPS, False, False, FillPolicy.FILL_ALL_FROM_TOP,
        ExcessTrumps.KEEP_AND_BURY, 6, False,
    ),
    "pedro_sancho": (
        DiscardPolicy.NONE, False, False, FillPolicy.NONE, ExcessTrumps.KEEP_AND_BURY, 6, False,
    ),
    "dom_pedro": (DiscardPolicy.NONE, False, False, FillPolicy.NONE, ExcessTrumps.KEEP_AND_BURY, 6, False),
    "king_pedro": (
        DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST, False, True, FillPolicy.NONE,
        ExcessTrumps.KEEP_AND_BURY, 6, False,
    ),
    "king_pedro_canadian": (
        DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST, False, True, FillPolicy.NONE,
        ExcessTrumps.DISCARD_NONSCORING_FACE_UP, 6, True,
    ),
    "sixty_three": (
        DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST, False, True, FillPolicy.NONE,
        ExcessTrumps.PASS_TO_PARTNER, 6, False,
    ),
    "eighty_three": (
        DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST, False, True, FillPolicy.NONE,
        ExcessTrumps.PASS_TO_PARTNER, 6, False,
    ),
    "piedro_jokers": (
        DiscardPolicy.ALL_NONTRUMPS, False, False, FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
        ExcessTrumps.KEEP_AND_BURY, 6, False,
    ),
    "petro_russian": (
        DiscardPolicy.AT_LEAST_3_ANY, True, True, FillPolicy.FILL_ALL_FROM_TOP,
        ExcessTrumps.KEEP_AND_BURY, 6, False,
    ),
}  # fmt: skip

#: play: (first lead trump, plain lead, plain ranking, out of trumps)
PLAY = {
    "cinch": (False, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.CONTINUE),
    "pidro": (True, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.COLD_ON_TURN),
    "nicaragua": (False, PlainLead.MUST_FOLLOW, True, OutOfTrumps.CONTINUE),
    "pitch_fives": (False, PlainLead.MUST_FOLLOW, True, OutOfTrumps.CONTINUE),
    "pedro_sancho": (True, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.CONTINUE),
    "dom_pedro": (True, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.CONTINUE),
    "king_pedro": (False, PlainLead.ANY, False, OutOfTrumps.UP),
    "king_pedro_canadian": (True, PlainLead.NONTRUMP_IF_ABLE, False, OutOfTrumps.CONTINUE),
    "sixty_three": (False, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.CONTINUE),
    "eighty_three": (False, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.CONTINUE),
    "piedro_jokers": (False, PlainLead.ANY, False, OutOfTrumps.OUT_ON_TRUMP_LEAD),
    "petro_russian": (False, PlainLead.FOLLOW_OR_TRUMP, True, OutOfTrumps.CONTINUE),
}

#: scoring and end: (low rule, scoring, target, end rule, lose_at)
ENDS = {
    "cinch": (LowRule.HOLDER, Scoring.STANDARD, 62, EndRule.BIDDER_GOES_OUT, None),
    "pidro": (LowRule.HOLDER, Scoring.STANDARD, 62, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None),
    "nicaragua": (LowRule.HOLDER, Scoring.STANDARD, 52, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None),
    "pitch_fives": (LowRule.HOLDER, Scoring.STANDARD, 31, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None),
    "pedro_sancho": (LowRule.CAPTURER, Scoring.STANDARD, 100, EndRule.COUNT_OUT, None),
    "dom_pedro": (LowRule.CAPTURER, Scoring.STANDARD, 100, EndRule.COUNT_OUT, None),
    "king_pedro": (LowRule.HOLDER, Scoring.STANDARD, 200, EndRule.SUCCESSFUL_BID_ONLY, -100),
    "king_pedro_canadian": (LowRule.HOLDER, Scoring.STANDARD, 262, EndRule.SUCCESSFUL_BID_ONLY, None),
    "sixty_three": (
        LowRule.CAPTURER, Scoring.STANDARD, 152, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None,
    ),
    "eighty_three": (
        LowRule.CAPTURER, Scoring.STANDARD, 200, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None,
    ),
    "piedro_jokers": (LowRule.HOLDER, Scoring.STANDARD, 62, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None),
    "petro_russian": (
        LowRule.CAPTURER, Scoring.STANDARD, 62, EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY, None,
    ),
}  # fmt: skip


def test_catalog_has_the_twelve_variants_in_table_order() -> None:
    assert list(VARIANTS) == IDS
    for variant_id, rules in VARIANTS.items():
        assert rules.id == variant_id
        assert rules.name and rules.summary
        assert rules.options == ()


@pytest.mark.parametrize("variant_id", IDS)
def test_total_points_match_the_table(variant_id: str) -> None:
    assert VARIANTS[variant_id].total_points == TOTAL_POINTS[variant_id]


@pytest.mark.parametrize("variant_id", IDS)
def test_bid_range_makes_sense(variant_id: str) -> None:
    rules = VARIANTS[variant_id]
    # every variant's maximum is "all the points" (notes N2, F2, D2, K1, J1)
    assert rules.max_bid == rules.total_points
    assert 1 <= rules.min_bid <= rules.max_bid
    if rules.dealer_forced_bid is not None:
        assert 1 <= rules.dealer_forced_bid <= rules.max_bid


@pytest.mark.parametrize("variant_id", IDS)
def test_trump_order_and_points(variant_id: str) -> None:
    order, points = TRUMPS_AND_POINTS[variant_id]
    rules = VARIANTS[variant_id]
    assert rules.trump_order == tuple(order.split())
    assert rules.point_map == points
    assert rules.plain_points == ()
    # every scoring role is a trump of the variant
    assert set(points) <= set(rules.trump_order)


@pytest.mark.parametrize("variant_id", IDS)
def test_players_and_sides(variant_id: str) -> None:
    rules = VARIANTS[variant_id]
    assert rules.players == 4
    if variant_id in ("pedro_sancho", "dom_pedro"):
        assert (rules.min_players, rules.max_players, rules.partnerships) == (4, 7, False)
    elif variant_id == "petro_russian":
        assert (rules.min_players, rules.max_players, rules.partnerships) == (4, 4, False)
    else:
        assert (rules.min_players, rules.max_players, rules.partnerships) == (4, 4, True)
        assert rules.sides() == [[0, 2], [1, 3]]


@pytest.mark.parametrize("variant_id", IDS)
def test_deal(variant_id: str) -> None:
    deck, hand, packets, kitty, second, stock = DEALS[variant_id]
    rules = VARIANTS[variant_id]
    assert len(rules.deck) == deck
    assert (rules.hand_size, rules.packets, rules.kitty_size, rules.second_deal) == (
        hand,
        packets,
        kitty,
        second,
    )
    assert hand % sum(packets) == 0  # whole rounds of packets
    assert deck - 4 * (hand + second) - kitty == stock
    assert not rules.deal_all_out and not rules.nine_card_deal


@pytest.mark.parametrize("variant_id", IDS)
def test_auction(variant_id: str) -> None:
    model, lo, hi, equal, rebid, forced, double, protect = AUCTIONS[variant_id]
    rules = VARIANTS[variant_id]
    assert rules.auction is model
    assert (rules.min_bid, rules.max_bid) == (lo, hi)
    assert (rules.dealer_may_equal, rules.max_bid_rebid) == (equal, rebid)
    assert rules.dealer_forced_bid == forced
    expected_action = AllPassAction.REDEAL_NEXT_DEALER if forced is None else AllPassAction.DEALER_FORCED
    assert rules.all_pass_action is expected_action
    assert (rules.double_max_bid, rules.protect) == (double, protect)
    assert not rules.slam and not rules.bid_28_56 and not rules.protect_may_equal


@pytest.mark.parametrize("variant_id", IDS)
def test_exchange(variant_id: str) -> None:
    discard, up, trumps_up, fill, excess, play, fold = EXCHANGES[variant_id]
    rules = VARIANTS[variant_id]
    assert rules.discard is discard
    assert (rules.discards_face_up, rules.trump_discards_face_up) == (up, trumps_up)
    assert rules.fill is fill
    assert rules.excess_trumps is excess
    assert rules.play_hand_size == play
    assert rules.fold is fold
    assert rules.kitty_before_trump is (variant_id == "eighty_three")
    assert not rules.keep_nontrumps


@pytest.mark.parametrize("variant_id", IDS)
def test_play(variant_id: str) -> None:
    first_trump, plain_lead, ranking, out = PLAY[variant_id]
    rules = VARIANTS[variant_id]
    assert rules.first_lead_trump is first_trump
    assert rules.plain_lead is plain_lead
    assert rules.plain_ranking is ranking
    assert rules.out_of_trumps is out


@pytest.mark.parametrize("variant_id", IDS)
def test_scoring_and_game_end(variant_id: str) -> None:
    low, scoring, target, end, lose_at = ENDS[variant_id]
    rules = VARIANTS[variant_id]
    assert (rules.low_rule, rules.scoring, rules.target, rules.end_rule, rules.lose_at) == (
        low,
        scoring,
        target,
        end,
        lose_at,
    )
    assert rules.made_scores is MadeScores.POINTS_MADE
    assert rules.defenders_score_when_set
    assert rules.bgo_threshold is None


def test_variant_specific_details() -> None:
    assert VARIANTS["cinch"].effective_bgo_threshold == 55
    assert VARIANTS["cinch"].bury_rule is BuryRule.NONSCORING
    assert VARIANTS["king_pedro"].bury_rule is BuryRule.AT_MOST_ONE_SCORING
    canadian = VARIANTS["king_pedro_canadian"]
    assert canadian.fold and canadian.fold_mandatory
    assert VARIANTS["pidro"].cold_cards_face_up
    assert VARIANTS["pedro_sancho"].count_out_order == ("A", "2", "J", "T", "5", "9")
    assert VARIANTS["dom_pedro"].count_out_order == ("A", "2", "J", "T", "3", "5", "9", "JK")
    assert VARIANTS["dom_pedro"].jokers == ("JK",)
    assert VARIANTS["eighty_three"].jokers == ("JK",)
    assert VARIANTS["piedro_jokers"].jokers == ("BJ", "SJ")
    assert VARIANTS["nicaragua"].dealer_robs_discards  # built into its fill
    others = [v for v in IDS if v not in ("pedro_sancho", "dom_pedro")]
    assert all(VARIANTS[v].count_out_order == () for v in others)


def test_get_variant() -> None:
    assert get_variant("cinch") is VARIANTS["cinch"]
    with pytest.raises(UnknownVariantError) as info:
        get_variant("cinchh")
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "'cinchh'" in message
    for variant_id in IDS:
        assert variant_id in message


def test_rulesets_are_frozen_and_hashable() -> None:
    rules = VARIANTS["cinch"]
    with pytest.raises(AttributeError):
        rules.target = 10  # type: ignore[misc]
    assert len({hash(r) for r in VARIANTS.values()}) == len(VARIANTS)


# ---------------------------------------------------------------------------
# edge cases of docs/rules.md §edge-cases that are pure data


def _strength(rules: Ruleset, trump: int, card: str) -> int:
    return rules.tables(trump).strength[parse_card(card)]


def test_edge_case_01_left_pedro_ranks_between_five_and_four() -> None:
    rules = VARIANTS["cinch"]
    assert _strength(rules, HEARTS, "5H") > _strength(rules, HEARTS, "5D") > _strength(rules, HEARTS, "4H")
    assert _strength(rules, HEARTS, "4H") > _strength(rules, HEARTS, "3H") > _strength(rules, HEARTS, "2H")
    assert rules.tables(HEARTS).points[parse_card("5D")] == 5


def test_edge_case_02_right_pedro_beats_left_pedro() -> None:
    rules = VARIANTS["cinch"]
    assert _strength(rules, HEARTS, "5H") > _strength(rules, HEARTS, "5D") > 0


def test_edge_case_07_left_pedro_is_not_a_club() -> None:
    tables = VARIANTS["cinch"].tables(SPADES)
    assert tables.trump_mask >> parse_card("5C") & 1
    assert tables.roles[parse_card("5C")] == "L5"
    assert not tables.trump_mask >> parse_card("6C") & 1


def test_edge_case_08_pitch_fives_sister_five_is_plain() -> None:
    rules = VARIANTS["pitch_fives"]
    tables = rules.tables(SPADES)
    assert tables.strength[parse_card("5C")] == 0
    assert tables.points[parse_card("5C")] == 0
    assert _strength(rules, SPADES, "4S") > 0


def test_edge_case_11_pedro_sancho_nine_and_plain_five() -> None:
    tables = VARIANTS["pedro_sancho"].tables(HEARTS)
    assert tables.points[parse_card("9H")] == 9
    assert tables.strength[parse_card("5D")] == 0 and tables.points[parse_card("5D")] == 0
    assert VARIANTS["pedro_sancho"].low_rule is LowRule.CAPTURER


def test_edge_case_12_dom_pedro_joker_is_lowest_trump() -> None:
    tables = VARIANTS["dom_pedro"].tables(CLUBS)
    assert 0 < tables.strength[JK] < tables.strength[parse_card("2C")]
    assert tables.points[JK] == 15 and tables.points[parse_card("3C")] == 3


def test_edge_case_13_eighty_three_two_beats_joker() -> None:
    tables = VARIANTS["eighty_three"].tables(HEARTS)
    assert tables.strength[parse_card("2H")] > tables.strength[JK] > 0
    assert tables.points[JK] == 15


def test_edge_case_19_piedro_ranking() -> None:
    rules = VARIANTS["piedro_jokers"]
    tables = rules.tables(SPADES)
    cards = ["AS", "KS", "QS", "JS", "JC", "BJ", "SJ", "TS", "9S", "8S", "7S", "6S", "5S", "5C", "4S"]
    strengths = [tables.strength[parse_card(c)] for c in cards]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths) and min(strengths) > 0
    assert not rules.plain_ranking


def test_edge_case_20_piedro_off_jack_and_left_pedro_are_trumps() -> None:
    tables = VARIANTS["piedro_jokers"].tables(SPADES)
    for card in ("JC", "5C"):
        assert tables.trump_mask >> parse_card(card) & 1
    assert not tables.trump_mask >> parse_card("7C") & 1


def test_edge_case_22_petro_fives_on_top() -> None:
    rules = VARIANTS["petro_russian"]
    assert (
        _strength(rules, DIAMONDS, "5D") > _strength(rules, DIAMONDS, "5H") > _strength(rules, DIAMONDS, "AD")
    )


def test_edge_case_26_nicaragua_forced_bid_below_minimum() -> None:
    rules = VARIANTS["nicaragua"]
    assert rules.dealer_forced_bid == 6 < rules.min_bid == 7


def test_edge_case_28_pidro_dealer_forced_six() -> None:
    assert VARIANTS["pidro"].dealer_forced_bid == 6


def test_edge_case_32_piedro_dealer_forced_nine() -> None:
    assert VARIANTS["piedro_jokers"].dealer_forced_bid == 9


def test_edge_case_34_king_pedro_all_pass_redeals() -> None:
    rules = VARIANTS["king_pedro"]
    assert rules.all_pass_action is AllPassAction.REDEAL_NEXT_DEALER and rules.dealer_forced_bid is None


def test_edge_case_72_pitch_fives_nine_points() -> None:
    assert VARIANTS["pitch_fives"].total_points == 9 == VARIANTS["pitch_fives"].max_bid


def test_edge_case_73_canadian_ten_and_nine_values() -> None:
    tables = VARIANTS["king_pedro_canadian"].tables(HEARTS)
    assert tables.points[parse_card("TH")] == 10 and tables.points[parse_card("9H")] == 9
    assert tables.points[parse_card("KH")] == 30


def test_edge_case_74_sixty_three_points() -> None:
    rules = VARIANTS["sixty_three"]
    tables = rules.tables(SPADES)
    assert tables.strength[parse_card("4S")] > tables.strength[parse_card("3S")]
    assert tables.points[parse_card("3S")] == 15
    assert tables.points[parse_card("KS")] == 25 and tables.points[parse_card("9S")] == 9
    assert rules.total_points == 63


def test_edge_case_97_pitch_fives_forced_two() -> None:
    assert VARIANTS["pitch_fives"].dealer_forced_bid == 2
