"""Cost of one seat's observation as a game grows longer, on one core.

Every observation carries the score sheet of all earlier hands, so its cost
must not grow with the game: random players (whose scores drift for hundreds
of hands) play one long game, and the mean microseconds per
``GameState.observation`` call are printed per block of hands.

    python benchmarks/observation.py [--variant pidro] [--hands 400] [--block 100]
"""

from __future__ import annotations

import argparse
import random
import time

from pedro.engine.choices import CardChoice
from pedro.engine.state import GameState
from pedro.variants.catalog import VARIANTS


def observation_micros(variant: str, hands: int, block: int, seed: int) -> dict[int, float]:
    """Mean microseconds per observation of the seat to act, by block of hands played."""
    state = GameState(VARIANTS[variant], seed=seed)
    rng = random.Random(seed)
    times: dict[int, list[float]] = {}
    while not state.is_over and len(state.results) < hands:
        start = time.perf_counter()
        state.observation(state.current_player)
        times.setdefault(len(state.results) // block, []).append(time.perf_counter() - start)
        legal = state.legal()
        state.apply(legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal))
    return {b * block: 1e6 * sum(t) / len(t) for b, t in sorted(times.items())}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="pidro", choices=sorted(VARIANTS))
    parser.add_argument("--hands", type=int, default=400, help="stop the game after this many hands")
    parser.add_argument("--block", type=int, default=100, help="hands per printed line")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = observation_micros(args.variant, args.hands, args.block, args.seed)
    print(f"{args.variant}: microseconds per observation, by hands already played (seed {args.seed})")
    for first, micros in figures.items():
        print(f"  hands {first:4d}-{first + args.block - 1:4d}: {micros:7.1f} us")


if __name__ == "__main__":
    main()
