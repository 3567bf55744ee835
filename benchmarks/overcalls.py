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
side less the opponents'. Prints per variant the auctions, the bids made
(calls other than pass), the wild ones and the worst, and each wild call with
its auction, seat, hand and values.
"""

from __future__ import annotations

import argparse

from pedro.cards import format_cards
from pedro.engine.actions import PASS, action_words
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, choose, make_player
from pedro.variants.options import make_ruleset


def wild_calls(
    variant: str, spec: str, seed: int, analyst: ExpertPlayer, margin: float
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
            est = analyst.estimates(obs, include=(action,))
            if est is not None and action in est.values and PASS in est.values:
                below = est.values[PASS] - est.values[action]
                if below >= margin:
                    calls = " ".join(f"{s}:{action_words(a, rules.max_bid)}" for s, a in obs.calls)
                    wild.append(
                        (
                            below,
                            f"seed {seed} seat {seat} hand {format_cards(obs.hand)} after [{calls}] "
                            f"scores {list(obs.scores)}: {action_words(action, rules.max_bid)} "
                            f"{est.values[action]:+.2f} vs pass {est.values[PASS]:+.2f}",
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
    args = parser.parse_args()
    print(f"player {args.player}, analysis by expert seed {args.analysis_seed}, margin {args.margin}")
    for variant in args.variants.split(","):
        analyst = ExpertPlayer(args.analysis_seed)
        bids = 0
        wild: list[tuple[float, str]] = []
        for k in range(args.auctions):
            made, found = wild_calls(variant, args.player, args.seed + k, analyst, args.margin)
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
