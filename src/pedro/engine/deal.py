"""Where the cards come from: a seeded shuffle, or the deals written in a record.

The engine asks a ``DealSource`` for each hand's pack order and, when a fill
runs the stock dry, for the order of the shuffled discard pile (the "wash").
Keeping chance behind this small interface is what lets a record replay the
exact game and a seed reproduce it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter
from typing import Protocol

from mypy_extensions import mypyc_attr

from pedro.cards import format_cards
from pedro.engine.draws import shuffle
from pedro.variants.model import Ruleset


class DealError(ValueError):
    """A recorded deal does not fit the rules (wrong pack, missing wash cards)."""


class DealSource(Protocol):
    #: A shuffled wash may hold cards taken back later; a seeded source skips them,
    #: a recorded one lists only cards actually dealt.
    skips_taken_wash_cards: bool

    def first_dealer(self, players: int) -> int: ...

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        """The shuffled pack for a hand, top card first."""
        ...

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        """The order in which the discard pile is dealt when the stock runs out."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: tests subclass it
class SeededDeals:
    """Shuffles from a seed: the same seed always gives the same game."""

    skips_taken_wash_cards = True

    def __init__(self, seed: int | str | None = None, first_dealer: int | None = None) -> None:
        self.seed = random.randrange(2**63) if seed is None else seed
        self._first_dealer = first_dealer
        self._prefix = f"pedro:{self.seed}:"

    def _rng(self, part: str) -> random.Random:
        """A generator seeded by the text ``pedro:<seed>:<part>`` (parts such as ``hand:3``)."""
        return random.Random(self._prefix + part)

    def first_dealer(self, players: int) -> int:
        if self._first_dealer is not None:
            return self._first_dealer
        return self._rng("dealer").randrange(players)

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        cards = list(deck)
        shuffle(self._rng(f"hand:{hand_index}"), cards)
        return cards

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        cards = sorted(pile)
        shuffle(self._rng(f"wash:{hand_index}"), cards)
        return cards


class RecordedDeal:
    """One hand's recorded pack order and wash list."""

    def __init__(self, pack: list[int], wash: list[int]) -> None:
        self.pack = pack
        self.wash = wash


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: records/replaying.py subclasses it
class RecordedDeals:
    """Replays the packs of a game record; refuses a pack that is not the variant's."""

    skips_taken_wash_cards = False

    def __init__(self, first_dealer: int, hands: list[RecordedDeal]) -> None:
        self._first_dealer = first_dealer
        self.hands = hands

    def first_dealer(self, players: int) -> int:
        return self._first_dealer

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        if hand_index >= len(self.hands):
            raise DealError(f"the record has only {len(self.hands)} hands but the game is not over")
        pack = self.hands[hand_index].pack
        if sorted(pack) != sorted(deck) or len(pack) != len(deck):
            raise DealError(
                f"hand {hand_index + 1}: deal, kitty and stock together must be exactly the "
                f"variant's pack of {len(deck)} cards, each once"
            )
        return list(pack)

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        wash = self.hands[hand_index].wash
        missing = [c for c in wash if c not in pile]
        if missing or len(set(wash)) != len(wash):
            raise DealError(
                f"hand {hand_index + 1}: the wash must list cards of the discard pile "
                f"({format_cards(sorted(pile))}), each once; got {format_cards(wash)}"
            )
        return list(wash)


@cache
def deal_order(players: int, dealer: int, hand_size: int, packets: tuple[int, ...]) -> list[int]:
    """The seat receiving each successive card of the first deal (docs/rules.md §deal).

    Packets go clockwise from the dealer's left, the dealer last, repeating the
    packet pattern until every hand is full.
    """
    order = [(dealer + 1 + i) % players for i in range(players)]
    got = dict.fromkeys(order, 0)
    seats: list[int] = []
    k = 0
    while any(got[s] < hand_size for s in order):
        want = packets[k % len(packets)]
        k += 1
        for s in order:
            take = min(want, hand_size - got[s])
            seats.extend([s] * take)
            got[s] += take
    return seats


@cache
def deal_positions(
    players: int, dealer: int, hand_size: int, packets: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """For each seat, the positions in the pack of its first-deal cards, in order."""
    positions: list[list[int]] = [[] for _ in range(players)]
    for index, seat in enumerate(deal_order(players, dealer, hand_size, packets)):
        positions[seat].append(index)
    return tuple(tuple(p) for p in positions)


@cache
def deal_getters(
    players: int, dealer: int, hand_size: int, packets: tuple[int, ...]
) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """Per seat, a function taking its first-deal cards from a pack (``deal_positions``)."""
    getters = []
    for positions in deal_positions(players, dealer, hand_size, packets):
        get = itemgetter(*positions)
        getters.append(get if len(positions) > 1 else (lambda pack, g=get: (g(pack),)))
    return tuple(getters)


def pack_from_deal(
    players: int,
    dealer: int,
    hand_size: int,
    packets: Sequence[int],
    deal: Sequence[Sequence[int]],
    kitty: Sequence[int],
    stock: Sequence[int],
) -> list[int]:
    """Rebuild the pack order that deals ``deal``, then ``kitty``, then ``stock``."""
    if len(deal) != players or any(len(h) != hand_size for h in deal):
        sizes = ", ".join(str(len(h)) for h in deal)
        raise DealError(f"the deal must give {players} hands of {hand_size} cards; got hands of {sizes}")
    position = [0] * players
    pack: list[int] = []
    for seat in deal_order(players, dealer, hand_size, tuple(packets)):
        pack.append(deal[seat][position[seat]])
        position[seat] += 1
    return pack + list(kitty) + list(stock)


def first_deal_packets(rules: Ruleset) -> tuple[int, ...]:
    """The first deal's packet sizes: the variant's, or one card at a time when all are dealt out."""
    return (1,) if rules.deal_all_out else rules.packets
