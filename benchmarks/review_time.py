"""Seconds to review one seat of a whole game, as the server does it: hand by hand, in one process.

Plays a game between ``heuristic`` players (``--hands`` hands at most) and
reviews one seat's decisions with ``pedro.server.reviews.compute.review_hand``, the
function the server's review workers run, on one core.

    python benchmarks/review_time.py --variant cinch --hands 10 --seat 0
    python benchmarks/review_time.py --variant cinch --hands 10 --seat all   # every seat, one by one
"""

from __future__ import annotations

import argparse
import os
import time

from pedro.engine.actions import action_text
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.server.reviews.compute import HandJob, ReviewGame, outline, review_hand
from pedro.server.settings import ServerSettings
from pedro.variants.options import make_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="cinch")
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seat", default="0", help="a seat from 0, or all")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--player", default=ServerSettings.review_player)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rules = make_ruleset(args.variant, {})
    state = GameState(rules, seed=args.seed)
    players = [make_player("heuristic", f"{args.seed}:{s}") for s in range(rules.players)]
    actions: list[str] = []
    while not state.is_over and len(state.results) < args.hands:
        seat = state.current_player
        action = players[seat].act(state.observation(seat))
        actions.append(action_text(seat, action, rules.max_bid))
        state.apply(action)
    names = tuple(f"P{s}" for s in range(rules.players))
    game = ReviewGame(rules.id, {}, str(args.seed), tuple(actions), names)
    start = time.perf_counter()
    cpu = time.process_time()
    shape = outline(game)
    seats = range(rules.players) if args.seat == "all" else [int(args.seat)]
    decisions = 0
    for seat in seats:
        for hand in range(1, shape.hands + 1):
            decisions += len(review_hand(HandJob(game, hand, seat, args.player))["entries"])
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{args.variant}: {shape.hands} hands, seat {args.seat}: {decisions} decisions reviewed by "
        f"{args.player} in {wall:.1f} s ({used:.1f} s of CPU), seed {args.seed}"
    )


if __name__ == "__main__":
    main()
