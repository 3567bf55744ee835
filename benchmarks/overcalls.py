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
draw to the next, as much as the margin (docs/experiments/wild-calls.md). Those deals cost
seconds a call, so for the long counts ``--screen-z Z`` draws them only for a
call whose own deals leave it possibly wild: passing's lead over it there,
plus Z standard errors of that lead, reaches the margin. Prints per variant
the auctions, the bids made (calls other than pass), how many were valued on
the more deals, the wild ones and the worst, and each wild call with its
auction, seat, hand and values, and the standard error of passing's lead:
a call 5 points below on 400 deals with an error near 3.5 (King Pedro
(Canadian)'s) is not shown to be wild. ``--confirm-deals N`` values each
call found wild again on N deals (the first ones kept) and counts it only if
it is still wild there: out of thousands of calls, those whose first deals
happened to put them far below passing are the ones flagged, so a second,
larger look is what tells a wild call from a lucky draw of the judge's.
``--jobs`` plays that many auctions at once.
``--out DIR`` keeps each auction's result as a line of a file per variant and
setting, and skips the auctions already there, so a count of hours can be
stopped and resumed; every hundred auctions a line tells how far it is.

    python benchmarks/overcalls.py --auctions 2000 --variants cinch --analysis-deals 100 --screen-z 2 \
        --confirm-deals 3200 --jobs 2 --out overcall-results
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from dataclasses import asdict, dataclass, field
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


def passing_lead(values: dict[int, CallValue], action: int) -> tuple[float, float]:
    """How far passing leads ``action`` in the analysis, deal by deal, and that lead's standard
    error (infinite without per-deal values to measure it on)."""
    call, passing = values[action], values[PASS]
    if len(call.per_sample) < 2 or len(call.per_sample) != len(passing.per_sample):
        return passing.value - call.value, math.inf
    leads = [p - c for p, c in zip(passing.per_sample, call.per_sample, strict=True)]
    n = len(leads)
    mean = sum(leads) / n
    return mean, math.sqrt(sum((d - mean) ** 2 for d in leads) / (n - 1) / n)


def could_be_wild(values: dict[int, CallValue], action: int, margin: float, z: float) -> bool:
    """Whether passing could lead ``action`` by ``margin`` points: the mean lead over the same
    deals plus ``z`` standard errors reaches it (a call without per-deal values could)."""
    if action not in values or PASS not in values:
        return True
    mean, error = passing_lead(values, action)
    return mean + z * error >= margin


def analysed_calls(
    analyst: ExpertPlayer,
    obs: Observation,
    action: int,
    deals: int,
    screen: tuple[float, float] | None = None,
) -> tuple[dict[int, CallValue], bool]:
    """Each call's value by the analysis: ``pedro analyze``'s own (``deals`` 0), or on that
    many deals (the analysis's first ones kept), and whether those more deals were drawn.

    With ``screen`` (margin, z) the more deals are drawn only for a call that the analysis's own
    deals leave a chance of being wild (``could_be_wild``): the rest are valued on its own."""
    if not deals:
        est = analyst.estimates(obs, include=(action,))
        values = est.values if est is not None else {}
        return {a: CallValue(a, value, None) for a, value in values.items()}, False
    assert isinstance(obs.legal, tuple)
    own = {c.action: c for c in analyst.bidder.call_values(obs, obs.legal)}
    if screen is not None and not could_be_wild(own, action, *screen):
        return own, False
    estimator = analyst.bidder.estimator(obs)  # the analysis's own deals, then more of them
    estimator.extend(obs, max(0, deals - len(estimator.samples)))
    return {c.action: c for c in evaluate_calls(estimator, obs, obs.legal)}, True


@dataclass(frozen=True)
class Judge:
    """How the analysis judges a call: its seed, the margin below passing that makes a call wild,
    the deals it values a call on (0: its own), the screen (0: none), and the deals a wild call is
    valued on again before it counts (0: not again)."""

    analysis_seed: int = 0
    margin: float = 5.0
    deals: int = 0
    screen_z: float = 0.0
    confirm: int = 0


@dataclass
class Auction:
    """One auction's count: bids made, bids valued on the more deals, the wild calls as (how far
    below passing, description), and the calls flagged that the confirming deals cleared."""

    bids: int = 0
    extended: int = 0
    wild: list[tuple[float, str]] = field(default_factory=list)
    cleared: int = 0


def wild_calls(variant: str, spec: str, seed: int, judge: Judge) -> Auction:
    """Every bid of one auction's first hand, judged."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(spec, seed * 16 + s) for s in range(rules.players)]
    analyst = ExpertPlayer(judge.analysis_seed)
    screen = (judge.margin, judge.screen_z) if judge.screen_z > 0 else None
    found = Auction()
    while not state.is_over and state.hand_index == 0 and state.phase == Phase.AUCTION:
        seat = state.current_player
        legal = state.legal_actions()
        action = choose(seats[seat], state)
        if len(legal) > 1 and action != PASS and PASS in legal:
            found.bids += 1
            obs = state.observation(seat)
            values, more = analysed_calls(analyst, obs, action, judge.deals, screen)
            found.extended += more
            below = below_passing(values, action)
            if below >= judge.margin and judge.confirm > judge.deals:
                values, _ = analysed_calls(analyst, obs, action, judge.confirm)
                below = below_passing(values, action)
                found.cleared += below < judge.margin
            if below >= judge.margin:
                _, error = passing_lead(values, action)
                sure = f" (passing's lead ± {error:.2f})" if math.isfinite(error) else ""
                calls = " ".join(f"{s}:{action_words(a, rules.max_bid)}" for s, a in obs.calls)
                found.wild.append(
                    (
                        below,
                        f"seed {seed} seat {seat} hand {format_cards(obs.hand)} after [{calls}] "
                        f"scores {list(obs.scores)}: {action_words(action, rules.max_bid)} "
                        f"{values[action].value:+.2f} vs pass {values[PASS].value:+.2f}{sure}",
                    )
                )
        state.apply(action)
    return found


def below_passing(values: dict[int, CallValue], action: int) -> float:
    """How far the analysis puts ``action`` below passing (minus infinity where either was not
    valued: nothing to judge)."""
    if action not in values or PASS not in values:
        return -math.inf
    return values[PASS].value - values[action].value


def _auction(job: tuple[str, str, int, Judge]) -> tuple[int, Auction]:
    variant, spec, seed, judge = job
    return seed, wild_calls(variant, spec, seed, judge)


def results_file(out: Path, variant: str, args: argparse.Namespace) -> Path:
    """One file per variant and setting: an auction's result holds only for the setting it had."""
    setting = f"{args.player}-a{args.analysis_seed}-m{args.margin}-d{args.analysis_deals}-z{args.screen_z}"
    if args.confirm_deals:
        setting += f"-c{args.confirm_deals}"
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
        wild = [(below, text) for below, text in doc["wild"]]
        done[doc["seed"]] = Auction(doc["bids"], doc["extended"], wild, doc.get("cleared", 0))
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
    parser.add_argument(
        "--confirm-deals",
        type=int,
        default=0,
        help="value a call found wild again on this many deals (the first ones kept) and count it "
        "only if it is still wild there (0: no second look)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="auctions played at once")
    parser.add_argument("--out", type=Path, help="folder that keeps each auction's result, to resume")
    args = parser.parse_args()
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    deals = f"{args.analysis_deals} deals" if args.analysis_deals else "its own deals"
    if args.analysis_deals and args.screen_z > 0:
        deals += f" where its own leave it possible at {args.screen_z} standard errors"
    if args.confirm_deals:
        deals += f", a wild call again on {args.confirm_deals}"
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
        judge = Judge(args.analysis_seed, args.margin, args.analysis_deals, args.screen_z, args.confirm_deals)
        jobs = [(variant, args.player, seed, judge) for seed in seeds if seed not in done]
        with multiprocessing.Pool(args.jobs) as pool:
            for seed, found in pool.imap_unordered(_auction, jobs):
                done[seed] = found
                if path is not None:
                    line = {"seed": seed, **asdict(found)}
                    with path.open("a") as file:
                        file.write(json.dumps(line) + "\n")
                if len(done) % 100 == 0:
                    print(
                        f"  {variant}: {len(done)} auctions ({time.perf_counter() - start:.0f} s)", flush=True
                    )
        auctions = [done[seed] for seed in seeds]
        bids = sum(a.bids for a in auctions)
        extended = sum(a.extended for a in auctions)
        wild = [w for a in auctions for w in a.wild]
        worst = max((w for w, _ in wild), default=0.0)
        more = f", {extended} of them valued on {args.analysis_deals} deals" if args.analysis_deals else ""
        if args.confirm_deals:
            cleared = sum(a.cleared for a in auctions)
            more += f", {cleared} found wild and cleared on {args.confirm_deals}"
        print(
            f"{variant}: {args.auctions} auctions, {bids} bids{more}, {len(wild)} wild "
            f"(≥ {args.margin} below passing), worst {worst:.2f} ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        for _, text in sorted(wild, reverse=True):
            print(f"  {text}", flush=True)


if __name__ == "__main__":
    main()
