"""The seeded shuffle must deal exactly what ``random.shuffle`` deals: records and seeds rely on it."""

import random

from pedro.engine.deal import SeededDeals, deal_order, pack_from_deal, shuffle


def test_shuffle_matches_random_shuffle_and_leaves_the_generator_where_it_would() -> None:
    """Same order, and the same generator state after: the words are drawn in batches, never
    more than ``random.shuffle`` draws (the players' rollouts go on drawing from it)."""
    for seed in range(2000):
        for size in (0, 1, 2, 3, 24, 52, 53, 54):
            mine, theirs = list(range(size)), list(range(size))
            mine_rng, their_rng = random.Random(seed), random.Random(seed)
            shuffle(mine_rng, mine)
            their_rng.shuffle(theirs)
            assert mine == theirs
            assert mine_rng.getstate() == their_rng.getstate()


def test_pack_from_deal_inverts_the_deal() -> None:
    deals = SeededDeals(7)
    pack = deals.pack(0, list(range(52)))
    seats = deal_order(4, 3, 9, (3,))
    hands: list[list[int]] = [[], [], [], []]
    for card, seat in zip(pack, seats, strict=False):
        hands[seat].append(card)
    rebuilt = pack_from_deal(4, 3, 9, (3,), hands, [], pack[36:])
    assert rebuilt == pack
    assert seats[:3] == [0, 0, 0] and seats[-3:] == [3, 3, 3]  # dealer 3 deals to seat 0 first, himself last
