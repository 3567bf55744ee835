"""Cards as small integers and sets of cards as bitmasks.

A card is an ``int``: ``suit * 13 + rank`` for the 52 suited cards (suit
0..3 = S H D C, rank 0..12 = 2..A) and 52, 53, 54 for the jokers JK, BJ, SJ.
A set of cards is an ``int`` bitmask with bit ``card`` set, which keeps the
engine's hot paths (legal plays, following suit) to a few integer operations.

>>> format_card(parse_card("10h"))
'TH'
>>> format_cards(parse_cards("5♥ as jk"))
'5H AS JK'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANKS: Final = "23456789TJQKA"
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
JK: Final = 52
BJ: Final = 53
SJ: Final = 54
JOKERS: Final = {"JK": JK, "BJ": BJ, "SJ": SJ}
JOKER_NAMES: Final = {value: name for name, value in JOKERS.items()}
NUM_CARDS: Final = 55

#: Rank indices by name, for building rulesets from rank letters.
RANK_INDEX: Final = {name: index for index, name in enumerate(RANKS)}


class CardError(ValueError):
    """A card or list of cards could not be read."""


def card(rank: str, suit: str) -> int:
    """The card of rank letter ``rank`` (``"T"`` for ten) and suit letter ``suit``."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def suit_of(c: int) -> int:
    """Printed suit of a suited card; jokers have suit 4 (no suit)."""
    return c // 13 if c < 52 else 4


def rank_of(c: int) -> int:
    """Rank index 0..12 (2..A) of a suited card; jokers have rank -1."""
    return c % 13 if c < 52 else -1


def sister_suit(suit: int) -> int:
    """The other suit of the same colour (spades<->clubs, hearts<->diamonds)."""
    return 3 - suit


def bit(c: int) -> int:
    return 1 << c


SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask in increasing card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    return mask.bit_count()


def format_card(c: int) -> str:
    """Canonical text: rank letter + suit letter (``"TH"``), or the joker's name.

    >>> format_card(8), format_card(13 + 8), format_card(JK)
    ('TS', 'TH', 'JK')
    """
    if c >= 52:
        return JOKER_NAMES[c]
    return RANKS[c % 13] + SUITS[c // 13]


def pretty_card(c: int) -> str:
    """Human text with suit symbol and ``10`` for ten (``"10♥"``).

    >>> pretty_card(parse_card("TH")), pretty_card(parse_card("sj"))
    ('10♥', 'SJ')
    """
    if c >= 52:
        return JOKER_NAMES[c]
    return RANK_NAMES[c % 13] + SUIT_SYMBOLS[c // 13]


def format_cards(cards: Iterable[int]) -> str:
    """Canonical text of several cards, in the order given.

    >>> format_cards([HEARTS * 13 + 3, SPADES * 13 + 12, BJ])
    '5H AS BJ'
    """
    return " ".join(format_card(c) for c in cards)


_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_SUIT_ALIASES |= {"♤": 0, "♡": 1, "♢": 2, "♧": 3}


def parse_card(text: str) -> int:
    """Read one card: ``AS``, ``10h``, ``th``, ``5♥``, ``jk``; raises CardError.

    >>> parse_card("10h") == parse_card("th") == parse_card("T♥") == HEARTS * 13 + 8
    True
    >>> parse_card("1h")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pedro.cards.CardError: '1h' is not a card: rank must be one of A K Q J 10 9 8 7 6 5 4 3 2 (or T), ...
    """
    t = text.strip().upper()
    if t in JOKERS:
        return JOKERS[t]
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card (write rank then suit, e.g. AS, 10H, 5♥, or JK/BJ/SJ)")
    rank_text, suit_text = t[:-1], t[-1]
    suit = _SUIT_ALIASES.get(suit_text)
    if rank_text == "10":
        rank_text = "T"
    if suit is None or len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(
            f"{text!r} is not a card: rank must be one of A K Q J 10 9 8 7 6 5 4 3 2 (or T), "
            "suit one of S H D C (or ♠ ♥ ♦ ♣); jokers are JK, BJ, SJ"
        )
    return suit * 13 + RANKS.index(rank_text)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read cards separated by spaces or commas (or given as a list of strings).

    >>> parse_cards("AS, 10h 5♦") == parse_cards(["as", "th", "5d"]) == [12, 21, 29]
    True
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]
