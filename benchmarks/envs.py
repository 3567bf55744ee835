"""Steps per second of the PettingZoo environment with random legal actions, and OpenSpiel's euchre.

Two loops per variant, each playing one-hand episodes (the environment's
default, ``hands=1``; ``--hands 0`` plays whole games, which random players
rarely finish: their scores drift below zero for hundreds of hands) through
the wrapped environment ``pedro.envs.pettingzoo.env``:

* ``mask``: the policy reads ``env.action_mask(agent)`` only, so no
  observation vector is ever encoded (the environment encodes lazily);
* ``observe``: the policy calls ``env.last()`` each step, which encodes the
  acting agent's vector and mask, as a learner would.

The reference is OpenSpiel's ``euchre`` (a four-player trick-taking game
written in C++) played at random through pyspiel in the same run, counting
player decisions (chance outcomes, the deal, are applied but not counted),
without and with ``information_state_tensor`` each step (euchre has no
``observation_tensor``).

    python benchmarks/envs.py                      # every variant, 2 seconds per measurement
    python benchmarks/envs.py --seconds 5 --variants cinch pidro
    python benchmarks/envs.py --steps 20000
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from pedro.envs.pettingzoo import env
from pedro.variants.catalog import VARIANTS

#: A loop runs until this says stop: given the steps so far and the seconds elapsed.
Stop = Callable[[int, float], bool]


def pettingzoo_rate(variant: str, hands: int | None, observe: bool, stop: Stop, seed: int) -> float:
    """Live steps per second (dead agents' ``step(None)`` and resets are timed but not counted)."""
    e = env(variant, hands=hands)
    rng = random.Random(seed)
    game_seed = seed
    e.reset(seed=game_seed)
    steps = 0
    start = time.perf_counter()
    while not stop(steps, time.perf_counter() - start):
        if not e.agents:
            game_seed += 1
            e.reset(seed=game_seed)
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        if observe:
            obs, _reward, _term, _trunc, _info = e.last()
            mask = obs["action_mask"]
        else:
            mask = e.action_mask(agent)
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
        steps += 1
    return steps / (time.perf_counter() - start)


def openspiel_rate(name: str, tensor: bool, stop: Stop, seed: int) -> float:
    """Player decisions per second of an OpenSpiel game played at random."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    start = time.perf_counter()
    while not stop(steps, time.perf_counter() - start):
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        if tensor:
            state.information_state_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    limit.add_argument("--steps", type=int, help="steps per measurement instead of a time")
    parser.add_argument("--hands", type=int, default=1, help="hands per episode; 0: whole games (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.steps is not None:
        steps_limit: int = args.steps

        def stop(steps: int, elapsed: float) -> bool:
            return steps >= steps_limit
    else:
        seconds: float = args.seconds

        def stop(steps: int, elapsed: float) -> bool:
            return elapsed >= seconds

    header = f"{'game':<22} {'players':>7} {'obs size':>8} {'actions':>7}"
    print(f"{header} {'mask steps/s':>13} {'observe steps/s':>16}")
    for variant in args.variants:
        probe = env(variant).unwrapped
        hands = args.hands or None
        masked = pettingzoo_rate(variant, hands, False, stop, args.seed)
        observed = pettingzoo_rate(variant, hands, True, stop, args.seed)
        print(
            f"{variant:<22} {probe.rules.players:>7} {probe.encoder.size:>8} {probe.space.size:>7} "
            f"{masked:>13,.0f} {observed:>16,.0f}"
        )
    euchre = pyspiel.load_game("euchre")
    plain = openspiel_rate("euchre", False, stop, args.seed)
    tensor = openspiel_rate("euchre", True, stop, args.seed)
    size = euchre.information_state_tensor_size()
    name = "euchre (OpenSpiel)"
    print(f"{name:<22} {4:>7} {size:>8} {euchre.num_distinct_actions():>7} {plain:>13,.0f} {tensor:>16,.0f}")
    print("mask: the policy reads env.action_mask(agent) only; observe: env.last() encodes each step")
    print("(euchre: legal_actions only / information_state_tensor each step)")


if __name__ == "__main__":
    main()
