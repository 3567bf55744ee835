"""The tables the card play reads once the trump suit is known (``Ruleset.tables``).

A module of its own so that the compiled build makes ``TrumpTables`` a native class: the
play, the solver and the sampler read its fields at every card, and a compiled read of a
native field is a load, where a Python object's attribute is a dictionary lookup.
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
