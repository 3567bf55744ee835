"""``heuristic``: a stronger hand-written player built on ``basic``'s evaluation.

What it adds to ``basic``:

* **Bidding by simulation** (``players.bidding``). The hand is played out
  on sampled deals of the unseen cards, with this player's own exchange and
  card play at every seat, once per likely trump suit and once for the
  contract that arises if it passes; every legal call is scored with the
  variant's own scoring and end rules against the game score, and the best
  mean is called. Trumps are named the same way for the contract won. With
  ``simulated=False`` (the rollouts' own players) it bids by the older rule:
  a normal tail around ``basic.expected_points`` and a needed chance of
  making the bid set by the auction, the scoring and the game score.
* **Card counting.** It tracks every card seen and the seats known to hold
  no trumps (a non-trump played to a trump lead, a cold, out or folded seat,
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
from bisect import bisect_left
from collections.abc import Sequence

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import PASS, PROTECT, Verb, arg_of, play_cards, play_top, verb_of
from pedro.engine.auction import call_value
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Phase, Status
from pedro.engine.play import trick_winner
from pedro.players.base import Player
from pedro.players.basic import BasicPlayer, _bid_of, _PlayView, _Trick, best_expected_points
from pedro.players.bidding import OPTIMISM, SAMPLES, CallValue, Estimator, choose_trump, evaluate_calls
from pedro.players.simulation import PlayValuation, play_out
from pedro.variants.model import (
    AuctionModel,
    DiscardPolicy,
    EndRule,
    MadeScores,
    Ruleset,
    Scoring,
)
from pedro.variants.tables import TrumpTables

#: Spread of the side's points around the estimate, as a fraction of the points in play.
_SIGMA = 0.28
#: What a trump is worth kept for later beyond ``basic``'s value, in fourteenths of the points in
#: play, at a trump above every unseen one (in proportion to the unseen trumps it beats): spending a
#: high trump to win a few points now costs the tricks it would take later. Measured in duplicate
#: deals against ``basic`` with both bidding alike (``basic``'s bids and trumps; 2000 cinch deals,
#: 1500 in 83): without it +0.04 and +0.28 points a deal; with 1.0, +0.27 and +0.89, and +0.10 in
#: pidro, +0.80 in King Pedro Canadian (a flat extra of 1.0 at the strongest trump gave +0.31 and
#: +0.67, but made a weak trump worth more than the Low where the capturer scores it).
_KEEP_HIGH = 1.0
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


class HeuristicPlayer(BasicPlayer):
    """Counts cards, saves pedros and the Low, keeps high trumps, and bids what simulation says it makes."""

    name = "heuristic"

    def __init__(
        self, seed: int | str | None = None, *, simulated: bool = True, samples: int = SAMPLES
    ) -> None:
        super().__init__(seed)
        self.rng = random.Random(f"heuristic:{seed}")
        self.seed = seed
        #: bid and name trumps by simulation (False: by the hand-crafted estimate, as rollouts do)
        self.simulated = simulated
        #: sampled deals per estimate (fewer: faster and noisier)
        self.samples = samples
        self._estimator: tuple[tuple[object, ...], Estimator] | None = None
        self._policy: list[Player] | None = None

    # ------------------------------------------------------------------ auction

    def estimate(self, obs: Observation, rules: Ruleset) -> float:
        """Points the side can expect as bidder with its best trump suit, auction information included."""
        hand = mask_of(obs.hand)
        value = best_expected_points(rules, hand)[1]
        if rules.partnerships:
            partner = (obs.seat + 2) % rules.players
            unit = rules.total_points / 14
            said = [action for seat, action in obs.calls if seat == partner]
            if said:
                value += 0.6 * unit if any(a != PASS for a in said) else -0.4 * unit
        return min(value, 0.9 * rules.total_points)

    def rollout_policy(self, rules: Ruleset) -> list[Player]:
        """The players a simulation plays every seat with: this one's rules without simulated bids."""
        if self._policy is None:
            self._policy = [
                HeuristicPlayer(f"{self.seed}:rollout:{s}", simulated=False) for s in range(rules.players)
            ]
        return self._policy

    def play_valuation(self, rules: Ruleset) -> tuple[PlayValuation, float]:
        """How the bidding simulation values a contract's hand, and that value's bias to the declarer:
        a rollout of the policy, unbiased (``players.bidding``)."""
        return play_out, 0.0

    def optimism(self) -> float:
        """The share of the points in play taken off the seat's own contracts against the winner's
        curse of choosing the best-looking call (``bidding.OPTIMISM``)."""
        return OPTIMISM

    def estimator(self, obs: Observation) -> Estimator:
        """Sampled deals and rollouts for this hand, kept while the other seats make no new call
        (and for naming trumps).

        A later call of the seat after others have called again is valued on new deals, drawn to
        fit every call made so far: the first deals know nothing of the overcalls, and valued on
        them a continuing auction's bidder kept outbidding hands those overcalls showed (83).
        """
        hand = (obs.hand_index, obs.seat, tuple(obs.hand))
        others = tuple(call for call in obs.calls if call[0] != obs.seat)
        kept = self._estimator
        if kept is not None and kept[0][:3] == hand and (kept[0][3] == others or obs.phase != Phase.AUCTION):
            return kept[1]  # naming trumps: the deals the contract was won on
        seed = f"bid:{self.seed}:{obs.hand_index}:{obs.seat}:{mask_of(obs.hand)}"
        if kept is not None and kept[0][:3] == hand:  # a later call of this hand: new deals
            seed += f":{len(obs.calls)}"
        key = (*hand, others)
        valuation, bias = self.play_valuation(obs.rules)
        policy = self.rollout_policy(obs.rules)
        est = Estimator(obs, policy, seed, self.samples, valuation, bias, self.optimism())
        self._estimator = (key, est)
        return est

    def call_values(self, obs: Observation, legal: Sequence[int]) -> list[CallValue]:
        """The calls this player considers, each with its simulated value (``evaluate_calls``)."""
        values = evaluate_calls(self.estimator(obs), obs, legal)
        return [v for v in values if not _outbids_partner_beyond_own_hand(obs, obs.rules, v.action)]

    def _bid(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
        if not self.simulated:
            return self._rule_bid(obs, rules, legal)
        values = self.call_values(obs, legal)
        if not values:
            return self._rule_bid(obs, rules, legal)
        order = {a: i for i, a in enumerate(legal)}
        # ties go to passing, then to the lowest call
        return max(values, key=lambda c: (round(c.value, 9), -order[c.action])).action

    def _name_trump(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
        if not self.simulated:
            return super()._name_trump(obs, rules, legal)
        return choose_trump(self.estimator(obs), obs, legal)

    def _rule_bid(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
        """The bid by rule: what the hand-crafted estimate makes with a set chance."""
        total = rules.total_points
        value = self.estimate(obs, rules)
        bids = sorted(arg_of(a) for a in legal if verb_of(a) == Verb.BID)
        can_pass = PASS in legal
        if not bids:
            others = [a for a in legal if a != PASS]
            if PROTECT in others and make_chance(value, rules.min_bid, total) >= 0.6:
                return PROTECT
            return PASS if can_pass else legal[0]
        lowest = bids[0]
        need = self._needed_chance(obs, rules)
        acceptable = [b for b in bids if make_chance(value, b, total) >= need]
        if not can_pass:  # forced: the lowest, or more only when it is very likely made
            safe = [b for b in bids if make_chance(value, b, total) >= 0.75]
            return _bid_of(legal, max([lowest, *safe]))
        high = self._high_call(obs)
        if high is not None and rules.side_of(high[0]) == rules.side_of(obs.seat) and high[0] != obs.seat:
            # partner holds the contract: overcall only with a clearly better hand
            acceptable = [b for b in acceptable if make_chance(value, b, total) >= max(need, 0.8)]
        if not acceptable:
            return PASS
        speaks_last = rules.auction == AuctionModel.SINGLE_ROUND and obs.seat == obs.dealer
        if speaks_last or rules.auction == AuctionModel.UNTIL_ONE_LEFT:
            return _bid_of(legal, acceptable[0])
        # others still to speak: bid as high as is fairly safe, to shut them out
        safe = [b for b in acceptable if make_chance(value, b, total) >= need + 0.1]
        return _bid_of(legal, safe[-1] if safe else acceptable[0])

    def _needed_chance(self, obs: Observation, rules: Ruleset) -> float:
        """How likely a contract must be made to be worth bidding, given the scoring and the game score."""
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

    # ------------------------------------------------------------------ exchange

    def _exchange_list(self, obs: Observation, legal: tuple[int, ...]) -> int:
        """Claims take the best face-up trump for the least useful non-trump; folds as ``basic``."""
        claims = [a for a in legal if verb_of(a) == Verb.CLAIM]
        if claims and obs.trump is not None:
            tt = obs.rules.tables(obs.trump)

            def gain(action: int) -> float:
                cards = cards_of(arg_of(action))
                trump = sum(tt.points[c] * 100 + tt.strength[c] for c in cards if tt.trump_mask >> c & 1)
                given = sum(c % 13 for c in cards if not tt.trump_mask >> c & 1)
                return trump - given

            return max(claims, key=lambda a: (gain(a), -a))
        return super()._exchange_list(obs, legal)

    def _view(self, obs: Observation, rules: Ruleset, tt: TrumpTables) -> _PlayView:
        return _HeuristicView(obs, rules, tt)


class _HeuristicView(_PlayView):
    """``basic``'s picture of the play, plus who is out of trumps and how many each may hold."""

    def __init__(self, obs: Observation, rules: Ruleset, tt: TrumpTables) -> None:
        super().__init__(obs, rules, tt)
        self.void = self._trumpless()
        self.trump_holders = [s for s in self.others if s not in self.void]
        self.trump_counts = self._trump_counts()

    def _trump_counts(self) -> dict[int, float]:
        """Expected trumps still held by each other live seat.

        Where every non-trump is discarded, a seat other than the dealer kept at least
        ``first deal - cards laid aside`` trumps (its fill may have brought more); trumps
        played since come off. The unseen trumps not accounted for so are shared evenly.
        """
        obs = self.obs
        rules = self.rules
        holders = self.trump_holders
        unseen = self.unseen_trumps.bit_count()
        counts = {s: 0.0 for s in holders}
        if not holders:
            return counts
        known = (
            rules.discard == DiscardPolicy.ALL_NONTRUMPS
            and not rules.keep_nontrumps
            and len(obs.discarded) == self.n
        )
        if known:
            played = [0] * self.n
            tricks: list[SeenTrick] = list(obs.tricks)
            if obs.trick is not None:
                tricks.append(obs.trick)
            for t in tricks:
                for seat, cards in t.plays:
                    played[seat] += sum(1 for x in cards if self.is_trump(x))
            for s in holders:
                if s != obs.dealer:
                    counts[s] = float(max(0, rules.first_deal_size - obs.discarded[s] - played[s]))
        total = sum(counts.values())
        if total > unseen:
            scale = unseen / total
            counts = {s: v * scale for s, v in counts.items()}
            total = unseen
        spread = (unseen - total) / (len(holders) + 0.3)
        return {s: v + spread for s, v in counts.items()}

    def _trumpless(self) -> set[int]:
        """Seats known to hold no trumps."""
        obs = self.obs
        void: set[int] = set()
        for s, status in enumerate(obs.statuses):
            if status != Status.ACTIVE or not obs.hand_sizes[s]:
                void.add(s)
        tricks: list[SeenTrick] = list(obs.tricks)
        if obs.trick is not None:
            tricks.append(obs.trick)
        for t in tricks:
            if not t.plays:
                continue
            led = t.plays[0][1][0]
            if not self.is_trump(led):
                continue
            for s, cards in t.plays[1:]:
                if cards and not self.is_trump(cards[0]):
                    void.add(s)
        if not self.unseen_trumps:
            void.update(s for s in range(self.n) if s != obs.seat)
        return void

    def hold_value(self, c: int) -> float:
        """``basic``'s value of keeping ``c``; a trump adds ``_KEEP_HIGH`` by the unseen trumps it beats."""
        value = super().hold_value(c)
        if self.is_trump(c):
            unseen = self.unseen_strengths
            beaten = bisect_left(unseen, self.tt.strength[c]) / len(unseen) if unseen else 1.0
            value += _KEEP_HIGH * self.unit * beaten
        return value

    def beat_chance(self, c: int, opponents: list[int]) -> float:
        """Chance that one of ``opponents`` (playing after) beats ``c``, now winning the trick."""
        live = [s for s in opponents if s not in self.void]
        if not live:
            return 0.0
        holders = max(1, len(self.trump_holders))
        q = min(1.0, len(live) / (holders + 0.3))
        unseen = self.unseen_trumps.bit_count()
        if unseen:
            q = min(1.0, sum(self.trump_counts.get(s, 0.0) for s in live) / unseen)
        if self.is_trump(c):
            return 1.0 - (1.0 - q) ** self.higher_unseen(c)
        p = 0.6 ** len(live) if self.unseen_trumps else 1.0
        if self.rules.plain_ranking and c < 52:
            suit, rank = c // 13, c % 13
            higher = sum(
                1
                for x in cards_of(self.unseen & ~self.tt.trump_mask)
                if x < 52 and x // 13 == suit and x % 13 > rank
            )
            p *= (1 - q) ** higher
        return 1.0 - p

    # ---- leading

    def lead(self, legal: tuple[int, ...]) -> int:
        tops = sorted({play_top(a) for a in legal})
        trumps = [c for c in tops if self.is_trump(c)]
        plain = [c for c in tops if not self.is_trump(c)]
        bosses = [c for c in trumps if self.is_boss(c)]
        opponents_live = [s for s in self.trump_holders if self.rules.side_of(s) != self.side]
        top: int | None = None
        if bosses and (opponents_live or self.attacking or any(self.points(c) for c in bosses)):
            # cash a boss: a scoring one first (it cannot be taken), else the strongest to draw trumps
            top = max(bosses, key=lambda c: (self.points(c), self.tt.strength[c]))
        elif self.attacking and opponents_live and len(trumps) >= 3:
            free = [c for c in trumps if self.points(c) == 0 and self.tt.roles[c] != "2"]
            if free:
                top = max(free, key=lambda c: self.tt.strength[c])
        if top is None:
            pool = [c for c in plain if not self.points(c)] or plain or trumps
            top = min(
                pool, key=lambda c: (self.hold_value(c) + (self.points(c) if not self.is_trump(c) else 0), c)
            )
        return self._best_stack(legal, top)

    # ---- following

    def follow(self, legal: tuple[int, ...], info: _Trick) -> int:
        obs = self.obs
        rules = self.rules
        leader = info.tops[0][0]
        opponents_after = [s for s in info.after if rules.side_of(s) != self.side]
        partners_after = [s for s in info.after if rules.side_of(s) == self.side and s not in self.void]

        def value(action: int) -> float:
            cards = play_cards(action)
            top = cards[0]
            tops = [*info.tops, (obs.seat, top)]
            winner = trick_winner(rules, self.tt, leader, tops)
            win_card = next(c for s, c in tops if s == winner)
            mine = sum(self.points(c) for c in cards)
            keep = sum(self.hold_value(c) for c in cards)
            if rules.side_of(winner) == self.side:
                p = 1.0 - self.beat_chance(win_card, opponents_after)
            else:
                can_overtake = not self.is_trump(win_card) or self.higher_unseen(win_card) > 0
                p = 0.3 if partners_after and self.unseen_trumps and can_overtake else 0.0
            return p * (info.points + mine) - (1 - p) * mine - keep

        return max(legal, key=lambda a: (value(a), -a))
