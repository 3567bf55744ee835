"""One player against a field of another: where everyone plays alone, is A worth a seat more than B?

The duplicate tournament (``pedro tournament``) seats A and B in alternate seats, so in a
four-player individual game two A seats sit against two B seats, and each A counts the
other A as an opponent while the tournament adds their scores. This asks the question a
player at a real table asks: with three B players around, how much better does the seat
do with A in it than with B?

Each deal is played once with B in every seat and once with A in each seat in turn (B in
the others). For each seat, A's worth there is the seat's relative score change (its change
less the mean of the others', the game's own measure, ``tournament.duplicate.relative_change``)
with A in it less the same with B in it: the same cards, the same seat, only its player
differs. A deal's figure is the mean over the seats; the figures are averaged over deals
with a 95% interval.

    python benchmarks/one_against_field.py --variant pedro_sancho --players expert,heuristic --deals 100
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import dataclass

from pedro.tournament.duplicate import relative_change
from pedro.tournament.runner import play_hands, ruleset
from pedro.tournament.stats import estimate


@dataclass(frozen=True)
class SeatResult:
    """One seat of one deal, played by A and by B (with B in every other seat)."""

    change: float  # relative score change with A in the seat, less with B
    points: float  # the seat's points with A, less with B
    bid_a: bool  # whether the seat won the auction with A in it
    made_a: bool
    bid_b: bool
    made_b: bool


def play_deal(job: tuple[str, str, str, int]) -> list[SeatResult]:
    variant, a, b, seed = job
    rules = ruleset(variant, {})
    n = rules.players
    if rules.num_sides != n:
        raise SystemExit(f"{variant} is played in partnerships: use pedro tournament")
    base = play_hands(rules, [b] * n, seed, max_hands=1).results[0]
    out = []
    for seat in range(n):
        names = [b] * n
        names[seat] = a
        with_a = play_hands(rules, names, seed, max_hands=1).results[0]
        out.append(
            SeatResult(
                change=relative_change(with_a.change, seat) - relative_change(base.change, seat),
                points=with_a.points[seat] - base.points[seat],
                bid_a=with_a.bidder == seat,
                made_a=with_a.bidder == seat and bool(with_a.made),
                bid_b=base.bidder == seat,
                made_b=base.bidder == seat and bool(base.made),
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="pedro_sancho")
    parser.add_argument("--players", default="expert,heuristic", help="A,B")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    a, b = args.players.split(",")
    jobs = [(args.variant, a, b, args.seed + i) for i in range(args.deals)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        deals = pool.map(play_deal, jobs, chunksize=1)
    seats = [s for deal in deals for s in deal]
    change = estimate([sum(s.change for s in deal) / len(deal) for deal in deals])
    points = estimate([sum(s.points for s in deal) / len(deal) for deal in deals])
    print(f"{args.variant}: {a} in one seat against {b} in the others, {args.deals} deals", end="")
    print(f" (seeds {args.seed} on)")
    print(f"| what, per seat and deal | {a} − {b} (95% CI) |")
    print("|---|---|")
    for name, e in (("relative score change", change), ("points", points)):
        print(f"| {name} | {e.mean:+.3f} ({e.low:+.3f} to {e.high:+.3f}) |")
    for who, bid, made in ((a, "bid_a", "made_a"), (b, "bid_b", "made_b")):
        held = sum(getattr(s, bid) for s in seats)
        won = sum(getattr(s, made) for s in seats)
        share = f"{won / held:.0%}" if held else "-"
        print(f"| {who} in the seat: auctions won | {held} of {len(seats)}, {won} made ({share}) |")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
