"""Decision time of the ``expert``'s card play in whole hands.

    python benchmarks/expert.py --hands 30 --variants cinch,pidro,king_pedro_canadian,eighty_three --seed 0
    python benchmarks/expert.py --player expert:40 --hands 10

For each variant and hand k: ``GameState(rules, seed=seed + k)`` with the
expert at seats 0 and 2 and ``heuristic`` at seats 1 and 3; the first hand is
played out and every card play of an expert with two legal plays or more is
timed (one core: run it alone). Prints the number of decisions, the median,
99th percentile and maximum time (ms), and the worlds sampled per decision.
The solver's first call may compile its kernel (or load it from the cache):
that is done and timed before the timed hands.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, choose, make_player
from pedro.solver import solve
from pedro.variants.options import make_ruleset


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def warm_up() -> float:
    """Time of the solver's first call (compiling or loading its kernel)."""
    state = GameState(make_ruleset("cinch"), seed=10**6)
    players = [make_player("basic", s) for s in range(4)]
    while state.phase != Phase.PLAY:
        state.apply(players[state.current_player].act(state.observation(state.current_player)))
    t0 = time.perf_counter()
    solve(state.play_position())
    return time.perf_counter() - t0


def hand_times(variant: str, spec: str, seed: int) -> list[tuple[float, int]]:
    """(seconds, worlds) of every expert card play with a choice in the first hand of one game."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(spec if s % 2 == 0 else "heuristic", seed * 16 + s) for s in range(rules.players)]
    out = []
    while not state.is_over and state.hand_index == 0:
        seat = state.current_player
        player = seats[seat]
        timed = (
            isinstance(player, ExpertPlayer) and state.phase == Phase.PLAY and len(state.legal_actions()) > 1
        )
        t0 = time.perf_counter()
        action = choose(player, state)
        if timed:
            assert isinstance(player, ExpertPlayer)
            out.append((time.perf_counter() - t0, player.card_player.last_worlds))
        state.apply(action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--player", default="expert", help="expert or expert:N")
    args = parser.parse_args()
    print(f"solver warm-up (compile or cache load + first solve): {warm_up():.2f} s", flush=True)
    print(f"player {args.player}")
    print(f"{'variant':22} {'decisions':>9} {'median ms':>10} {'p99 ms':>9} {'max ms':>9} {'worlds':>7}")
    for variant in args.variants.split(","):
        rows = [r for k in range(args.hands) for r in hand_times(variant, args.player, args.seed + k)]
        ms = [1000 * t for t, _ in rows]
        worlds = statistics.mean(w for _, w in rows)
        print(
            f"{variant:22} {len(rows):>9} {statistics.median(ms):>10.1f} {percentile(ms, 0.99):>9.1f} "
            f"{max(ms):>9.1f} {worlds:>7.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
