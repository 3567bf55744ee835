#!/usr/bin/env python3
"""OpenSpiel's ISMCTS bot against pedro's ``heuristic`` player, on the ``python_pedro`` game.

    python examples/openspiel_ismcts.py --variant pidro --hands 20 --simulations 40 --seed 1

Each hand is its own ``python_pedro`` game (``hands=1``), the dealer moving
one seat to the left every hand. ISMCTS (random-rollout evaluator, so its
rollouts are random play to the end of the hand) takes the seats of side 0,
the heuristic the others; the heuristic acts on its seat's engine observation
and its engine action is entered as the ids ``Decision.ids_for`` gives. The
script prints each side's mean score change per hand with a 95% interval.
Needs the ``envs`` extra (``pip install pedro[envs]``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pedro.envs.openspiel import PedroState
from pedro.players import make_player
from pedro.variants.catalog import VARIANTS


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="cinch", help=f"one of: {', '.join(VARIANTS)}")
    parser.add_argument("--options", default="", help="house rules, e.g. min_bid=6,dealer_forced_bid=6")
    parser.add_argument("--hands", type=int, default=10, help="hands to play (each its own game)")
    parser.add_argument("--simulations", type=int, default=40, help="ISMCTS simulations per decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.variant not in VARIANTS:
        parser.error(f"unknown variant {args.variant!r}; variants: {', '.join(VARIANTS)}")
    if args.hands < 1 or args.simulations < 1:
        parser.error("--hands and --simulations must be at least 1")
    return args


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of a normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def seeded_resampler(seed: int) -> Callable[[PedroState, int], PedroState]:
    """ISMCTS's default resampler draws from an unseeded sampler; this one repeats with ``seed``."""
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)

    def resample(state: PedroState, player: int) -> PedroState:
        return state.resample_from_infostate(player, sampler)

    return resample


def play_hand(game: pyspiel.Game, bots: dict[int, ismcts.ISMCTSBot], seed: int) -> list[float]:
    """One hand: the returns per seat."""
    rng = np.random.RandomState(seed)
    state: PedroState = game.new_initial_state()
    heuristics = {}
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        if seat in bots:
            state.apply_action(int(bots[seat].step(state)))
            continue
        player = heuristics.setdefault(seat, make_player("heuristic", seed * 10 + seat))
        table = state.table
        obs = table.observation(seat)
        assert obs is not None
        for action_id in table.decision().ids_for(player.act(obs)):
            state.apply_action(action_id)
    return list(state.returns())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    start = time.perf_counter()
    changes: dict[int, list[float]] = {}
    seats_of: dict[int, list[int]] = {}
    for h in range(args.hands):
        params = {"variant": args.variant, "options": args.options, "hands": 1, "dealer": 0}
        probe = pyspiel.load_game("python_pedro", params)
        params["dealer"] = h % probe.num_players()
        game = pyspiel.load_game("python_pedro", params)
        rules = game.rules
        seats_of = {side: [s for s in range(rules.players) if rules.side_of(s) == side]
                    for side in range(rules.num_sides)}  # fmt: skip
        rollouts = np.random.RandomState(args.seed + h)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rollouts)
        bots = {}
        for s in seats_of[0]:
            bot = ismcts.ISMCTSBot(
                game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                random_state=np.random.RandomState(args.seed * 1000 + h * 10 + s),
            )  # fmt: skip
            bot.set_resampler(seeded_resampler(args.seed * 1000 + h * 10 + s))
            bots[s] = bot
        returns = play_hand(game, bots, args.seed * 100_000 + h)
        for side, seats in seats_of.items():
            changes.setdefault(side, []).append(returns[seats[0]])
        print(f"hand {h + 1:3d} dealer {params['dealer']}: " + "  ".join(
            f"side {side} {returns[seats[0]]:+.0f}" for side, seats in seats_of.items()
        ), file=sys.stderr, flush=True)  # fmt: skip
    elapsed = time.perf_counter() - start
    print(f"{args.variant}: {args.hands} hands, ISMCTS ({args.simulations} simulations) vs heuristic, "
          f"seed {args.seed}, {elapsed:.0f} s")  # fmt: skip
    for side, values in changes.items():
        who = "ISMCTS   " if side == 0 else "heuristic"
        mean, half = interval(values)
        print(f"  side {side} ({who}, seats {','.join(map(str, seats_of[side]))}): "
              f"mean score change per hand {mean:+.2f} ± {half:.2f} (95%)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
