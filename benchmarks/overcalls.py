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
draw to the next, as much as the margin (docs/strength.md). Those deals cost
seconds a call, so for the long counts ``--screen-z Z`` draws them only for a
call whose own deals leave it possibly wild: passing's lead over it there,
plus Z standard errors of that lead, reaches the margin. Prints per variant
the auctions, the bids made (calls other than pass), how many were valued on
the more deals, the wild ones and the worst, and each wild call with its
auction, seat, hand and values. ``--jobs`` plays that many auctions at once.
``--out DIR`` keeps each auction's result as a line of a file per variant and
setting, and skips the auctions already there, so a count of hours can be
stopped and resumed; every hundred auctions a line tells how far it is.

    python benchmarks/overcalls.py --auctions 2000 --variants cinch --analysis-deals 100 --screen-z 2 \
        --jobs 2 --out overcall-results
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from pathlib import Path
from typing import Any

from pedro.cards import format_cards
from pedro.engine.actions import PASS, action_words
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, choose, make_player
from pedro.players.bidding import CallValue, evaluate_calls
from pedro.variants.options import make_ruleset


def could_be_wild(values: dict[int, CallValue], action: int, margin: float, z: float) -> bool:
    """Whether passing could lead ``action`` by ``margin`` points: the mean lead over the same
    deals plus ``z`` standard errors reaches it (a call without per-deal values could)."""
    call, passing = values.get(action), values.get(PASS)
    if call is None or passing is None or len(call.per_sample) < 2:
        return True
    leads = [p - c for p, c in zip(passing.per_sample, call.per_sample, strict=True)]
    n = len(leads)
    mean = sum(leads) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in leads) / (n - 1) / n)
    return mean + z * spread >= margin


def analysed_calls(
    analyst: ExpertPlayer,
    obs: Observation,
    action: int,
    deals: int,
    screen: tuple[float, float] | None = None,
) -> tuple[dict[int, float], bool]:
    """Each call's value by the analysis: ``pedro analyze``'s own (``deals`` 0), or on that
    many deals (the analysis's first ones kept), and whether those more deals were drawn.

    With ``screen`` (margin, z) the more deals are drawn only for a call that the analysis's own
    deals leave a chance of being wild (``could_be_wild``): the rest are valued on its own."""
    if not deals:
        est = analyst.estimates(obs, include=(action,))
        return (dict(est.values) if est is not None else {}), False
    assert isinstance(obs.legal, tuple)
    own = {c.action: c for c in analyst.call_values(obs, obs.legal)}
    if screen is not None and not could_be_wild(own, action, *screen):
        return {a: c.value for a, c in own.items()}, False
    estimator = analyst.estimator(obs)  # the analysis's own deals, then more of them
    estimator.extend(obs, max(0, deals - len(estimator.samples)))
    return {c.action: c.value for c in evaluate_calls(estimator, obs, obs.legal)}, True


def wild_calls(
    variant: str,
    spec: str,
    seed: int,
    analyst: ExpertPlayer,
    margin: float,
    deals: int = 0,
    screen_z: float = 0.0,
) -> tuple[int, int, list[tuple[float, str]]]:
    """(bids made, bids valued on the more deals, [(how far below passing, description)] of the
    wild ones) in one auction."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(spec, seed * 16 + s) for s in range(rules.players)]
    bids = extended = 0
    screen = (margin, screen_z) if screen_z > 0 else None
    wild: list[tuple[float, str]] = []
    while not state.is_over and state.hand_index == 0 and state.phase == Phase.AUCTION:
        seat = state.current_player
        legal = state.legal_actions()
        action = choose(seats[seat], state)
        if len(legal) > 1 and action != PASS and PASS in legal:
            bids += 1
            obs = state.observation(seat)
            values, more = analysed_calls(analyst, obs, action, deals, screen)
            extended += more
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
    return bids, extended, wild


Auction = tuple[int, int, list[tuple[float, str]]]


def _auction(job: tuple[str, str, int, int, float, int, float]) -> tuple[int, Auction]:
    variant, spec, seed, analysis_seed, margin, deals, screen_z = job
    return seed, wild_calls(variant, spec, seed, ExpertPlayer(analysis_seed), margin, deals, screen_z)


def results_file(out: Path, variant: str, args: argparse.Namespace) -> Path:
    """One file per variant and setting: an auction's result holds only for the setting it had."""
    setting = f"{args.player}-a{args.analysis_seed}-m{args.margin}-d{args.analysis_deals}-z{args.screen_z}"
    return out / f"{variant}-{setting.replace(':', '-').replace('=', '-')}.jsonl"


def recorded(path: Path | None) -> dict[int, Auction]:
    """The auctions already in ``path`` by seed (a line cut short by a stop is played again)."""
    done: dict[int, Auction] = {}
    text = path.read_text() if path is not None and path.exists() else ""
    if path is not None and text and not text.endswith("\n"):
        with path.open("a") as file:
            file.write("\n")  # the next result starts a line of its own
    lines = text.splitlines()
    for line in lines:
        try:
            doc: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[doc["seed"]] = (doc["bids"], doc["extended"], [(w, text) for w, text in doc["wild"]])
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--auctions", type=int, default=200)
    parser.add_argument("--variants", default="cinch,pidro,king_pedro_canadian,eighty_three")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--player", default="expert")
    parser.add_argument("--analysis-seed", type=int, default=0)
    parser.add_argument("--margin", type=float, default=5.0)
    parser.add_argument("--analysis-deals", type=int, default=0, help="0: the analysis's own deals")
    parser.add_argument(
        "--screen-z",
        type=float,
        default=0.0,
        help="value a call on --analysis-deals only if its own deals leave passing within this many "
        "standard errors of leading it by the margin (0: every call)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="auctions played at once")
    parser.add_argument("--out", type=Path, help="folder that keeps each auction's result, to resume")
    args = parser.parse_args()
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    deals = f"{args.analysis_deals} deals" if args.analysis_deals else "its own deals"
    if args.analysis_deals and args.screen_z > 0:
        deals += f" where its own leave it possible at {args.screen_z} standard errors"
    print(
        f"player {args.player}, analysis by expert seed {args.analysis_seed} on {deals}, margin {args.margin}"
    )
    for variant in args.variants.split(","):
        start = time.perf_counter()
        path = results_file(args.out, variant, args) if args.out is not None else None
        seeds = range(args.seed, args.seed + args.auctions)
        done = recorded(path)
        if done:
            print(
                f"  {variant}: {sum(seed in done for seed in seeds)} auctions already in {path}", flush=True
            )
        jobs = [
            (variant, args.player, seed, args.analysis_seed, args.margin, args.analysis_deals, args.screen_z)
            for seed in seeds
            if seed not in done
        ]
        with multiprocessing.Pool(args.jobs) as pool:
            for seed, found in pool.imap_unordered(_auction, jobs):
                done[seed] = found
                if path is not None:
                    line = {"seed": seed, "bids": found[0], "extended": found[1], "wild": found[2]}
                    with path.open("a") as file:
                        file.write(json.dumps(line) + "\n")
                if len(done) % 100 == 0:
                    print(
                        f"  {variant}: {len(done)} auctions ({time.perf_counter() - start:.0f} s)", flush=True
                    )
        auctions = [done[seed] for seed in seeds]
        bids = sum(b for b, _, _ in auctions)
        extended = sum(e for _, e, _ in auctions)
        wild = [w for _, _, found in auctions for w in found]
        worst = max((w for w, _ in wild), default=0.0)
        more = f", {extended} of them valued on {args.analysis_deals} deals" if args.analysis_deals else ""
        print(
            f"{variant}: {args.auctions} auctions, {bids} bids{more}, {len(wild)} wild "
            f"(≥ {args.margin} below passing), worst {worst:.2f} ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        for _, text in sorted(wild, reverse=True):
            print(f"  {text}", flush=True)


if __name__ == "__main__":
    main()
