"""How well the bidding simulation foresees the contracts ``heuristic`` wins: predicted against taken.

    python benchmarks/bid_calibration.py --variant dom_pedro --deals 100 --opponent basic

Each deal ``k`` (``GameState(rules, seed=k)``) is played twice, ``heuristic`` in the even
seats then in the odd ones, ``--opponent`` in the others, for one hand. When ``heuristic``
names trumps for a contract it won, its estimator's distribution for that suit (the
sampled deals its calls were valued on, played out by its rollout policy) gives the
points it expects to take and its chance of making the bid; the hand then gives what it
took. A simulation that foresees well predicts as many points and contracts made as were
taken, less the winner's curse its ``OPTIMISM`` corrects (the raw prediction, printed here,
is higher by that). Split by whether the bidder was the dealer.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.players.heuristic import HeuristicPlayer
from pedro.variants.options import make_ruleset


@dataclass(frozen=True)
class Contract:
    dealer: bool
    bid: int
    predicted_points: float
    predicted_made: float
    points: int
    made: bool


def contracts(variant: str, deals: int, opponent: str) -> list[Contract]:
    """``heuristic``'s contracts on the first hand of each deal, both seatings."""
    rules = make_ruleset(variant)
    found: list[Contract] = []
    for deal in range(deals):
        for mine in (0, 1):
            state = GameState(rules, seed=deal)
            players = [
                HeuristicPlayer(deal * 16 + s) if s % 2 == mine else make_player(opponent, deal * 16 + s)
                for s in range(rules.players)
            ]
            named: dict[int, tuple[float, float, int]] = {}
            while not state.results:
                seat = state.current_player
                player = players[seat]
                if state.phase == Phase.TRUMP and isinstance(player, HeuristicPlayer):
                    obs = state.observation(seat)
                    action = choose(player, state)
                    state.apply(action)
                    contract = state.contract
                    assert contract is not None
                    estimate = player.estimator(obs).suit_estimate(state.trump or 0)
                    side = rules.side_of(seat)
                    named[seat] = (estimate.mean(side), estimate.chance(side, contract.value), side)
                    continue
                state.apply(choose(player, state))
            result = state.results[0]
            if result.bidder is None or result.bidder not in named or result.bid is None:
                continue
            mean, chance, side = named[result.bidder]
            dealer = result.bidder == result.dealer
            found.append(Contract(dealer, result.bid, mean, chance, result.points[side], bool(result.made)))
    return found


def summary(label: str, found: list[Contract]) -> str:
    if not found:
        return f"{label:28} none"
    mean = statistics.mean
    expected, taken = mean(c.predicted_points for c in found), mean(c.points for c in found)
    points = f"points {expected:6.2f} predicted, {taken:6.2f} taken"
    chance, share = mean(c.predicted_made for c in found), mean(c.made for c in found)
    made = f"made {chance:4.0%} predicted, {share:4.0%} made"
    return f"{label:28} {len(found):4}  {points};  {made}; average bid {mean(c.bid for c in found):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="dom_pedro")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--opponent", default="basic", help="the player in the other seats")
    args = parser.parse_args()
    found = contracts(args.variant, args.deals, args.opponent)
    print(f"{args.variant}: heuristic's contracts against {args.opponent}, {args.deals} deals x 2 seatings")
    print(summary("all", found))
    print(summary("bidder was the dealer", [c for c in found if c.dealer]))
    print(summary("bidder was not the dealer", [c for c in found if not c.dealer]))


if __name__ == "__main__":
    main()
