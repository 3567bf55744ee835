"""The combinations of rules that docs/rules.md §option-constraints refuses, as a table.

Each rule is data: when it is broken, what is wrong, what is allowed instead,
and where the rules say so. A :class:`~pedro.variants.model.Ruleset` checks
itself against the table whenever it is made (``dataclasses.replace``
included), being its own base with no options given; house-rule options
check the ruleset they build against the variant it came from, which the two
rules about the options themselves need.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pedro.marks import N_
from pedro.variants.rule_kinds import (
    AllPassAction,
    AuctionModel,
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    OutOfTrumps,
    Scoring,
    TrumpDiscardClaim,
)

if TYPE_CHECKING:  # the Ruleset imports this table to check itself when made
    from pedro.variants.model import Ruleset

#: Whether ``rules``, made from ``base`` with the options ``given``, breaks a constraint.
Condition = Callable[["Ruleset", "Ruleset", Mapping[str, object]], bool]

_SECTION = "docs/rules.md §option-constraints"


#: How a refusal joins what is wrong and what is allowed (the terminal translates the two apart).
CLASH = N_("{problem}; allowed: {allowed}")


@dataclass(frozen=True)
class Constraint:
    """One refused combination of rules.

    ``problem`` (what is wrong) and ``allowed`` (what would be accepted instead) are English
    templates marked for the catalogs, filled from :func:`rule_fields` of the ruleset that breaks
    the rule: the message stays English for the API and bots, and an interface translates it by
    its templates (``pedro.i18n.translate``).
    """

    name: str
    broken: Condition
    problem: str
    allowed: str
    reference: str = _SECTION

    def problem_text(self, rules: Ruleset) -> str:
        return self.problem.format(**rule_fields(rules))

    def allowed_text(self, rules: Ruleset) -> str:
        return self.allowed.format(**rule_fields(rules))

    def message(self, rules: Ruleset) -> str:
        return CLASH.format(problem=self.problem_text(rules), allowed=self.allowed_text(rules))


class RulesetError(ValueError):
    """A ruleset whose fields combine in a way the rules refuse."""

    def __init__(self, constraint: Constraint, rules: Ruleset) -> None:
        super().__init__(constraint.message(rules))
        self.constraint = constraint
        self.problem = constraint.problem_text(rules)
        self.allowed = constraint.allowed_text(rules)


def _of_rules(test: Callable[[Ruleset], bool]) -> Condition:
    """A condition on the ruleset alone (all but two are)."""
    return lambda _base, rules, _given: test(rules)


def rule_fields(r: Ruleset) -> dict[str, object]:
    """The fields the constraints' texts are filled from (each text takes those it names)."""
    return {
        "variant": r.id,
        "players": r.players,
        "min_players": r.min_players,
        "max_players": r.max_players,
        "min_bid": r.min_bid,
        "max_bid": r.max_bid,
        "forced_bid": r.dealer_forced_bid,
        "points": r.total_points,
        "sides": r.num_sides,
        "auction": r.auction.value,
        "end_rule": r.end_rule.value,
        "claim": r.trump_discard_claim.value,
        "discard": r.discard.value,
        "fill": r.fill.value,
        "equal_bid_rule": _equal_bid_rule(r),
        "end_rules": _end_rules_allowed(r),
        "excess_trumps": ", ".join(t.value for t in ExcessTrumps if t is not ExcessTrumps.PASS_TO_PARTNER),
    }


def _end_rules_allowed(r: Ruleset) -> str:
    rules = [EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY.value, EndRule.SUCCESSFUL_BID_ONLY.value]
    if r.num_sides == 2:
        rules.append(EndRule.BIDDER_GOES_OUT.value)
    if r.count_out_order:
        rules.append(EndRule.COUNT_OUT.value)
    return ", ".join(rules)


def _equal_bid_rule(r: Ruleset) -> str:
    return N_("the dealer's equal bid") if r.dealer_may_equal else N_("bidding the maximum again")


def _discards_face_contradicts(_base: Ruleset, _rules: Ruleset, given: Mapping[str, object]) -> bool:
    return (
        "discards_face" in given
        and "discards_face_up" in given
        and (given["discards_face"] == "up") != given["discards_face_up"]
    )


def _no_discard_visibility_set(base: Ruleset, r: Ruleset, _given: Mapping[str, object]) -> bool:
    return r.discard is DiscardPolicy.NONE and (
        r.discards_face_up != base.discards_face_up or r.trump_discards_face_up != base.trump_discards_face_up
    )


_ROBBING = (
    FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
    FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
    FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS,
)
_SINGLE_ROUND = AuctionModel.SINGLE_ROUND

#: Every constraint, in the order they are checked (the first broken one is reported).
#: A text that is only option syntax (``slam=false``) is the same in every language: not marked.
CONSTRAINTS: tuple[Constraint, ...] = (
    Constraint(
        "discards_face_contradiction",
        _discards_face_contradicts,
        N_("options discards_face and discards_face_up contradict each other"),
        N_("give only one of them, or discards_face=up with discards_face_up=true (down with false)"),
    ),
    Constraint(
        "players_in_range",
        _of_rules(lambda r: not r.min_players <= r.players <= r.max_players),
        N_("{variant} cannot be played by {players} players"),
        "players {min_players}..{max_players}",
    ),
    Constraint(
        "partnerships_of_four",
        _of_rules(lambda r: r.partnerships and r.players != 4),
        N_("partnerships need exactly 4 players, but players={players}"),
        N_("partnerships=true with players=4, or partnerships=false"),
    ),
    Constraint(
        "min_bid_at_most_max",
        _of_rules(lambda r: r.min_bid > r.max_bid),
        N_("min_bid={min_bid} is above the maximum bid {max_bid}"),
        "min_bid 1..{max_bid}",
    ),
    Constraint(
        "redeal_without_forced_bid",
        _of_rules(
            lambda r: (
                r.all_pass_action is AllPassAction.REDEAL_NEXT_DEALER and r.dealer_forced_bid is not None
            )
        ),
        N_(
            "dealer_forced_bid={forced_bid} cannot be combined with all_pass_action=redeal_next_dealer "
            "(when everybody passes the cards are thrown in)"
        ),
        N_(
            "dealer_forced_bid=null with redeal_next_dealer, or a forced bid together with "
            "all_pass_action=dealer_forced"
        ),
    ),
    Constraint(
        "forced_dealer_has_a_bid",
        _of_rules(lambda r: r.all_pass_action is AllPassAction.DEALER_FORCED and r.dealer_forced_bid is None),
        N_("dealer_forced_bid=null leaves a forced dealer without a bid"),
        N_("dealer_forced_bid 1..{max_bid}, or all_pass_action=redeal_next_dealer"),
    ),
    Constraint(
        "forced_bid_in_range",
        _of_rules(
            lambda r: (
                r.all_pass_action is AllPassAction.DEALER_FORCED
                and r.dealer_forced_bid is not None
                and not 1 <= r.dealer_forced_bid <= r.max_bid
            )
        ),
        N_("dealer_forced_bid={forced_bid} is outside the bidding range"),
        "dealer_forced_bid 1..{max_bid}",
    ),
    Constraint(
        "equal_bid_in_one_round",
        _of_rules(lambda r: r.auction is not _SINGLE_ROUND and (r.dealer_may_equal or r.max_bid_rebid)),
        N_(
            "{variant}'s {equal_bid_rule} belongs to a single round of bidding and cannot be played with "
            "auction_model={auction}"
        ),
        "auction_model=single_round",
    ),
    Constraint(
        "bid_28_56_in_one_round",
        _of_rules(lambda r: r.auction is not _SINGLE_ROUND and r.bid_28_56),
        N_("bid_28_56 needs the dealer to speak last in a single round, but auction_model={auction}"),
        N_("bid_28_56=true with auction_model=single_round, or bid_28_56=false"),
    ),
    Constraint(
        "bid_28_56_of_14_points",
        _of_rules(lambda r: r.bid_28_56 and r.total_points != 14),
        N_("bid_28_56 needs a 14-point game, but {variant} has {points} points"),
        "bid_28_56=false",
    ),
    Constraint(
        "slam_of_all_points",
        _of_rules(lambda r: r.slam and r.max_bid != r.total_points),
        N_(
            "slam needs the maximum bid to be all the points, but the maximum bid is {max_bid} and the "
            "game has {points} points"
        ),
        "slam=false",
    ),
    Constraint(
        "difference_of_two_sides",
        _of_rules(lambda r: r.scoring is Scoring.DIFFERENCE and r.num_sides != 2),
        N_("scoring=difference needs exactly two sides, but this game has {sides}"),
        "scoring=standard",
    ),
    Constraint(
        "bidder_goes_out_of_two_sides",
        _of_rules(lambda r: r.end_rule is EndRule.BIDDER_GOES_OUT and r.num_sides != 2),
        N_("end_rule=bidder_goes_out needs exactly two sides, but this game has {sides}"),
        "{end_rules}",
    ),
    Constraint(
        "count_out_has_an_order",
        _of_rules(lambda r: r.end_rule is EndRule.COUNT_OUT and not r.count_out_order),
        N_(
            "end_rule=count_out needs an order for counting out, and {variant} has none (only pedro_sancho "
            "and dom_pedro define one)"
        ),
        "{end_rules}",
    ),
    Constraint(
        "bgo_threshold_with_bidder_goes_out",
        _of_rules(lambda r: r.bgo_threshold is not None and r.end_rule is not EndRule.BIDDER_GOES_OUT),
        N_("bgo_threshold only matters with end_rule=bidder_goes_out, but end_rule={end_rule}"),
        N_("bgo_threshold=null, or end_rule=bidder_goes_out"),
    ),
    Constraint(
        "pass_to_partner_needs_partners",
        _of_rules(lambda r: r.excess_trumps is ExcessTrumps.PASS_TO_PARTNER and not r.partnerships),
        N_("excess_trumps=pass_to_partner needs partnerships, but everyone plays alone here"),
        "{excess_trumps}",
    ),
    Constraint(
        "scoring_discards_need_must_discard",
        _of_rules(
            lambda r: (
                r.discarded_scoring_trumps is not DiscardedScoringTrumps.FORBIDDEN
                and r.excess_trumps is not ExcessTrumps.MUST_DISCARD_TO_6
            )
        ),
        N_("discarded_scoring_trumps=to_opponents only applies with excess_trumps=must_discard_to_6"),
        N_("discarded_scoring_trumps=forbidden, or add excess_trumps=must_discard_to_6"),
    ),
    Constraint(
        "claims_need_face_up_discards",
        _of_rules(
            lambda r: (
                r.trump_discard_claim is not TrumpDiscardClaim.NONE
                and not (r.discards_face_up and r.trump_discards_face_up)
            )
        ),
        N_("trump_discard_claim={claim} needs discards made face up"),
        N_("trump_discard_claim=none, or add discards_face_up=true"),
    ),
    Constraint(
        "keep_nontrumps_with_discard_all",
        _of_rules(lambda r: r.keep_nontrumps and r.discard is not DiscardPolicy.ALL_NONTRUMPS),
        N_(
            "keep_nontrumps only changes the discard-all-non-trumps rule, and {variant} discards by {discard}"
        ),
        "keep_nontrumps=false",
    ),
    Constraint(
        "robbing_needs_the_dealer_to_fill",
        _of_rules(lambda r: r.dealer_robs_discards and r.fill not in _ROBBING),
        N_(
            "dealer_robs_discards needs a fill in which the dealer completes his hand himself, and "
            "{variant} fills by {fill}"
        ),
        "dealer_robs_discards=false",
    ),
    Constraint(
        "robbing_built_into_the_fill",
        _of_rules(
            lambda r: (
                r.fill is FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS and not r.dealer_robs_discards
            )
        ),
        N_("in {variant} the dealer's pick from the discards is built into the fill"),
        "dealer_robs_discards=true",
    ),
    Constraint(
        "no_discards_no_visibility",
        _no_discard_visibility_set,
        N_("{variant} has no discarding, so discard visibility cannot be set"),
        N_("the variant's own visibility, or add discard_and_fill=true"),
    ),
    Constraint(
        "deal_all_out_without_stock",
        _of_rules(lambda r: r.deal_all_out and r.discard is not DiscardPolicy.NONE),
        N_("deal_all_out leaves no stock, so it cannot be combined with discard_and_fill"),
        N_("deal_all_out=true or discard_and_fill=true, not both"),
    ),
    Constraint(
        "protect_may_equal_needs_protect",
        _of_rules(lambda r: r.protect_may_equal and not r.protect),
        N_("protect_may_equal needs protect=true"),
        N_("protect_may_equal=false, or protect=true"),
    ),
    Constraint(
        "trumps_only_lead_trumps",
        _of_rules(lambda r: r.out_of_trumps is OutOfTrumps.COLD_ON_TURN and not r.first_lead_trump),
        N_("in {variant} only trumps are ever played, so the first lead is a trump"),
        "first_lead_trump=true",
    ),
)


def first_broken(base: Ruleset, rules: Ruleset, given: Mapping[str, object]) -> Constraint | None:
    """The first constraint ``rules`` (``base`` with the options ``given``) breaks, if any."""
    return next((c for c in CONSTRAINTS if c.broken(base, rules, given)), None)


def check(rules: Ruleset) -> None:
    """Raise RulesetError if ``rules`` on its own breaks a constraint."""
    broken = first_broken(rules, rules, {})
    if broken is not None:
        raise RulesetError(broken, rules)
