"""A finished hand: its result, its tricks, and the hand as everyone at the table saw it.

Finished hands are immutable and shared by every clone of a game, so that a copy for a
search costs nothing for the hands behind it. ``GameState.results`` holds one
``HandResult`` per hand; an observation's ``history`` holds their ``SeenHand``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple, final

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of
from pedro.engine.phases import Status

#: A hand's first deal (each seat's cards), kitty and stock, as the pack gave them.
DealRecord = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


@final
class PlayedTrick:
    """A trick of a finished hand: immutable, as finished hands are shared by every clone.

    Compiled, a native class with ``Final`` fields: six are made at every hand's end, at the
    cost of a C struct (a named tuple's ``__new__`` is Python code).
    """

    def __init__(self, leader: int, plays: tuple[tuple[int, int], ...], winner: int) -> None:
        self.leader: Final = leader
        self.plays: Final = plays  # (seat, play action)
        self.winner: Final = winner

    def __reduce__(self) -> tuple[type[PlayedTrick], tuple[int, tuple[tuple[int, int], ...], int]]:
        return PlayedTrick, (self.leader, self.plays, self.winner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayedTrick) and self.__reduce__()[1] == other.__reduce__()[1]

    def __hash__(self) -> int:
        return hash(self.__reduce__()[1])

    def __repr__(self) -> str:
        return f"PlayedTrick(leader={self.leader}, plays={self.plays}, winner={self.winner})"


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SeenHand:
    """A finished hand as everyone saw it (``Observation.history``)."""

    dealer: int
    bidder: int | None
    bid: int | None
    call: str | None
    trump: int | None
    points: tuple[int, ...]
    made: bool | None
    score: tuple[int, ...]
    #: per side, the scoring roles it took with their points (``HandResult.taken``)
    taken: tuple[tuple[tuple[str, int], ...], ...] = ()


class HandResult(NamedTuple):
    """Everything a record or a score sheet needs to know about a finished hand.

    Immutable, and made of tuples: clones of a game share their finished hands. A named
    tuple, as one is made at every hand's end and costs a sixth of a frozen dataclass.
    """

    index: int  # type: ignore[assignment]  # the hand's index, over the tuple method of that name
    dealer: int
    bidder: int | None
    bid: int | None
    call: str | None
    trump: int | None
    #: each seat's cards at the first lead, as masks (see ``hands_at_play``)
    play_masks: tuple[int, ...]
    tricks: tuple[PlayedTrick, ...]
    points: tuple[int, ...]
    made: bool | None
    change: tuple[int, ...]
    score: tuple[int, ...]
    bidder_goes_out: bool = False
    #: each seat's status when the hand ended (folded, cold, up, out or still active)
    statuses: tuple[Status, ...] = ()
    #: per side, the scoring roles it took, in capture order, with their points (``"A"`` High,
    #: ``"2"`` Low, ``"J"`` Jack, ``"T"`` Game, ``"5"`` Pedro ..., ``"plain"`` a plain point
    #: card): the score sheet's breakdown, as counting found it. Points credited for trumps
    #: laid aside are in ``points`` only.
    taken: tuple[tuple[tuple[str, int], ...], ...] = ()

    @property
    def hands_at_play(self) -> list[list[int]]:
        """Each seat's cards at the first lead (empty for a hand thrown in)."""
        return [cards_of(mask) for mask in self.play_masks]

    @property
    def seen(self) -> SeenHand:
        """The hand as everyone saw it (the state keeps them: every observation repeats the history)."""
        return SeenHand(
            self.dealer, self.bidder, self.bid, self.call, self.trump, self.points, self.made, self.score,
            self.taken,
        )  # fmt: skip
