"""The expert's own calls: ``heuristic``'s simulation, each contract valued as the expert plays it.

**Calls and trumps** are chosen by ``heuristic``'s simulation (``players.bidding``:
sampled deals that fit the calls heard, every legal call scored by the engine's
own scoring against the game score), but each contract's hand is valued the
way the expert will play it: after the exchange (the players' own exchange
choices), by the exact solver on the sampled world, less the measured
declarer's bias of that perfect-information value (``players.solved_play``;
``SolvedValues``). More deals while the best call is unclear and a guard on
bidding over passing (``SolvedBidder``) stand in for ``heuristic``'s
winner's-curse share (``optimism``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pedro.engine.actions import PASS
from pedro.engine.observation import Observation
from pedro.players.bidding import CallValue, Estimator, evaluate_calls
from pedro.players.card_search import TIE
from pedro.players.heuristic import SimulatedBidder, best_call
from pedro.players.paired_stats import paired_difference, paired_lead
from pedro.players.simulation import PlayValuation
from pedro.players.solved_play import CountedSolvedPoints, declarer_bias
from pedro.variants.model import Ruleset

#: The expert's bidding (``SolvedBidder.call_values``): deals added at a time while the best call
#: is not clear; the deals a call may always be valued on; the work (``solved_play``'s solver
#: nodes and valuations) that buys more deals, up to the most (``affordable_deals``); and how many
#: standard errors make the best call clear from ``CLEAR_FROM`` deals on (``clear_bound``: more
#: before). ``BID_WORK`` is about 0.6 s of a core: 40 deals of a
#: cinch or 83 call cost about that already, while pidro and King Pedro (Canadian), whose calls
#: cost a third of it, go on to the most deals (docs/experiments/deals-bought-by-work.md).
BID_SAMPLES_STEP = 20
SURE_BID_SAMPLES = 40
BID_WORK = 3_000_000
MAX_BID_SAMPLES = 160
CLEAR_Z = 2.0
CLEAR_FROM = 80
#: A review of a call made (``estimates`` with the call in ``include``): more deals, this many at
#: a time, while the call trails the best and its cost's standard error is above ``JUDGE_ERROR``
#: points of score, up to ``JUDGE_DEALS`` deals (``judged_calls``).
JUDGE_STEP = 40
JUDGE_ERROR = 0.75
JUDGE_DEALS = 240
#: A bid is made over passing only when it leads passing by this many standard errors on the
#: deals drawn (``SolvedBidder.bid``).
BID_OVER_PASS_Z = 1.0


class SolvedValues:
    """The solver's value after the exchange, and its measured bias (``players.solved_play``).

    No share comes off its own calls: more deals while the best call is unclear
    (``SolvedBidder.call_values``) and the bid-over-pass guard (``SolvedBidder.bid``) answer the
    winner's curse already, and ``OPTIMISM`` on top of them passed hands worth a bid
    (docs/strength.md, "The expert's own calls")."""

    optimism = 0.0

    def valuation(self, rules: Ruleset) -> tuple[PlayValuation, float]:
        return CountedSolvedPoints(), declarer_bias(rules)


class SolvedBidder:
    """The expert's calls: ``simulation`` (a ``SimulatedBidder`` valuing contracts by
    ``SolvedValues``) on more deals while the best call is unclear, and a pass where the best bid
    does not clearly beat passing. Trumps are named as ``simulation`` names them, on the deals the
    contract was won on."""

    def __init__(self, simulation: SimulatedBidder) -> None:
        self.simulation = simulation

    def estimator(self, obs: Observation) -> Estimator:
        return self.simulation.estimator(obs)

    def call_values(self, obs: Observation, legal: Sequence[int]) -> list[CallValue]:
        """``heuristic``'s simulated call values on this player's valuation, with more sampled deals
        while the best call is not clearly better than the next (``calls_are_clear``).

        On 20 deals the value of a call less passing varies by some 4 points (a standard
        deviation, in pidro) from one draw of deals to another: enough to overcall a hand that
        is worth a pass on other deals (a "wild overcall"); in King Pedro (Canadian)
        by some 11 points on 40 deals. Deals are added ``BID_SAMPLES_STEP`` at a time, while
        ``affordable_deals`` allows, until passing or bidding, whichever is best, leads the other
        by ``clear_bound`` standard errors of their difference on common deals.
        """
        values = self.simulation.call_values(obs, legal)
        est = self.estimator(obs)
        while needs_more_deals(values, len(est.samples), affordable_deals(est)):
            est.extend(obs, BID_SAMPLES_STEP)
            values = self.simulation.call_values(obs, legal)
        return values

    def bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        """The best call by value, but a pass where the best bid leads passing by less than
        ``BID_OVER_PASS_Z`` standard errors on the same deals.

        Such a bid is worth about as much as passing by the estimate itself, so passing it
        costs little, while the noise of the estimate (not the hand) is what made it best
        often enough to overcall a hand worth a pass (as seen in pidro).
        """
        values = self.call_values(obs, legal)
        if not values:
            return self.simulation.fallback.bid(obs, legal)
        call = best_call(values, legal)
        if call == PASS or PASS not in legal:
            return call
        by_action = {c.action: c for c in values}
        chosen, passing = by_action.get(call), by_action.get(PASS)
        if chosen is None or passing is None or bid_beats_pass(chosen, passing):
            return call
        return PASS

    def name_trump(self, obs: Observation, legal: tuple[int, ...]) -> int:
        return self.simulation.name_trump(obs, legal)


def judged_calls(
    est: Estimator, obs: Observation, legal: Sequence[int], include: Sequence[int]
) -> list[CallValue]:
    """Every legal call's value; a call in ``include`` (the one a record made, under review)
    that trails the best is valued on more deals, ``JUDGE_STEP`` at a time, until the
    standard error of its cost is at most ``JUDGE_ERROR`` or ``JUDGE_DEALS`` deals are drawn.

    On the 20 to 160 deals a call is made on, a call's value less the best moves by several
    points from one draw to the next (docs/strength.md, "Wild calls"): a review would blame
    good calls for the draw's noise. Calls that are best on those deals cost nothing more."""
    calls = evaluate_calls(est, obs, legal)
    while len(est.samples) < JUDGE_DEALS:
        best = max(calls, key=lambda c: c.value)
        made = next((c for c in calls if c.action in include), None)
        if made is None or made.value >= best.value - TIE:
            break
        if paired_difference(best.per_sample, made.per_sample)[1] <= JUDGE_ERROR:
            break
        est.extend(obs, min(JUDGE_STEP, JUDGE_DEALS - len(est.samples)))
        calls = evaluate_calls(est, obs, legal)
    return calls


def affordable_deals(est: Estimator) -> int:
    """The most deals a call may be valued on: ``SURE_BID_SAMPLES``, or as many more as ``BID_WORK``
    pays for at the work a deal has cost so far, up to ``MAX_BID_SAMPLES``.

    One deal's estimate of bidding less passing spreads far wider in some variants than in others
    (a standard deviation near 70 points in King Pedro (Canadian), near 20 in pidro), so a fixed
    number of deals leaves the noisy ones too few, while in cinch and 83, where a deal's solves
    cost the most, 40 deals already take what a call may. Counting work, not deals, gives each
    variant what it can afford without a table of variants. Work, not time: the same seed makes
    the same call on any machine.

    >>> est = type("E", (), {"samples": [None] * 40, "valuation": CountedSolvedPoints()})()
    >>> est.valuation.work = 40 * 20_000  # King Pedro (Canadian)-like: 20,000 a deal
    >>> affordable_deals(est)
    150
    >>> est.valuation.work = 40 * 100_000  # 83-like
    >>> affordable_deals(est)
    40
    """
    meter = est.valuation
    done = len(est.samples)
    if not isinstance(meter, CountedSolvedPoints) or not done or meter.work <= 0:
        return SURE_BID_SAMPLES
    return max(SURE_BID_SAMPLES, min(MAX_BID_SAMPLES, BID_WORK * done // meter.work))


def bid_beats_pass(bid: CallValue, passing: CallValue) -> bool:
    """Whether ``bid`` leads passing by ``BID_OVER_PASS_Z`` standard errors on the same deals: the
    expert's own calls pass a best bid that does not (``SolvedBidder.bid``)."""
    return paired_lead(bid.per_sample, passing.per_sample) >= BID_OVER_PASS_Z


def clear_bound(deals: int) -> float:
    """How many standard errors make a call clear on ``deals`` deals: ``CLEAR_Z`` from
    ``CLEAR_FROM`` deals on, and more before, in proportion to one over the root of the deals (an
    O'Brien-Fleming-like bound).

    The call is looked at again every ``BID_SAMPLES_STEP`` deals, up to eight times, and stops at
    the first clear look; a flat bound would let an extreme early draw stop it several times as
    often as one test's error rate (docs/experiments/clear-bound.md). Late looks keep the
    flat bound, so a call that stays unclear costs no more deals than before.

    >>> [round(clear_bound(n), 2) for n in (20, 40, 60, 80, 160)]
    [4.0, 2.83, 2.31, 2.0, 2.0]
    """
    return CLEAR_Z * math.sqrt(max(1.0, CLEAR_FROM / max(1, deals)))


def needs_more_deals(values: Sequence[CallValue], drawn: int, most: int, z: float | None = None) -> bool:
    """Whether a call valued on ``drawn`` deals gets ``BID_SAMPLES_STEP`` more: it is not clear yet
    (``calls_are_clear`` with ``z``) and ``most`` deals allow them."""
    return not calls_are_clear(values, z) and drawn + BID_SAMPLES_STEP <= most


def calls_are_clear(values: Sequence[CallValue], z: float | None = None) -> bool:
    """Whether the best call leads the best call of the other kind (passing against bidding) by
    ``z`` standard errors of their difference on the same deals (``clear_bound`` of the deals
    valued unless given; the next best call where passing is not allowed; always, with one call
    or without per-deal values).

    Only bidding against passing is made clear: that is where a noisy estimate costs a contract
    (a wild overcall, or a good hand left to the opponents); choosing between neighbouring bids
    on fewer deals costs less."""
    if len(values) < 2:
        return True
    ranked = sorted(values, key=lambda c: -c.value)
    top = ranked[0]
    passing = any(c.action == PASS for c in ranked)
    rival = next((c for c in ranked[1:] if (c.action == PASS) != (top.action == PASS)), None)
    if rival is None:
        if passing:
            return True
        rival = ranked[1]
    bound = clear_bound(len(top.per_sample)) if z is None else z
    return paired_lead(top.per_sample, rival.per_sample) >= bound


__all__ = [
    "SolvedBidder",
    "SolvedValues",
    "affordable_deals",
    "bid_beats_pass",
    "calls_are_clear",
    "clear_bound",
    "judged_calls",
    "needs_more_deals",
]
