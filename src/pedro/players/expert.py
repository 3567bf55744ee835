"""``expert``: card play by sampling the hidden hands and solving each guess exactly.

The expert is three parts (``players.parts``):

* **the bidder** (``expert_bidding.SolvedBidder``): ``heuristic``'s bidding
  simulation with each contract's hand valued as the expert plays it, by the
  solver after the exchange; more deals while the best call is unclear, and a
  guard on bidding over passing. ``expert:bid=heuristic`` composes
  ``heuristic``'s bidder instead (``heuristic.SimulatedBidder``), which
  measures what its own bidding is worth.
* **the exchanger** (``expert_exchange.ExpertExchanger``): ``heuristic``'s
  choice unless a simulated challenger clearly leads it on the same deals.
  ``expert:exchange=heuristic`` composes ``heuristic``'s exchanger instead.
* **the card player** (``card_search.SolvingCardPlayer``): worlds consistent
  with what the seat has seen, weighed by the play seen, each solved exactly
  (``solved_worlds``).

**The objective.** The solver's value is the points of the bidder's side.
The bidder's side maximizes it. The other side takes the points in play it
does not: ``total - value``, where ``total`` is every point the world's cards
can score (cards in play, the Low's holder, credits). In a partnership game
that is exactly the other side's points. In an individual game the solver
plays every non-bidder as one coalition against the bidder ("paranoid"), and
a non-bidder's estimate is the coalition's points, what the bidder does not
take: keeping the bidder from his contract is what a non-bidder plays for.

What can be set is ``expert_config.ExpertConfig`` (``expert:N`` is
``ExpertConfig.fixed(N)``). The parts share one ``heuristic.Shared``: the
player's seed and the rollout players of every simulation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.i18n import N_
from pedro.players.basic import RuleCardPlayer
from pedro.players.bidding import UNPLAYABLE, trump_values
from pedro.players.card_search import SolvingCardPlayer
from pedro.players.estimates import POINTS, SCORE, Estimates
from pedro.players.exchange_values import TOO_MANY
from pedro.players.expert_bidding import SolvedBidder, SolvedValues, judged_calls
from pedro.players.expert_config import DEFAULT_SAMPLES, ExpertConfig
from pedro.players.expert_exchange import ExchangeValuer, ExpertExchanger, legal_count
from pedro.players.heuristic import HeuristicExchanger, Shared, SimulatedBidder, ValuedBidder
from pedro.players.heuristic_view import HeuristicView
from pedro.players.parts import ComposedPlayer, Exchanger

#: Why choices go without a value (``Estimates.why``).
NO_CONTRACT = N_("no sampled deal could play the contract out")
UNPLAYED_SUIT = N_("no sampled deal could play the hand out in that suit")
NO_WORLD = N_("no deal of the hidden cards fits everything this seat has seen")


class ExpertPlayer(ComposedPlayer):
    """Calls valued by solving sampled deals after the exchange; exchange choices by simulated value;
    card play by sampled worlds solved exactly.

    ``heuristic_bidding`` and ``heuristic_exchange`` compose ``heuristic``'s bidder or exchanger
    in place of the expert's own (``expert:bid=heuristic``, ``expert:exchange=heuristic``)."""

    name = "expert"
    bidder: ValuedBidder
    card_player: SolvingCardPlayer

    def __init__(
        self,
        seed: int | str | None = None,
        config: ExpertConfig | None = None,
        *,
        heuristic_bidding: bool = False,
        heuristic_exchange: bool = False,
    ) -> None:
        self.config = config = config or ExpertConfig()
        self.shared = shared = Shared(seed)
        rule_exchange = HeuristicExchanger(random.Random(f"heuristic:{seed}"))
        #: values exchange choices for the exchanger and for hints, whichever exchanger decides
        self.exchange_values = ExchangeValuer(shared, rule_exchange, config.deals)
        rule_play = RuleCardPlayer(HeuristicView)
        bidder: ValuedBidder
        if heuristic_bidding:
            bidder = SimulatedBidder(shared, samples=config.deals)
        else:
            # its calls were calibrated on deals drawn anew at each call (docs/strength.md); keeping
            # samples across calls is measured for rollouts only
            bidder = SolvedBidder(SimulatedBidder(shared, SolvedValues(), config.deals, carry=False))
        exchanger: Exchanger = rule_exchange if heuristic_exchange else ExpertExchanger(self.exchange_values)
        super().__init__(bidder, exchanger, SolvingCardPlayer(shared, config, rule_play))

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        """What each legal choice is worth: plays and exchange choices in points, calls in score
        (``pedro.players.estimates``); None only when the seat has no decision to make.

        Every legal call and every legal trump suit is valued by the simulation this player
        bids by (including the calls and suits its own choice leaves out as not worth
        simulating); exchange choices by the same simulation from the decision on
        (``exchange_values``: all of them when few, else heuristic's choice, its neighbours and
        ``include``, e.g. the choice a record made). A call in ``include`` that trails the best
        is judged on more deals (``expert_bidding.judged_calls``). A choice that cannot be valued
        is counted in ``Estimates.legal`` and ``Estimates.why`` says why.
        """
        if not obs.my_turn or obs.legal is None:
            return None
        legal = legal_count(obs)
        if obs.phase == Phase.EXCHANGE:
            worlds, why = self.exchange_values.worlds(obs, include)
            exchange = {a: sum(v) / len(v) for a, v in worlds.items()}
            if exchange and len(exchange) < legal:
                why = TOO_MANY
            return Estimates(POINTS, exchange, legal, why)
        if not isinstance(obs.legal, tuple):
            return None
        if obs.phase == Phase.AUCTION:
            self.bidder.call_values(obs, obs.legal)  # draws the deals this player's own call is made on
            calls = judged_calls(self.bidder.estimator(obs), obs, obs.legal, include)
            return Estimates(SCORE, {c.action: c.value for c in calls}, legal, NO_CONTRACT)
        if obs.phase == Phase.TRUMP:
            suits = trump_values(self.bidder.estimator(obs), obs, obs.legal, every=True)
            valued = {a: v for a, v in suits.items() if v > UNPLAYABLE}
            return Estimates(SCORE, valued, legal, UNPLAYED_SUIT)
        if obs.phase != Phase.PLAY:
            return Estimates(POINTS, {}, legal, N_("this kind of decision has no estimate"))
        values = self.card_player.evaluate(obs)
        return Estimates(POINTS, values, legal, NO_WORLD)


#: ``DEFAULT_SAMPLES`` is named here too: a server caps ``expert:N`` by the expert's own worlds.
__all__ = ["DEFAULT_SAMPLES", "ExpertPlayer"]
