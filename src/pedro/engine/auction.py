"""Rule hook 1: the calls a seat may make in the auction (docs/rules.md §auction)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from pedro.cards import RANK_INDEX
from pedro.engine.actions import ARG_MASK, PASS, PROTECT, VERB_SHIFT, Verb, arg_of, bid_action, make, verb_of
from pedro.marks import N_
from pedro.variants.model import Ruleset
from pedro.variants.tables import AuctionRules


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: pickles and copies (its __new__ runs no __init__)
class Auction:
    """The auction of one hand: who has passed, the high call, whose turn.

    A plain class, not a dataclass: compiled, a dataclass's ``__init__`` is the Python
    code ``dataclasses`` writes, run at every deal.
    """

    __slots__ = (
        "calls",
        "dealer",
        "high_seat",
        "high_value",
        "high_verb",
        "passed",
        "players",
        "rules",
        "spoken",
        "suits_28_56",
        "turn",
    )  # fmt: skip

    def __init__(
        self,
        rules: AuctionRules,
        dealer: int,
        players: int,
        turn: int,
        passed: list[bool],
        high_value: int | None = None,
        high_seat: int | None = None,
        high_verb: Verb = Verb.BID,
        spoken: int = 0,
        suits_28_56: tuple[int, ...] = (),
        calls: list[tuple[int, int]] | None = None,
    ) -> None:
        #: the ruleset's ``auction_rules``, read at every call
        self.rules = rules
        self.dealer = dealer
        self.players = players
        self.turn = turn
        self.passed = passed
        self.high_value = high_value
        self.high_seat = high_seat
        self.high_verb = high_verb
        self.spoken = spoken
        #: suits the 28-56 caller may name (those where he held A, K and 2 when calling)
        self.suits_28_56 = suits_28_56
        self.calls: list[tuple[int, int]] = [] if calls is None else calls

    @staticmethod
    def start(rules: Ruleset, dealer: int) -> Auction:
        n = rules.players
        return Auction(rules.auction_rules, dealer, n, (dealer + 1) % n, [False] * n)

    def copy(self) -> Auction:
        """An independent copy (for ``GameState.clone``): its lists are copied, the rest is immutable."""
        return Auction(
            self.rules, self.dealer, self.players, self.turn, self.passed[:], self.high_value, self.high_seat,
            self.high_verb, self.spoken, self.suits_28_56, self.calls[:],
        )  # fmt: skip

    def __repr__(self) -> str:
        return f"Auction(dealer={self.dealer}, turn={self.turn}, high={self.high_value}, calls={self.calls})"

    def is_forced(self, seat: int) -> bool:
        """``seat`` is the dealer, everyone else has passed, and the rules force the dealer to bid."""
        return (
            seat == self.dealer
            and self.high_value is None
            and self.rules.forced_bid is not None
            and sum(self.passed) == self.players - 1
        )


def forced_call(rules: Ruleset, calls: Sequence[tuple[int, int]], dealer: int) -> int | None:
    """The index in ``calls`` of the dealer's call made because everyone else passed, or None.

    Under ``all_pass_action = dealer_forced`` the dealer may not pass then: the
    table marks that bid "(forced)", as it says nothing of the dealer's hand.
    """
    if rules.auction_rules.forced_bid is None:
        return None
    passed: set[int] = set()
    for i, (seat, action) in enumerate(calls):
        if action != PASS:
            return i if seat == dealer and len(passed - {dealer}) == rules.players - 1 else None
        passed.add(seat)
    return None


def _suits_with_a_k_2(hand: int) -> tuple[int, ...]:
    needed = (RANK_INDEX["A"], RANK_INDEX["K"], RANK_INDEX["2"])
    return tuple(s for s in range(4) if all(hand >> (s * 13 + r) & 1 for r in needed))


@cache
def _bids(top: int) -> tuple[int, ...]:
    """The actions ``bid 0`` to ``bid top``, indexed by value."""
    return tuple(bid_action(v) for v in range(top + 1))


#: Verbs by number, for calls already known to be legal (faster than ``Verb(n)``).
_VERBS: Final = tuple(Verb)
_BID: Final = Verb.BID
_BID_28_56: Final = Verb.BID_28_56
_BID_DOUBLE: Final = Verb.BID_DOUBLE
_PROTECT_VERB: Final = Verb.PROTECT


def legal_calls(rules: Ruleset, auction: Auction, seat: int, hand: int) -> list[int]:
    """Every call ``seat`` may make now, as actions."""
    ar = auction.rules
    bids = _bids(ar.max_bid)
    high = auction.high_value
    forced_bid = ar.forced_bid
    if forced_bid is not None and auction.is_forced(seat):
        # the forced dealer may not pass: the forced bid first, then the ordinary bids
        calls = [bid_action(forced_bid)]
        calls += [a for a in bids[max(ar.min_bid, forced_bid) :] if a != calls[0]]
    else:
        lowest = ar.min_bid if high is None else high + 1
        if _may_equal(auction, seat):
            lowest -= 1
        calls = [PASS, *bids[lowest:]]
    if ar.special_calls:
        calls += _special_calls(rules, auction, seat, hand)
    return calls


def _special_calls(rules: Ruleset, auction: Auction, seat: int, hand: int) -> list[int]:
    """28-56, the double call and protect, where the rules have them (docs/rules.md §special-calls)."""
    calls: list[int] = []
    high = auction.high_value
    above_max = high is None or high <= rules.max_bid
    if (
        rules.bid_28_56
        and seat == auction.dealer
        and above_max
        and auction.rules.single_round
        and _suits_with_a_k_2(hand)
    ):
        calls.append(make(_BID_28_56))
    if rules.double_max_bid and above_max:
        calls.append(make(_BID_DOUBLE))
    protector = rules.protect and rules.partnerships and seat == (auction.dealer + 2) % rules.players
    may_equal = rules.protect_may_equal and high == rules.min_bid and auction.high_verb == _BID
    if protector and (high is None or may_equal):
        calls.append(PROTECT)
    return calls


def _may_equal(auction: Auction, seat: int) -> bool:
    """Whether ``seat`` may bid the high bid again (a dealer equalling it, a rebid of the maximum)."""
    high = auction.high_value
    ar = auction.rules
    if high is None or auction.high_verb != _BID or high > ar.max_bid:
        return False
    return (ar.dealer_may_equal and seat == auction.dealer) or (ar.max_bid_rebid and high == ar.max_bid)


def call_value(rules: Ruleset, action: int) -> int:
    """The value a call ranks at (special calls rank just above the maximum)."""
    verb = _VERBS[action >> VERB_SHIFT]
    if verb == _BID:
        return action & ARG_MASK
    if verb == _PROTECT_VERB:
        return rules.min_bid
    return rules.max_bid + 1


def apply_call(rules: Ruleset, auction: Auction, seat: int, action: int, hand: int) -> None:
    auction.calls.append((seat, action))
    auction.spoken += 1
    if action == PASS:
        auction.passed[seat] = True
    else:
        auction.high_value = call_value(rules, action)
        auction.high_seat = seat
        auction.high_verb = _VERBS[action >> VERB_SHIFT]
        if auction.high_verb == _BID_28_56:
            auction.suits_28_56 = _suits_with_a_k_2(hand)


def auction_over(auction: Auction, seat: int) -> bool:
    """Whether the auction ends after ``seat`` has spoken."""
    if auction.rules.single_round:
        return seat == auction.dealer
    passed = sum(auction.passed)
    if auction.high_value is not None:
        return passed >= auction.players - 1
    return passed == auction.players


def call_refusal(rules: Ruleset, auction: Auction, seat: int, action: int) -> str:
    """Why ``seat`` may not make the call ``action`` (an action, not one of its ``legal_calls``), in a
    player's words."""
    verb = verb_of(action)
    if action == PASS:
        return N_("the dealer may not pass when everyone else has passed")
    if verb == _BID:
        value = arg_of(action)
        if value > rules.max_bid:
            return N_("bids go up to {max}").format(max=rules.max_bid)
        if value < rules.min_bid and value != rules.dealer_forced_bid:
            return N_("the lowest bid is {min}").format(min=rules.min_bid)
        if auction.high_value is not None:
            return N_("a bid must be higher than the current bid of {bid}").format(bid=auction.high_value)
        if auction.is_forced(seat) and rules.dealer_forced_bid is not None:
            return N_("the forced dealer bids {forced} or at least {min}").format(
                forced=rules.dealer_forced_bid, min=rules.min_bid
            )
    names = {
        Verb.BID_28_56: N_("28-56 is a dealer's call, with ace, king and two of one suit, above 14"),
        Verb.BID_DOUBLE: N_("the double call is not allowed now"),
        Verb.PROTECT: N_("only the dealer's partner may protect, before any bid"),
    }
    if verb in names:
        return names[verb]
    return N_("that is not a call; call pass or bid a number")


def next_speaker(auction: Auction, seat: int) -> int:
    n = auction.players
    p = (seat + 1) % n
    while auction.passed[p]:
        p = (p + 1) % n
    return p
