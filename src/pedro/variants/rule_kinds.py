"""The named kinds a rule takes (auction model, end rule, …), which the Ruleset's fields hold.

Their own module so that the table of forbidden combinations (constraints.py), written in these
names, needs no import of the Ruleset that checks itself against it.
"""

from __future__ import annotations

from enum import StrEnum


class AuctionModel(StrEnum):
    SINGLE_ROUND = "single_round"
    UNTIL_ONE_LEFT = "until_one_left"


class AllPassAction(StrEnum):
    DEALER_FORCED = "dealer_forced"
    REDEAL_NEXT_DEALER = "redeal_next_dealer"


class DiscardPolicy(StrEnum):
    ALL_NONTRUMPS = "all_nontrumps"
    ANY_CARDS = "any_cards"
    AT_LEAST_3_ANY = "at_least_3_any"
    REDUCE_TO_6_NONTRUMPS_FIRST = "reduce_to_6_nontrumps_first"
    NONE = "none"


class FillPolicy(StrEnum):
    DEALER_FILLS_OTHERS_THEN_ROBS = "dealer_fills_others_then_robs"
    FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6 = "fill_others_dealer_takes_stock_keeps_6"
    FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS = "fill_others_dealer_robs_stock_and_discards"
    FILL_ALL_FROM_TOP = "fill_all_from_top"
    NONE = "none"


class ExcessTrumps(StrEnum):
    KEEP_AND_BURY = "keep_and_bury"
    MUST_DISCARD_TO_6 = "must_discard_to_6"
    KILL_NONSCORING_FACE_UP = "kill_nonscoring_face_up"
    DISCARD_NONSCORING_FACE_UP = "discard_nonscoring_face_up"
    PASS_TO_PARTNER = "pass_to_partner"


class DiscardedScoringTrumps(StrEnum):
    FORBIDDEN = "forbidden"
    TO_OPPONENTS = "to_opponents"


class BuryRule(StrEnum):
    """Which cards may go under the top card of a multi-card first-trick stack."""

    NONSCORING = "nonscoring"  # cinch; piedro falls back to note J6's order
    AT_MOST_ONE_SCORING = "at_most_one_scoring"  # king_pedro


class PlainLead(StrEnum):
    FOLLOW_OR_TRUMP = "follow_or_trump"
    MUST_FOLLOW = "must_follow"
    ANY = "any"
    NONTRUMP_IF_ABLE = "nontrump_if_able"
    FOLLOW_OR_TRUMP_VOID_MUST_TRUMP = "follow_or_trump_void_must_trump"


class OutOfTrumps(StrEnum):
    CONTINUE = "continue"
    UP = "up"
    COLD_ON_TURN = "cold_on_turn"
    OUT_ON_TRUMP_LEAD = "out_on_trump_lead"


class LowRule(StrEnum):
    HOLDER = "holder"
    DEALT = "dealt"
    CAPTURER = "capturer"


class Scoring(StrEnum):
    STANDARD = "standard"
    DIFFERENCE = "difference"


class MadeScores(StrEnum):
    POINTS_MADE = "points_made"
    BID = "bid"


class EndRule(StrEnum):
    FIRST_TO_TARGET_BIDDER_PRIORITY = "first_to_target_bidder_priority"
    BIDDER_GOES_OUT = "bidder_goes_out"
    SUCCESSFUL_BID_ONLY = "successful_bid_only"
    COUNT_OUT = "count_out"


class TrumpDiscardClaim(StrEnum):
    NONE = "none"
    OPPONENTS = "opponents"
    ANYONE = "anyone"
