"""Means with normal-approximation 95% confidence intervals, whole and running.

The interval is ``mean ± 1.96·sd/√n`` with the sample standard deviation
(``n - 1`` in the denominator); with fewer than two values there is no
interval and its ends are ``None``.

>>> e = estimate([1.0, 2.0, 3.0])
>>> e.mean, e.sd
(2.0, 1.0)
>>> round(e.low, 4), round(e.high, 4)
(0.8684, 3.1316)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The two-sided 95% normal quantile.
Z95 = 1.96


@dataclass(frozen=True)
class Estimate:
    """A mean of ``n`` values with its 95% confidence interval (``None`` ends when ``n < 2``)."""

    n: int
    mean: float
    sd: float | None
    low: float | None
    high: float | None

    @property
    def half_width(self) -> float | None:
        return None if self.sd is None else Z95 * self.sd / math.sqrt(self.n)

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the interval (a missing interval contains nothing)."""
        return self.low is not None and self.high is not None and self.low <= value <= self.high

    def to_json(self) -> dict[str, float | int | list[float | None] | None]:
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "ci95": [self.low, self.high]}


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its 95% confidence interval."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to estimate from")
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(n, mean, None, None, None)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Estimate(n, mean, sd, mean - half, mean + half)


def running(values: Sequence[float]) -> list[tuple[float, float | None]]:
    """After each value, the mean so far and the 95% half-width (``None`` after the first).

    Welford's update, so a long run costs one pass:

    >>> [(m, h if h is None else round(h, 6)) for m, h in running([1.0, 3.0])]
    [(1.0, None), (2.0, 1.96)]
    """
    out: list[tuple[float, float | None]] = []
    mean = 0.0
    m2 = 0.0
    for k, v in enumerate(values, start=1):
        delta = v - mean
        mean += delta / k
        m2 += delta * (v - mean)
        half = Z95 * math.sqrt(m2 / (k - 1)) / math.sqrt(k) if k > 1 else None
        out.append((mean, half))
    return out
