"""A table's turn clock: how long the human seat to act has left, and which seats it counts as away.

A table may be made with a clock (``TableRow.clock``: seconds per decision). The clock of a decision
starts when the decision does: when the previous action was committed (its stored ``created_at``),
or when play started (every seat taken, or the table read again without an action yet). A hand's
first decision gets ``hand_pause`` more, the time the page shows the finished hand's result. So
the deadline follows from what is stored, and holds across a restart and from one server process
to another with nothing more to keep in step; a clock is told in seconds left when a message is
sent (``clock_left``), which a client's clock skew cannot bend.

When the clock runs out, the table's stand-in makes that one decision, stored as a stand-in's and
marked ``timed_out``. After ``AWAY_AFTER`` timed-out decisions of a seat in a row the seat counts as
away: the stand-in plays it at once until its player acts again or says it is back. Which seats
are away is read from the stored marks too (the seat's decisions since it last made one itself),
except an "I'm back" that no decision has followed yet, which a restart forgets.

The room says when the clock runs (``Room.clock_runs``: the game started and not over, a human seat
to act, not played by a stand-in); this module keeps the times and counts, no I/O, no event loop.
"""

from __future__ import annotations

#: Timed-out decisions of a seat in a row after which it counts as away.
AWAY_AFTER = 2


class TurnClock:
    """One table's clock: when the current decision began, and each seat's timed-out run."""

    def __init__(self, seconds: float | None, hand_pause: float, began: float) -> None:
        #: seconds per decision; None: the table has no clock
        self.seconds = seconds
        self.hand_pause = hand_pause
        #: wall-clock time (``time.time``) the current decision began
        self.began = began
        #: seconds added to the current decision: the pause after a hand, for a hand's first decision
        self.pause = 0.0
        #: per seat, its latest decisions that a timed-out clock made, in a row (see ``decided``)
        self._runs: dict[int, int] = {}

    def restored(self, seats: list[int], stand_ins: set[int], timed_out: set[int]) -> None:
        """Each seat's run as the stored actions leave it: ``seats`` is the seat of each action."""
        for seq, seat in enumerate(seats):
            self._count(seat, seq in stand_ins, seq in timed_out)

    def decided(self, seat: int, stand_in: bool, timed_out: bool, at: float, new_hand: bool) -> None:
        """An action was committed at ``at``: the next decision's clock starts (after the hand's
        result's pause if the action ended a hand)."""
        self._count(seat, stand_in, timed_out)
        self.began = at
        self.pause = self.hand_pause if new_hand else 0.0

    def _count(self, seat: int, stand_in: bool, timed_out: bool) -> None:
        """A player's own decision ends its run; a stand-in's for an away player leaves it as it is."""
        if timed_out:
            self._runs[seat] = self._runs.get(seat, 0) + 1
        elif not stand_in:
            self._runs.pop(seat, None)

    def away(self, seat: int) -> bool:
        """The seat's clock ran out ``AWAY_AFTER`` times in a row, and its player has not come back."""
        return self._runs.get(seat, 0) >= AWAY_AFTER

    def back(self, seat: int, to_act: bool, now: float) -> None:
        """The seat's player says it is back: no longer away, and a fresh clock if it is to act."""
        self._runs.pop(seat, None)
        if to_act:
            self.restart(now)

    def restart(self, now: float) -> None:
        """The current decision's clock starts now (play has just begun)."""
        self.began = now
        self.pause = 0.0

    def left(self, now: float) -> float:
        """Seconds left for the current decision (negative once it has run out); the table has a clock."""
        assert self.seconds is not None
        return self.began + self.pause + self.seconds - now
