"""``solve``: the compiled search when it handles the position, the Python search otherwise."""

from __future__ import annotations

from typing import Literal

from pedro.engine.play_position import PlayPosition
from pedro.solver.fast import solve_kernel, supports
from pedro.solver.search import Solver, SolveResult

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
    if engine == "python" or (engine == "auto" and not supports(pos)):
        return Solver(pos).solve()
    return solve_kernel(pos, same_deal)
