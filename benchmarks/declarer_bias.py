"""How much the exact solver's value of a contract overstates the declarer's side against real play.

    python benchmarks/declarer_bias.py --hands 100 --seed 50000 --variants pidro,cinch

The expert bids by valuing each contract's card play with the exact solver on
sampled deals (``pedro.players.solved_play``). A perfect-information value is
not what the table makes: every seat sees every card. This measures the gap
on real hands: for hand k, ``GameState(rules, seed=seed + k)`` is bid and
exchanged by ``heuristic`` at every seat; at the first lead the true position
is solved (the declarer's side's points with every hand in view), then the
hand is played by ``expert`` at every seat (the card play the bidder will
have). Prints, per variant, the mean of (solver value − points the declarer's
side took) as points and as a fraction of the points in play, with a 95%
interval. ``solved_play.DECLARER_BIAS`` holds the fractions measured so.
"""

from __future__ import annotations

import argparse
import statistics

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, HeuristicPlayer, choose
from pedro.solver import solve
from pedro.variants.options import make_ruleset


def gap(variant: str, seed: int) -> float | None:
    """Solver value at the first lead less the points the declarer's side took, in one hand."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    bidders = [HeuristicPlayer(seed * 16 + s) for s in range(rules.players)]
    players = [ExpertPlayer(seed * 16 + s) for s in range(rules.players)]
    while not state.is_over and state.hand_index == 0 and state.phase != Phase.PLAY:
        seat = state.current_player
        state.apply(choose(bidders[seat], state))
    if state.phase != Phase.PLAY or state.hand_index != 0:
        return None
    bidder = state.observation(0).bidder
    assert bidder is not None
    value = solve(state.play_position()).value
    while not state.is_over and not state.results:
        seat = state.current_player
        state.apply(choose(players[seat], state))
    taken = state.results[0].points[rules.side_of(bidder)]
    return float(value - taken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=50000)
    args = parser.parse_args()
    print(f"{'variant':22} {'hands':>6} {'points':>8} {'95% CI':>18} {'fraction':>9}")
    for variant in args.variants.split(","):
        total = make_ruleset(variant).total_points
        gaps = [g for k in range(args.hands) if (g := gap(variant, args.seed + k)) is not None]
        mean = statistics.mean(gaps)
        half = 1.96 * statistics.stdev(gaps) / len(gaps) ** 0.5
        print(
            f"{variant:22} {len(gaps):>6} {mean:>+8.2f} ({mean - half:+.2f} to {mean + half:+.2f}) "
            f"{mean / total:>+9.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
