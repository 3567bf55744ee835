"""What the expert's rule for stopping a call's deals costs and saves, on a model of the call.

    python benchmarks/clear_bound.py --calls 40000 --seed 1

The expert values a call on 20 deals, then 20 more at a time while bidding and
passing are not clearly apart and the work allows (``expert.needs_more_deals``)
(up to ``MAX_BID_SAMPLES``), and bids only if the bid then leads passing by
``BID_OVER_PASS_Z`` standard errors (``expert.bid_beats_pass``). Here a call's
per-deal "bid less pass" is drawn from a normal law whose mean (the call's true
worth) is itself drawn, for each call, from a normal law of spread 0.1 or 0.2;
both are in units of one deal's standard deviation (``--deal-sd``, 70 points
as in King Pedro (Canadian)). The real ``needs_more_deals`` and ``bid_beats_pass`` decide,
with a flat bound of ``CLEAR_Z`` at every look (the rule before ``clear_bound``)
and with ``clear_bound``. Printed per rule: the mean regret (the worth lost
against knowing each call's true worth, in points at ``--deal-sd``), the deals
used, and how often a call worth ``--wild`` points or more below passing was
bid. A model, not the game: it says what the looks do, not what a variant's
calls are worth.
"""

from __future__ import annotations

import argparse

import numpy as np

from pedro.engine.actions import PASS, bid_action
from pedro.players.bidding import CallValue
from pedro.players.expert_bidding import (
    BID_SAMPLES_STEP,
    CLEAR_Z,
    MAX_BID_SAMPLES,
    bid_beats_pass,
    needs_more_deals,
)


def decide(diffs: np.ndarray, flat: bool) -> tuple[bool, int]:
    """Whether the call is a bid, and on how many deals, for one call's per-deal differences."""
    deals = BID_SAMPLES_STEP
    while True:
        bid = CallValue(bid_action(7), float(diffs[:deals].mean()), 0, tuple(map(float, diffs[:deals])))
        passing = CallValue(PASS, 0.0, None, (0.0,) * deals)
        if not needs_more_deals([bid, passing], deals, len(diffs), CLEAR_Z if flat else None):
            return bid_beats_pass(bid, passing), deals
        deals += BID_SAMPLES_STEP


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=MAX_BID_SAMPLES, help="the most deals a call may get")
    parser.add_argument("--deal-sd", type=float, default=70.0, help="one deal's standard deviation, points")
    parser.add_argument("--wild", type=float, default=5.0, help="points below passing that make a bid wild")
    args = parser.parse_args()
    print(f"{args.calls} calls a row, up to {args.deals} deals, one deal's SD {args.deal_sd} points")
    print("| spread of calls' worth (points) | rule | regret (points a call) | deals a call | wild bids |")
    print("|---|---|---|---|---|")
    for spread in (0.1, 0.2):
        for flat in (True, False):
            rng = np.random.default_rng(args.seed)
            worth = rng.normal(0.0, spread, args.calls)
            regret = 0.0
            used = 0
            wild = 0
            for mu in worth:
                bid, deals = decide(rng.normal(mu, 1.0, args.deals), flat)
                regret += max(0.0, -mu) if bid else max(0.0, mu)
                used += deals
                wild += bid and mu * args.deal_sd <= -args.wild
            rule = f"flat {CLEAR_Z}" if flat else "clear_bound"
            print(
                f"| {spread * args.deal_sd:.0f} | {rule} | {regret / args.calls * args.deal_sd:.3f} "
                f"| {used / args.calls:.1f} | {wild / args.calls:.2%} |"
            )


if __name__ == "__main__":
    main()
