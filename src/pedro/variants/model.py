"""The Ruleset: one value that says everything a variant's rules decide.

The engine never branches on a variant's name, only on these fields, so a
house rule is a changed field and a new variant is a new value (docs/rules.md
§rules-as-data: the rules are data plus a handful of hooks selected by the enums below).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from pedro.cards import JOKERS, RANK_INDEX, mask_of, sister_suit
from pedro.variants.constraints import check
from pedro.variants.rule_kinds import (
    AllPassAction,
    AuctionModel,
    BuryRule,
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    MadeScores,
    OutOfTrumps,
    PlainLead,
    Scoring,
    TrumpDiscardClaim,
)
from pedro.variants.tables import AuctionRules, TrumpTables

__all__ = [
    "POINT_NAMES",
    "ROLE_NAMES",
    "STANDARD_TRUMP_ORDER",
    "AllPassAction",
    "AuctionModel",
    "BuryRule",
    "DiscardPolicy",
    "DiscardedScoringTrumps",
    "EndRule",
    "ExcessTrumps",
    "FillPolicy",
    "LowRule",
    "MadeScores",
    "OutOfTrumps",
    "PlainLead",
    "Ruleset",
    "Scoring",
    "TrumpDiscardClaim",
    "cached_value",
    "role_card",
]

_T = TypeVar("_T")


class cached_value(cached_property[_T]):
    """``functools.cached_property`` by another name, for classes that mypyc compiles (such as
    ``pedro.engine.state.HandResult``): mypyc turns a ``cached_property`` into a plain property
    that computes its value at every read, but leaves this decorator to Python. (This module
    itself stays Python in the compiled build: docs/engine.md, "Compiled build".)"""


#: Trump-relative roles (docs/rules.md §notation). A suited role is a rank letter of the
#: trump suit; L5 and OJ are the five and jack of the sister suit.
ROLE_NAMES = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
    "7": "seven", "6": "six", "5": "five (right pedro)", "4": "four", "3": "three", "2": "two",
    "L5": "left pedro (five of the sister suit)", "OJ": "off-jack (jack of the sister suit)",
    "JK": "joker", "BJ": "big joker", "SJ": "small joker",
}  # fmt: skip

#: Named scoring cards, for rule sheets and the count-out order.
POINT_NAMES = {
    "A": "High", "2": "Low", "J": "Jack", "T": "Game", "5": "Pedro", "9": "Sancho",
    "3": "Three", "JK": "Snoozer", "L5": "Left pedro", "K": "King", "Q": "Queen",
    "OJ": "Off-jack", "BJ": "Big joker", "SJ": "Small joker",
}  # fmt: skip

STANDARD_TRUMP_ORDER = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "L5", "4", "3", "2")


def role_card(role: str, trump: int) -> int:
    """The physical card that plays ``role`` when ``trump`` is the trump suit."""
    if role in JOKERS:
        return JOKERS[role]
    if role == "L5":
        return sister_suit(trump) * 13 + RANK_INDEX["5"]
    if role == "OJ":
        return sister_suit(trump) * 13 + RANK_INDEX["J"]
    return trump * 13 + RANK_INDEX[role]


@dataclass(frozen=True)
class Ruleset:
    """A complete set of rules, checked against docs/rules.md §option-constraints when made.

    Build variants with ``dataclasses.replace``, which checks the new value too
    (``RulesetError`` for a combination the rules refuse).
    """

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    summary: str = ""

    # seats
    players: int = 4
    min_players: int = 4
    max_players: int = 4
    partnerships: bool = True

    # pack and card values
    jokers: tuple[str, ...] = ()
    trump_order: tuple[str, ...] = STANDARD_TRUMP_ORDER
    plain_ranking: bool = True  # False: plain cards never rank (leader wins a trick without trumps)
    points: tuple[tuple[str, int], ...] = (("A", 1), ("J", 1), ("T", 1), ("5", 5), ("L5", 5), ("2", 1))
    plain_points: tuple[tuple[str, int], ...] = ()  # rank letter -> points for non-trumps (petro option)
    relative_high_low: bool = False

    # deal
    hand_size: int = 9
    packets: tuple[int, ...] = (3,)
    kitty_size: int = 0
    second_deal: int = 0
    deal_all_out: bool = False

    # auction
    auction: AuctionModel = AuctionModel.SINGLE_ROUND
    min_bid: int = 7
    max_bid: int = 14
    dealer_may_equal: bool = False
    max_bid_rebid: bool = False
    all_pass_action: AllPassAction = AllPassAction.DEALER_FORCED
    dealer_forced_bid: int | None = 7
    slam: bool = False
    bid_28_56: bool = False
    double_max_bid: bool = False
    protect: bool = False
    protect_may_equal: bool = False

    # trumps and exchange
    kitty_before_trump: bool = False  # eighty_three: take the kitty, then name trumps
    discard: DiscardPolicy = DiscardPolicy.ALL_NONTRUMPS
    discards_face_up: bool = False
    trump_discards_face_up: bool = True
    keep_nontrumps: bool = False
    fill: FillPolicy = FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS
    play_hand_size: int = 6
    excess_trumps: ExcessTrumps = ExcessTrumps.KEEP_AND_BURY
    discarded_scoring_trumps: DiscardedScoringTrumps = DiscardedScoringTrumps.FORBIDDEN
    dealer_robs_discards: bool = False
    trump_discard_claim: TrumpDiscardClaim = TrumpDiscardClaim.NONE
    fold: bool = False  # king_pedro_canadian's step 5
    fold_mandatory: bool = True
    nine_card_deal: bool = False

    # play
    first_lead_trump: bool = False
    plain_lead: PlainLead = PlainLead.FOLLOW_OR_TRUMP
    out_of_trumps: OutOfTrumps = OutOfTrumps.CONTINUE
    bury_rule: BuryRule = BuryRule.NONSCORING
    cold_cards_face_up: bool = True

    # counting and scoring
    low_rule: LowRule = LowRule.HOLDER
    scoring: Scoring = Scoring.STANDARD
    made_scores: MadeScores = MadeScores.POINTS_MADE
    defenders_score_when_set: bool = True

    # game end
    target: int = 62
    end_rule: EndRule = EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY
    bgo_threshold: int | None = None  # None: target - 7
    lose_at: int | None = None
    count_out_order: tuple[str, ...] = ()

    # the options applied to the base variant, for records and rule sheets
    options: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        check(self)

    # ---- derived values -------------------------------------------------

    @cached_property
    def num_sides(self) -> int:
        return 2 if self.partnerships else self.players

    @cached_value
    def seat_sides(self) -> tuple[int, ...]:
        """Each seat's side: partners (seats ``s`` and ``s + 2``) share one, else each seat is one.
        A tuple, so that counting, hot, reads it once and indexes it."""
        return tuple(seat % 2 if self.partnerships else seat for seat in range(self.players))

    def side_of(self, seat: int) -> int:
        return self.seat_sides[seat]

    def sides(self) -> list[list[int]]:
        """Seats of each side: teams (s, s+2) or one seat each."""
        if self.partnerships:
            return [[s for s in range(self.players) if s % 2 == side] for side in range(2)]
        return [[s] for s in range(self.players)]

    @cached_property
    def deck(self) -> tuple[int, ...]:
        return tuple(range(52)) + tuple(JOKERS[j] for j in self.jokers)

    @cached_property
    def deck_mask(self) -> int:
        return mask_of(self.deck)

    @property
    def point_map(self) -> dict[str, int]:
        return dict(self.points)

    @cached_property
    def total_points(self) -> int:
        """Points in the pack (all trumps of any suit score the same total)."""
        if self.relative_high_low:
            return sum(p for role, p in self.points if role in ("J", "5")) + 2 + 1  # High, Low, Game
        tables = self.tables(0)
        return sum(tables.points[c] for c in self.deck)

    @cached_property
    def fixed_hand_total(self) -> bool:
        """Whether a hand's points add up to the same total however its cards are played.

        They do where every point goes with a card, to the side that takes it, holds it or was
        dealt it; the total is then set when the play starts, which lets the bidding simulation
        skip a rollout (``players.solved_play``). Classic Pitch's Game point does not: a tie for
        it goes to no one.
        """
        return not self.relative_high_low

    @cached_property
    def effective_bgo_threshold(self) -> int:
        return self.target - 7 if self.bgo_threshold is None else self.bgo_threshold

    @cached_property
    def first_deal_size(self) -> int:
        if self.deal_all_out:
            return len(self.deck) // self.players
        return self.hand_size

    @cached_property
    def auction_rules(self) -> AuctionRules:
        """The auction's rules as a native class (the compiled auction reads them at every call)."""
        forced = self.all_pass_action == AllPassAction.DEALER_FORCED
        return AuctionRules(
            self.players, self.min_bid, self.max_bid, self.dealer_forced_bid if forced else None,
            self.dealer_may_equal, self.max_bid_rebid, self.bid_28_56 or self.double_max_bid or self.protect,
            self.auction == AuctionModel.SINGLE_ROUND,
        )  # fmt: skip

    def tables(self, trump: int) -> TrumpTables:
        return _tables(self, trump)

    @cached_property
    def _all_tables(self) -> tuple[TrumpTables, ...]:
        return tuple(_build_tables(self, s) for s in range(4))


def _tables(rules: Ruleset, trump: int) -> TrumpTables:
    return rules._all_tables[trump]


def _build_tables(rules: Ruleset, trump: int) -> TrumpTables:
    from pedro.cards import NUM_CARDS

    strength = [0] * NUM_CARDS
    roles = [""] * NUM_CARDS
    n = len(rules.trump_order)
    trump_mask = 0
    deck = set(rules.deck)
    for i, role in enumerate(rules.trump_order):
        c = role_card(role, trump)
        if c not in deck:
            continue
        strength[c] = n - i
        roles[c] = role
        trump_mask |= 1 << c
    point_map = dict(rules.points)
    plain = dict(rules.plain_points)
    points = [0] * NUM_CARDS
    scoring = 0
    for c in deck:
        if trump_mask >> c & 1:
            p = point_map.get(roles[c], 0)
            if p:
                scoring |= 1 << c
        else:
            p = plain.get("23456789TJQKA"[c % 13], 0) if c < 52 else 0
        points[c] = p
    points_mask = sum(1 << c for c in deck if points[c])
    low_card = roles.index("2") if "2" in roles else -1
    return TrumpTables(
        trump, trump_mask, tuple(strength), tuple(points), scoring, points_mask, tuple(roles), low_card,
        rules.plain_lead, rules.out_of_trumps == OutOfTrumps.COLD_ON_TURN, rules.plain_ranking,
        rules.excess_trumps == ExcessTrumps.KEEP_AND_BURY,
    )  # fmt: skip
