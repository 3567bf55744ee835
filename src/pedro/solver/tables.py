"""The rules of one (ruleset, trump) flattened into numpy arrays for the compiled search.

The compiled kernel (``pedro.solver.kernel``) cannot read a ``Ruleset``: this
module turns everything the card play depends on into integers once per
(ruleset, trump) — the follow rule of ``pedro.engine.play.legal_play_mask``,
the out-of-trumps rule, card keys of ``card_key`` for every led suit, points
of the cards counted by capture, and the classes of equivalent cards.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from pedro.cards import SUIT_MASKS
from pedro.engine.play import TRUMP_SUIT, card_key, effective_suit
from pedro.variants.model import LowRule, OutOfTrumps, PlainLead, Ruleset

Int64s = npt.NDArray[np.int64]

#: Card slots in the tables (the card bits of a mask: 52 suited cards and the jokers).
CARDS = 56

# ``cfg`` slots
N = 0  # seats at the table
TRUMPS = 1  # mask of the trumps
COUNTED = 2  # mask of the cards whose points go to the side taking them
POLICY = 3  # the follow rule, a ``PLAIN_LEAD_CODES`` value
OUT_RULE = 4  # the out-of-trumps rule, a ``OUT_RULE_CODES`` value
NEEDED = 5  # cards an active seat must hold to keep the play going (-1: any card)
PLAIN_SUIT = 6  # 6..9: the non-trump cards of each printed suit
PLAIN_MODE = 10  # plain cards in the table key: 0 by rank, 1 a count per suit, 2 a count of all
CFG_SIZE = 11

# ``rows`` rows, each indexed by card
STRENGTH = 0  # trump strength (0 for a non-trump)
POINTS = 1  # points the card brings to the side taking it (0 if not counted by capture)
ORDER_POINTS = 2  # the card's points for move ordering (the Low included)
SUIT = 3  # effective suit (``TRUMP_SUIT`` for a trump)
LEAD_KEY = 4  # ``card_key`` of the card when it leads (its own suit led)
FOLLOW_KEY = 5  # 5..9: ``card_key`` of the card following a lead of effective suit 0..4
ROWS = 10

PLAIN_LEAD_CODES = {
    PlainLead.ANY: 0,
    PlainLead.FOLLOW_OR_TRUMP: 1,
    PlainLead.MUST_FOLLOW: 2,
    PlainLead.NONTRUMP_IF_ABLE: 3,
    PlainLead.FOLLOW_OR_TRUMP_VOID_MUST_TRUMP: 4,
}
OUT_RULE_CODES = {
    OutOfTrumps.CONTINUE: 0,
    OutOfTrumps.UP: 1,
    OutOfTrumps.COLD_ON_TURN: 2,
    OutOfTrumps.OUT_ON_TRUMP_LEAD: 3,
}


class RuleArrays(NamedTuple):
    """The flattened rules; read-only once built (they are shared through a cache)."""

    cfg: Int64s
    rows: Int64s  # (ROWS, CARDS)
    between: Int64s  # (CARDS, CARDS): cards strictly between two equivalent-class cards, -1 if none
    trumps_desc: Int64s  # the trumps, strongest first
    counted: int


@lru_cache(maxsize=256)
def rule_arrays(rules: Ruleset, trump: int) -> RuleArrays:
    """The arrays of ``rules`` with ``trump`` as trumps (cached: rulesets are immutable)."""
    tt = rules.tables(trump)
    n = rules.players
    counted = tt.scoring_mask | (tt.points_mask if rules.plain_points else 0)
    if tt.low_card >= 0 and rules.low_rule != LowRule.CAPTURER:
        counted &= ~(1 << tt.low_card)  # the Low goes to its holder or first receiver, whoever takes it
    counted &= sum(1 << c for c in range(CARDS) if c < len(tt.points) and tt.points[c])
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[N] = n
    cfg[TRUMPS] = tt.trump_mask
    cfg[COUNTED] = counted
    cfg[POLICY] = PLAIN_LEAD_CODES[rules.plain_lead]
    cfg[OUT_RULE] = OUT_RULE_CODES[rules.out_of_trumps]
    cfg[NEEDED] = -1 if rules.out_of_trumps == OutOfTrumps.CONTINUE else tt.trump_mask
    for suit in range(4):
        cfg[PLAIN_SUIT + suit] = SUIT_MASKS[suit] & ~tt.trump_mask
    plain_counted = counted & ~tt.trump_mask
    if rules.plain_ranking or plain_counted:
        cfg[PLAIN_MODE] = 0  # order (or, for point cards, identity) matters
    else:
        cfg[PLAIN_MODE] = 2 if suit_blind(rules) else 1
    rows = np.zeros((ROWS, CARDS), dtype=np.int64)
    for c in rules.deck:
        rows[STRENGTH, c] = tt.strength[c]
        rows[POINTS, c] = tt.points[c] if counted >> c & 1 else 0
        rows[ORDER_POINTS, c] = tt.points[c]
        suit = effective_suit(c, tt.trump_mask)
        rows[SUIT, c] = suit
        rows[LEAD_KEY, c] = _key(rules, trump, suit, c, True)
        for led in range(5):
            rows[FOLLOW_KEY + led, c] = _key(rules, trump, led, c, False)
    trumps_desc = np.array(
        sorted((c for c in rules.deck if tt.trump_mask >> c & 1), key=lambda c: -tt.strength[c]),
        dtype=np.int64,
    )
    return RuleArrays(cfg, rows, _between(rules, trump), trumps_desc, counted)


def max_seats(rules: Ruleset, bidder: int) -> int:
    """Mask of the seats on the bidder's side."""
    side = rules.side_of(bidder)
    return sum(1 << s for s in range(rules.players) if rules.side_of(s) == side)


def _key(rules: Ruleset, trump: int, led: int, card: int, leads: bool) -> int:
    tt = rules.tables(trump)
    strength = tt.strength[card]
    return 1000 + strength if strength else card_key(tt, led, card, leads)


def suit_blind(rules: Ruleset) -> bool:
    """Whether plain cards of different suits can never be told apart in play.

    True where plain cards never rank (the leader's card wins a trick without
    trumps) and no follow rule looks at the suit led: then any two plain cards
    of no value are interchangeable.
    """
    if rules.plain_ranking:
        return False
    if rules.out_of_trumps == OutOfTrumps.COLD_ON_TURN:
        return True
    return rules.plain_lead in (PlainLead.ANY, PlainLead.NONTRUMP_IF_ABLE)


def _between(rules: Ruleset, trump: int) -> Int64s:
    """``between[a, b]``: the cards strictly between a and b in one class, or -1 if not comparable.

    Classes are the trumps (by strength) and the plain cards of one suit (by
    rank, or all alike where plain cards do not rank) — or all plain cards
    alike where the suit does not matter either (``suit_blind``).
    """
    tt = rules.tables(trump)
    between = np.full((CARDS, CARDS), -1, dtype=np.int64)
    trumps = sorted((c for c in rules.deck if tt.trump_mask >> c & 1), key=lambda c: tt.strength[c])
    for i, a in enumerate(trumps):
        m = 0
        for b in trumps[i + 1 :]:
            between[a, b] = between[b, a] = m
            m |= 1 << b
    plain_all = [c for c in rules.deck if not tt.trump_mask >> c & 1]
    if suit_blind(rules):
        for a in plain_all:
            for b in plain_all:
                if a != b:
                    between[a, b] = 0
        return between
    for suit in range(4):
        plain = [c for c in range(suit * 13, suit * 13 + 13) if not tt.trump_mask >> c & 1]
        for i, a in enumerate(plain):
            m = 0
            for b in plain[i + 1 :]:
                between[a, b] = between[b, a] = m if rules.plain_ranking else 0
                m |= 1 << b
    return between


assert TRUMP_SUIT == 4  # the kernel's follow-key rows are indexed by effective suit 0..4
