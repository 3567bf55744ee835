"""Play out one hand from a seat's point of view: sampled unseen cards, a forced contract, a policy.

Bidding by simulation asks "with this hand, if seat S declared suit T, how
many points would each side take?". This module answers it for one sampled
deal: the seat's own first-deal cards are fixed, every card it cannot see is
shuffled into the other hands, the kitty and the stock, the auction is
driven so that the chosen seat holds the contract, trumps are named, and
then the exchange and the play are played out by a given policy for every
seat (a rollout) through the engine itself, so every variant's exchange and
play rules apply unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from pedro.engine.actions import PASS, Verb, arg_of, trump_action, verb_of
from pedro.engine.choices import CardChoice
from pedro.engine.deal import deal_positions
from pedro.engine.draws import shuffle
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.base import Player
from pedro.variants.model import Ruleset


class SampledDeals:
    """A deal source whose first hand gives ``seat`` exactly ``hand`` (its first deal, with the kitty
    it took or its packet of the second deal) and shuffles the rest.

    Later hands (the engine deals the next one when a hand ends) and the wash
    are plain seeded shuffles: the simulation never looks at them.
    """

    skips_taken_wash_cards = True

    def __init__(
        self, rules: Ruleset, dealer: int, seat: int, hand: Sequence[int], rng: random.Random
    ) -> None:
        self.rng = rng
        self._dealer = dealer
        packets = (1,) if rules.deal_all_out else rules.packets
        order = _pack_order(
            len(rules.deck), rules.players, dealer, rules.first_deal_size, tuple(packets),
            rules.kitty_size, rules.second_deal, seat, len(hand),
        )  # fmt: skip
        mine = set(hand)
        rest = [c for c in rules.deck if c not in mine]
        shuffle(rng, rest)
        self.first = list(order([*sorted(hand), *rest]))

    def first_dealer(self, players: int) -> int:
        return self._dealer

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        if hand_index == 0:
            return list(self.first)
        cards = list(deck)
        shuffle(self.rng, cards)
        return cards

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        cards = sorted(pile)
        shuffle(self.rng, cards)
        return cards


@cache
def _pack_order(
    deck_size: int,
    players: int,
    dealer: int,
    first_deal_size: int,
    packets: tuple[int, ...],
    kitty_size: int,
    second_deal: int,
    seat: int,
    held: int,
) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """Where ``SampledDeals`` puts its cards: a function taking the seat's ``held`` cards in order,
    then the shuffled rest, to the pack in dealing order. The layout depends on the table only, and
    bidding draws some thousands of deals a call, so it is worked out once per table and seat.

    A hand after the second deal holds its packet of it, from the stock's top in turn from the
    dealer's left (``GameState._name_trump``); a bidder who took the kitty holds it too: those
    cards go back to the kitty.
    """
    positions = deal_positions(players, dealer, first_deal_size, packets)[seat]
    first_deal = players * first_deal_size
    extra = max(0, held - len(positions))
    second = second_deal if extra >= second_deal else 0
    kitty = range(first_deal, first_deal + extra - second)
    packet = first_deal + kitty_size + (seat - dealer - 1) % players * second
    wanted = set(positions) | set(kitty) | set(range(packet, packet + second))
    if len(wanted) != held or max(wanted, default=0) >= deck_size:  # more cards than a kitty adds
        raise ValueError(f"a hand of {held} cards is not one seat's first deal (and kitty)")
    own = iter(range(held))
    others = iter(range(held, deck_size))
    return itemgetter(*(next(own) if i in wanted else next(others) for i in range(deck_size)))


@dataclass(frozen=True)
class Outcome:
    """One simulated hand: the points each side took, with the declarer and trumps it was played with."""

    declarer: int
    trump: int
    points: tuple[int, ...]


def contract_state(
    rules: Ruleset, deals: SampledDeals, declarer: int, bid: int, trump: int
) -> GameState | None:
    """The first hand of a game dealt by ``deals``, the auction won by ``declarer`` bidding ``bid``.

    Every other seat passes; the declarer names ``trump``. None when the rules
    do not let that contract arise (the bid is not a legal call).
    """
    state = GameState(rules, deals=deals)
    while state.phase == Phase.AUCTION and state.hand_index == 0:
        seat = state.current_player
        legal = state.legal()
        assert not isinstance(legal, CardChoice)
        if seat == declarer:
            bids = [a for a in legal if verb_of(a) == Verb.BID]
            if not bids:
                return None
            action = min(bids, key=lambda a: (abs(arg_of(a) - bid), a))
        else:
            action = PASS if PASS in legal else legal[0]
        state.apply(action)
    if state.phase != Phase.TRUMP or state.hand_index != 0:
        return None
    if state.current_player != declarer:
        return None
    choices = state.legal()
    action = trump_action(trump)
    if isinstance(choices, CardChoice) or action not in choices:
        return None
    state.apply(action)
    return state


def play_out(state: GameState, players: Sequence[Player]) -> tuple[int, ...]:
    """Play the current hand to its end with one policy per seat; the points per side."""
    start = len(state.results)
    while not state.is_over and len(state.results) == start:
        seat = state.current_player
        legal = state.legal()
        if isinstance(legal, tuple) and len(legal) == 1:
            state.apply(legal[0])  # a forced play needs no observation (the costly part of a turn)
            continue
        state.apply(players[seat].act(state.observation(seat)))
    return tuple(state.results[start].points)


def play_out_any(state: GameState) -> tuple[int, ...]:
    """Play the current hand to its end by the first legal action at every turn; the points per
    side. Where ``rules.fixed_hand_total`` their sum is the hand's total, at a fraction of a
    rollout's cost (no observation, no policy)."""
    start = len(state.results)
    while not state.is_over and len(state.results) == start:
        state.apply(next(iter(state.legal())))
    return tuple(state.results[start].points)


#: How a contract's hand is valued from the state with trumps named: the points per side it is
#: worth, the exchange and the play played by the given policy (``play_out``: a plain rollout).
PlayValuation = Callable[[GameState, Sequence[Player]], tuple[int, ...]]


def simulate(
    rules: Ruleset,
    deals: SampledDeals,
    declarer: int,
    bid: int,
    trump: int,
    players: Sequence[Player],
    valuation: PlayValuation = play_out,
) -> Outcome | None:
    """One rollout of the contract (``declarer``, ``bid``, ``trump``) on one sampled deal.

    ``valuation`` values the hand from the named trump on (a rollout unless told).
    """
    state = contract_state(rules, deals, declarer, bid, trump)
    if state is None:
        return None
    return Outcome(declarer, trump, valuation(state, players))
