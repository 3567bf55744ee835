"""How well the bidding simulation foresees the contracts a player wins: predicted against taken.

    python benchmarks/bid_calibration.py --variant dom_pedro --deals 100 --opponent basic
    python benchmarks/bid_calibration.py --variant eighty_three --player expert \\
        --opponent expert:bid=heuristic --seed 900001 --deals 100 --jobs 2

Each deal ``k`` (``GameState(rules, seed=seed + k)``, the players seeded as
``pedro tournament`` seeds them, so the plays are a strength run's own) is
played twice, ``--player`` in the even seats then in the odd ones,
``--opponent`` in the others, for one hand. At each bid ``--player`` makes,
its estimator's sampled deals for the call (the deals its calls were valued
on, the suit the value was best with) give the points its side expects to
take and the share of deals on which the engine's own scoring calls the
contract made; the last bid of the seat that ends up holding the contract is
its prediction, and the hand then gives what it took. A simulation that
foresees well predicts as many points and contracts made as were taken. For
``heuristic`` the raw prediction is higher by the winner's curse its
``OPTIMISM`` corrects; ``expert`` takes no such share, and in 83 no declarer's
bias either, so there the prediction is the solver's own. Split by whether
the bidder was the dealer, then by band of bids (as ``strength.py`` bands
them): where a made share falls short, this tells whether the player knew.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
from dataclasses import dataclass
from functools import partial

from pedro.engine.actions import PASS
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, HeuristicPlayer, choose, make_player
from pedro.players.bidding import made_share
from pedro.players.heuristic import ValuedBidder
from pedro.variants.options import make_ruleset
from strength import bid_bands


@dataclass(frozen=True)
class Contract:
    dealer: bool
    bid: int
    predicted_points: float
    predicted_made: float
    #: the bid's value less passing's on the same deals (``bidding.utility``), as the bidder saw it
    lead_over_pass: float | None
    points: int
    made: bool


def prediction(
    bidder: ValuedBidder, state: GameState, action: int
) -> tuple[float, float, float | None] | None:
    """(points, share made, lead over passing) the player's sampled deals gave the bid ``action`` it
    just chose; None for a bid its values did not choose (``heuristic``'s rule of thumb where
    nothing was valued)."""
    obs = state.observation(state.current_player)
    values = {v.action: v for v in bidder.call_values(obs, obs.legal)}  # cached: no new deals
    chosen = values.get(action)
    if chosen is None or chosen.suit is None:
        return None
    est = bidder.estimator(obs)
    made = made_share(est, obs.seat, chosen)
    if made is None:
        return None
    side = obs.rules.side_of(obs.seat)
    points = statistics.mean(p[side] for p in est.suit_estimate(chosen.suit).points)
    lead = chosen.value - values[PASS].value if PASS in values else None
    return points, made, lead


def deal_contracts(variant: str, player_name: str, opponent: str, seed: int, deal: int) -> list[Contract]:
    """The player's contracts on the first hand of one deal, both seatings."""
    rules = make_ruleset(variant)
    found: list[Contract] = []
    game_seed = seed + deal
    for mine in (0, 1):
        state = GameState(rules, seed=game_seed)
        players = [
            make_player(player_name if s % 2 == mine else opponent, game_seed * 16 + s)
            for s in range(rules.players)
        ]
        last: dict[int, tuple[float, float, float | None]] = {}
        while not state.results:
            seat = state.current_player
            player = players[seat]
            action = choose(player, state)
            if (
                state.phase == Phase.AUCTION
                and action != PASS
                and seat % 2 == mine
                and isinstance(player, HeuristicPlayer | ExpertPlayer)
            ):
                foreseen = prediction(player.bidder, state, action)
                if foreseen is not None:
                    last[seat] = foreseen
            state.apply(action)
        result = state.results[0]
        if result.bidder is None or result.bidder not in last or result.bid is None:
            continue
        points, chance, lead = last[result.bidder]
        side = rules.side_of(result.bidder)
        dealer = result.bidder == result.dealer
        taken = result.points[side]
        found.append(Contract(dealer, result.bid, points, chance, lead, taken, bool(result.made)))
    return found


def contracts(
    variant: str, deals: int, opponent: str, player: str = "heuristic", seed: int = 0, jobs: int = 1
) -> list[Contract]:
    """The player's contracts on the first hand of each deal, both seatings."""
    one = partial(deal_contracts, variant, player, opponent, seed)
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            per_deal = pool.map(one, range(deals), chunksize=1)
    else:
        per_deal = [one(deal) for deal in range(deals)]
    return [c for found in per_deal for c in found]


def summary(label: str, found: list[Contract]) -> str:
    if not found:
        return f"{label:28} none"
    mean = statistics.mean
    expected, taken = mean(c.predicted_points for c in found), mean(c.points for c in found)
    points = f"points {expected:6.2f} predicted, {taken:6.2f} taken"
    chance, share = mean(c.predicted_made for c in found), mean(c.made for c in found)
    made = f"made {chance:4.0%} predicted, {share:4.0%} made"
    leads = [c.lead_over_pass for c in found if c.lead_over_pass is not None]
    lead = f"; lead over passing {mean(leads):+6.2f}" if leads else ""
    return f"{label:28} {len(found):4}  {points};  {made}; average bid {mean(c.bid for c in found):.2f}{lead}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="dom_pedro")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--player", default="heuristic", help="the bidder measured (heuristic or expert)")
    parser.add_argument("--opponent", default="basic", help="the player in the other seats")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the deals")
    args = parser.parse_args()
    if not isinstance(make_player(args.player, 0), HeuristicPlayer | ExpertPlayer):
        parser.error(f"--player {args.player!r} does not bid by simulation: heuristic or expert")
    found = contracts(args.variant, args.deals, args.opponent, args.player, args.seed, args.jobs)
    print(
        f"{args.variant}: {args.player}'s contracts against {args.opponent}, "
        f"{args.deals} deals (seeds {args.seed} on) x 2 seatings"
    )
    print(summary("all", found))
    print(summary("bidder was the dealer", [c for c in found if c.dealer]))
    print(summary("bidder was not the dealer", [c for c in found if not c.dealer]))
    if found:
        rules = make_ruleset(args.variant)
        low = min(rules.min_bid, *(c.bid for c in found))
        for lo, hi in bid_bands(low, max(c.bid for c in found), rules.total_points):
            band = [c for c in found if lo <= c.bid <= hi]
            if band:
                print(summary(f"bids {lo}" if lo == hi else f"bids {lo}-{hi}", band))


if __name__ == "__main__":
    main()
