"""Exact perfect-information solving of the card play.

``solve`` takes a ``PlayPosition`` (``GameState.play_position()``); the search itself is
``pedro.solver.kernel`` (compiled) or ``pedro.solver.search`` (plain Python).
"""

from pedro.engine.play_position import PlayPosition
from pedro.solver.dispatch import solve
from pedro.solver.search import Solver, SolveResult

__all__ = ["PlayPosition", "SolveResult", "Solver", "solve"]
