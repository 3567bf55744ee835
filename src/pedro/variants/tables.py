"""What the hot paths read of a ruleset, as native classes: the card play's tables once the
trump suit is known (``Ruleset.tables``) and the auction's rules (``Ruleset.auction_rules``).

A module of its own so that the compiled build makes these native classes: the play, the
solver and the sampler read ``TrumpTables`` at every card, the auction reads ``AuctionRules``
at every call, and a compiled read of a native field is a load, where a ``Ruleset``
attribute (a Python object's) is a dictionary lookup of some 200 instructions.
"""

from __future__ import annotations

from typing import Final, final


@final
class TrumpTables:
    """Everything the hot paths need once the trump suit is known: the cards' strengths,
    points and roles, and the few rules of the card play that the play reads at every card.

    Immutable and shared (one per ruleset and suit); ``__reduce__`` pickles and copies it,
    as a native class cannot set ``Final`` attributes after ``__new__``.
    """

    def __init__(
        self,
        trump: int,
        trump_mask: int,
        strength: tuple[int, ...],
        points: tuple[int, ...],
        scoring_mask: int,
        points_mask: int,
        roles: tuple[str, ...],
        low_card: int,
        plain_lead: str,
        cold_on_turn: bool,
        plain_ranking: bool,
        keep_and_bury: bool,
    ) -> None:
        self.trump: Final = trump
        self.trump_mask: Final = trump_mask
        #: 0 for a non-trump; larger is stronger among trumps.
        self.strength: Final = strength
        #: points of each card (trumps by role, non-trumps by ``plain_points``).
        self.points: Final = points
        self.scoring_mask: Final = scoring_mask
        #: every card worth points (scoring trumps and plain point cards)
        self.points_mask: Final = points_mask
        #: role of each card as a trump ("" for non-trumps).
        self.roles: Final = roles
        #: the trump two (the Low), or -1
        self.low_card: Final = low_card
        #: ``Ruleset.plain_lead`` (a ``PlainLead``): what a seat must play to a plain suit led
        self.plain_lead: Final = plain_lead
        #: ``Ruleset.out_of_trumps`` is ``cold_on_turn``: a seat with trumps leads and follows with them
        self.cold_on_turn: Final = cold_on_turn
        #: ``Ruleset.plain_ranking``: plain cards of the led suit rank (else only the leader's counts)
        self.plain_ranking: Final = plain_ranking
        #: ``Ruleset.excess_trumps`` is ``keep_and_bury``: a bigger hand plays a stack to the first trick
        self.keep_and_bury: Final = keep_and_bury

    def __reduce__(self) -> tuple[type[TrumpTables], tuple[object, ...]]:
        return TrumpTables, (
            self.trump, self.trump_mask, self.strength, self.points, self.scoring_mask, self.points_mask,
            self.roles, self.low_card, self.plain_lead, self.cold_on_turn, self.plain_ranking,
            self.keep_and_bury,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        """Equal values, as for the frozen dataclass it was (a pickled observation's card choice
        holds a copy, which must equal the original)."""
        return isinstance(other, TrumpTables) and self.__reduce__()[1] == other.__reduce__()[1]

    def __hash__(self) -> int:
        return hash((self.trump, self.trump_mask, self.scoring_mask, self.points_mask, self.plain_lead))

    def __repr__(self) -> str:
        return f"TrumpTables(trump={self.trump}, trump_mask={self.trump_mask:#x})"


@final
class AuctionRules:
    """The rules the auction reads at every call, copied from the ``Ruleset`` once.

    Immutable and shared (one per ruleset); ``__reduce__`` pickles and copies it.
    """

    def __init__(
        self,
        players: int,
        min_bid: int,
        max_bid: int,
        forced_bid: int | None,
        dealer_may_equal: bool,
        max_bid_rebid: bool,
        special_calls: bool,
        single_round: bool,
    ) -> None:
        self.players: Final = players
        self.min_bid: Final = min_bid
        self.max_bid: Final = max_bid
        #: the dealer's forced bid when everyone else passes (``all_pass_action=dealer_forced``), else None
        self.forced_bid: Final = forced_bid
        self.dealer_may_equal: Final = dealer_may_equal
        self.max_bid_rebid: Final = max_bid_rebid
        #: the rules have 28-56, the double call or protect
        self.special_calls: Final = special_calls
        #: ``auction_model=single_round``: each seat speaks once, the dealer last
        self.single_round: Final = single_round

    def __reduce__(self) -> tuple[type[AuctionRules], tuple[object, ...]]:
        return AuctionRules, (
            self.players, self.min_bid, self.max_bid, self.forced_bid, self.dealer_may_equal,
            self.max_bid_rebid, self.special_calls, self.single_round,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AuctionRules) and self.__reduce__()[1] == other.__reduce__()[1]

    def __hash__(self) -> int:
        return hash(self.__reduce__()[1])

    def __repr__(self) -> str:
        return f"AuctionRules(min_bid={self.min_bid}, max_bid={self.max_bid}, forced_bid={self.forced_bid})"
