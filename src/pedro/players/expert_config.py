"""What can be set of the ``expert``: one frozen record, its defaults the shipped player's.

A setting not here is not a setting: the expert's constants (how many deals
buy a clear call, how far a challenger must lead the rule's exchange choice)
are in the modules of the parts that use them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.players.bidding import SAMPLES

#: Worlds per decision of the default ``expert``, and its cap on solves per decision (chosen by
#: the decision-time targets: median 50-90 ms, 99th percentile under 1 s): a play
#: with many distinct choices (the stacks of a first trick) is valued on fewer worlds, not
#: fewer than ``card_search.MIN_WORLDS``, which keeps the slowest decisions near the typical ones.
DEFAULT_SAMPLES = 120
DEFAULT_MAX_SOLVES = 720
#: The default ``expert``'s cap on the solver's nodes per decision: about half a second of solving
#: on one core (docs/players.md, "Decision time").
DEFAULT_MAX_NODES = 3_000_000
#: Bounds of the ``expert:N`` setting.
MAX_SAMPLES = 1000


@dataclass(frozen=True)
class ExpertConfig:
    """The expert's settings; the defaults are the shipped ``expert``, and ``fixed(N)`` is
    ``expert:N``."""

    #: Worlds sampled and solved per card play (1 to ``MAX_SAMPLES``).
    samples: int = DEFAULT_SAMPLES
    #: Solves per card play at most (worlds × distinct plays): a play with many distinct choices is
    #: valued on fewer worlds, never fewer than ``card_search.MIN_WORLDS``. None: no cap.
    max_solves: int | None = DEFAULT_MAX_SOLVES
    #: The solver's nodes after which a card play values no new world (still after
    #: ``card_search.MIN_WORLDS``): a few first leads of cinch and 83 search ten times the usual,
    #: and the cap keeps them within the decision-time target on any machine alike. None: no cap.
    max_nodes: int | None = DEFAULT_MAX_NODES
    #: Weigh the worlds by how likely the other side's plays were in them
    #: (``inference.PlayModel``); off only to measure what reading the play is worth.
    read_play: bool = True
    #: Sampled deals a call is first valued on, and an exchange decision is simulated on
    #: (``heuristic``'s: more deals follow while the expert's best call is unclear).
    deals: int = SAMPLES

    def __post_init__(self) -> None:
        if not 1 <= self.samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be from 1 to {MAX_SAMPLES}, got {self.samples}")

    @classmethod
    def fixed(cls, samples: int) -> ExpertConfig:
        """``expert:N``: ``samples`` worlds for every card play, without the caps on solves and nodes."""
        return cls(samples=samples, max_solves=None, max_nodes=None)


__all__ = ["DEFAULT_MAX_NODES", "DEFAULT_MAX_SOLVES", "DEFAULT_SAMPLES", "MAX_SAMPLES", "ExpertConfig"]
