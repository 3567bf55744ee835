"""Decision time of a player's calls and trump choices (the auction and naming trumps), or of its
exchange decisions (``--exchange``).

    python benchmarks/call_time.py --hands 40 --seed 0
    python benchmarks/call_time.py --player expert:bid=heuristic --variants pidro
    python benchmarks/call_time.py --exchange --hands 20 --variants eighty_three,nicaragua

For each variant and hand k: ``GameState(rules, seed=seed + k)`` with the
player at every seat; every call and trump choice (with ``--exchange``: every
exchange decision) of the first hand with two legal choices or more is timed.
Prints the number of decisions, the median, 99th percentile and maximum time
in ms, as CPU time of this process (one core's work, what a quiet core would
take; the machine's other load does not count) and as wall time. The
solver's first call compiles its kernel or loads it from the cache: that is
done before the timed hands.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.players.expert_exchange import legal_count
from pedro.variants.options import make_ruleset

CALL_PHASES = (Phase.AUCTION, Phase.TRUMP)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def call_times(
    variant: str, spec: str, seed: int, timed_phases: tuple[Phase, ...] = CALL_PHASES
) -> list[tuple[float, float]]:
    """(CPU seconds, wall seconds) of every decision with a choice in ``timed_phases`` (the calls and
    trump choices unless told) in one game's first hand."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(spec, seed * 16 + s) for s in range(rules.players)]
    phases = (*CALL_PHASES, *timed_phases)
    out = []
    while not state.is_over and state.hand_index == 0 and state.phase in phases:
        seat = state.current_player
        timed = state.phase in timed_phases and legal_count(state.observation(seat)) > 1
        cpu, wall = time.process_time(), time.perf_counter()
        action = choose(seats[seat], state)
        if timed:
            out.append((time.process_time() - cpu, time.perf_counter() - wall))
        state.apply(action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--player", default="expert")
    parser.add_argument(
        "--exchange", action="store_true", help="time the exchange decisions instead of the calls"
    )
    args = parser.parse_args()
    timed = (Phase.EXCHANGE,) if args.exchange else CALL_PHASES
    call_times("cinch", args.player, 10**6)  # compile or load the solver's kernel
    print(f"player {args.player}")
    print(f"{'variant':22} {'timed':>6} {'cpu median':>11} {'cpu p99':>8} {'cpu max':>8} {'wall p99':>9}")
    for variant in args.variants.split(","):
        rows = [r for k in range(args.hands) for r in call_times(variant, args.player, args.seed + k, timed)]
        if not rows:
            print(f"{variant:22} {0:>6}   (no decision with a choice)", flush=True)
            continue
        cpu = [1000 * c for c, _ in rows]
        wall = [1000 * w for _, w in rows]
        print(
            f"{variant:22} {len(rows):>6} {statistics.median(cpu):>11.0f} {percentile(cpu, 0.99):>8.0f} "
            f"{max(cpu):>8.0f} {percentile(wall, 0.99):>9.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
