"""``expert``: card play by sampling the hidden hands and solving each guess exactly.

**Calls and trumps** are chosen by ``heuristic``'s simulation (``players.bidding``:
sampled deals that fit the calls heard, every legal call scored by the engine's
own scoring against the game score), but each contract's hand is valued the
way the expert will play it: after the exchange (the players' own exchange
choices), by the exact solver on the sampled world, less the measured
declarer's bias of that perfect-information value (``players.solved_play``);
more deals while the best call is unclear and a guard on bidding over passing
stand in for ``heuristic``'s winner's-curse share (``optimism``).
With ``own_bidding=False`` (``expert:bid=heuristic``) it calls exactly as
``heuristic`` does, which measures what its own bidding is worth.

**Exchange decisions** (discard, keep, kill, give, fold, claim) are valued by
simulation (``players.exchange_values``: sampled deals played on from the
decision by ``heuristic``'s rollout, which names the best candidate; that one
and ``heuristic``'s own choice are valued again on the same deals by the
solver, ``solved_points``; the exchange's last decision by solving worlds at
the first lead, ``players.last_exchange``). The candidate replaces the rule's
choice only when the solver puts it ``EXCHANGE_OVER_RULE_Z`` standard errors
ahead; where nothing can be valued, the rule decides. With
``own_exchange=False`` (``expert:exchange=heuristic``) the exchange is
``heuristic``'s.

For a play the expert draws worlds consistent with what its seat has seen
(``pedro.players.sampling``: hands, voids shown in play, statuses, what the
exchange allows, the auction as weights), weighs each world by how well it
explains the other side's plays so far (``pedro.players.inference``: would a
sensible player have played so with those cards?), and in each world values
every legal play with the exact solver: the play is made, the play goes on
by the rules to the next seat that must play, and the rest is solved with
perfect information. It plays the action whose weighted average over the
worlds is best for its side.

**The objective.** The solver's value is the points of the bidder's side.
The bidder's side maximizes it. The other side takes the points in play it
does not: ``total - value``, where ``total`` is every point the world's cards
can score (cards in play, the Low's holder, credits). In a partnership game
that is exactly the other side's points. In an individual game the solver
plays every non-bidder as one coalition against the bidder ("paranoid"), and
a non-bidder's estimate is the coalition's points, what the bidder does not
take: keeping the bidder from his contract is what a non-bidder plays for.

**Cost.** One solve per (world, distinct play): plays of equal effect are one
class (cards of no points, adjacent in their suit or in trump order once the
cards between them are in this hand or gone). Identical worlds are solved
once. ``samples`` fixes the number of worlds (deterministic: the draw is
seeded by the player's seed and the decision); ``max_solves`` lowers it for
plays with many distinct choices (the default player: 120 worlds, at most
720 solves, at least 10 worlds; ``expert:N`` is N worlds always).
``max_nodes`` stops valuing new worlds once the solves of the decision have
searched that many positions (the solver's nodes), still after ``MIN_WORLDS``:
a few first leads in cinch and 83 search ten times the usual, and the cap
keeps them within the decision-time target on any machine alike. An
optional ``time_limit`` stops valuing new worlds once that many seconds
have passed (then the result depends on the machine's speed).

**Settings tried and not taken** (off by default; docs/players.md gives their
measurements): ``play_for_score`` values plays by the hand's score instead of
its points, ``resample`` solves worlds drawn in proportion to their weight,
``until_clear`` draws more worlds while the best play is in doubt,
``bid_temper`` sets how much the auction weighs the worlds, ``race`` stops
solving the plays that fall clearly behind and spends their solves on more
worlds for the rest.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import CARD_BITS, PASS
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.scoring import TrickCards, count_points
from pedro.i18n import N_
from pedro.players.bidding import (
    UNPLAYABLE,
    CallValue,
    Estimator,
    evaluate_calls,
    held_contract,
    made_share,
    trump_values,
    utility,
)
from pedro.players.estimates import POINTS, SCORE, Estimates
from pedro.players.exchange_values import TOO_MANY, candidates, exchange_worlds
from pedro.players.heuristic import HeuristicPlayer
from pedro.players.inference import PlayModel
from pedro.players.last_exchange import MAX_CHOICES as LAST_MAX_CHOICES
from pedro.players.last_exchange import applies, last_exchange_worlds
from pedro.players.sampling import PlayMachine, World, iter_worlds, played_by, sample_worlds
from pedro.players.simulation import PlayValuation
from pedro.players.solved_play import CountedSolvedPoints, declarer_bias, solved_points
from pedro.solver import PlayPosition, solve
from pedro.variants.model import ExcessTrumps, LowRule, Ruleset
from pedro.variants.tables import TrumpTables

#: Worlds per decision of the default ``expert``, and its cap on solves per decision (chosen by
#: the decision-time targets: median 50-90 ms, 99th percentile under 1 s): a play
#: with many distinct choices (the stacks of a first trick) is valued on fewer worlds, not
#: fewer than ``MIN_WORLDS``, which keeps the slowest decisions near the typical ones.
DEFAULT_SAMPLES = 120
DEFAULT_MAX_SOLVES = 720
MIN_WORLDS = 10
#: The default ``expert``'s cap on the solver's nodes per decision: about half a second of solving
#: on one core (docs/players.md, "Decision time").
DEFAULT_MAX_NODES = 3_000_000
#: The expert's bidding (``ExpertPlayer.call_values``): deals added at a time while the best call
#: is not clear; the deals a call may always be valued on; the work (``solved_play``'s solver
#: nodes and valuations) that buys more deals, up to the most (``affordable_deals``); and how many
#: standard errors make the best call clear from ``CLEAR_FROM`` deals on (``clear_bound``: more
#: before). ``BID_WORK`` is about 0.6 s of a core: 40 deals of a
#: cinch or 83 call cost about that already, while pidro and King Pedro (Canadian), whose calls
#: cost a third of it, go on to the most deals (docs/strength.md, "Deals bought by work").
BID_SAMPLES_STEP = 20
SURE_BID_SAMPLES = 40
BID_WORK = 3_000_000
MAX_BID_SAMPLES = 160
CLEAR_Z = 2.0
CLEAR_FROM = 80
#: A review of a call made (``estimates`` with the call in ``include``): more deals, this many at
#: a time, while the call trails the best and its cost's standard error is above ``JUDGE_ERROR``
#: points of score, up to ``JUDGE_DEALS`` deals (``ExpertPlayer._judged_calls``).
JUDGE_STEP = 40
JUDGE_ERROR = 0.75
JUDGE_DEALS = 240
#: A bid is made over passing only when it leads passing by this many standard errors on the
#: deals drawn (``ExpertPlayer._bid``).
BID_OVER_PASS_Z = 1.0
#: An exchange choice other than ``heuristic``'s is made only when it leads that one by this many
#: standard errors over the same sampled deals (``ExpertPlayer._exchange``).
EXCHANGE_OVER_RULE_Z = 2.0
#: Bounds of the ``expert:N`` setting.
MAX_SAMPLES = 1000
_TIE = 1e-9
#: Why choices go without a value (``Estimates.why``).
NOT_SIMULATED = N_("this player bids by rule, without simulation")
NO_CONTRACT = N_("no sampled deal could play the contract out")
UNPLAYED_SUIT = N_("no sampled deal could play the hand out in that suit")
NO_WORLD = N_("no deal of the hidden cards fits everything this seat has seen")
#: Legal card sets counted one by one up to this many (beyond, the count is the upper bound).
_COUNT_LIMIT = 4096


class ExpertPlayer(HeuristicPlayer):
    """Calls valued by solving sampled deals after the exchange; exchange choices by simulated value;
    card play by sampled worlds solved exactly."""

    name = "expert"

    def __init__(
        self,
        seed: int | str | None = None,
        samples: int = DEFAULT_SAMPLES,
        time_limit: float | None = None,
        max_solves: int | None = DEFAULT_MAX_SOLVES,
        read_play: bool = True,
        max_nodes: int | None = DEFAULT_MAX_NODES,
        own_bidding: bool = True,
        own_exchange: bool = True,
    ) -> None:
        super().__init__(seed)
        if not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be from 1 to {MAX_SAMPLES}, got {samples}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive, got {time_limit}")
        #: worlds sampled per card play, and the optional time limit (names apart from the
        #: heuristic's own bidding settings)
        self.worlds = samples
        self.max_solves = max_solves
        #: the solver's nodes after which no new world is valued (None: no cap)
        self.max_nodes = max_nodes
        self.expert_seed = seed
        self.play_time_limit = time_limit
        #: whether worlds are weighed by the other side's plays (``pedro.players.inference``)
        self.read_play = read_play
        #: if set, the partner's plays are read too (``PlayModel``'s ``partner_miss``)
        self.read_partner: float | None = None
        #: worlds valued at the last decision (for measurements)
        self.last_worlds = 0
        #: value contracts by the solver after the exchange (False: bid as ``heuristic``)
        self.own_bidding = own_bidding
        #: choose exchange decisions by simulated value (False: by ``heuristic``'s rule)
        self.own_exchange = own_exchange
        #: value card plays by the hand's score for the seat's side, not its points
        self.play_for_score = False
        #: worlds drawn per world solved, the solved ones kept by their weight (``resampled``)
        self.resample = 1
        #: if set, go on past the usual worlds, up to this many, until the best play is clear
        self.until_clear: int | None = None
        #: the power of the auction's evidence on a world's weight (None: ``sampling``'s own)
        self.bid_temper: float | None = None
        #: if set, a play that trails the best by this many standard errors (paired over the worlds
        #: valued, every ``RACE_EVERY`` worlds) is solved no more; the solves the usual worlds would
        #: have cost then buy more worlds for the plays left (``evaluate``)
        self.race: float | None = None
        #: where everyone plays alone, a non-bidder plays for its own points against every other
        #: seat instead of for the non-bidders' points together (``solved_world``)
        self.defend_alone = False
        #: if set, a bid whose contract its own deals make on fewer than this share of them is passed
        #: where passing is legal (``_bid``): a made share at the price of the bid's lead over passing
        self.made_floor: float | None = None

    def call_values(self, obs: Observation, legal: Sequence[int]) -> list[CallValue]:
        """``heuristic``'s simulated call values on this player's valuation, with more sampled deals
        while the best call is not clearly better than the next (``calls_are_clear``).

        On 20 deals the value of a call less passing varies by some 4 points (a standard
        deviation, in pidro) from one draw of deals to another: enough to overcall a hand that
        is worth a pass on other deals (the issue's "wild overcalls"); in King Pedro (Canadian)
        by some 11 points on 40 deals. Deals are added ``BID_SAMPLES_STEP`` at a time, while
        ``affordable_deals`` allows, until passing or bidding, whichever is best, leads the other
        by ``clear_bound`` standard errors of their difference on common deals.
        """
        values = super().call_values(obs, legal)
        if not self.own_bidding:
            return values
        est = self.estimator(obs)
        while needs_more_deals(values, len(est.samples), affordable_deals(est)):
            est.extend(obs, BID_SAMPLES_STEP)
            values = super().call_values(obs, legal)
        return values

    def _bid(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
        """The best call by value, but a pass where the best bid leads passing by less than
        ``BID_OVER_PASS_Z`` standard errors on the same deals.

        Such a bid is worth about as much as passing by the estimate itself, so passing it
        costs little, while the noise of the estimate (not the hand) is what made it best
        often enough to overcall a hand worth a pass (the issue's examples in pidro).
        With ``made_floor`` set, a bid whose own deals make it less often than that is passed
        too (a trial setting: docs/strength.md, "The expert knows those raises are risky").
        """
        call = super()._bid(obs, rules, legal)
        if not self.own_bidding or call == PASS or PASS not in legal:
            return call
        values = {c.action: c for c in self.call_values(obs, legal)}
        chosen, passing = values.get(call), values.get(PASS)
        if chosen is None or passing is None:
            return call
        if not bid_beats_pass(chosen, passing):
            return PASS
        if self.made_floor is not None:
            share = made_share(self.estimator(obs), obs.seat, chosen)
            if share is not None and share < self.made_floor:
                return PASS
        return call

    def optimism(self) -> float:
        """No share on its own calls: more deals while the best call is unclear (``call_values``)
        and the bid-over-pass guard (``_bid``) answer the winner's curse already, and ``OPTIMISM``
        on top of them passed hands worth a bid (docs/strength.md, "The expert's own calls")."""
        return super().optimism() if not self.own_bidding else 0.0

    def play_valuation(self, rules: Ruleset) -> tuple[PlayValuation, float]:
        """The solver's value after the exchange, and its measured bias (``players.solved_play``)."""
        if not self.own_bidding:
            return super().play_valuation(rules)
        return CountedSolvedPoints(), declarer_bias(rules)

    def act(self, obs: Observation) -> int:
        if obs.phase == Phase.PLAY and obs.my_turn and isinstance(obs.legal, tuple) and len(obs.legal) > 1:
            values = self.evaluate(obs)
            if values:
                return self._pick(obs, values)
        if obs.phase == Phase.EXCHANGE and obs.my_turn and self.own_exchange and legal_count(obs) > 1:
            return self._exchange(obs)
        return super().act(obs)

    def _exchange(self, obs: Observation) -> int:
        """``heuristic``'s choice, unless the rollouts' best choice clearly leads it on the same deals
        valued by the solver (``solved_points``, as the expert values a contract; ``_clear_leader``);
        at the exchange's last decision, the best of the solved worlds alone.

        The rollouts (cheap: every candidate) play the hand as ``heuristic`` does, and the expert
        does not: a discard that suits the rollout's play can look best there and not in the
        expert's hands, and a choice worth several points can lead the rule's by less than a
        standard error of the rollouts' noise. So they only name the challenger, and the solver
        (two choices, the same deals) decides."""
        rule = super().act(obs)
        worlds, _, solved = self._valued_exchange(obs, candidates(obs, rule))
        if worlds and not solved:
            means = {a: sum(v) / len(v) for a, v in worlds.items()}
            best = max(means, key=lambda a: (means[a], a == rule))
            if best == rule:
                return rule
            seed, policy = self._exchange_seed(obs), self.rollout_policy(obs.rules)
            worlds, _ = exchange_worlds(obs, policy, seed, [rule, best], self.samples, solved_points)
        return _clear_leader(worlds, rule) or rule

    def exchange_worlds(
        self, obs: Observation, include: Sequence[int] = ()
    ) -> tuple[dict[int, list[float]], str]:
        """The exchange choices valued (module ``exchange_values``; at the exchange's last decision
        ``last_exchange``), each with its points on every deal valued, and why none were when empty."""
        worlds, why, _ = self._valued_exchange(obs, candidates(obs, super().act(obs), include))
        return worlds, why

    def _valued_exchange(
        self, obs: Observation, choices: list[int]
    ) -> tuple[dict[int, list[float]], str, bool]:
        """``choices`` valued by the rollouts, or at the exchange's last decision by solved worlds
        (the flag); why none were when empty."""
        seed = self._exchange_seed(obs)
        worlds, why = exchange_worlds(obs, self.rollout_policy(obs.rules), seed, choices, self.samples)
        if worlds or not applies(obs):
            return worlds, why, False
        last = last_exchange_worlds(obs, self._last_choices(obs, choices), seed)
        return {a: v for a, v in last.items() if v}, why, True

    def _exchange_seed(self, obs: Observation) -> str:
        return f"exchange:{self.expert_seed}:{obs.hand_index}:{obs.seat}:{len(obs.own_discards)}"

    @staticmethod
    def _last_choices(obs: Observation, choices: list[int]) -> list[int]:
        """Every legal choice at the exchange's last decision when they are few, else ``choices``."""
        return list(obs.legal) if legal_count(obs) <= LAST_MAX_CHOICES else choices  # type: ignore[arg-type]

    def _pick(self, obs: Observation, values: Mapping[int, float]) -> int:
        """The best action; among equals, ``heuristic``'s choice when it is one of them."""
        top = max(values.values())
        best = sorted(a for a, v in values.items() if v >= top - _TIE)
        if len(best) == 1:
            return best[0]
        preferred = super().act(obs)
        return preferred if preferred in best else best[0]

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        """What each legal choice is worth: plays and exchange choices in points, calls in score
        (``pedro.players.estimates``); None only when the seat has no decision to make.

        Every legal call and every legal trump suit is valued by the simulation this player
        bids by (including the calls and suits its own choice leaves out as not worth
        simulating); exchange choices by the same simulation from the decision on
        (``exchange_values``: all of them when few, else heuristic's choice, its neighbours and
        ``include``, e.g. the choice a record made). A call in ``include`` that trails the best
        is judged on more deals (``_judged_calls``). A choice that cannot be valued is counted
        in ``Estimates.legal`` and ``Estimates.why`` says why.
        """
        if not obs.my_turn or obs.legal is None:
            return None
        legal = legal_count(obs)
        if obs.phase == Phase.EXCHANGE:
            worlds, why = self.exchange_worlds(obs, include)
            exchange = {a: sum(v) / len(v) for a, v in worlds.items()}
            if exchange and len(exchange) < legal:
                why = TOO_MANY
            return Estimates(POINTS, exchange, legal, why)
        if not isinstance(obs.legal, tuple):
            return None
        if obs.phase == Phase.AUCTION:
            if not self.simulated:
                return Estimates(SCORE, {}, legal, NOT_SIMULATED)
            self.call_values(obs, obs.legal)  # draws the deals this player's own call is made on
            calls = self._judged_calls(obs, obs.legal, include)
            return Estimates(SCORE, {c.action: c.value for c in calls}, legal, NO_CONTRACT)
        if obs.phase == Phase.TRUMP:
            if not self.simulated:
                return Estimates(SCORE, {}, legal, NOT_SIMULATED)
            suits = trump_values(self.estimator(obs), obs, obs.legal, every=True)
            valued = {a: v for a, v in suits.items() if v > UNPLAYABLE}
            return Estimates(SCORE, valued, legal, UNPLAYED_SUIT)
        if obs.phase != Phase.PLAY:
            return Estimates(POINTS, {}, legal, N_("this kind of decision has no estimate"))
        values = self.evaluate(obs)
        return Estimates(POINTS, values, legal, NO_WORLD)

    def _judged_calls(
        self, obs: Observation, legal: Sequence[int], include: Sequence[int]
    ) -> list[CallValue]:
        """Every legal call's value; a call in ``include`` (the one a record made, under review)
        that trails the best is valued on more deals, ``JUDGE_STEP`` at a time, until the
        standard error of its cost is at most ``JUDGE_ERROR`` or ``JUDGE_DEALS`` deals are drawn.

        On the 20 to 160 deals a call is made on, a call's value less the best moves by several
        points from one draw to the next (docs/strength.md, "Wild calls"): a review would blame
        good calls for the draw's noise. Calls that are best on those deals cost nothing more."""
        est = self.estimator(obs)
        calls = evaluate_calls(est, obs, legal)
        while len(est.samples) < JUDGE_DEALS:
            best = max(calls, key=lambda c: c.value)
            made = next((c for c in calls if c.action in include), None)
            if made is None or made.value >= best.value - _TIE:
                break
            if _paired(best.per_sample, made.per_sample)[1] <= JUDGE_ERROR:
                break
            est.extend(obs, min(JUDGE_STEP, JUDGE_DEALS - len(est.samples)))
            calls = evaluate_calls(est, obs, legal)
        return calls

    def evaluate(self, obs: Observation) -> dict[int, float]:
        """Each legal play -> expected points its seat's side takes in this hand (module docstring).

        Empty when no consistent world was found (the caller falls back to ``heuristic``).
        """
        if obs.phase != Phase.PLAY or obs.legal is None or not obs.my_turn:
            raise ValueError("evaluate needs the seat's turn in the card play")
        legal = list(obs.legal)
        rng = random.Random(f"expert:{self.expert_seed}:{obs.hand_index}:{_plays_made(obs)}:{obs.seat}")
        start = time.perf_counter()
        reps = play_classes(obs, legal)
        distinct = sorted(set(reps.values()))
        count = self.worlds
        if self.max_solves is not None:
            count = min(count, max(MIN_WORLDS, self.max_solves // len(distinct)))
        most = max(count, self.until_clear or 0)
        budget = count * len(distinct)  # racing spends the solves of the plays it drops on more worlds
        if self.race is not None:
            most, count = most * RACE_WORLDS, most * RACE_WORLDS
        weighed = self.weighed_worlds(obs, most, rng)
        sums = dict.fromkeys(distinct, 0.0)
        weights = dict.fromkeys(distinct, 0.0)  # the worlds' weight each play was valued on
        racing = list(distinct)  # the plays still solved (all of them unless ``race``)
        behind: dict[int, float] = {}  # a dropped play: how far it trailed the leader then
        done: dict[tuple[int, ...], dict[int, float]] = {}
        seen: list[tuple[float, dict[int, float]]] = []
        used = nodes = solves = 0
        for world, weight in weighed:
            limit = self.play_time_limit
            if limit is not None and used >= 2 and time.perf_counter() - start > limit:
                break
            if self.max_nodes is not None and used >= MIN_WORLDS and nodes >= self.max_nodes:
                break
            if used >= count and (used - count) % 10 == 0 and _clear(seen, {a: sums[a] for a in racing}):
                break
            if self.race is not None and solves + len(racing) > budget and used >= MIN_WORLDS:
                break
            values = done.get(world.hands)
            if values is None:
                values, searched = solved_world(obs, world, racing, self.play_for_score, self.defend_alone)
                done[world.hands] = values
                nodes += searched
                solves += len(racing)
            for a in racing:
                sums[a] += weight * values[a]
                weights[a] += weight
            if self.until_clear or self.race is not None:
                seen.append((weight, values))
            used += 1
            if self.race is not None and used >= MIN_WORLDS and used % RACE_EVERY == 0:
                kept = _still_racing(seen, sums, racing, self.race)
                leader = max(kept, key=lambda a: sums[a])
                for a in set(racing) - set(kept):
                    behind[a] = (sums[leader] - sums[a]) / weights[a]
                racing = kept
                if len(racing) == 1:
                    break
        self.last_worlds = used
        if not used or weights[distinct[0]] <= 0:
            return {}
        means = {a: sums[a] / weights[a] for a in distinct}
        # a dropped play is valued by how far it trailed the leader on the same worlds, from the
        # best play left: its own mean, from fewer worlds, may since have passed theirs
        top = max(means[a] for a in racing)
        means.update({a: top - lead for a, lead in behind.items()})
        return {a: means[reps[a]] for a in legal}

    def weighed_worlds(
        self, obs: Observation, most: int, rng: random.Random
    ) -> Iterable[tuple[World, float]]:
        """Up to ``most`` worlds consistent with what the seat has seen, each with its weight: the
        auction's evidence (``sampling``) times, when the player reads the play, how likely the
        others' plays were with those hands (``inference.PlayModel``)."""
        model = (
            PlayModel(obs, self.rollout_policy(obs.rules), partner_miss=self.read_partner)
            if self.read_play
            else None
        )
        if model is not None and self.resample > 1:
            drawn = sample_worlds(obs, most * self.resample, rng, temper=self.bid_temper)
            return resampled(drawn, model, most, rng)
        # weighed as they are reached: a time limit or a clear choice leaves the rest unweighed
        return (
            (w, w.weight * (model.weight(w.hands) if model is not None else 1.0))
            for w in iter_worlds(obs, most, rng, temper=self.bid_temper)
        )


#: How often (in worlds valued) ``ExpertPlayer.race`` looks for plays to stop solving, and how many
#: times the usual worlds it may value with the solves saved.
RACE_EVERY = 10
RACE_WORLDS = 4


def _still_racing(
    seen: list[tuple[float, dict[int, float]]], sums: Mapping[int, float], racing: list[int], z: float
) -> list[int]:
    """The plays of ``racing`` that the best of them does not lead by ``z`` standard errors of the
    weighted paired difference over the worlds seen (each was valued in all of them)."""
    best = max(racing, key=lambda a: sums[a])
    return [a for a in racing if a == best or _weighted_lead(seen, best, a) < z]


def _weighted_lead(seen: list[tuple[float, dict[int, float]]], first: int, second: int) -> float:
    """How many standard errors ``first`` leads ``second`` by in the worlds ``seen`` (weighted,
    paired; infinite without spread)."""
    total = sum(w for w, _ in seen)
    if total <= 0:
        return 0.0
    diffs = [(w, v[first] - v[second]) for w, v in seen]
    mean = sum(w * d for w, d in diffs) / total
    var = sum(w * (d - mean) ** 2 for w, d in diffs) / total
    effective = total**2 / sum(w * w for w, _ in diffs)
    if var <= 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / effective)


#: How many standard errors the best play must lead the next to stop drawing worlds early.
CLEAR_PLAY_Z = 2.0


def _clear(seen: list[tuple[float, dict[int, float]]], sums: Mapping[int, float]) -> bool:
    """Whether the best play so far leads the next by ``CLEAR_PLAY_Z`` standard errors of their
    weighted paired difference over the worlds valued (one play alone is clear)."""
    if len(sums) < 2:
        return True
    best, second = sorted(sums, key=lambda a: sums[a], reverse=True)[:2]
    return _weighted_lead(seen, best, second) >= CLEAR_PLAY_Z


def resampled(
    worlds: list[World], model: PlayModel, count: int, rng: random.Random
) -> list[tuple[World, float]]:
    """``count`` of ``worlds`` drawn in proportion to their weight, each then of weight 1.

    Weighing is cheap and solving is not: drawing more worlds than are solved and keeping the
    likely ones spends the solves where the weight is, instead of on worlds the play seen makes
    all but impossible (systematic resampling: the kept counts are within one of the weights').
    """
    weights = [w.weight * model.weight(w.hands) for w in worlds]
    total = sum(weights)
    if total <= 0:
        return []
    step = total / count
    point = rng.random() * step
    out: list[tuple[World, float]] = []
    running = 0.0
    for world, weight in zip(worlds, weights, strict=True):
        running += weight
        while point < running and len(out) < count:
            out.append((world, 1.0))
            point += step
    return out


def _clear_leader(worlds: Mapping[int, Sequence[float]], rule: int) -> int | None:
    """The choice with the best mean when it leads ``rule``'s by ``EXCHANGE_OVER_RULE_Z`` standard
    errors on the same deals; None when none does (or ``rule`` was not valued)."""
    if not worlds.get(rule):
        return None
    means = {a: sum(v) / len(v) for a, v in worlds.items() if v}
    best = max(means, key=lambda a: (means[a], a == rule))
    if means[best] <= means[rule] + _TIE or _lead(worlds[best], worlds[rule]) < EXCHANGE_OVER_RULE_Z:
        return None
    return best


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
    expert's own calls pass a best bid that does not (``ExpertPlayer._bid``)."""
    return _lead(bid.per_sample, passing.per_sample) >= BID_OVER_PASS_Z


def clear_bound(deals: int) -> float:
    """How many standard errors make a call clear on ``deals`` deals: ``CLEAR_Z`` from
    ``CLEAR_FROM`` deals on, and more before, in proportion to one over the root of the deals (an
    O'Brien-Fleming-like bound).

    The call is looked at again every ``BID_SAMPLES_STEP`` deals, up to eight times, and stops at
    the first clear look; a flat bound would let an extreme early draw stop it several times as
    often as one test's error rate (docs/strength.md, "The raising wars"). Late looks keep the
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
    return _lead(top.per_sample, rival.per_sample) >= bound


def _lead(first: Sequence[float], second: Sequence[float]) -> float:
    """How many standard errors ``first`` leads ``second`` by, deal by deal (infinite without
    per-deal values or spread)."""
    mean, error = _paired(first, second)
    return mean / error if error > 0 else math.inf


def _paired(first: Sequence[float], second: Sequence[float]) -> tuple[float, float]:
    """The mean of ``first`` less ``second``, deal by deal, and its standard error (0, 0 without
    per-deal values)."""
    if not first or len(first) != len(second):
        return 0.0, 0.0
    diffs = [a - b for a, b in zip(first, second, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def legal_count(obs: Observation) -> int:
    """How many legal choices the decision has (a large set of card sets: its upper bound)."""
    legal = obs.legal
    if legal is None:
        return 0
    if isinstance(legal, tuple):
        return len(legal)
    bound = legal.upper_bound()
    return sum(1 for _ in legal) if bound <= _COUNT_LIMIT else bound


def _plays_made(obs: Observation) -> int:
    made = sum(len(t.plays) for t in obs.tricks)
    return made + (len(obs.trick.plays) if obs.trick is not None else 0)


# ---------------------------------------------------------------- plays of equal effect


def play_classes(obs: Observation, legal: list[int]) -> dict[int, int]:
    """Each legal play -> a representative play of equal value in every world.

    Two single cards are alike when neither scores and every card between them
    (trump order, or rank in their plain suit) is in this hand among the alike
    cards or is gone for good (played in a finished trick, laid aside face up,
    the seat's own discards). Off for stacks and ``relative_high_low`` (the
    lowest trump played scores there).
    """
    rules = obs.rules
    assert obs.trump is not None
    tt = rules.tables(obs.trump)
    reps = {a: a for a in legal}
    if rules.relative_high_low or any((a & CARD_BITS).bit_count() != 1 for a in legal):
        return reps
    gone = mask_of(obs.own_discards)
    for t in obs.tricks:
        for _seat, cards in t.plays:
            gone |= mask_of(cards)
    for cards in obs.face_up:
        gone |= mask_of(cards)
    zero = {
        (a & CARD_BITS).bit_length() - 1: a for a in legal if not tt.points[(a & CARD_BITS).bit_length() - 1]
    }
    if len(zero) < 2:
        return reps
    quiet = mask_of(zero) | gone
    for group, ranked in _orders(rules, tt):
        run_rep = -1
        blocked = True
        for c in group:
            if c in zero:
                if run_rep >= 0 and not blocked:
                    reps[zero[c]] = reps[zero[run_rep]]
                else:
                    run_rep = c
                blocked = False
            elif ranked and not quiet >> c & 1:
                blocked = True
    return reps


def _orders(rules: Ruleset, tt: TrumpTables) -> list[tuple[list[int], bool]]:
    """Classes of comparable cards in order, and whether order matters in them.

    Trumps rank by strength; plain cards of a suit rank, or, where plain cards
    never rank (the leader wins a trick without trumps), are all alike.
    """
    deck = rules.deck
    trumps = sorted((c for c in deck if tt.trump_mask >> c & 1), key=lambda c: tt.strength[c])
    out = [(trumps, True)]
    for suit in range(4):
        plain = [c for c in deck if c < 52 and c // 13 == suit and not tt.trump_mask >> c & 1]
        out.append((sorted(plain), rules.plain_ranking))
    return out


# ---------------------------------------------------------------- one world


def credits_of(obs: Observation) -> tuple[tuple[int, ...], int]:
    """Points credited per side for scoring trumps laid aside, and those cards (notes K11, K19).

    Seen from the table: the face-up discards (and the seat's own discards).
    """
    rules = obs.rules
    assert obs.trump is not None
    tt = rules.tables(obs.trump)
    credits = [0] * rules.num_sides
    credited = 0
    policy = rules.excess_trumps
    if policy not in (ExcessTrumps.DISCARD_NONSCORING_FACE_UP, ExcessTrumps.MUST_DISCARD_TO_6):
        return tuple(credits), 0
    for s in range(rules.players):
        laid = mask_of(obs.face_up[s])
        if s == obs.seat:
            laid |= mask_of(obs.own_discards)
        scoring = laid & tt.trump_mask & tt.scoring_mask
        if not scoring:
            continue
        side = rules.side_of(s)
        if policy == ExcessTrumps.MUST_DISCARD_TO_6:
            side = next(o for o in range(rules.num_sides) if o != side)
        credits[side] += sum(tt.points[c] for c in cards_of(scoring))
        credited |= scoring
    return tuple(credits), credited


def position_of(obs: Observation, machine: PlayMachine) -> PlayPosition:
    """The solver's position for a world, at the machine's turn."""
    assert obs.trump is not None and obs.bidder is not None
    credits, credited = credits_of(obs)
    return machine.play_position(obs.trump, obs.bidder, credits, credited, _low_dealt_to(obs, machine))


def _low_dealt_to(obs: Observation, machine: PlayMachine) -> int:
    """Under ``low_rule = dealt``, the Low's first receiver, taken to be its holder at the first lead.

    (Who was dealt a card that changed hands in the exchange is not in the observation.)
    """
    rules = obs.rules
    if rules.low_rule != LowRule.DEALT:
        return -1
    low = machine.tt.low_card
    if low < 0:
        return -1
    played = played_by(obs)
    for s in range(rules.players):
        if (machine.hands[s] | played[s]) >> low & 1:
            return s
    return -1


def _points(obs: Observation, machine: PlayMachine, tricks: list[TrickCards]) -> list[int]:
    pos = position_of(obs, machine)
    holder: dict[int, int] = {}
    low = machine.tt.low_card
    if low >= 0 and obs.rules.low_rule == LowRule.HOLDER:
        for s, h in enumerate(pos.hands_at_play()):
            if h >> low & 1:
                holder[low] = s
    dealt = {low: pos.low_dealt_to} if pos.low_dealt_to >= 0 else {}
    points, _ = count_points(obs.rules, machine.tt, tricks, holder, dealt, list(pos.credits), pos.credited)
    return points


def world_values(
    obs: Observation, world: World, actions: list[int], for_score: bool = False, alone: bool = False
) -> dict[int, float]:
    """Each action's points for the seat's side in one world, with best play afterwards; with
    ``for_score``, what those points make of the hand for the seat's side (``score_of_points``);
    with ``alone``, a non-bidder's own points where more than two sides play (``solved_world``)."""
    return solved_world(obs, world, actions, for_score, alone)[0]


def solved_world(
    obs: Observation, world: World, actions: list[int], for_score: bool = False, alone: bool = False
) -> tuple[dict[int, float], int]:
    """``world_values`` and the nodes its solves searched (the cost ``max_nodes`` counts).

    ``alone``: in a game of more than two sides, a non-bidder's solves maximize its own points
    against a coalition of every other seat, the bidder's and the other non-bidders' ("paranoid"
    for itself): where the bidder makes his contract a seat's share of the score is its own points,
    which the non-bidders' coalition leaves to chance. ``for_score`` does not apply then."""
    rules = obs.rules
    assert obs.bidder is not None
    bidder_side = rules.side_of(obs.bidder)
    mine = rules.side_of(obs.seat) == bidder_side
    alone = alone and not mine and rules.num_sides > 2
    # the solver maximizes the points of its position's ``bidder`` side: alone, the seat's own
    maximized = rules.side_of(obs.seat) if alone else bidder_side
    base = world.machine
    # every point the world's cards can score: one trick holding every card in play
    everything = 0
    for h in base.hands:
        everything |= h
    for p in played_by(obs):
        everything |= p
    total = sum(_points(obs, base, [TrickCards(obs.bidder, ((obs.bidder, everything),))]))
    out: dict[int, float] = {}
    solved = False
    nodes = 0
    for action in actions:
        m = base.copy()
        m.play(action)
        if m.prepare():
            position = position_of(obs, m)
            # each play's solve reuses what the solves of this world's other plays found
            result = solve(replace(position, bidder=obs.seat) if alone else position, same_deal=solved)
            value = result.value
            nodes += result.nodes
            solved = True
        else:
            done = [TrickCards(t.winner, tuple((s, a & CARD_BITS) for s, a in t.plays)) for t in m.tricks]
            value = _points(obs, m, done)[maximized]
        out[action] = float(value if mine or alone else total - value)
    if for_score and not alone:
        return score_of_points(obs, bidder_side, total, out), nodes
    return out, nodes


def score_of_points(
    obs: Observation, bidder_side: int, total: int, values: dict[int, float]
) -> dict[int, float]:
    """Each action's worth to the seat's side in score (``bidding.utility``: its score change less
    the others', the game's end included) from its points in ``values``.

    The solver's value stays the right play inside each world: the worth is monotone in the
    bidder's points, rising for the bidder's side and falling for the others. The others' points
    are spread evenly over their sides (in a partnership game exactly what they take).
    """
    rules = obs.rules
    assert obs.bidder is not None
    side = rules.side_of(obs.seat)
    contract = held_contract(obs, obs.bidder)
    others = [s for s in range(rules.num_sides) if s != bidder_side]
    out: dict[int, float] = {}
    for action, own in values.items():
        taken = int(own) if side == bidder_side else total - int(own)
        points = [0] * rules.num_sides
        points[bidder_side] = taken
        rest = total - taken
        for i, s in enumerate(others):
            points[s] = rest // len(others) + (1 if i < rest % len(others) else 0)
        out[action] = utility(rules, side, obs.scores, contract, points)
    return out


__all__ = [
    "DEFAULT_MAX_SOLVES",
    "DEFAULT_SAMPLES",
    "MAX_SAMPLES",
    "ExpertPlayer",
    "legal_count",
    "play_classes",
    "world_values",
]
