"""What a hand is worth with each trump suit, by a few rules of thumb: the estimate every rule
bidder starts from.

``expected_points`` is the points a bidder's side can expect from the trumps in hand; the rule
bidders (``basic``, ``heuristic``'s rule), the auction model of the bidding simulation
(``bidding``) and the auction's evidence on a sampled world (``sampling``) all read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.cards import cards_of, mask_of
from pedro.variants.model import LowRule, Ruleset


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


#: The trumps from the top: (card, points, a Low scored by its holder).
_TrumpOrder = tuple[tuple[int, int, bool], ...]


@dataclass
class _SuitValues:
    """One suit under one ruleset: its trumps, and ``expected_points`` of each trump holding."""

    trump_mask: int
    order: _TrumpOrder
    top_mask: int  # the top four trumps
    #: a trump holding (the hand's trumps, as a mask) -> its ``expected_points``
    values: dict[int, float]


#: What an estimate reads of a suit (its trumps from the top; the partnerships, the points in
#: play, the cards added to a hand) -> that suit's values: shared by the rulesets that agree on
#: it, as a variant's do under most house rules.
_SHARED: dict[tuple[_TrumpOrder, bool, int, int], _SuitValues] = {}
#: id of a ruleset -> (the ruleset, kept so that its id stays its own; its four suits' values)
_BY_RULES: dict[int, tuple[Ruleset, tuple[_SuitValues, ...]]] = {}
#: Entries kept in each; more, and that one starts again (a server makes a ruleset per game played
#: with house rules).
_KEPT = 64


def _suit_values(rules: Ruleset) -> tuple[_SuitValues, ...]:
    """The cache of ``expected_points`` for each suit under ``rules``.

    Bidding by simulation weighs every sampled deal against the calls made so
    far, a million estimates or more a game, and an estimate depends on the
    hand's trumps only: a suit has a few thousand trump holdings that occur,
    so each is worked out once. The ruleset is looked up by its identity
    (hashing a whole ruleset each time would cost more than it saves).
    """
    hit = _BY_RULES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    for cache in (_BY_RULES, _SHARED):
        if len(cache) >= _KEPT:
            cache.clear()
    holder_low = rules.low_rule != LowRule.CAPTURER
    extra = rules.kitty_size + rules.second_deal
    suits = []
    for suit in range(4):
        tt = rules.tables(suit)
        order = sorted(cards_of(tt.trump_mask), key=lambda c: -tt.strength[c])
        cards = tuple((c, tt.points[c], holder_low and tt.roles[c] == "2") for c in order)
        key = (cards, rules.partnerships, rules.total_points, extra)
        known = _SHARED.get(key)
        if known is None:
            known = _SHARED[key] = _SuitValues(tt.trump_mask, cards, mask_of(order[:4]), {})
        suits.append(known)
    kept = tuple(suits)
    _BY_RULES[id(rules)] = (rules, kept)
    return kept  # not read back: a bot thinking in another thread may have cleared the cache


def expected_points(rules: Ruleset, hand: int, suit: int) -> float:
    """Points the bidder's side can expect with ``suit`` as trumps, from the cards in ``hand``.

    A scoring trump counts fully when no trump above it is missing (or it is a
    Low scored by its holder), otherwise by a chance that grows with the
    trumps held and shrinks with the trumps missing above it. The points
    the hand does not hold are shared with the partner or the field. The
    constants are fitted so that basic bidders make most of their bids.
    Only the hand's trumps count, so the value of each holding is worked out once.
    """
    return _worth(rules, _suit_values(rules)[suit], hand)


def best_expected_points(rules: Ruleset, hand: int) -> tuple[int, float]:
    """The suit with the best ``expected_points`` (the lowest of equals), and that estimate.

    >>> from pedro.cards import parse_cards
    >>> from pedro.variants.catalog import VARIANTS
    >>> best_expected_points(VARIANTS["cinch"], mask_of(parse_cards("ah kh jh 10h 5h 5d 2h 3c 4s")))
    (1, 13.4)
    """
    suits = _suit_values(rules)
    suit, best = 0, _worth(rules, suits[0], hand)
    for s in (1, 2, 3):
        value = _worth(rules, suits[s], hand)
        if value > best:
            suit, best = s, value
    return suit, best


def _worth(rules: Ruleset, known: _SuitValues, hand: int) -> float:
    """``expected_points`` of ``hand`` in the suit ``known`` caches."""
    trumps = hand & known.trump_mask
    value = known.values.get(trumps)
    if value is None:
        value = known.values[trumps] = _trumps_worth(rules, known, trumps)
    return value


def _trumps_worth(rules: Ruleset, known: _SuitValues, trumps: int) -> float:
    """``expected_points`` of a hand holding exactly ``trumps`` of the suit."""
    n_trumps = trumps.bit_count()
    held = 0
    expected = 0.0
    mine_above = 0
    missing_above = 0
    for c, pts, sure in known.order:
        if trumps >> c & 1:
            if pts:
                held += pts
                if sure or missing_above == 0:
                    p = 1.0
                else:
                    p = _clamp(0.45 + 0.07 * n_trumps + 0.03 * mine_above - 0.02 * missing_above, 0.3, 0.95)
                expected += p * pts
            mine_above += 1
        else:
            missing_above += 1
    rest = rules.total_points - held
    extra = rules.kitty_size + rules.second_deal
    top = (trumps & known.top_mask).bit_count()  # high trumps capture the others' points
    if rules.partnerships:
        share = _clamp(0.3 + 0.11 * top + 0.015 * n_trumps + 0.01 * extra, 0.25, 0.85)
    else:
        share = _clamp(0.03 + 0.05 * top + 0.02 * n_trumps + 0.01 * extra, 0.02, 0.4)
    return expected + share * rest


def nontrump_keep_value(c: int) -> float:
    """How much a non-trump is worth keeping: its rank (a non-trump joker above every rank)."""
    return float(c % 13) if c < 52 else 50.0


__all__ = ["best_expected_points", "expected_points", "nontrump_keep_value"]
