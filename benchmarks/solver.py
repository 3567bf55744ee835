"""Solve time of the exact play solver at the first lead of fresh deals.

    python benchmarks/solver.py --deals 1000 --variants cinch,pidro,king_pedro_canadian,eighty_three --seed 0
    python benchmarks/solver.py --engine python --deals 100

For each variant and deal k: ``GameState(rules, seed=seed + k)``, the auction
and exchange played by the ``basic`` player up to the first lead, then
``solve`` timed once. Prints the median, 99th percentile and maximum (ms) of
the wall-clock time, the median and 99th percentile of the process CPU time
(steadier on a busy machine), and the nodes searched (decisions visited). The
compiled kernel's first call compiles it (or loads it from numba's cache):
that time is printed apart, before the timed deals. ``--engine python`` times
the plain Python reference search instead.
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


def percentile(values: list[float] | list[int], q: float) -> float:
    ordered = sorted(values)
    i = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[i]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("auto", "kernel", "python"), default="auto")
    args = parser.parse_args()
    if args.engine != "python":
        warm = first_lead("cinch", 10**6)
        assert warm is not None
        t0 = time.perf_counter()
        solve(warm.play_position(), engine=args.engine)
        print(f"compile or cache load + first solve: {time.perf_counter() - t0:.2f} s", flush=True)
    print(f"{'variant':20} {'deals':>5} {'median ms':>9} {'p99 ms':>8} {'max ms':>8} {'cpu med':>8} "
          f"{'cpu p99':>8} {'med nodes':>9} {'p99 nodes':>9} {'max nodes':>9}")  # fmt: skip
    for variant in args.variants.split(","):
        times: list[float] = []
        cpu: list[float] = []
        nodes: list[int] = []
        k = 0
        while len(times) < args.deals:
            state = first_lead(variant, args.seed + k)
            k += 1
            if state is None:
                continue
            t0 = time.perf_counter()
            c0 = time.process_time()
            result = solve(state.play_position(), engine=args.engine)
            cpu.append((time.process_time() - c0) * 1000)
            times.append((time.perf_counter() - t0) * 1000)
            nodes.append(result.nodes)
        print(
            f"{variant:20} {len(times):>5} {statistics.median(times):>9.2f} {percentile(times, 0.99):>8.2f} "
            f"{max(times):>8.2f} {statistics.median(cpu):>8.2f} {percentile(cpu, 0.99):>8.2f} "
            f"{statistics.median(nodes):>9.0f} {percentile(nodes, 0.99):>9.0f} {max(nodes):>9}",
            flush=True,
        )


if __name__ == "__main__":
    main()
