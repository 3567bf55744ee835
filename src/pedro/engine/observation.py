"""What one seat may know: the only door from the game state to a player.

An ``Observation`` is built from plain values (ints and tuples), never a
reference to the state, so a player holding one cannot reach another seat's
hand, the stock or a face-down discard through it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final, TypeVar

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of
from pedro.engine.actions import play_cards
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase, Status
from pedro.engine.results import SeenHand as SeenHand  # an observation's history: re-exported
from pedro.engine.table import Table, TableView
from pedro.engine.turns import Trick
from pedro.variants.model import Ruleset

_PLAY: Final = int(Phase.PLAY)
_COLD: Final = Status.COLD
_UP: Final = Status.UP
_OUT: Final = Status.OUT
_Frozen = TypeVar("_Frozen")


# An observation names the same few masks and plays again and again (a hand changes by one
# card at a time, a finished trick not at all): their tuples are kept, being immutable.
@functools.lru_cache(maxsize=1 << 14)
def _cards(mask: int) -> tuple[int, ...]:
    return tuple(cards_of(mask))


@functools.lru_cache(maxsize=1 << 12)
def _play(action: int) -> tuple[int, ...]:
    return tuple(play_cards(action))


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SeenTrick:
    leader: int
    plays: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, cards, top card first)
    winner: int  # -1 while the trick is in progress


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Observation:
    seat: int
    variant: str
    #: the rules in force, house rules included (public to everyone at the table)
    rules: Ruleset
    phase: int
    hand_index: int
    dealer: int
    current_player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    calls: tuple[tuple[int, int], ...]
    bidder: int | None
    bid: int | None
    trump: int | None
    #: each seat's cards laid aside face up (discards, kills); public
    face_up: tuple[tuple[int, ...], ...]
    #: this seat's own discards, face up or down
    own_discards: tuple[int, ...]
    #: other cards this seat has seen (the stock it looked through, cards it gave)
    seen: tuple[int, ...]
    statuses: tuple[int, ...]
    #: cards shown by players who went cold / up / out (when shown face up)
    shown: tuple[tuple[int, ...], ...]
    tricks: tuple[SeenTrick, ...]
    trick: SeenTrick | None
    scores: tuple[int, ...]
    history: tuple[SeenHand, ...]
    winner: int | None
    #: the legal actions when it is this seat's turn, else None
    legal: tuple[int, ...] | CardChoice | None
    #: how many cards each seat has laid aside this hand, face up or down (those later
    #: gathered into the wash included); everyone sees the count, which with
    #: ``hand_sizes`` tells how many trumps a player kept
    discarded: tuple[int, ...] = ()
    #: how many gathered discards are still in the wash (a short stock deals them face
    #: down; which cards went where is nobody's knowledge but the receiver's)
    wash: int = 0
    #: how many cards each seat has received this hand after the first deal (the kitty, fills
    #: from the stock, the dealer's rob, a partner's gift, claimed trumps); everyone sees the
    #: count, so with ``discarded`` it tells who "discards 6, draws 4"
    drawn: tuple[int, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.seat

    @property
    def secrets(self) -> SeatSecrets:
        """The fields only this seat may see."""
        return SeatSecrets(self.seat, self.hand, self.own_discards, self.seen, self.legal)


def _seen_trick(t: Trick) -> SeenTrick:
    return _seen(t.leader, tuple(t.plays), t.winner)


@functools.lru_cache(maxsize=1 << 12)
def _seen(leader: int, plays: tuple[tuple[int, int], ...], winner: int) -> SeenTrick:
    """A trick as everyone saw it: one object for as long as it stays the same (it is frozen)."""
    return SeenTrick(leader, tuple((s, _play(a)) for s, a in plays), winner)


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SeatSecrets:
    """The part of an observation only its seat may see; the rest is the same for every seat.

    Servers that tell many seats about one change build the public part once
    and this part per seat.
    """

    seat: int
    hand: tuple[int, ...]
    own_discards: tuple[int, ...]
    seen: tuple[int, ...]
    legal: tuple[int, ...] | CardChoice | None


def seat_secrets(table: Table, seat: int) -> SeatSecrets:
    """The part of ``seat``'s observation only it may see, of a state (a ``GameState``)."""
    view = TableView(table)
    return _secrets(view, seat, view.wash)


def _secrets(view: TableView, seat: int, wash: int) -> SeatSecrets:
    legal: tuple[int, ...] | CardChoice | None = None
    if view.current_player == seat and not view.is_over:
        legal = view.legal()  # a tuple, or a card choice of plain values
    seen = view.seen(seat)
    if view.rules.partnerships:
        for frm, mask in view.received((seat + 2) % view.players):
            if frm == seat:
                seen |= mask
    hand = view.hand(seat)
    return SeatSecrets(
        seat=seat,
        hand=_cards(hand),
        own_discards=_cards(view.discards(seat) & ~wash),
        seen=_cards(seen & ~hand),
        legal=legal,
    )


def observe(table: Table, seat: int) -> Observation:
    """``seat``'s observation of a state (a ``GameState``)."""
    view = TableView(table)
    rules = view.rules
    contract = view.contract
    wash = view.wash
    secrets = _secrets(view, seat, wash)
    phase = view.phase
    trick = view.trick
    laid_up, statuses, shown, discarded, drawn = _public_marks(
        rules.cold_cards_face_up, view.face_up, wash, view.laid_aside
    )
    return _made(
        Observation,
        seat=seat,
        variant=rules.id,
        rules=rules,
        phase=int(phase),
        hand_index=view.hand_index,
        dealer=view.dealer,
        current_player=view.current_player,
        hand=secrets.hand,
        hand_sizes=view.hand_sizes,
        calls=view.calls,
        bidder=contract.bidder if contract else None,
        bid=contract.value if contract else None,
        trump=view.trump,
        face_up=laid_up,
        own_discards=secrets.own_discards,
        seen=secrets.seen,
        statuses=statuses,
        shown=shown,
        tricks=tuple(_seen_trick(t) for t in view.tricks),
        trick=_seen_trick(trick) if trick is not None and phase == _PLAY else None,
        scores=view.scores,
        history=view.history,
        winner=view.winner,
        legal=secrets.legal,
        discarded=discarded,
        wash=wash.bit_count(),
        drawn=drawn,
    )


def _made(cls: type[_Frozen], **fields: object) -> _Frozen:
    """A frozen dataclass's instance made without its ``__init__``, which sets each field by
    ``object.__setattr__``: for an observation's 28 fields that was a third of its cost, and a
    rollout makes one at every turn. Every field must be given (``test_observation`` checks it)."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


_Marks = tuple[tuple[int, ...], ...]
_Ints = tuple[int, ...]
#: face up, statuses, shown, discarded, drawn: one per seat each
_PublicMarks = tuple[tuple[_Ints, ...], _Ints, tuple[_Ints, ...], _Ints, _Ints]


@functools.lru_cache(maxsize=1 << 10)
def _public_marks(cold_face_up: bool, face_up: int, wash: int, marks: _Marks) -> _PublicMarks:
    """What everyone sees of each seat's laid-aside cards: face up (laid up and killed),
    status, cards shown, how many laid aside, how many drawn.

    These change only in the exchange and when a seat drops out; between, a rollout asks
    for them at every turn, so they are worked out once per distinct ``marks``
    (``TableView.laid_aside``)."""
    laid, kills, status, shown, gathered, drawn = marks
    return (
        tuple([_cards((d & face_up) | k) for d, k in zip(laid, kills, strict=True)]),
        tuple([int(s) for s in status]),
        tuple([_shown(cold_face_up, c, s) for c, s in zip(shown, status, strict=True)]),
        tuple([((d & ~wash) | k).bit_count() + g for d, k, g in zip(laid, kills, gathered, strict=True)]),
        drawn,
    )


def _shown(cold_face_up: bool, cards: int, status: int) -> tuple[int, ...]:
    """The cards a seat showed going cold, up or out, when they were shown face up."""
    if not cards:
        return ()
    face_up = cold_face_up if status == _COLD else status in (_UP, _OUT)
    return _cards(cards) if face_up else ()
