"""``solve``: the compiled search when it handles the position, the Python search otherwise.

The compiled search needs numpy; where it is missing (Python compiled to WebAssembly in a browser)
the players still import and every position is solved by the Python search."""

from __future__ import annotations

from types import ModuleType
from typing import Literal

from pedro.engine.play_position import PlayPosition
from pedro.solver.search import Solver, SolveResult

fast: ModuleType | None
try:
    from pedro.solver import fast
except ImportError:  # no numpy (Python in a browser): the Python search solves every position
    fast = None

Engine = Literal["auto", "kernel", "python"]


def solve(position: PlayPosition, engine: Engine = "auto", same_deal: bool = False) -> SolveResult:
    """The best points the bidder's side can take from a play position, and the best plays.

    ``position`` is a ``PlayPosition``: ``GameState.play_position()``, or a sampled world's.
    ``engine``: ``auto`` uses the compiled kernel where it applies
    (``pedro.solver.fast.supports``) and the Python search otherwise;
    ``python`` forces the reference search; ``kernel`` insists on the kernel.
    ``same_deal`` lets the kernel keep what it learned from the previous solve of
    this thread, which must have been of a position that ``position`` follows from
    (``pedro.solver.fast.solve_kernel``).
    """
    pos = position
    if engine == "python" or (engine == "auto" and (fast is None or not fast.supports(pos))):
        return Solver(pos).solve()
    if fast is None:
        raise RuntimeError("the compiled solver needs numpy, which is not installed here")
    result: SolveResult = fast.solve_kernel(pos, same_deal)
    return result
