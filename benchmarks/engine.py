"""Random-play throughput of the engine, per variant, on one core.

Prints decisions per second (every ``apply`` of a player's decision) and hands
per second, and the cost of ``GameState.clone()`` in the first hand's card play
and in the card play after 8 hands (it should stay under 30 µs anywhere). If
OpenSpiel is importable, also runs its ``euchre`` with random play in the same
process and prints our cinch rate relative to it. Rates are per second of this
process's CPU time (the same as wall time on an idle machine, and steadier on a
shared one); the first line says which build runs (``pedro --version``).

    python benchmarks/engine.py [--seconds 2] [--variant cinch ...]
"""

from __future__ import annotations

import argparse
import random
import time

from pedro.cli.version_cmd import version_text
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.variants.catalog import VARIANTS

#: Random bidding rarely reaches a target, so games are cut after this many hands.
MAX_HANDS = 50


def random_play(variant: str, seconds: float) -> tuple[int, int, float]:
    """Play random games for about ``seconds``; returns (decisions, hands, CPU seconds)."""
    rules = VARIANTS[variant]
    decisions = hands = 0
    seed = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = GameState(rules, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_over and state.hand_index < MAX_HANDS:
            legal = state.legal()
            action = legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal)
            state.apply(action)
            decisions += 1
        hands += len(state.results)
    return decisions, hands, time.process_time() - cpu


def clone_cost(variant: str, hands: int, repeat: int = 2000) -> float | None:
    """Microseconds per ``clone()`` early in the card play of hand ``hands`` (None: the game ended)."""
    state = GameState(VARIANTS[variant], seed=0)
    rng = random.Random(0)
    while not state.is_over and (state.hand_index < hands or state.phase != Phase.PLAY or not state.actions):
        legal = state.legal()
        state.apply(legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal))
    if state.is_over:
        return None
    start = time.process_time()
    for _ in range(repeat):
        state.clone()
    return (time.process_time() - start) / repeat * 1e6


def openspiel_euchre(seconds: float) -> float | None:
    """Random-play decisions per second of OpenSpiel's euchre, or None without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(0)
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per variant")
    parser.add_argument(
        "--variant", action="append", choices=sorted(VARIANTS), help="variants (default: all)"
    )
    args = parser.parse_args()
    variants = args.variant or list(VARIANTS)
    print(version_text())
    header = f"{'variant':22} {'decisions/s':>12} {'hands/s':>9} {'decisions/hand':>15}"
    print(f"{header} {'clone µs':>9} {'8 hands':>8}")
    rates: dict[str, float] = {}
    for variant in variants:
        decisions, hands, elapsed = random_play(variant, args.seconds)
        rates[variant] = decisions / elapsed
        per_hand = decisions / max(hands, 1)
        clones = [clone_cost(variant, h) for h in (0, 8)]
        start, later = (f"{c:.1f}" if c is not None else "-" for c in clones)
        rate = f"{variant:22} {decisions / elapsed:12,.0f} {hands / elapsed:9,.0f} {per_hand:15.1f}"
        print(f"{rate} {start:>9} {later:>8}")
    euchre = openspiel_euchre(args.seconds)
    if euchre is None:
        print("OpenSpiel is not installed: no euchre comparison (pip install open-spiel).")
    else:
        print(f"{'openspiel euchre':22} {euchre:12,.0f}")
        if "cinch" in rates:
            print(f"cinch / euchre decisions per second: {rates['cinch'] / euchre:.2f}")


if __name__ == "__main__":
    main()
