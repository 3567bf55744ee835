"""Duplicate tournaments between two computer players: runner, statistics and report."""

from __future__ import annotations

from pedro.tournament.runner import (
    Backend,
    DealResult,
    GameResult,
    LocalBackend,
    PlayRecord,
    TournamentError,
    TournamentResults,
    play_duplicate_deal,
    play_duplicate_game,
    run_tournament,
)
from pedro.tournament.stats import Estimate, estimate, running

__all__ = [
    "Backend",
    "DealResult",
    "Estimate",
    "GameResult",
    "LocalBackend",
    "PlayRecord",
    "TournamentError",
    "TournamentResults",
    "estimate",
    "play_duplicate_deal",
    "play_duplicate_game",
    "run_tournament",
    "running",
]
