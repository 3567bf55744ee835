"""Card-play quality on fixed positions: how many points each player's choice gives up.

Positions are every card play with a choice that matters (not every legal
play has the same value) in games between ``heuristic`` players. A choice's
loss is how many points it gives up against the best play, both valued with
perfect play afterwards in the true deal (the exact solver); the
``omniscient`` player loses nothing by definition. Every player is asked on
the same positions, so the differences between players are paired and their
intervals narrow: a few hundred positions separate settings that a
tournament would need thousands of deals to tell apart.

    python benchmarks/card_play_loss.py --variant pidro --deals 150 --players heuristic expert:40 expert
    python benchmarks/card_play_loss.py --variant eighty_three --players heuristic expert:40/noread expert

A player is any name ``pedro`` accepts; ``/noread`` turns off the expert's
reading of the opponents' play. The share printed is how much of the first
player's loss each player removes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import Player, choose, make_player
from pedro.players.expert import ExpertPlayer
from pedro.solver import solve
from pedro.variants.options import make_ruleset

Position = tuple[Observation, dict[int, int]]


def positions(variant: str, deals: int, seed: int) -> list[Position]:
    """Each card play with a choice that matters, and each legal play's loss in points."""
    rules = make_ruleset(variant, {})
    out: list[Position] = []
    for deal in range(deals):
        state = GameState(rules, seed=seed + deal)
        players = [make_player("heuristic", (seed + deal) * 16 + s) for s in range(rules.players)]
        while not state.results:
            seat = state.current_player
            if state.phase == Phase.PLAY and len(state.legal_actions()) > 1:
                loss = _losses(state, seat)
                if loss is not None and any(loss.values()):
                    out.append((state.observation(seat), loss))
            state.apply(choose(players[seat], state))
    return out


def _losses(state: GameState, seat: int) -> dict[int, int] | None:
    """Points each legal play gives up for the seat's side (None when a play ends the hand)."""
    rules = state.rules
    assert state.contract is not None
    ours = rules.side_of(seat) == rules.side_of(state.contract.bidder)
    values = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        if after.phase != Phase.PLAY or after.results:
            return None
        values[action] = solve(after.play_position()).value  # points of the bidder's side
    best = max(values.values()) if ours else min(values.values())
    return {a: abs(best - v) for a, v in values.items()}


def player(spec: str) -> Player:
    name, _, flag = spec.partition("/")
    made = make_player(name, "card-play-loss")
    if flag == "noread":
        if not isinstance(made, ExpertPlayer):
            raise SystemExit(f"/noread applies to the expert only, got {spec!r}")
        made.read_play = False
    elif flag:
        raise SystemExit(f"unknown flag {flag!r} in {spec!r}; the one flag is /noread")
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="pidro")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5001)
    parser.add_argument("--players", nargs="+", default=["heuristic", "expert:40/noread", "expert"])
    args = parser.parse_args()
    start = time.perf_counter()
    found = positions(args.variant, args.deals, args.seed)
    print(
        f"{args.variant}: {len(found)} positions where the choice matters, from {args.deals} deals "
        f"({time.perf_counter() - start:.0f} s)"
    )
    losses: dict[str, list[int]] = {}
    print("| player | mean loss per position | loss per deal | share of the first's loss removed | s |")
    print("|---|---|---|---|---|")
    for spec in args.players:
        p = player(spec)
        start = time.perf_counter()
        losses[spec] = [loss[p.act(obs)] for obs, loss in found]
        mean = statistics.mean(losses[spec])
        first = statistics.mean(losses[args.players[0]])
        share = f"{1 - mean / first:.0%}" if first else "-"
        print(
            f"| {spec} | {mean:.3f} | {sum(losses[spec]) / args.deals:.2f} | {share} "
            f"| {time.perf_counter() - start:.0f} |",
            flush=True,
        )
    base = args.players[0]
    for spec in args.players[1:]:
        diffs = [a - b for a, b in zip(losses[spec], losses[base], strict=True)]
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        print(f"{spec} − {base}: {statistics.mean(diffs):+.3f} ± {half:.3f} points per position (95%)")


if __name__ == "__main__":
    main()
