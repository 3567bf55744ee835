"""The garbage collector set for a long-running server.

What is alive once the tables are loaded (imported modules, rules tables,
the rooms) lives as long as the process, yet the cyclic collector walked it
again at every collection of the oldest generation: pauses of about 100 ms
with every table stopped, which made most of the load benchmark's 99th
percentile. ``gc.freeze`` puts it out of the collector's sight. Young
collections are also made rarer: every action allocates many short-lived
containers, nearly all freed at once by reference counting.
"""

from __future__ import annotations

import gc

#: Young-generation allocations between collections, and the older generations' ratios.
_THRESHOLDS = (10_000, 20, 20)


def settle() -> tuple[int, int, int]:
    """Collect once, freeze what survives, raise the thresholds; returns the thresholds it replaced."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*_THRESHOLDS)
    return previous


def unsettle(previous: tuple[int, int, int]) -> None:
    """Undo ``settle`` (an app stopped inside a longer process, as in tests)."""
    gc.set_threshold(*previous)
    gc.unfreeze()
