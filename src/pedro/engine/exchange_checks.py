"""What a set of cards chosen in the exchange must keep to: the checks of its card choices.

A card choice's check is an object of plain values, never a closure: a choice is part of an
observation, which must not reach the state (nor, through it, a hidden card). Each check
returns None for a set it allows, else the reason it refuses it, in a player's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of
from pedro.engine.actions import PASS, Verb
from pedro.engine.choices import CardChoice, Check
from pedro.engine.play import discard_category
from pedro.marks import N_
from pedro.variants.model import DiscardedScoringTrumps, ExcessTrumps, Ruleset
from pedro.variants.tables import TrumpTables

#: The cards a hand keeps through the exchange in most variants.
SIX: Final = 6


def _category_minimal(tt: TrumpTables, pool: int, k: int) -> tuple[int, ...]:
    """Sorted categories of the cheapest ``k`` cards of ``pool`` (note J6 / K19 order)."""
    return tuple(sorted(discard_category(tt, c) for c in cards_of(pool))[:k])


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class CheapestTrumps:
    """The trumps chosen are the cheapest of the pool, by category (note J6 / K19 order)."""

    tt: TrumpTables
    cheapest: tuple[int, ...]  # sorted categories of the cheapest trumps
    what: str

    def __call__(self, mask: int) -> str | None:
        tt = self.tt
        got = tuple(sorted(discard_category(tt, c) for c in cards_of(mask & tt.trump_mask)))
        if got != self.cheapest:
            return N_("{what}: non-scoring trumps first, then the two, then 1-point trumps").format(
                what=self.what
            )
        return None


def minimal_check(tt: TrumpTables, pool: int, k: int, what: str) -> tuple[Check, str]:
    return CheapestTrumps(tt, _category_minimal(tt, pool, k), what), what


def any_trumps(_mask: int) -> str | None:
    """Any trumps may be laid aside (a check all sets pass, but one that must be asked)."""
    return None


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class NontrumpsOut:
    """``all_nontrumps``: every non-trump goes, or under ``keep_nontrumps`` at most six cards are kept
    unless all of them are trumps."""

    hand: int
    trump_mask: int
    keep_nontrumps: bool
    #: the refusal of a set that keeps a non-trump, written once: listing the cards for each set
    #: that ``CardChoice.masks`` turns down took most of the time of a cinch hand's exchange
    keeps_a_nontrump: str

    def __call__(self, mask: int) -> str | None:
        kept = self.hand & ~mask
        if self.keep_nontrumps:
            if kept.bit_count() > SIX and kept & ~self.trump_mask:
                return N_("keep at most {six} cards unless all of them are trumps").format(six=SIX)
        elif kept & ~self.trump_mask:
            return self.keeps_a_nontrump
        return None


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class GiveLimits:
    """A gift of trumps to partner: enough scoring trumps to keep six, and the partner held to six.

    ``most`` follows from the partner's hidden hand: it is kept only as far as it
    decides which gifts are legal, which the gifts offered show anyway.
    """

    scoring_mask: int
    least: int  # scoring trumps that must be given
    most: int  # scoring trumps the partner may take

    def __call__(self, mask: int) -> str | None:
        given = (mask & self.scoring_mask).bit_count()
        if given < self.least:
            return N_("you hold {held} scoring trumps and may keep only {six}: give the excess").format(
                held=self.least + SIX, six=SIX
            )
        if given > self.most:
            return N_("your partner would hold more than {six} scoring trumps").format(six=SIX)
        return None


def card_choice(verb: Verb, pool: int, sizes: list[int], rule: str, check: Check | None = None) -> CardChoice:
    """A card choice where choosing nothing is written as ``pass``."""
    alternatives = (PASS,) if 0 in sizes and (check is None or check(0) is None) else ()
    positive = tuple(k for k in sizes if k > 0)
    if check is None:
        return CardChoice(verb, pool, positive, rule, alternatives=alternatives)
    return CardChoice(verb, pool, positive, rule, check, alternatives)


def excess_check(rules: Ruleset, tt: TrumpTables, trumps: int, over: int) -> tuple[Check, str]:
    """The check of ``over`` trumps laid aside from ``trumps`` under the excess-trump policy, and its rule."""
    policy = rules.excess_trumps
    if (
        policy == ExcessTrumps.MUST_DISCARD_TO_6
        and rules.discarded_scoring_trumps == DiscardedScoringTrumps.TO_OPPONENTS
    ):
        return any_trumps, N_("any trumps (scoring ones are credited to the opponents)")
    if policy in (
        ExcessTrumps.DISCARD_NONSCORING_FACE_UP,
        ExcessTrumps.KILL_NONSCORING_FACE_UP,
        ExcessTrumps.MUST_DISCARD_TO_6,
        ExcessTrumps.PASS_TO_PARTNER,
    ):
        return minimal_check(tt, trumps, over, N_("non-scoring trumps only, where possible"))
    return any_trumps, N_("any trumps")
