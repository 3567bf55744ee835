"""The strength figures of ``docs/strength.md``: duplicate-deal tournaments between computer players.

Runs ``pedro tournament`` for each pair in each variant, in parts of
``--part`` deals (deal ``i`` of seed ``S`` is the deal of seed ``S + i`` in any
run, so the parts joined are the whole run, deal for deal); a part or a run
whose file already exists is skipped, so an interrupted run resumes where it
stopped. Several processes may run the same command at once (one per core): each
part is claimed by a ``.playing`` file that names the process playing it, the others
skip it, and the last to finish joins the parts; a claim whose process is gone is
taken over. Then it prints one table row per run: A − B in points and in score change
per deal with 95% intervals, and each player's bids made and set.

    python benchmarks/strength.py --deals 2000 --jobs 2 --out strength-results
    python benchmarks/strength.py --pairs expert,heuristic --variants cinch --deals 300

``--report`` only prints the tables of the files already there. The second
table is the share of the heuristic→omniscient gap that the expert's card
play recovers (see ``recovered``; the expert there is
``expert:bid=heuristic:exchange=heuristic``, its card play alone); the third, for
runs of the bidding pair (``expert`` − ``expert:bid=heuristic``, or a setting of the
expert's own calls against the same ``expert:bid=heuristic``), each player's
contracts made and the points its side took per contract it held (see
``contracts``), then the same by band of bids (``contracts_by_bid``).
``benchmarks/paired.py`` compares two runs of the same deals
deal by deal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pedro.tournament.report import merge, write_json
from pedro.variants.options import make_ruleset

VARIANTS = ("cinch", "pidro", "king_pedro_canadian", "eighty_three")
#: The pairs whose ratio measures the expert's card play: calls, trumps and exchange are heuristic's
#: on every side (``omniscient`` takes them from heuristic; the expert is told to).
CARD_PLAY_EXPERT = "expert:bid=heuristic:exchange=heuristic"
CARD_PLAY_PAIRS = (f"{CARD_PLAY_EXPERT},heuristic", "omniscient,heuristic")
#: The pairs that measure the expert's own calls and its own exchange: the same card play on both
#: sides, heuristic's calls (or exchange) on side B.
BIDDING_PAIR = "expert,expert:bid=heuristic"
EXCHANGE_PAIR = "expert,expert:exchange=heuristic"
PAIRS = ("heuristic,basic", *CARD_PLAY_PAIRS, BIDDING_PAIR, EXCHANGE_PAIR)


def result_path(out: Path, variant: str, pair: str, deals: int, seed: int) -> Path:
    name = pair.replace(",", "-vs-").replace(":", "-").replace("=", "-")
    return out / f"{variant}-{name}-{deals}-s{seed}.json"


def run(variant: str, pair: str, deals: int, seed: int, jobs: int, path: Path) -> float:
    command = [
        sys.executable, "-m", "pedro.cli.main", "tournament", "--variant", variant, "--players", pair,
        "--deals", str(deals), "--seed", str(seed), "--jobs", str(jobs), "--out", str(path),
    ]  # fmt: skip
    print("$ pedro " + " ".join(command[3:]), flush=True)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def claim(part: Path) -> bool:
    """Claim ``part`` for this process; False when a living process has claimed it."""
    marker = part.with_suffix(".playing")
    try:
        with marker.open("x") as file:
            file.write(str(os.getpid()))
        return True
    except FileExistsError:
        try:
            os.kill(int(marker.read_text() or 0), 0)
            return False
        except (ProcessLookupError, ValueError):
            marker.write_text(str(os.getpid()))  # its process is gone: take the part over
            return True


def play_in_parts(variant: str, pair: str, args: argparse.Namespace, path: Path) -> None:
    """Play the run's parts of ``args.part`` deals not yet played or claimed, then join them into ``path``."""
    folder = args.out / "parts"
    folder.mkdir(exist_ok=True)
    parts = []
    for first in range(0, args.deals, args.part):
        deals = min(args.part, args.deals - first)
        part = result_path(folder, variant, pair, deals, args.seed + first)
        parts.append(part)
        if not part.exists() and claim(part):
            partial = part.with_suffix(".partial")  # renamed when whole: another process may join
            seconds = run(variant, pair, deals, args.seed + first, args.jobs, partial)
            partial.replace(part)
            part.with_suffix(".playing").unlink()
            print(f"  {seconds:.0f} s", flush=True)
    if all(part.exists() for part in parts):
        write_json(path, merge([json.loads(part.read_text()) for part in parts]))
    else:
        print(f"  {path.name}: parts still played by another process; run again when they end", flush=True)


def estimate(e: dict[str, Any]) -> str:
    low, high = e["ci95"]
    return f"{e['mean']:+.3f} ({low:+.3f} to {high:+.3f})"


def row(doc: dict[str, Any]) -> str:
    s = doc["settings"]
    summary = doc["summary"]
    diff = summary["difference"]
    bids = "; ".join(
        f"{p['name']} {p['bids_made']}/{p['bids_won']} made, avg {p['avg_bid'] or 0:.2f}"
        for p in summary["players"]
    )
    pair = f"{s['players']['A']} − {s['players']['B']}"
    return (
        f"| {s['variant']} | {pair} | {summary['deals']} | {estimate(diff['points_per_deal'])} "
        f"| {estimate(diff['change_per_deal'])} | {bids} |"
    )


def recovered(expert: dict[str, Any], omniscient: dict[str, Any], rounds: int = 2000) -> str:
    """Share of the heuristic→omniscient gap in points per deal that the expert's card play recovers.

    Both runs play the same deals against ``heuristic`` (same seed and count), with
    bidding and the exchange identical on both sides (``CARD_PLAY_EXPERT`` and omniscient
    take them from heuristic), so the deals pair up: the ratio of the mean differences,
    with a 95% interval from resampling the deals (the pairs kept together).
    """
    de = [d["points"]["A"] - d["points"]["B"] for d in expert["deals"]]
    do = [d["points"]["A"] - d["points"]["B"] for d in omniscient["deals"]]
    n = len(de)
    rng = random.Random(0)
    ratios = []
    for _ in range(rounds):
        picks = [rng.randrange(n) for _ in range(n)]
        gap = sum(do[i] for i in picks)
        if gap > 0:
            ratios.append(sum(de[i] for i in picks) / gap)
    ratios.sort()
    low, high = ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]
    point = sum(de) / sum(do)
    return (
        f"| {expert['settings']['variant']} | {n} | {sum(de) / n:+.3f} | {sum(do) / n:+.3f} "
        f"| {point:.0%} ({low:.0%} to {high:.0%}) |"
    )


def contracts(doc: dict[str, Any]) -> str:
    """Per player: contracts won, the share made, and the points of the bidder's side per contract."""
    variant = doc["settings"]["variant"]
    rules = make_ruleset(variant)
    names = doc["settings"]["players"]
    cells = []
    for label in ("A", "B"):
        held = [
            play
            for deal in doc["deals"]
            for play in deal["plays"]
            if play["bidder"] is not None and play["bid_by"] == label
        ]
        made = sum(1 for play in held if play["made"])
        points = [play["side_points"][rules.side_of(play["bidder"])] for play in held]
        mean = sum(points) / len(points) if points else 0.0
        share = made / len(held) if held else 0.0
        cells.append(f"{names[label]}: {len(held)} contracts, {share:.1%} made, {mean:.2f} points")
    return f"| {variant} | {len(doc['deals'])} | " + " | ".join(cells) + " |"


def bid_bands(rules_min: int, top: int, total_points: int) -> list[tuple[int, int]]:
    """Bands of bids for ``contracts_by_bid``: about ten across the points in play, one bid wide
    where few points are in play (pidro, cinch), wider where many are (83: eight).

    >>> bid_bands(6, 14, 14)[:3]
    [(6, 6), (7, 7), (8, 8)]
    >>> bid_bands(30, 83, 83)[:2], bid_bands(30, 83, 83)[-1]
    ([(30, 37), (38, 45)], (78, 85))
    """
    width = max(1, total_points // 10)
    return [(low, low + width - 1) for low in range(rules_min, top + 1, width)]


def contracts_by_bid(doc: dict[str, Any]) -> list[str]:
    """Table rows: per band of bids, each player's contracts held, the share made and its side's mean
    score change on them, so that a made share under a target shows at which bids it is lost (where
    a continuing auction is raised, say)."""
    rules = make_ruleset(doc["settings"]["variant"])
    names = doc["settings"]["players"]
    held = [play for deal in doc["deals"] for play in deal["plays"] if play["bidder"] is not None]
    if not held:
        return []
    top = max(play["bid"] for play in held)
    rows = []
    for low, high in bid_bands(min(rules.min_bid, *(p["bid"] for p in held)), top, rules.total_points):
        cells = []
        for label in ("A", "B"):
            band = [p for p in held if p["bid_by"] == label and low <= p["bid"] <= high]
            if not band:
                cells.append("–")
                continue
            made = sum(1 for p in band if p["made"])
            change = sum(p["side_change"][rules.side_of(p["bidder"])] for p in band) / len(band)
            cells.append(f"{len(band)}, {made / len(band):.0%} made, {change:+.1f}")
        if cells != ["–", "–"]:
            shown = f"{low}" if low == high else f"{low}–{high}"
            rows.append(f"| {shown} | " + " | ".join(cells) + " |")
    title = f"{doc['settings']['variant']}: bids ({names['A']} / {names['B']})"
    return [f"| {title} | A: contracts, made, score change | B: the same |", "|---|---|---|", *rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--pairs", nargs="+", default=list(PAIRS), help="A,B pairs")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--part", type=int, default=250, help="deals per part (a part is played at once)")
    parser.add_argument("--out", type=Path, default=Path("strength-results"))
    parser.add_argument("--report", action="store_true", help="only print the table of existing results")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    paths = []
    for pair in args.pairs:
        for variant in args.variants.split(","):
            path = result_path(args.out, variant, pair, args.deals, args.seed)
            paths.append(path)
            if not args.report and not path.exists():
                play_in_parts(variant, pair, args, path)
    print("| variant | A − B | deals | points per deal (95% CI) | score change per deal (95% CI) | bids |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        if path.exists():
            print(row(json.loads(path.read_text())))
    pairs = {
        variant: [result_path(args.out, variant, pair, args.deals, args.seed) for pair in CARD_PLAY_PAIRS]
        for variant in args.variants.split(",")
    }
    ready = {v: ps for v, ps in pairs.items() if all(p.exists() for p in ps)}
    if ready:
        print()
        print("| variant | deals | expert − heuristic | omniscient − heuristic | gap recovered (95% CI) |")
        print("|---|---|---|---|---|")
        for e, o in ready.values():
            print(recovered(json.loads(e.read_text()), json.loads(o.read_text())))
    # the bidding pair's runs, and those of a setting of the expert's calls against the same B
    bidding = [
        path
        for pair in args.pairs
        if pair.split(",")[-1] == BIDDING_PAIR.split(",")[-1]
        for variant in args.variants.split(",")
        if (path := result_path(args.out, variant, pair, args.deals, args.seed)).exists()
    ]
    if bidding:
        print()
        print("| variant | deals | A: contracts held, made, bidder's side points | B: the same |")
        print("|---|---|---|---|")
        for path in bidding:
            print(contracts(json.loads(path.read_text())))
        for path in bidding:
            print()
            print("\n".join(contracts_by_bid(json.loads(path.read_text()))))


if __name__ == "__main__":
    main()
