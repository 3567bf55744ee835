"""``SampledDeals``: the seat gets exactly its hand, the rest of the pack is shuffled, in every variant."""

from __future__ import annotations

import random

import pytest

from pedro.engine.state import GameState
from pedro.players.simulation import SampledDeals
from pedro.variants.catalog import VARIANTS


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_a_sampled_deal_gives_the_seat_its_own_first_deal_and_shuffles_the_rest(variant_id: str) -> None:
    rules = VARIANTS[variant_id]
    for seed in range(3):
        real = GameState(rules, seed=seed)
        for seat in range(rules.players):
            hand = real.observation(seat).hand
            deals = SampledDeals(rules, real.dealer, seat, hand, random.Random(f"{seed}:{seat}"))
            assert sorted(deals.first) == sorted(rules.deck)  # a whole pack, each card once
            sampled = GameState(rules, deals=deals)
            assert sampled.dealer == real.dealer
            assert sorted(sampled.observation(seat).hand) == sorted(hand)
            others = [sorted(sampled.observation(s).hand) for s in range(rules.players) if s != seat]
            assert others != [sorted(real.observation(s).hand) for s in range(rules.players) if s != seat]


def test_a_hand_that_is_no_seats_deal_is_refused_with_what_was_wrong() -> None:
    rules = VARIANTS["cinch"]
    hand = GameState(rules, seed=0).observation(1).hand[:-1]  # a card short
    with pytest.raises(ValueError, match="is not one seat's first deal"):
        SampledDeals(rules, 0, 1, hand, random.Random(0))


def test_a_hand_with_more_cards_than_a_deal_and_its_kitty_is_refused() -> None:
    """83: 12 cards dealt and a kitty of 5; a bidder who was also given cards by its partner holds
    more, which no layout of the pack gives one seat (such a hand once ran off the pack's end)."""
    rules = VARIANTS["eighty_three"]
    hand = list(rules.deck)[:18]
    with pytest.raises(ValueError, match="a hand of 18 cards is not one seat's first deal"):
        SampledDeals(rules, 0, 1, hand, random.Random(0))
    assert len(SampledDeals(rules, 0, 1, hand[:17], random.Random(0)).first) == len(rules.deck)
