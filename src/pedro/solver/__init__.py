"""Exact perfect-information solving of the card play.

``solve`` takes a ``PlayPosition`` (or a ``GameState``); the search itself is
``pedro.solver.kernel`` (compiled) or ``pedro.solver.search`` (plain Python).
"""

from pedro.solver.dispatch import solve
from pedro.solver.position import PlayPosition
from pedro.solver.search import Solver, SolveResult

__all__ = ["PlayPosition", "SolveResult", "Solver", "solve"]
