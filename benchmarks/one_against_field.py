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

``--also A2`` seats a second candidate the same way on the same deals, and prints A2 − B
and A2 − A deal by deal (paired: the field's games are the same, so the interval is the
narrow one of the difference): the way to test a setting of A.

    python benchmarks/one_against_field.py --variant petro_russian --players expert,heuristic \
        --also expert:bid=heuristic --deals 200
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


def play_deal(job: tuple[str, tuple[str, ...], str, int]) -> list[list[SeatResult]]:
    """Per candidate, each seat's result with the candidate in it and ``b`` in the others."""
    variant, candidates, b, seed = job
    rules = ruleset(variant, {})
    n = rules.players
    if rules.num_sides != n:
        raise SystemExit(f"{variant} is played in partnerships: use pedro tournament")
    base = play_hands(rules, [b] * n, seed, max_hands=1).results[0]
    out = []
    for a in candidates:
        seats = []
        for seat in range(n):
            names = [b] * n
            names[seat] = a
            with_a = play_hands(rules, names, seed, max_hands=1).results[0]
            seats.append(
                SeatResult(
                    change=relative_change(with_a.change, seat) - relative_change(base.change, seat),
                    points=with_a.points[seat] - base.points[seat],
                    bid_a=with_a.bidder == seat,
                    made_a=with_a.bidder == seat and bool(with_a.made),
                    bid_b=base.bidder == seat,
                    made_b=base.bidder == seat and bool(base.made),
                )
            )
        out.append(seats)
    return out


#: The figures of a seat: ``SeatResult`` attribute and its name in the table.
MEASURES = (("change", "relative score change"), ("points", "points"))


def mean_of(deals: list[list[SeatResult]], what: str) -> list[float]:
    """Each deal's mean over its seats of ``what`` (``change`` or ``points``)."""
    return [sum(getattr(s, what) for s in deal) / len(deal) for deal in deals]


def print_rows(rows: list[tuple[str, list[float]]]) -> None:
    for name, values in rows:
        e = estimate(values)
        print(f"| {name} | {e.mean:+.3f} ({e.low:+.3f} to {e.high:+.3f}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="pedro_sancho")
    parser.add_argument("--players", default="expert,heuristic", help="A,B")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--also", help="a second candidate for the seat, compared with A deal by deal")
    args = parser.parse_args()
    a, b = args.players.split(",")
    candidates = (a,) if args.also is None else (a, args.also)
    jobs = [(args.variant, candidates, b, args.seed + i) for i in range(args.deals)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        played = pool.map(play_deal, jobs, chunksize=1)
    for k, who in enumerate(candidates):
        deals = [deal[k] for deal in played]
        seats = [s for deal in deals for s in deal]
        print(f"{args.variant}: {who} in one seat against {b} in the others, {args.deals} deals", end="")
        print(f" (seeds {args.seed} on)")
        print(f"| what, per seat and deal | {who} − {b} (95% CI) |")
        print("|---|---|")
        print_rows([(label, mean_of(deals, what)) for what, label in MEASURES])
        for name, bid, made in ((who, "bid_a", "made_a"), (b, "bid_b", "made_b")):
            held = sum(getattr(s, bid) for s in seats)
            won = sum(getattr(s, made) for s in seats)
            share = f"{won / held:.0%}" if held else "-"
            print(f"| {name} in the seat: auctions won | {held} of {len(seats)}, {won} made ({share}) |")
    if args.also is not None:
        first, second = [deal[0] for deal in played], [deal[1] for deal in played]
        print(f"| {args.also} − {a}, deal by deal | |")
        for what, label in MEASURES:
            diffs = [y - x for x, y in zip(mean_of(first, what), mean_of(second, what), strict=True)]
            print_rows([(label, diffs)])
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
