"""Seeded packs and the first deal's order (the shuffle itself: tests/test_draws.py)."""

from pedro.engine.deal import SeededDeals, deal_order, pack_from_deal


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
