"""How cards and seats are shown to people, shared by the terminal game and the browser server.

Kept apart from both interfaces so they sort a hand and name a status the
same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from pedro.cards import JOKER_NAMES
from pedro.engine.phases import Status
from pedro.variants.model import TrumpTables

#: Suits in display order: colours alternate (♠ ♥ ♣ ♦), as players sort a hand.
DISPLAY_SUITS = (0, 1, 3, 2)
RED_SUITS = frozenset({1, 2})
STATUS_WORDS = {
    Status.ACTIVE: "",
    Status.FOLDED: "folded",
    Status.COLD: "cold",
    Status.UP: "up",
    Status.OUT: "out",
}


def sort_hand(cards: Sequence[int], trump: TrumpTables | None = None) -> list[int]:
    """Trumps first, strongest first; then the other suits in alternating colours, high to low."""

    def key(c: int) -> tuple[int, int, int]:
        if trump is not None and trump.trump_mask >> c & 1:
            return (0, -trump.strength[c], 0)
        if c in JOKER_NAMES:
            return (1, 0, -c)
        return (2 + DISPLAY_SUITS.index(c // 13), -(c % 13), 0)

    return sorted(cards, key=key)
