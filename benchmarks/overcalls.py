"""Wild calls: how often a bidder makes a call that the expert's own analysis values far below passing.

    python benchmarks/overcalls.py --auctions 200 --seed 70000 --variants pidro,cinch
    python benchmarks/overcalls.py --player expert:bid=heuristic --auctions 200

For auction k of a variant, ``GameState(rules, seed=seed + k)``: the player
(seeded by the auction and the seat) makes every call of the first hand. Each
call that had a choice and is not a pass is then valued as ``pedro analyze``
values it: by ``expert`` with its own seed (``--analysis-seed``, 0 as in
``pedro analyze``), so on samples other than the caller's. A call is *wild*
when that analysis puts it ``--margin`` points (5 unless told) or more below
passing, in the expert's unit for calls: the expected score change of the
side less the opponents'. ``--analysis-deals N`` values each call on N deals
instead (the analysis's own first): on its usual 20 to 40 deals the
analysis's value of a call less passing moves by several points from one
draw to the next, as much as the margin (docs/strength.md). Prints per
variant the auctions, the bids made (calls other than pass), the wild ones
and the worst, and each wild call with its auction, seat, hand and values.
"""

from __future__ import annotations

import argparse

from pedro.cards import format_cards
from pedro.engine.actions import PASS, action_words
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, choose, make_player
from pedro.players.bidding import evaluate_calls
from pedro.variants.options import make_ruleset


def analysed_calls(analyst: ExpertPlayer, obs: Observation, action: int, deals: int) -> dict[int, float]:
    """Each call's value by the analysis: ``pedro analyze``'s own (``deals`` 0), or on that
    many deals (the analysis's first ones kept)."""
    if not deals:
        est = analyst.estimates(obs, include=(action,))
        return dict(est.values) if est is not None else {}
    assert isinstance(obs.legal, tuple)
    analyst.call_values(obs, obs.legal)  # the analysis's own deals, then more of them
    estimator = analyst.estimator(obs)
    estimator.extend(obs, max(0, deals - len(estimator.samples)))
    return {c.action: c.value for c in evaluate_calls(estimator, obs, obs.legal)}


def wild_calls(
    variant: str, spec: str, seed: int, analyst: ExpertPlayer, margin: float, deals: int = 0
) -> tuple[int, list[tuple[float, str]]]:
    """(bids made, [(how far below passing, description)] of the wild ones) in one auction."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(spec, seed * 16 + s) for s in range(rules.players)]
    bids = 0
    wild: list[tuple[float, str]] = []
    while not state.is_over and state.hand_index == 0 and state.phase == Phase.AUCTION:
        seat = state.current_player
        legal = state.legal_actions()
        action = choose(seats[seat], state)
        if len(legal) > 1 and action != PASS and PASS in legal:
            bids += 1
            obs = state.observation(seat)
            values = analysed_calls(analyst, obs, action, deals)
            if action in values and PASS in values:
                below = values[PASS] - values[action]
                if below >= margin:
                    calls = " ".join(f"{s}:{action_words(a, rules.max_bid)}" for s, a in obs.calls)
                    wild.append(
                        (
                            below,
                            f"seed {seed} seat {seat} hand {format_cards(obs.hand)} after [{calls}] "
                            f"scores {list(obs.scores)}: {action_words(action, rules.max_bid)} "
                            f"{values[action]:+.2f} vs pass {values[PASS]:+.2f}",
                        )
                    )
        state.apply(action)
    return bids, wild


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--auctions", type=int, default=200)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--player", default="expert")
    parser.add_argument("--analysis-seed", type=int, default=0)
    parser.add_argument("--margin", type=float, default=5.0)
    parser.add_argument("--analysis-deals", type=int, default=0, help="0: the analysis's own deals")
    args = parser.parse_args()
    deals = f"{args.analysis_deals} deals" if args.analysis_deals else "its own deals"
    analysis = f"analysis by expert seed {args.analysis_seed} on {deals}"
    print(f"player {args.player}, {analysis}, margin {args.margin}")
    for variant in args.variants.split(","):
        analyst = ExpertPlayer(args.analysis_seed)
        bids = 0
        wild: list[tuple[float, str]] = []
        for k in range(args.auctions):
            made, found = wild_calls(
                variant, args.player, args.seed + k, analyst, args.margin, args.analysis_deals
            )
            bids += made
            wild += found
        worst = max((w for w, _ in wild), default=0.0)
        print(
            f"{variant}: {args.auctions} auctions, {bids} bids, {len(wild)} wild "
            f"(≥ {args.margin} below passing), worst {worst:.2f}",
            flush=True,
        )
        for _, text in sorted(wild, reverse=True):
            print(f"  {text}", flush=True)


if __name__ == "__main__":
    main()
