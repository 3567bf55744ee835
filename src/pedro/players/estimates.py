"""What a player thinks each legal choice of a decision is worth: shown by hints and by ``pedro analyze``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: ``Estimates.unit`` of card plays: the points the seat's side is expected to take in the hand.
POINTS = "points"
#: ``Estimates.unit`` of calls: the expected change of the side's score less the opponents'.
SCORE = "score"


@dataclass(frozen=True)
class Estimates:
    """The value of each legal choice of one decision, in ``unit`` (``POINTS`` or ``SCORE``)."""

    unit: str
    values: Mapping[int, float]

    def best(self) -> float:
        return max(self.values.values())

    def ranked(self) -> list[tuple[int, float]]:
        """The choices, best first (ties in action order, so the listing is stable)."""
        return sorted(self.values.items(), key=lambda item: (-item[1], item[0]))
