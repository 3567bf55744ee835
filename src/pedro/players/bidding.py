"""Bidding and naming trumps by simulation: what each call is worth in score, on sampled deals.

**Estimates.** For the bidding seat's hand, ``K`` deals of the cards it
cannot see are sampled (uniformly; earlier calls weigh the samples as soft
evidence: a seat that bid should hold a hand worth its bid, a seat that
passed should not hold a strong one). On each sample the hand is played out
by ``simulation``: the seat declares a trump suit, and the exchange and the
play follow the given policy (the heuristic's own) for every seat. A
``SuitEstimate`` is the resulting distribution of points per side.

*Why a rollout and not the double-dummy solver (for ``heuristic``):* a
rollout plays the way the table will actually play (the declarer does not
see the defenders' cards), so it has none of the declarer's double-dummy
advantage that would need a correction, and it costs about 2 ms a hand. Its
noise is the policy's own; with common samples across the suits and the
calls it cancels out of the comparisons that decide.

*Pluggable play valuation.* How a sampled contract's hand is valued is the
estimator's ``valuation`` (``simulation.PlayValuation``): a rollout unless
told. ``expert`` passes the exact solver's value after the exchange
(``solved_play``), with ``declarer_bias``, the measured share of the points
in play by which that perfect-information value overstates the declarer's
side, moved back from whoever declares (its own contracts and the others'
alike, or passing would look worse than it is).

**What passing is worth.** On the same samples the other seats' hands are
known, so the auction after a pass is modelled: a seat still to speak bids
if its hand (``hand_strength.expected_points`` less a margin) reaches the next bid;
the strongest such seat, else the current high bidder, else a forced dealer,
declares its best suit (else the hand is thrown in). Its contract is played
out the same way. A bid of ours is taken to win the contract at its value
(a continuing auction asks again when it is overcalled; modelling the
overcalls of the seats still to speak pushed the bids up and lost score in
simulation against ``basic``), except where the dealer, still to speak, may
take it by equalling it (``dealer_may_equal``) and its hand reaches it: on
those deals the bid is worth the dealer's contract (``_dealer_takes``).
Without this, ``heuristic`` lost 0.74 points a hand to ``basic`` in Dom Pedro,
where the contracts it bid for went to the dealer (docs/experiments/dealer-equal-bid.md).

*Correction.* Choosing the best-looking call on a few samples favours
samples that flatter the hand (the winner's curse); measured against the
hands actually played, the seat's own contracts were overstated by a few
hundredths of the points in play, so ``OPTIMISM`` of them is moved from its
side to the other in the rollouts of its own contracts.

**Choosing.** Each legal call is scored by the engine's own ``score_hand``
(made: points or the bid; set: minus the bid; difference scoring; specials)
and ``decide_winner`` (target, bidder-goes-out, successful-bid-only, the
losing score of King Pedro): the utility is the side's score change less the
opponents', plus or minus ``target`` when the hand ends the game. The call
with the best mean utility wins; trumps are named the same way for the
contract won. Estimates are kept for the hand: a later call of the seat
after no new call of another costs only the scoring, and after new calls the
samples those calls agree with are kept with their rollouts
(``Estimator.carried``).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pedro.cards import mask_of
from pedro.engine.actions import PASS, Verb, arg_of, verb_of
from pedro.engine.auction import call_value
from pedro.engine.deal import deal_getters
from pedro.engine.observation import Observation
from pedro.engine.scoring import Contract, decide_winner, score_hand
from pedro.players.base import Player
from pedro.players.hand_strength import best_expected_points, expected_points
from pedro.players.simulation import PlayValuation, SampledDeals, play_out, simulate
from pedro.variants.model import AllPassAction, AuctionModel, Ruleset

#: Sampled deals per estimate.
SAMPLES = 20
#: Trump suits simulated for a bid: the best few by the hand-crafted estimate.
SUITS = 2
#: A second suit is simulated only when its hand-crafted estimate is this close (fraction of the points).
SUIT_GAP = 0.1
#: The seat's own contracts take this fraction of the points in play off its side's rollout points
#: (and give them to the other side): measured by simulation against the hands actually played, the
#: rollouts of the contracts it chose overstated its side by 0.03-0.08 of the points in play with 10
#: samples (the winner's curse of choosing the best-looking suit and call), less with 20.
OPTIMISM = 0.04
#: Deals drawn per sample to find one that fits the calls made so far.
_TRIES = 30
#: How far below its ``expected_points`` another seat is taken to bid (as ``basic`` does).
_OTHERS_MARGIN = 0.07


@dataclass(frozen=True)
class SuitEstimate:
    """Points per side taken on each sample when ``declarer`` plays ``suit`` as trumps."""

    suit: int
    declarer: int
    points: tuple[tuple[int, ...], ...]

    def mean(self, side: int) -> float:
        return sum(p[side] for p in self.points) / len(self.points)


@dataclass
class _Sample:
    deals_seed: str
    hands: list[int]  # first-deal hand masks per seat
    fit: float  # how well the deal fits the calls made so far (``Estimator._fit``)
    #: (declarer, suit) -> points per side, played out once
    outcomes: dict[tuple[int, int], tuple[int, ...] | None] = field(default_factory=dict)


class Estimator:
    """Samples and rollouts for one seat's hand in one auction (build one per hand)."""

    def __init__(
        self,
        obs: Observation,
        policy: Sequence[Player],
        seed: str,
        samples: int = SAMPLES,
        valuation: PlayValuation = play_out,
        declarer_bias: float = 0.0,
        optimism: float = OPTIMISM,
    ) -> None:
        self.rules = obs.rules
        #: how a contract's hand is valued (module docstring), and the share of the points in play
        #: its value overstates the declarer's side by
        self.valuation = valuation
        self.declarer_bias = declarer_bias
        #: the share moved from the seat's own contracts: the winner's curse and the declarer's bias
        self.own_shift = optimism + declarer_bias
        self.seat = obs.seat
        self.dealer = obs.dealer
        self.hand = tuple(obs.hand)
        self.policy = policy
        self.seed = seed
        self.samples = [self._sample(obs, i) for i in range(samples)]

    def carried(self, obs: Observation, seed: str) -> Estimator:
        """This hand's estimator for a later call of the seat: each sample that every call made
        since agrees with is kept, with the rollouts played on it; the others are drawn anew from
        ``seed`` to fit every call made so far.

        The samples stand for what the seat may believe of the unseen hands; a new call is new
        evidence, and a sample it does not contradict stays as likely as it was (a particle
        filter's step). In a continuing auction, where the seats raise each other a point at a
        time, about two samples in three are kept (83).
        """
        carried = copy.copy(self)
        carried.seed = seed
        carried.samples = [
            sample if self._fit(obs, sample.hands) >= sample.fit else carried._sample(obs, i)
            for i, sample in enumerate(self.samples)
        ]
        return carried

    def extend(self, obs: Observation, count: int) -> None:
        """Draw ``count`` more samples (the first ones are kept: the estimates only sharpen)."""
        start = len(self.samples)
        self.samples += [self._sample(obs, i) for i in range(start, start + count)]

    def _sample(self, obs: Observation, i: int) -> _Sample:
        """A deal of the unseen cards; the first of a few tries that fits the calls made so far."""
        rules = self.rules
        packets = (1,) if rules.deal_all_out else rules.packets
        getters = deal_getters(rules.players, self.dealer, rules.first_deal_size, tuple(packets))
        best: _Sample | None = None
        for attempt in range(_TRIES):
            key = f"{self.seed}:{i}:{attempt}"
            deals = SampledDeals(rules, self.dealer, self.seat, self.hand, random.Random(key))
            hands = [mask_of(get(deals.first)) for get in getters]
            sample = _Sample(key, hands, self._fit(obs, hands, 0.0 if best is None else best.fit))
            if best is None or sample.fit > best.fit:
                best = sample
            if sample.fit >= 1.0:
                break
        assert best is not None
        return best

    def _fit(self, obs: Observation, hands: list[int], beat: float = 0.0) -> float:
        """How well a deal fits the calls made so far (1: every call as a typical player would make it).

        Each call that does not fit scales the fit down, so once it is no more than ``beat`` (the
        best of the deals already drawn for this sample, which keeps the first best) the rest of
        the calls cannot make this deal the one kept: the fit so far is returned at once."""
        rules = self.rules
        fit = 1.0
        slack = rules.total_points / 14
        high: int | None = None
        reaches: dict[int, float] = {}
        for seat, action in obs.calls:
            need = rules.min_bid if high is None else high + 1
            if action != PASS:
                high = call_value(rules, action)
            if seat == self.seat:
                continue
            reach = reaches.get(seat)
            if reach is None:
                reach = reaches[seat] = _would_bid(rules, hands[seat])[1]
            if action == PASS:
                if reach >= need + 0.5 * slack:
                    fit *= 0.3
            elif reach < call_value(rules, action) - 0.5 * slack:
                fit *= 0.2
            if fit <= beat:
                break
        return fit

    def outcome(self, sample: _Sample, declarer: int, suit: int) -> tuple[int, ...] | None:
        """Points per side when ``declarer`` plays ``suit`` on this sample (cached)."""
        key = (declarer, suit)
        if key not in sample.outcomes:
            deals = SampledDeals(
                self.rules, self.dealer, self.seat, self.hand, random.Random(sample.deals_seed)
            )
            out = simulate(self.rules, deals, declarer, self.rules.min_bid, suit, self.policy, self.valuation)
            sample.outcomes[key] = out.points if out is not None else None
        return sample.outcomes[key]

    def suit_estimate(self, suit: int) -> SuitEstimate:
        """The distribution of points per side with this seat declaring ``suit``."""
        points = [self.outcome(sample, self.seat, suit) for sample in self.samples]
        return SuitEstimate(suit, self.seat, tuple(p for p in points if p is not None))

    def candidate_suits(self, count: int = SUITS) -> list[int]:
        """The suits worth simulating: the best by the hand-crafted estimate, and up to ``count - 1``
        more whose estimate is within ``SUIT_GAP`` of the points in play of the best."""
        hand = mask_of(self.hand)
        values = {s: expected_points(self.rules, hand, s) for s in range(4)}
        ranked = sorted(range(4), key=lambda s: (-values[s], s))
        floor = values[ranked[0]] - SUIT_GAP * self.rules.total_points
        return [ranked[0], *(s for s in ranked[1:count] if values[s] >= floor)]


# --------------------------------------------------------------------------- utility


def corrected(
    rules: Ruleset, points: Sequence[int], side: int, index: int, fraction: float = OPTIMISM
) -> tuple[int, ...]:
    """``points`` with ``fraction`` of the points in play moved from ``side`` to its best opponent
    (a negative ``fraction``: from the best opponent to ``side``).

    The shift is fractional on average: sample ``index`` moves the floor or the
    ceiling so that the samples together move the exact amount.
    """
    shift = fraction * rules.total_points
    whole = math.floor(shift)
    frac = shift - whole
    # a low-discrepancy sequence spreads the extra point evenly over the samples
    move = whole + (1 if (index * 0.6180339887) % 1.0 < frac else 0)
    out = list(points)
    others = [s for s in range(len(out)) if s != side]
    if not others:
        out[side] -= min(move, points[side])
        return tuple(out)
    best = max(others, key=lambda s: out[s])
    move = min(move, points[side]) if move >= 0 else -min(-move, points[best])
    out[side] -= move
    out[best] += move
    return tuple(out)


def utility(
    rules: Ruleset, side: int, scores: Sequence[int], contract: Contract, points: Sequence[int]
) -> float:
    """What a hand's result is worth to ``side``: its score change less the others', and the game's end."""
    change, made = score_hand(rules, contract, list(points))
    sides = rules.num_sides
    others = [change[s] for s in range(sides) if s != side]
    value = change[side] - (sum(others) / len(others) if others else 0.0)
    if len(scores) == sides and rules.target > 0:
        before = list(scores)
        after = [a + b for a, b in zip(before, change, strict=True)]
        bgo = sides == 2 and min(before) >= rules.effective_bgo_threshold
        winner, _ = decide_winner(rules, before, after, contract, made, bgo, [[] for _ in range(sides)])
        if winner is not None:
            value += rules.target if winner == side else -rules.target
    return value


def _contract_of(rules: Ruleset, seat: int, action: int) -> Contract:
    verb = verb_of(action)
    return Contract(seat, call_value(rules, action), verb)


def held_contract(obs: Observation, holder: int) -> Contract:
    """The contract ``holder`` plays or will play: its last call, at the value the auction settled
    (a forced or stuck dealer's bid included)."""
    rules = obs.rules
    action = next((a for s, a in reversed(obs.calls) if s == holder and a != PASS), None)
    if action is not None:
        contract = _contract_of(rules, holder, action)
    else:
        contract = Contract(holder, obs.bid if obs.bid is not None else rules.min_bid, Verb.BID)
    if obs.bid is not None and contract.verb == Verb.BID:
        contract = Contract(holder, obs.bid, Verb.BID)
    return contract


# --------------------------------------------------------------------------- the auction model


def _would_bid(rules: Ruleset, hand: int) -> tuple[int, float]:
    """(best suit, the bid a typical player would go to) for a sampled hand."""
    suit, value = best_expected_points(rules, hand)
    return suit, value - _OTHERS_MARGIN * rules.total_points


def _still_to_speak(obs: Observation, after_seat: int) -> list[int]:
    """Seats that may still call after ``after_seat`` speaks, in order."""
    rules = obs.rules
    n = rules.players
    if rules.auction == AuctionModel.SINGLE_ROUND:
        spoken = {s for s, _ in obs.calls} | {after_seat}
        order = [(obs.dealer + 1 + i) % n for i in range(n)]
        return [s for s in order if s not in spoken]
    passed = {s for s, a in obs.calls if a == PASS} | {after_seat}
    return [(after_seat + i) % n for i in range(1, n) if (after_seat + i) % n not in passed]


def _high(obs: Observation) -> tuple[int, int] | None:
    high = None
    for seat, action in obs.calls:
        if action != PASS:
            high = (seat, action)
    return high


@dataclass(frozen=True)
class CallValue:
    """A call's mean utility for the calling side (see ``utility``), and its utility on each sample
    (in the estimator's sample order: a sample the contract could not be played on counts 0)."""

    action: int
    value: float
    suit: int | None
    per_sample: tuple[float, ...] = ()


def evaluate_calls(est: Estimator, obs: Observation, legal: Sequence[int]) -> list[CallValue]:
    """Every legal call with its mean utility over the samples."""
    rules = est.rules
    side = rules.side_of(obs.seat)
    bids = [a for a in legal if a != PASS]
    suits = est.candidate_suits()
    if any(verb_of(a) == Verb.BID_28_56 for a in bids):
        suits = sorted(set(suits) | set(_ace_king_deuce_suits(est)))
    for suit in suits:
        est.suit_estimate(suit)  # play the samples out once per suit
    results: list[CallValue] = []
    later = _still_to_speak(obs, obs.seat)
    if PASS in legal:
        results.append(_pass_value(est, obs, later, side))
    # each sample's points with this seat declaring a suit, corrected for optimism once for all bids
    # (None where the contract could not be played on the sample)
    played = {
        suit: [
            corrected(rules, points, side, index, est.own_shift)
            if (points := est.outcome(sample, obs.seat, suit)) is not None
            else None
            for index, sample in enumerate(est.samples)
        ]
        for suit in suits
    }
    for action in bids:
        allowed = suits
        if verb_of(action) == Verb.BID_28_56:
            allowed = [s for s in suits if s in _ace_king_deuce_suits(est)] or suits
        best = _bid_value(est, obs, action, {suit: played[suit] for suit in allowed}, later)
        if best is not None:
            results.append(best)
    return results


def _ace_king_deuce_suits(est: Estimator) -> list[int]:
    """The suits whose ace, king and deuce the hand holds (what a 28-56 bid needs)."""
    hand = mask_of(est.hand)
    return [s for s in range(4) if all(hand >> (s * 13 + r) & 1 for r in (12, 11, 0))]


def _pass_value(est: Estimator, obs: Observation, later: list[int], side: int) -> CallValue:
    """Passing: on each sample, the contract that arises after this seat passes (``_pass_utility``)."""
    high = _high(obs)
    high_value = call_value(est.rules, high[1]) if high is not None else None
    passed = tuple(
        _pass_utility(est, obs, sample, index, high, high_value, later, side, obs.scores)
        for index, sample in enumerate(est.samples)
    )
    return CallValue(PASS, sum(passed) / len(est.samples), None, passed)


def _bid_value(
    est: Estimator,
    obs: Observation,
    action: int,
    played: dict[int, list[tuple[int, ...] | None]],
    later: list[int],
) -> CallValue | None:
    """The bid ``action`` in the best of the suits of ``played`` (each suit's points per sample)."""
    rules = est.rules
    side = rules.side_of(obs.seat)
    contract = _contract_of(rules, obs.seat, action)
    count = len(est.samples)
    best: CallValue | None = None
    # where the dealer, still to speak, may equal this bid and would: its contract, whatever the suit
    taken = _dealer_takes(est, obs, later, action)
    # a contract's utility depends on the points alone, and a few hundred samples share a few
    # dozen splits of them: each is scored once a bid
    scored: dict[tuple[int, ...], float] = {}
    for suit, per_sample in played.items():
        each = tuple(
            dealer if (dealer := taken[index]) is not None else
            _scored(scored, rules, side, obs.scores, contract, points) if points is not None else 0.0
            for index, points in enumerate(per_sample)
        )  # fmt: skip
        value = sum(each) / count
        if best is None or value > best.value:
            best = CallValue(action, value, suit, each)
    return best


def made_share(est: Estimator, seat: int, call: CallValue) -> float | None:
    """The share of the estimator's deals on which ``seat``'s contract of ``call``, in the suit it is
    valued best with, is made by the engine's scoring; None for a pass or a contract played on no deal.

    What the bidder foresees of its own contract: ``benchmarks/bid_calibration.py`` sets it against
    the contracts made.
    """
    if call.suit is None:
        return None
    outcomes = est.suit_estimate(call.suit).points
    if not outcomes:
        return None
    contract = _contract_of(est.rules, seat, call.action)
    return sum(1 for points in outcomes if score_hand(est.rules, contract, list(points))[1]) / len(outcomes)


def _scored(
    scored: dict[tuple[int, ...], float],
    rules: Ruleset,
    side: int,
    scores: Sequence[int],
    contract: Contract,
    points: tuple[int, ...],
) -> float:
    """``utility`` of ``contract`` with ``points``, kept in ``scored`` (one contract's)."""
    value = scored.get(points)
    if value is None:
        value = scored[points] = utility(rules, side, scores, contract, points)
    return value


def _dealer_takes(est: Estimator, obs: Observation, later: list[int], action: int) -> list[float | None]:
    """Per sample, the utility of the contract when a dealer still to speak, who may equal the high
    bid, takes it from this bid (its hand reaches the bid, as ``_would_bid`` judges); None where not."""
    rules = est.rules
    dealer = obs.dealer
    if not rules.dealer_may_equal or dealer not in later or verb_of(action) != Verb.BID:
        return [None] * len(est.samples)
    value = call_value(rules, action)
    side = rules.side_of(obs.seat)
    out: list[float | None] = []
    for index, sample in enumerate(est.samples):
        suit, reach = _would_bid(rules, sample.hands[dealer])
        points = est.outcome(sample, dealer, suit) if reach >= value else None
        if points is None:
            out.append(None)
            continue
        if est.declarer_bias:
            points = corrected(rules, points, rules.side_of(dealer), index, est.declarer_bias)
        out.append(utility(rules, side, obs.scores, Contract(dealer, value, Verb.BID), points))
    return out


def _pass_utility(
    est: Estimator,
    obs: Observation,
    sample: _Sample,
    index: int,
    high: tuple[int, int] | None,
    high_value: int | None,
    later: list[int],
    side: int,
    scores: Sequence[int],
) -> float:
    """Utility for ``side`` of the contract that arises on this sample after this seat passes."""
    rules = est.rules
    need = rules.min_bid if high_value is None else high_value + 1
    best: tuple[float, int, int] | None = None
    for s in later:
        suit, reach = _would_bid(rules, sample.hands[s])
        if reach >= need and (best is None or reach > best[0]):
            best = (reach, s, suit)
    if best is not None:
        declarer, suit, value = best[1], best[2], need
    elif high is not None and high_value is not None:
        declarer = high[0]
        suit, _ = best_expected_points(rules, sample.hands[declarer])
        value = high_value
    elif (
        rules.dealer_forced_bid is not None
        and rules.all_pass_action == AllPassAction.DEALER_FORCED
        and obs.dealer != obs.seat
    ):
        declarer = obs.dealer
        suit, _ = best_expected_points(rules, sample.hands[declarer])
        value = rules.dealer_forced_bid
    else:
        return 0.0  # thrown in
    points = est.outcome(sample, declarer, suit)
    if points is None:
        return 0.0
    if est.declarer_bias:
        points = corrected(rules, points, rules.side_of(declarer), index, est.declarer_bias)
    return utility(rules, side, scores, Contract(declarer, value, Verb.BID), points)


def choose_trump(est: Estimator, obs: Observation, legal: Sequence[int]) -> int:
    """The trump action with the best mean utility for the contract this seat won."""
    values = trump_values(est, obs, legal)
    return max(values, key=lambda a: (values[a], -a))


#: The value of a trump suit that could not be played out on any sample (never chosen if another was).
UNPLAYABLE = -1e9


def trump_values(
    est: Estimator, obs: Observation, legal: Sequence[int], every: bool = False
) -> dict[int, float]:
    """The mean utility of each trump action worth playing out, for the contract this seat won
    (``every``: of every legal trump action, as hints and reviews show them)."""
    rules = est.rules
    side = rules.side_of(obs.seat)
    contract = held_contract(obs, obs.seat)

    def value(trump: int) -> float:
        estimate = est.suit_estimate(arg_of(trump) & 3)
        if not estimate.points:
            return UNPLAYABLE
        u = sum(
            utility(rules, side, obs.scores, contract, corrected(rules, p, side, i, est.own_shift))
            for i, p in enumerate(estimate.points)
        )
        return u / len(est.samples)

    # suits the hand-crafted estimate rules out are not played out (a trump is never chosen blind:
    # when none of the legal suits is a candidate, every legal suit is simulated)
    wanted = set(est.candidate_suits(4))
    options = list(legal) if every else [a for a in legal if arg_of(a) & 3 in wanted] or list(legal)
    return {a: value(a) for a in options}
