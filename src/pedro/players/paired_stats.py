"""Paired comparisons over the same sampled deals: how far one choice leads another, in standard
errors of their deal-by-deal difference (the expert's calls and exchange choices are made so)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def paired_lead(first: Sequence[float], second: Sequence[float]) -> float:
    """How many standard errors ``first`` leads ``second`` by, deal by deal (infinite without
    per-deal values or spread)."""
    mean, error = paired_difference(first, second)
    return mean / error if error > 0 else math.inf


def paired_difference(first: Sequence[float], second: Sequence[float]) -> tuple[float, float]:
    """The mean of ``first`` less ``second``, deal by deal, and its standard error (0, 0 without
    per-deal values)."""
    if not first or len(first) != len(second):
        return 0.0, 0.0
    diffs = [a - b for a, b in zip(first, second, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


__all__ = ["paired_difference", "paired_lead"]
