"""Two tournament runs of the same deals compared deal by deal: what a change of player did.

Players are seeded by deal and seat, so where a change of player (a setting,
a commit) alters no decision on a deal, that deal comes out the same in both
runs, and the difference of A's lead over B, deal by deal, measures the change
with far less noise than the two runs' own intervals:

    python benchmarks/paired.py 'old-results/parts/pidro-*.json' 'new-results/parts/pidro-*.json'

Each argument is a result file of ``pedro tournament`` (or ``strength.py``), a
folder of them, or a glob; deals are matched by their seed, and only deals in
both count. It prints, for score change and points per deal, the mean of (new
lead − old lead) with its 95% interval, and how many deals changed at all.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964


def files_of(spec: str) -> list[Path]:
    """The result files a command-line argument names: a file, a folder's ``*.json``, or a glob."""
    path = Path(spec)
    if path.is_dir():
        return sorted(path.glob("*.json"))
    if path.is_file():
        return [path]
    return sorted(Path(p) for p in glob.glob(spec))


def deals_by_seed(paths: Sequence[Path]) -> dict[int, Mapping[str, Any]]:
    """Every deal of the files, by its seed (a seed in two files must be the same deal twice)."""
    found: dict[int, Mapping[str, Any]] = {}
    for path in paths:
        for deal in json.loads(path.read_text())["deals"]:
            found[deal["seed"]] = deal
    return found


def lead(deal: Mapping[str, Any], measure: str) -> float:
    """A's lead over B on one deal, in ``change`` or ``points``, both seatings averaged."""
    return float(deal[measure]["A"] - deal[measure]["B"])


def outcomes(deal: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What each play of a deal gave, without the names of the players seated (a setting in a
    player's name, ``expert:bid=heuristic``, changes the name on every deal, not the play)."""
    return [{key: value for key, value in play.items() if key != "seats"} for play in deal["plays"]]


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal: the runs compared have hundreds of deals)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def compare(old: Mapping[int, Mapping[str, Any]], new: Mapping[int, Mapping[str, Any]]) -> list[str]:
    """The report's lines: per measure, the mean change of A's lead with its interval."""
    seeds = sorted(set(old) & set(new))
    if not seeds:
        return ["no deal is in both runs (deals are matched by their seed)"]
    changed = sum(1 for s in seeds if outcomes(old[s]) != outcomes(new[s]))
    lines = [f"{len(seeds)} deals in both runs (seeds {seeds[0]} to {seeds[-1]}), {changed} changed"]
    for measure, label in (("change", "score change"), ("points", "points")):
        diffs = [lead(new[s], measure) - lead(old[s], measure) for s in seeds]
        mean, low, high = mean_interval(diffs)
        lines.append(f"{label} per deal, new lead less old: {mean:+.3f} ({low:+.3f} to {high:+.3f})")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", help="the first run: a result file, a folder of them, or a glob")
    parser.add_argument("new", help="the second run, the same way")
    args = parser.parse_args(argv)
    runs = []
    for spec in (args.old, args.new):
        paths = files_of(spec)
        if not paths:
            print(f"no result file matches {spec!r}", file=sys.stderr)
            return 2
        runs.append(deals_by_seed(paths))
    print("\n".join(compare(*runs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
