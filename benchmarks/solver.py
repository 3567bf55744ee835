"""Solve time of the exact play solver at the first lead of fresh deals.

    python benchmarks/solver.py --deals 1000 --variants cinch,pidro,king_pedro_canadian,eighty_three --seed 0

For each variant and deal k: ``GameState(rules, seed=seed + k)``, the auction
and exchange played by the ``basic`` player up to the first lead, then
``solve`` timed once. Prints the median, 99th percentile and maximum (ms) and
the nodes searched (decisions visited).
"""

from __future__ import annotations

import argparse
import statistics
import time

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.basic import BasicPlayer
from pedro.solver import solve
from pedro.variants.options import make_ruleset


def first_lead(variant: str, seed: int) -> GameState | None:
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    players = [BasicPlayer(seed=seed * 10 + s) for s in range(rules.players)]
    while state.phase != Phase.PLAY:
        if state.is_over or state.hand_index > 0:
            return None  # thrown in
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    return state if state.hand_index == 0 else None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    i = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[i]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'variant':22} {'deals':>6} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} {'med nodes':>10} "
          f"{'max nodes':>10}")  # fmt: skip
    for variant in args.variants.split(","):
        times: list[float] = []
        nodes: list[int] = []
        k = 0
        while len(times) < args.deals:
            state = first_lead(variant, args.seed + k)
            k += 1
            if state is None:
                continue
            t0 = time.perf_counter()
            result = solve(state)
            times.append((time.perf_counter() - t0) * 1000)
            nodes.append(result.nodes)
        print(
            f"{variant:22} {len(times):>6} {statistics.median(times):>10.2f} {percentile(times, 0.99):>9.2f} "
            f"{max(times):>9.2f} {statistics.median(nodes):>10.0f} {max(nodes):>10}",
            flush=True,
        )


if __name__ == "__main__":
    main()
