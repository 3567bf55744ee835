"""Random-play throughput of the engine, per variant, on one core.

Prints decisions per second (every ``apply`` of a player's decision) and hands
per second, the cost of ``GameState.clone()`` in the first hand's card play
and in the card play after 8 hands (it should stay under 30 µs anywhere), and the
median cost of the acting seat's ``observation()`` in the first four hands. If
OpenSpiel is importable, also runs its ``euchre`` with random play in the same
process, alternating the two in slices of 0.1 s so that both meet the same load, and
prints our cinch rate relative to it. Rates are per second of this
process's CPU time (the same as wall time on an idle machine, and steadier on a
shared one); the first line says which build runs (``pedro --version``).

    python benchmarks/engine.py [--seconds 2] [--variant cinch ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from pedro.cli.version_cmd import version_text
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.variants.catalog import VARIANTS

#: Random bidding rarely reaches a target, so games are cut after this many hands.
MAX_HANDS = 50
#: The comparison with euchre alternates the two games in slices of this many seconds.
SLICE = 0.1


class RandomPlay:
    """Random games of one variant, played in slices that go on where the last stopped."""

    def __init__(self, variant: str) -> None:
        self.rules = VARIANTS[variant]
        self.decisions = self.hands = self.seed = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        """Play whole games for about ``seconds``, adding to the counts."""
        cpu = time.process_time()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = GameState(self.rules, seed=self.seed)
            rng = random.Random(self.seed)
            self.seed += 1
            while not state.is_over and state.hand_index < MAX_HANDS:
                legal = state.legal()
                action = legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal)
                state.apply(action)
                self.decisions += 1
            self.hands += len(state.results)
        self.cpu += time.process_time() - cpu

    @property
    def rate(self) -> float:
        return self.decisions / self.cpu


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


def observation_cost(variant: str, hands: int = 4, repeat: int = 10) -> float:
    """Median microseconds of the acting seat's ``observation()`` over the decisions of the first
    ``hands`` hands (a player asks for one at every decision)."""
    state = GameState(VARIANTS[variant], seed=0)
    rng = random.Random(0)
    costs: list[float] = []
    while not state.is_over and state.hand_index < hands:
        seat = state.current_player
        start = time.process_time()
        for _ in range(repeat):
            state.observation(seat)
        costs.append((time.process_time() - start) / repeat * 1e6)
        legal = state.legal()
        state.apply(legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal))
    return statistics.median(costs)


class EuchrePlay:
    """Random games of OpenSpiel's euchre (chance nodes drawn, decisions counted), in slices."""

    def __init__(self, pyspiel: Any) -> None:
        self.game = pyspiel.load_game("euchre")
        self.rng = random.Random(0)
        self.decisions = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        rng = self.rng
        cpu = time.process_time()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    self.decisions += 1
        self.cpu += time.process_time() - cpu

    @property
    def rate(self) -> float:
        return self.decisions / self.cpu


def cinch_against_euchre(seconds: float) -> tuple[float, float] | None:
    """Cinch's and euchre's random-play rates, measured in alternating slices of 0.1 s so that a
    change in the machine's load falls on both alike; None without OpenSpiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    cinch, euchre = RandomPlay("cinch"), EuchrePlay(pyspiel)
    for _ in range(max(1, round(seconds / SLICE))):
        cinch.run(SLICE)
        euchre.run(SLICE)
    return cinch.rate, euchre.rate


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
    print(f"{header} {'clone µs':>9} {'8 hands':>8} {'obs µs':>7}")
    for variant in variants:
        play = RandomPlay(variant)
        play.run(args.seconds)
        per_hand = play.decisions / max(play.hands, 1)
        clones = [clone_cost(variant, h) for h in (0, 8)]
        start, later = (f"{c:.1f}" if c is not None else "-" for c in clones)
        rate = f"{variant:22} {play.rate:12,.0f} {play.hands / play.cpu:9,.0f} {per_hand:15.1f}"
        print(f"{rate} {start:>9} {later:>8} {observation_cost(variant):7.1f}")
    if "cinch" not in variants:
        return
    compared = cinch_against_euchre(args.seconds)
    if compared is None:
        print("OpenSpiel is not installed: no euchre comparison (pip install open-spiel).")
        return
    cinch, euchre = compared
    print(f"{'openspiel euchre':22} {euchre:12,.0f}   (cinch {cinch:,.0f} in the same slices)")
    print(f"cinch / euchre decisions per second: {cinch / euchre:.2f}")


if __name__ == "__main__":
    main()
