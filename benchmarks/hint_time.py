"""Seconds a hint takes: the expert's value of every legal choice at each decision of a game.

Plays games between ``heuristic`` players and asks one hint player (as ``pedro play --hints``
keeps one for the whole game) for the estimates of every decision of seat 0 that has a
choice; prints the median, 90th percentile and slowest time per kind of decision.

    python benchmarks/hint_time.py --variant cinch --games 2 --hands 10
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from pedro.analysis import decisions, needs_choice
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.records import record_from_game
from pedro.variants.options import make_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="cinch")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    for g in range(args.games):
        seed = args.seed + g
        rules = make_ruleset(args.variant)
        state = GameState(rules, seed=seed)
        players = [make_player("heuristic", f"{seed}:{s}") for s in range(rules.players)]
        while not state.is_over and len(state.results) < args.hands:
            seat = state.current_player
            state.apply(players[seat].act(state.observation(seat)))
        record = record_from_game(state, [f"P{s}" for s in range(rules.players)])
        hints = make_player("expert", f"hints:{seed}")
        for d in decisions(record):
            if d.seat != 0 or not needs_choice(d):
                continue
            start, used = time.perf_counter(), time.process_time()
            hints.estimates(d.obs)  # type: ignore[attr-defined]
            times[d.phase.name.lower()].append(time.perf_counter() - start)
            cpu[d.phase.name.lower()].append(time.process_time() - used)
    print(f"{args.variant}, {args.games} games of up to {args.hands} hands, seat 0's decisions")
    print(f"{'decision':<10}{'count':>6}{'median s':>10}{'p90 s':>8}{'max s':>8}{'max CPU s':>11}")
    for phase, values in sorted(times.items()):
        values.sort()
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        most = max(cpu[phase])
        print(
            f"{phase:<10}{len(values):>6}{statistics.median(values):>10.3f}{p90:>8.3f}{values[-1]:>8.3f}{most:>11.3f}"
        )


if __name__ == "__main__":
    main()
