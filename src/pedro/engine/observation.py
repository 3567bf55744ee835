"""What one seat may know: the only door from the game state to a player.

An ``Observation`` is built from plain values (ints and tuples), never a
reference to the state, so a player holding one cannot reach another seat's
hand, the stock or a face-down discard through it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of
from pedro.engine.actions import play_cards
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase, Status
from pedro.variants.model import Ruleset

if TYPE_CHECKING:
    from pedro.engine.state import GameState, Trick

_PLAY: Final = int(Phase.PLAY)


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
class SeenHand:
    """A finished hand as everyone saw it."""

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


def seat_secrets(state: GameState, seat: int) -> SeatSecrets:
    legal: tuple[int, ...] | CardChoice | None = None
    if state._current_player == seat and not state._is_over:
        legal = state.legal()  # a tuple, or a card choice of plain values
    seen = state._seen[seat]
    n = state._players
    for frm, mask in state._received[(seat + 2) % n] if state._rules.partnerships else ():
        if frm == seat:
            seen |= mask
    return SeatSecrets(
        seat=seat,
        hand=_cards(state._hands[seat]),
        own_discards=_cards(state._discards[seat] & ~state._wash_left()),
        seen=_cards(seen & ~state._hands[seat]),
        legal=legal,
    )


def observe(state: GameState, seat: int) -> Observation:
    """Build ``seat``'s observation from the state."""
    n = state._players
    rules = state._rules
    contract = state._contract
    secrets = seat_secrets(state, seat)
    wash = state._wash_left()
    face_up = tuple(_cards((state._discards[s] & state._face_up) | _killed(state, s)) for s in range(n))
    shown = tuple(
        _cards(state._shown[s]) if state._shown[s] and _shown_face_up(state, s) else () for s in range(n)
    )
    trump = state._trump if state._trump >= 0 else None
    history = state._past_hands()
    return Observation(
        seat=seat,
        variant=rules.id,
        rules=rules,
        phase=int(state._phase),
        hand_index=state._hand_index,
        dealer=state._dealer,
        current_player=state._current_player,
        hand=secrets.hand,
        hand_sizes=tuple(h.bit_count() for h in state._hands),
        calls=tuple(state._auction.calls),
        bidder=contract.bidder if contract else None,
        bid=contract.value if contract else None,
        trump=trump,
        face_up=face_up,
        own_discards=secrets.own_discards,
        seen=secrets.seen,
        statuses=tuple(int(s) for s in state._status),
        shown=shown,
        tricks=tuple(_seen_trick(t) for t in state._tricks),
        trick=_seen_trick(state._trick) if state._trick is not None and state._phase == _PLAY else None,
        scores=tuple(state._scores),
        history=history,
        winner=state._winner,
        legal=secrets.legal,
        discarded=tuple(
            ((state._discards[s] & ~wash) | state._killed[s]).bit_count() + state._wash_from[s]
            for s in range(n)
        ),
        wash=wash.bit_count(),
        drawn=tuple(state._drawn),
    )


def _killed(state: GameState, seat: int) -> int:
    return state._killed[seat]


def _shown_face_up(state: GameState, seat: int) -> bool:
    if state._status[seat] == Status.COLD:
        return state._rules.cold_cards_face_up
    return state._status[seat] in (Status.UP, Status.OUT)
