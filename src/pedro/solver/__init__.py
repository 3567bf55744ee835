"""Exact perfect-information solving of the card play (see ``pedro.solver.search``)."""

from pedro.solver.search import Solver, SolveResult, solve

__all__ = ["SolveResult", "Solver", "solve"]
