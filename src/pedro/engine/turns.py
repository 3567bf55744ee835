"""The card play's turn order: the one definition the engine, the sampler and the solver follow.

Who leads, who plays next, which seats drop out of the play (cold, up, out),
when a trick is complete and when the play is over (docs/rules.md §play).
Everything works on card masks and plain ints, with the seats still playing
as a bit mask (``active``), so that a search can hold a position in a few
integers: ``TurnOrder`` holds one ruleset's out-of-trumps rule with one
trump suit, and its methods are the steps of the play. ``PlayTurns`` drives
them over a whole hand's play state; ``GameState`` and the sampler's
``PlayMachine`` are both ``PlayTurns``, and ``pedro.solver.search`` calls the
steps directly. The compiled solver (``pedro.solver.kernel``) is a mirror,
held to this one by tests/test_solver_kernel.py.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, final

from mypy_extensions import mypyc_attr

from pedro.engine.actions import CARD_BITS, TOP_SHIFT
from pedro.engine.phases import Status
from pedro.engine.play import TRUMP_SUIT, card_key, effective_suit, legal_play_mask, single_plays, turn_plays
from pedro.engine.play_position import PlayPosition
from pedro.variants.model import OutOfTrumps, Ruleset
from pedro.variants.tables import TrumpTables

#: ``turn``'s answer when the card play is over.
END: Final = -1
#: ``turn``'s and ``after_play``'s answer when the trick is complete.
CLOSE: Final = -2

_ACTIVE: Final = Status.ACTIVE
#: The status of a seat dropping out of the play under each out-of-trumps rule.
_DROP_STATUS: Final = {
    OutOfTrumps.CONTINUE: Status.ACTIVE,  # nobody drops out
    OutOfTrumps.UP: Status.UP,
    OutOfTrumps.COLD_ON_TURN: Status.COLD,
    OutOfTrumps.OUT_ON_TRUMP_LEAD: Status.OUT,
}


@final
class TurnOrder:
    """The turn order of one ruleset with one trump suit (``TurnOrder.of``); immutable, shared by states.

    Compiled, a native class, so the play's steps are direct calls; ``__reduce__`` pickles and
    copies it, as a native class cannot set ``Final`` attributes after ``__new__``.
    """

    def __init__(
        self,
        players: int,
        trump_mask: int,
        needed: int,
        cold_on_turn: bool,
        out_on_trump_lead: bool,
        up: bool,
        drop_status: Status,
    ) -> None:
        self.players: Final = players
        self.trump_mask: Final = trump_mask
        #: cards a playing seat must hold to keep the play going (-1: any card, under ``continue``)
        self.needed: Final = needed
        #: a seat without trumps drops out when its turn comes (``cold_on_turn``)
        self.cold_on_turn: Final = cold_on_turn
        #: ... when its turn comes in a trick led with a trump (``out_on_trump_lead``)
        self.out_on_trump_lead: Final = out_on_trump_lead
        #: ... as soon as it holds no trump, at the first lead and after each play (``up``)
        self.up: Final = up
        #: the status a seat takes when it drops out
        self.drop_status: Final = drop_status

    def __reduce__(self) -> tuple[type[TurnOrder], tuple[int, int, int, bool, bool, bool, Status]]:
        return TurnOrder, (
            self.players, self.trump_mask, self.needed, self.cold_on_turn, self.out_on_trump_lead, self.up,
            self.drop_status,
        )  # fmt: skip

    @staticmethod
    def of(rules: Ruleset, trump_mask: int) -> TurnOrder:
        # keyed by the few fields it reads: hashing a whole Ruleset costs microseconds
        return _turn_order(rules.players, rules.out_of_trumps, trump_mask)

    def next_active(self, hands: list[int], active: int, seat: int) -> int:
        """``seat`` itself if still playing, else the next playing seat clockwise; -1 if none."""
        n = self.players
        for i in range(n):
            s = (seat + i) % n
            if active >> s & 1 and hands[s]:
                return s
        return -1

    def play_over(self, hands: list[int], active: int) -> bool:
        """Whether no seat still playing holds a card it needs (a trump, unless play continues without)."""
        needed = self.needed
        for s, hand in enumerate(hands):  # noqa: SIM110 (a loop: no generator on the hot path)
            if active >> s & 1 and hand & needed:
                return False
        return True

    def drop_up(self, hands: list[int], active: int) -> int:
        """``active`` without the seats gone up (holding no trump), under the up rule."""
        if self.up:
            trump_mask = self.trump_mask
            for s, hand in enumerate(hands):
                if active >> s & 1 and not hand & trump_mask:
                    active &= ~(1 << s)
        return active

    def start(self, hands: list[int], active: int, bidder: int) -> tuple[int, int]:
        """(first leader, active) at the first lead: the bidder leads, or the next seat still playing.

        The leader is -1 when nobody plays (``turn`` then ends the play).
        """
        active = self.drop_up(hands, active)
        return self.next_active(hands, active, bidder), active

    def turn(
        self, hands: list[int], active: int, leader: int, plays: int, seat: int, led: int
    ) -> tuple[int, int, int]:
        """(seat to play, leader, active) from ``seat``'s turn in a trick of ``plays`` plays so far.

        Seats that no longer play are passed over; a seat without trumps drops
        out here under ``cold_on_turn`` (and, in a trump-led trick, under
        ``out_on_trump_lead``); when a leader cannot lead, the next seat leads.
        The seat is ``CLOSE`` when the trick is complete, ``END`` when the
        play is over (nobody left to lead).
        """
        n = self.players
        while True:
            if not plays and self.play_over(hands, active):
                return END, leader, active
            hand = hands[seat]
            if active >> seat & 1 and hand:
                if hand & self.trump_mask or not (
                    self.cold_on_turn or (self.out_on_trump_lead and led == TRUMP_SUIT)
                ):
                    return seat, leader, active
                active &= ~(1 << seat)
            nxt = (seat + 1) % n
            if nxt == leader:
                return (CLOSE if plays else END), leader, active
            if not plays:
                if self.next_active(hands, active, nxt) in (-1, leader):
                    return END, leader, active
                leader = nxt  # the leader could not lead: the next seat leads instead
            seat = nxt

    def after_play(self, hand_left: int, active: int, leader: int, seat: int) -> tuple[int, int]:
        """(next seat or ``CLOSE``, active) once ``seat`` has played and holds ``hand_left``.

        The next seat's turn still goes through ``turn`` unless everyone plays
        every trick (``PlayTurns.all_active``).
        """
        if self.up and not hand_left & self.trump_mask:
            active &= ~(1 << seat)
        nxt = (seat + 1) % self.players
        return (CLOSE if nxt == leader else nxt), active

    def next_leader(self, hands: list[int], active: int, winner: int, all_active: bool) -> tuple[int, int]:
        """(leader of the next trick or ``END``, active) once ``winner`` took a trick."""
        if self.up:
            active = self.drop_up(hands, active)
        if self.play_over(hands, active):
            return END, active
        # everyone still holds cards when all play every trick: the winner leads
        return (winner if all_active else self.next_active(hands, active, winner)), active


@lru_cache(maxsize=512)
def _turn_order(players: int, ot: OutOfTrumps, trump_mask: int) -> TurnOrder:
    return TurnOrder(
        players,
        trump_mask,
        -1 if ot == OutOfTrumps.CONTINUE else trump_mask,
        ot == OutOfTrumps.COLD_ON_TURN,
        ot == OutOfTrumps.OUT_ON_TRUMP_LEAD,
        ot == OutOfTrumps.UP,
        _DROP_STATUS[ot],
    )


def all_play_every_trick(rules: Ruleset, status: Sequence[int]) -> bool:
    """Whether every seat plays every trick: play continues without trumps and nobody folded."""
    return rules.out_of_trumps == OutOfTrumps.CONTINUE and all(s == _ACTIVE for s in status)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: pickles and copies (its __new__ runs no __init__)
class Trick:
    """One trick: its leader (who closes it), the plays so far and, once closed, the winner.

    A plain class, not a dataclass: compiled, a dataclass's ``__init__`` is the Python code
    ``dataclasses`` writes, and a trick is made six times a hand.
    """

    __slots__ = ("leader", "plays", "winner")

    def __init__(self, leader: int, plays: list[tuple[int, int]], winner: int = -1) -> None:
        self.leader = leader
        self.plays = plays  # (seat, play action)
        self.winner = winner

    def __repr__(self) -> str:
        return f"Trick(leader={self.leader}, plays={self.plays}, winner={self.winner})"


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: players/play_machine.py subclasses it
class PlayTurns:
    """A hand's card play over card masks, driven by ``TurnOrder``: ``GameState`` and ``PlayMachine``.

    Subclasses hold the attributes below and say what ending the play means
    (``_end_play``); ``_lay_down`` is where a seat drops out (the engine also
    records the cards it shows). The attributes are the subclasses' own (slots
    in ``GameState``, instance attributes in ``PlayMachine``): this class has no
    ``__slots__`` of its own, as mypy rejects assignments to names an empty
    ``__slots__`` does not list.
    """

    _rules: Ruleset
    _tt: TrumpTables | None
    _order: TurnOrder
    _hands: list[int]
    _status: list[Status]
    #: the seats still playing, as a bit mask (``status`` is ACTIVE)
    _active: int
    #: cards in a normal hand at the first lead (``play.normal_hand_size``): more make a stack
    _normal_hand_size: int
    _first_lead_pending: bool
    _all_active: bool
    _tricks: list[Trick]
    _trick: Trick | None
    _led: int  # effective suit of the current trick's lead, -1 before the lead
    _best_seat: int  # the seat winning the current trick so far
    _best_key: int
    _current_player: int

    @property
    def current_player(self) -> int:
        """The seat to decide now (-1 once a game is over)."""
        return self._current_player

    def _play_position(
        self, trump: int, bidder: int, credits: tuple[int, ...], credited: int, low_dealt_to: int
    ) -> PlayPosition:
        """The position at the current turn, with the facts the turn order does not hold."""
        trick = self._trick
        assert trick is not None
        return PlayPosition(
            rules=self._rules,
            trump=trump,
            bidder=bidder,
            hands=tuple(self._hands),
            statuses=tuple(int(s) for s in self._status),
            tricks=tuple((t.winner, tuple(t.plays)) for t in self._tricks),
            leader=trick.leader,
            plays=tuple(trick.plays),
            to_move=self._current_player,
            first_lead_pending=self._first_lead_pending,
            credits=credits,
            credited=credited,
            low_dealt_to=low_dealt_to,
            normal_hand_size=self._normal_hand_size,
        )

    def _start_turns(self, bidder: int) -> None:
        """The first lead: who is up already, who leads."""
        tt = self._tt
        assert tt is not None
        self._order = order = TurnOrder.of(self._rules, tt.trump_mask)
        self._first_lead_pending = self._rules.first_lead_trump
        active = 0
        for s, st in enumerate(self._status):
            if st == _ACTIVE:
                active |= 1 << s
        self._active = active
        leader, active = order.start(self._hands, active, bidder)
        self._drop(active)
        self._all_active = all_play_every_trick(self._rules, self._status)
        self._trick = Trick(leader, [])
        self._led = -1
        self._current_player = leader

    def _drop(self, active: int) -> None:
        """Lay down the seats that left ``self._active`` for ``active``."""
        gone = self._active & ~active
        if gone:
            self._active = active
            status = self._order.drop_status
            for s in range(self._order.players):
                if gone >> s & 1:
                    self._lay_down(s, status)

    def _lay_down(self, seat: int, status: Status) -> None:
        self._status[seat] = status

    @abstractmethod
    def _end_play(self) -> None:
        """The card play is over (the engine scores the hand, the sampler stops): each subclass's own
        (marked abstract for mypy, which then refuses a subclass without it; no ABC metaclass, which
        would slow every ``isinstance`` on a state)."""

    def _prepare_play_turn(self) -> bool:
        """Move on to the next seat that must play (True), or end the play (False)."""
        trick = self._trick
        assert trick is not None
        order = self._order
        while True:
            seat, leader, active = order.turn(
                self._hands, self._active, trick.leader, len(trick.plays), self._current_player, self._led
            )
            if active != self._active:
                self._drop(active)
            if seat >= 0:
                trick.leader = leader
                self._current_player = seat
                return True
            if seat == END or not self._close_trick():
                self._end_play()
                return False
            trick = self._trick
            assert trick is not None

    def _legal_plays(self, seat: int) -> tuple[int, ...]:
        """``seat``'s legal plays, as a tuple: the engine hands them out (``GameState.legal``)."""
        tt = self._tt
        assert tt is not None
        hand = self._hands[seat]
        if self._tricks:  # the common case (``turn_plays`` after the first trick), without a detour
            return tuple(single_plays(legal_play_mask(tt, hand, self._led, False)))
        flp = self._first_lead_pending
        return tuple(turn_plays(self._rules, tt, hand, self._led, True, flp, self._normal_hand_size))

    def _apply_play(self, seat: int, action: int) -> None:
        """``seat`` plays ``action`` (legal): the trick's winner so far and the turn move on.

        The next seat's turn is prepared by ``_prepare_play_turn`` unless all play every trick.
        """
        tt = self._tt
        trick = self._trick
        assert trick is not None and tt is not None
        cards = action & CARD_BITS
        hand = self._hands[seat] & ~cards
        self._hands[seat] = hand
        top = ((action >> TOP_SHIFT) & 0xFF) - 1
        if top < 0:
            top = cards.bit_length() - 1
        strength = tt.strength[top]
        if not trick.plays:
            self._first_lead_pending = False
            self._led = effective_suit(top, tt.trump_mask)
            self._best_seat = seat
            self._best_key = 1000 + strength if strength else card_key(tt, self._led, top, True)
        else:
            # a trump's key is 1000 + its strength (``card_key``), the common case inlined
            key = 1000 + strength if strength else card_key(tt, self._led, top, False)
            if key > self._best_key:
                self._best_key = key
                self._best_seat = seat
        trick.plays.append((seat, action))
        nxt, active = self._order.after_play(hand, self._active, trick.leader, seat)
        if active != self._active:
            self._drop(active)
        if nxt >= 0:
            self._current_player = nxt
        elif not self._close_trick():
            self._end_play()

    def _close_trick(self) -> bool:
        """Close the complete current trick and set up the next; False if the play is over."""
        trick = self._trick
        assert trick is not None
        trick.winner = self._best_seat  # kept up to date by each play (play.card_key)
        self._tricks.append(trick)
        leader, active = self._order.next_leader(self._hands, self._active, trick.winner, self._all_active)
        if active != self._active:
            self._drop(active)
        if leader == END:
            return False
        self._trick = Trick(leader, [])
        self._led = -1
        self._current_player = leader
        return True
