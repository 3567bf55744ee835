"""``heuristic``: a stronger hand-written player built on ``basic``'s evaluation.

Its parts (``players.parts``): ``SimulatedBidder``, ``HeuristicExchanger`` and
``basic.RuleCardPlayer`` reading the play through ``heuristic_view``. What it
adds to ``basic``:

* **Bidding by simulation** (``players.bidding``). The hand is played out
  on sampled deals of the unseen cards, with this player's own exchange and
  card play at every seat, once per likely trump suit and once for the
  contract that arises if it passes; every legal call is scored with the
  variant's own scoring and end rules against the game score, and the best
  mean is called. Trumps are named the same way for the contract won
  (``SimulatedBidder``). The rollouts' own players (``rollout_player``) bid
  by the older rule (``RuleBidder``): a normal tail around
  ``hand_strength.expected_points`` and a needed chance of making the bid
  set by the auction, the scoring and the game score.
* **Card counting** (``heuristic_view``). It tracks every card seen and the
  seats known to hold no trumps (a non-trump played to a trump lead, a cold, out or folded seat,
  no trumps left unseen) and, where every non-trump is discarded, how many
  trumps each seat kept (cards laid aside against the first deal) less those
  it has played; the chance that an opponent behind beats a card follows
  those counts.
* **No cinching.** It does not trump high to stop the points an opponent
  still to play might throw on its partner's winner: in duplicate deals
  against ``basic`` with both bidding alike, every weight given to such
  throws lost points (0.38 a deal in cinch at the weights once used), the
  high trump spent being worth more later than the pedro it may stop.
* **Keeping high trumps.** A trump held is worth, besides ``basic``'s value,
  a share of the points in play in proportion to the unseen trumps it
  beats, so it follows low rather than spend a high trump on a few points
  now (it wins the points of later tricks; measured against ``basic``).
* **Saving points.** Scoring trumps (pedros, the Low where the capturer
  scores it) go on a trick only as far as the side's winner is safe, and are
  dumped behind a sure winner of partner's; a boss trump of the opponents is
  never counted as one partner might still beat. (A one-point Low may go to
  the opponents where the other trump left to follow with is worth more.)
* **Leading.** The attacking side draws trumps with boss trumps and with
  non-scoring high trumps while an opponent may still hold trumps; otherwise
  it leads its cheapest non-scoring card.
* **Exchange.** Every card choice ranks cards by what they are worth kept:
  trumps by scoring class (non-scoring, the Low, one-point, pedros) then
  strength, non-trumps by rank. So it *keeps* every trump offered (rob, take
  the stock, pick) and non-trumps only to fill the hand; *discards* the
  non-trumps (and, where more must go, the weakest non-scoring trumps);
  *kills* and *gives* the lowest non-scoring trumps, keeping its pedros (a
  partner who receives excess trumps gets cards to play, the giver keeps the
  points it can protect); *folds* a trumpless hand; with one trump (or two
  with the Low) it gives them to partner and folds unless it is the bidder,
  since a lone trump helps partner more than it can take a trick alone; and
  *claims* a face-up discarded trump whenever offered, the best trump for its
  lowest non-trump.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Protocol

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import PASS, PROTECT, Verb, arg_of, verb_of
from pedro.engine.auction import call_value
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.players.base import Player
from pedro.players.basic import (
    BasicExchanger,
    RuleCardPlayer,
    bid_of,
    lowest_bid_suffices,
    partner_holds_contract,
    trump_by_estimate,
)
from pedro.players.bidding import OPTIMISM, SAMPLES, CallValue, Estimator, choose_trump, evaluate_calls
from pedro.players.hand_strength import best_expected_points
from pedro.players.heuristic_view import HeuristicView
from pedro.players.parts import Bidder, ComposedPlayer
from pedro.players.simulation import PlayValuation, play_out
from pedro.variants.model import (
    AuctionModel,
    EndRule,
    MadeScores,
    Ruleset,
    Scoring,
)

#: Spread of the side's points around the estimate, as a fraction of the points in play.
_SIGMA = 0.28
#: Chance of making a contract needed to bid: a single round (one chance, a forced dealer at
#: worst) and a continuing auction (a price war in which giving way hands the contract over
#: cheaply). Tuned by simulation against ``basic``.
_NEED_SINGLE = 0.67
_NEED_CONTINUING = 0.45


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def make_chance(estimate: float, bid: int, total: int) -> float:
    """Chance that a side expected to take ``estimate`` points takes at least ``bid``."""
    sigma = max(1.0, _SIGMA * total)
    return _phi((estimate + 0.5 - bid) / sigma)


# ------------------------------------------------------------------ bidding by rule


def estimate(obs: Observation) -> float:
    """Points the side can expect as bidder with its best trump suit, auction information included."""
    rules = obs.rules
    hand = mask_of(obs.hand)
    value = best_expected_points(rules, hand)[1]
    if rules.partnerships:
        partner = (obs.seat + 2) % rules.players
        unit = rules.total_points / 14
        said = [action for seat, action in obs.calls if seat == partner]
        if said:
            value += 0.6 * unit if any(a != PASS for a in said) else -0.4 * unit
    return min(value, 0.9 * rules.total_points)


def needed_chance(obs: Observation) -> float:
    """How likely a contract must be made to be worth bidding, given the scoring and the game score."""
    rules = obs.rules
    # a single round gives one chance and a dealer bid at worst; a continuing auction is a price war
    # in which giving way hands the contract cheaply to the other side
    need = _NEED_SINGLE if rules.auction == AuctionModel.SINGLE_ROUND else _NEED_CONTINUING
    if rules.scoring == Scoring.DIFFERENCE or rules.made_scores == MadeScores.BID:
        need += 0.05
    if not rules.partnerships:
        need -= 0.05  # alone, passing leaves the contract to any of several opponents
    scores = obs.scores
    if len(scores) >= 2 and rules.target > 0:
        mine = rules.side_of(obs.seat)
        ours = scores[mine]
        theirs = max(x for i, x in enumerate(scores) if i != mine)
        target = rules.target
        bidder_only = rules.end_rule in (EndRule.BIDDER_GOES_OUT, EndRule.SUCCESSFUL_BID_ONLY)
        if theirs + rules.min_bid >= target:
            # their next made contract ends the game: take it from them (under bidder-goes-out
            # they can only go out as bidders)
            need -= 0.25 if bidder_only else 0.12
        elif theirs >= target - rules.total_points * 0.6:
            need -= 0.06
        if ours + rules.min_bid >= target:
            need -= 0.12  # a made contract wins the game
        if rules.lose_at is not None and ours - rules.max_bid <= rules.lose_at:
            need += 0.1
    return max(0.3, min(0.8, need))


class RuleBidder:
    """Bids what the hand-crafted ``estimate`` makes with the chance ``needed_chance`` asks; names
    trumps by ``hand_strength`` (the rollouts' bidder: a few operations a call)."""

    def bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        rules = obs.rules
        value = estimate(obs)

        def chance(bid: int) -> float:
            return make_chance(value, bid, rules.total_points)

        bids = sorted(arg_of(a) for a in legal if verb_of(a) == Verb.BID)
        if not bids:
            if PROTECT in legal and chance(rules.min_bid) >= 0.6:
                return PROTECT
            return PASS if PASS in legal else legal[0]
        if PASS not in legal:  # forced: the lowest, or more only when it is very likely made
            return bid_of(legal, max([bids[0], *(b for b in bids if chance(b) >= 0.75)]))
        need = needed_chance(obs)
        # partner holds the contract: overcall only with a clearly better hand
        floor = max(need, 0.8) if partner_holds_contract(obs) else need
        acceptable = [b for b in bids if chance(b) >= floor]
        if not acceptable:
            return PASS
        if lowest_bid_suffices(obs):
            return bid_of(legal, acceptable[0])
        # others still to speak: bid as high as is fairly safe, to shut them out
        safe = [b for b in acceptable if chance(b) >= need + 0.1]
        return bid_of(legal, safe[-1] if safe else acceptable[0])

    def name_trump(self, obs: Observation, legal: tuple[int, ...]) -> int:
        return trump_by_estimate(obs, legal)


# ------------------------------------------------------------------ what the parts share


class Shared:
    """What the parts of one player share over a game: its seed, and the players its simulations
    play every seat with (``rollout_player``; made once, as their card choices draw from their
    own random numbers)."""

    def __init__(self, seed: int | str | None) -> None:
        self.seed = seed
        self._policy: list[Player] | None = None

    def rollout_policy(self, rules: Ruleset) -> list[Player]:
        """The players a simulation plays every seat with: ``heuristic`` bidding by rule."""
        if self._policy is None:
            self._policy = [rollout_player(f"{self.seed}:rollout:{s}") for s in range(rules.players)]
        return self._policy


# ------------------------------------------------------------------ bidding by simulation


class ContractValues(Protocol):
    """How a bidding simulation values a contract's hand (``players.bidding``)."""

    #: the share of the points in play taken off the seat's own contracts against the winner's
    #: curse of choosing the best-looking call (``bidding.OPTIMISM``)
    optimism: float

    def valuation(self, rules: Ruleset) -> tuple[PlayValuation, float]:
        """The valuation of a sampled contract, and its bias to the declarer's side."""
        ...


class RolloutValues:
    """A rollout of the policy, unbiased, less ``OPTIMISM`` on the seat's own contracts."""

    optimism = OPTIMISM

    def valuation(self, rules: Ruleset) -> tuple[PlayValuation, float]:
        return play_out, 0.0


class ValuedBidder(Bidder, Protocol):
    """A bidder that values every call on the hand's sampled deals (hints and reviews ask it)."""

    def estimator(self, obs: Observation) -> Estimator:
        """The hand's sampled deals and rollouts."""
        ...

    def call_values(self, obs: Observation, legal: Sequence[int]) -> list[CallValue]:
        """The calls considered, each with its simulated value."""
        ...


def best_call(values: Sequence[CallValue], legal: tuple[int, ...]) -> int:
    """The call of the best value; ties go to passing, then to the lowest call."""
    order = {a: i for i, a in enumerate(legal)}
    return max(values, key=lambda c: (round(c.value, 9), -order[c.action])).action


class SimulatedBidder:
    """Calls and trumps by simulation (``players.bidding``), on sampled deals kept for the hand;
    by ``fallback`` (``RuleBidder``) where no call could be valued.

    ``values`` says how a contract is valued on a deal (a rollout; the expert's solver), and
    ``samples`` how many deals are drawn."""

    def __init__(
        self,
        shared: Shared,
        values: ContractValues | None = None,
        samples: int = SAMPLES,
        fallback: Bidder | None = None,
        carry: bool = True,
    ) -> None:
        self.shared = shared
        self.values: ContractValues = values or RolloutValues()
        self.samples = samples
        self.fallback: Bidder = fallback or RuleBidder()
        #: a later call keeps the samples the calls made since agree with (``Estimator.carried``)
        self.carry = carry
        self._estimator: tuple[tuple[object, ...], Estimator] | None = None

    def estimator(self, obs: Observation) -> Estimator:
        """Sampled deals and rollouts for this hand, kept while the other seats make no new call
        (and for naming trumps).

        A later call of the seat after others have called again is valued on deals that fit every
        call made so far: the first deals know nothing of the overcalls, and valued on them a
        continuing auction's bidder kept outbidding hands those overcalls showed (83). With
        ``carry`` the deals the new calls agree with are kept, with their rollouts, and the others
        drawn anew (``Estimator.carried``); without, all are drawn anew.
        """
        hand = (obs.hand_index, obs.seat, tuple(obs.hand))
        others = tuple(call for call in obs.calls if call[0] != obs.seat)
        kept = self._estimator
        if kept is not None and kept[0][:3] == hand and (kept[0][3] == others or obs.phase != Phase.AUCTION):
            return kept[1]  # naming trumps: the deals the contract was won on
        seed = f"bid:{self.shared.seed}:{obs.hand_index}:{obs.seat}:{mask_of(obs.hand)}"
        key = (*hand, others)
        if kept is not None and kept[0][:3] == hand:  # a later call of this hand: deals to fit the new calls
            seed += f":{len(obs.calls)}"
            if self.carry:
                est = kept[1].carried(obs, seed)
                self._estimator = (key, est)
                return est
        valuation, bias = self.values.valuation(obs.rules)
        policy = self.shared.rollout_policy(obs.rules)
        est = Estimator(obs, policy, seed, self.samples, valuation, bias, self.values.optimism)
        self._estimator = (key, est)
        return est

    def call_values(self, obs: Observation, legal: Sequence[int]) -> list[CallValue]:
        """The calls this player considers, each with its simulated value (``evaluate_calls``)."""
        values = evaluate_calls(self.estimator(obs), obs, legal)
        return [v for v in values if not _outbids_partner_beyond_own_hand(obs, obs.rules, v.action)]

    def bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        values = self.call_values(obs, legal)
        if not values:
            return self.fallback.bid(obs, legal)
        return best_call(values, legal)

    def name_trump(self, obs: Observation, legal: tuple[int, ...]) -> int:
        return choose_trump(self.estimator(obs), obs, legal)


def _outbids_partner_beyond_own_hand(obs: Observation, rules: Ruleset, action: int) -> bool:
    """A call over the partner's high bid that the seat's own hand does not reach.

    The simulation values the partner's contract on sampled hands that fit the
    calls made; once partners outbid each other, no sample fits, the partner's
    contract looks hopeless on random hands, and each partner outbids the
    other up to the maximum (measured in King Pedro (Canadian) against
    ``basic``: bids of 56 and more, set three times in four). Outbidding the
    partner is left for a hand that reaches the bid by itself.
    """
    if action == PASS or not rules.partnerships:
        return False
    high = next((seat for seat, a in reversed(obs.calls) if a != PASS), None)
    if high is None or rules.side_of(high) != rules.side_of(obs.seat) or high == obs.seat:
        return False
    reach = best_expected_points(rules, mask_of(obs.hand))[1]
    return call_value(rules, action) > reach


# ------------------------------------------------------------------ exchange


class HeuristicExchanger:
    """``basic``'s exchange, but a claim takes the best face-up trump for the least useful non-trump."""

    def __init__(self, rng: random.Random) -> None:
        self.basic = BasicExchanger(rng)

    def exchange(self, obs: Observation) -> int:
        legal = obs.legal
        if isinstance(legal, CardChoice) or legal is None:
            return self.basic.exchange(obs)
        claims = [a for a in legal if verb_of(a) == Verb.CLAIM]
        if claims and obs.trump is not None:
            tt = obs.rules.tables(obs.trump)

            def gain(action: int) -> float:
                cards = cards_of(arg_of(action))
                trump = sum(tt.points[c] * 100 + tt.strength[c] for c in cards if tt.trump_mask >> c & 1)
                given = sum(c % 13 for c in cards if not tt.trump_mask >> c & 1)
                return trump - given

            return max(claims, key=lambda a: (gain(a), -a))
        return self.basic.exchange(obs)


# ------------------------------------------------------------------ the players


def rollout_player(seed: int | str | None) -> ComposedPlayer:
    """``heuristic`` bidding by rule: the player the simulations play every seat with."""
    exchanger = HeuristicExchanger(random.Random(f"heuristic:{seed}"))
    return ComposedPlayer(RuleBidder(), exchanger, RuleCardPlayer(HeuristicView), name="heuristic")


class HeuristicPlayer(ComposedPlayer):
    """Counts cards, saves pedros and the Low, keeps high trumps, and bids what simulation says it makes."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = None, *, samples: int = SAMPLES) -> None:
        self.shared = Shared(seed)
        bidder = SimulatedBidder(self.shared, samples=samples)
        exchanger = HeuristicExchanger(random.Random(f"heuristic:{seed}"))
        super().__init__(bidder, exchanger, RuleCardPlayer(HeuristicView))


__all__ = [
    "ContractValues",
    "HeuristicExchanger",
    "HeuristicPlayer",
    "RolloutValues",
    "RuleBidder",
    "Shared",
    "SimulatedBidder",
    "ValuedBidder",
    "best_call",
    "estimate",
    "make_chance",
    "needed_chance",
    "rollout_player",
]
