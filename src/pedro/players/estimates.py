"""What a player thinks each legal choice of a decision is worth: shown by hints and by ``pedro analyze``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pedro.i18n import N_

#: ``Estimates.unit`` of card plays: the points the seat's side is expected to take in the hand.
POINTS = "points"
#: ``Estimates.unit`` of calls: the expected change of the side's score less the opponents'.
SCORE = "score"

# The note's templates: English, filled with str.format (a bot or a record reads them as they
# are); a terminal shows them through ``i18n.translate``, which translates the ``why`` too.
NONE_VALUED = N_("no choice valued")
NONE_VALUED_WHY = N_("no choice valued: {why}")
SOME_VALUED = N_("{valued} of {legal} choices valued: {why}")


@dataclass(frozen=True)
class Estimates:
    """The value of each legal choice of one decision, in ``unit`` (``POINTS`` or ``SCORE``).

    ``legal`` is how many legal choices the decision had (0: as many as were valued). Where
    fewer were valued, ``why`` says why the others were not: a reader must never take the
    best of the valued choices for the best of all of them.
    """

    unit: str
    values: Mapping[int, float]
    legal: int = 0
    why: str = ""

    @property
    def unvalued(self) -> int:
        """How many legal choices have no value."""
        return max(0, self.legal - len(self.values))

    @property
    def complete(self) -> bool:
        """Every legal choice is valued."""
        return self.unvalued == 0

    @property
    def comparable(self) -> bool:
        """At least two choices are valued: only then can one be called better than another."""
        return len(self.values) >= 2

    def best(self) -> float:
        return max(self.values.values())

    def ranked(self) -> list[tuple[int, float]]:
        """The choices, best first (ties in action order, so the listing is stable)."""
        return sorted(self.values.items(), key=lambda item: (-item[1], item[0]))

    def note(self) -> str:
        """A plain sentence on the choices left without a value ('' when every one is valued)."""
        if self.complete:
            return ""
        if not self.values:
            return NONE_VALUED_WHY.format(why=self.why) if self.why else NONE_VALUED
        return SOME_VALUED.format(valued=len(self.values), legal=self.legal, why=self.why)
