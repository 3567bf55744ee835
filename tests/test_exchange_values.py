"""Exchange choices valued by simulation (``pedro.players.exchange_values``) and shown by analyze."""

from __future__ import annotations

import random

import pytest
from tests.helpers import played_record

from pedro.analysis import Decision, decisions, needs_choice
from pedro.engine.actions import Verb, arg_of, cards_action
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.players import ExpertPlayer
from pedro.players.exchange_values import MAX_CANDIDATES, candidates
from pedro.players.last_exchange import applies, last_exchange_worlds
from pedro.players.simulation import SampledDeals, contract_state

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players


def _exchange_decisions(variant: str, seed: int) -> list[Decision]:
    record = played_record(variant, seed=seed, hands=1, player="heuristic")
    return [d for d in decisions(record) if d.phase == Phase.EXCHANGE and needs_choice(d)]


def test_throwing_away_a_scoring_trump_is_valued_below_the_choice_made() -> None:
    # nicaragua, seed 3: seat 1 discards 5C 8C holding three scoring trumps
    found = [d for d in _exchange_decisions("nicaragua", 3) if d.seat == 1 and d.number == 9]
    assert found, "the recorded game changed: pick another decision"
    d = found[0]
    legal = d.obs.legal
    assert isinstance(legal, CardChoice)
    tt = d.obs.rules.tables(d.obs.trump)
    best_trump = max((c for c in d.obs.hand if tt.trump_mask >> c & 1), key=lambda c: tt.points[c])
    assert tt.points[best_trump] > 0
    made = arg_of(d.action)
    worse = cards_action(legal.verb, made | 1 << best_trump)
    assert worse in legal
    est = ExpertPlayer(seed=1).estimates(d.obs, include=(d.action, worse))
    assert est is not None and est.unit == "points"
    assert d.action in est.values and worse in est.values
    assert est.values[d.action] > est.values[worse]
    assert all(0 <= v <= d.obs.rules.total_points for v in est.values.values())


@pytest.mark.slow
def test_every_valued_exchange_choice_is_legal_and_the_made_one_is_included() -> None:
    valued = 0
    for variant, seed in (("eighty_three", 3), ("king_pedro", 3)):
        player = ExpertPlayer(seed=2)
        for d in _exchange_decisions(variant, seed):
            est = player.estimates(d.obs, include=(d.action,))
            assert est is not None
            if not est.values:  # then it says why
                assert est.why and est.note().startswith("no choice valued")
                continue
            valued += 1
            assert d.action in est.values
            assert all(a in d.obs.legal for a in est.values)  # type: ignore[operator]
    assert valued >= 3


def test_candidates_keep_the_preferred_and_asked_for_choices_under_the_cap() -> None:
    d = next(d for d in _exchange_decisions("nicaragua", 3) if isinstance(d.obs.legal, CardChoice))
    legal = d.obs.legal
    assert isinstance(legal, CardChoice) and legal.upper_bound() > MAX_CANDIDATES
    preferred = ExpertPlayer(seed=1).act(d.obs)
    other = next(a for a in legal if a not in (preferred, d.action))
    found = candidates(d.obs, preferred, include=(d.action, other))
    assert found[0] == preferred and d.action in found and other in found
    assert len(found) <= MAX_CANDIDATES and len(set(found)) == len(found)
    assert all(a in legal for a in found)


@pytest.mark.slow
def test_the_exchanges_last_decision_is_valued_at_the_first_lead_and_only_there() -> None:
    # cinch: the dealer keeps non-trumps from the stock to make six, the exchange's last decision
    found = [d for d in _exchange_decisions("cinch", 2) if isinstance(d.obs.legal, CardChoice)]
    last = [d for d in found if applies(d.obs)]
    assert last, "the recorded game changed: pick another seed"
    d = last[0]
    assert d.seat == d.obs.dealer and len(d.obs.hand) < 6
    legal = list(d.obs.legal)  # type: ignore[arg-type]
    worlds = last_exchange_worlds(d.obs, legal, "seed")
    assert set(worlds) == set(legal)
    assert len({len(v) for v in worlds.values()}) == 1 and worlds[legal[0]]  # the same worlds for each
    assert all(0 <= v <= d.obs.rules.total_points for values in worlds.values() for v in values)
    assert worlds == last_exchange_worlds(d.obs, legal, "seed")
    # not the last decision: a seat that still has to draw (its hand is short of six and others are too)
    record = played_record("nicaragua", seed=3, hands=1, player="heuristic")
    early = [x for x in decisions(record) if x.phase == Phase.EXCHANGE and needs_choice(x)]
    assert early and not any(applies(x.obs) for x in early[:1])


@pytest.mark.slow
def test_a_hand_after_the_second_deal_is_dealt_again_to_its_own_seat() -> None:
    # King Pedro (Canadian): nine cards each, then four more each from the stock in turn from the
    # dealer's left; a sampled deal must give each seat its own packet of four, not the first seat's
    seats = set()
    for d in _exchange_decisions("king_pedro_canadian", 4):
        obs = d.obs
        if len(obs.hand) != obs.rules.first_deal_size + obs.rules.second_deal:
            continue
        assert obs.bidder is not None and obs.bid is not None and obs.trump is not None
        deals = SampledDeals(obs.rules, obs.dealer, obs.seat, obs.hand, random.Random(d.seat))
        sampled = contract_state(obs.rules, deals, obs.bidder, obs.bid, obs.trump)
        assert sampled is not None and sampled.observation(obs.seat).hand == obs.hand
        seats.add(obs.seat)
    assert len(seats) == 4


@pytest.mark.slow
def test_later_seats_exchange_decisions_are_valued_after_the_second_deal() -> None:
    # every seat's discard from its thirteen cards, not only the first seat's
    valued = set()
    player = ExpertPlayer(seed=2)
    for d in _exchange_decisions("king_pedro_canadian", 4):
        if isinstance(d.obs.legal, CardChoice) and d.obs.legal.verb == Verb.DISCARD:
            est = player.estimates(d.obs, include=(d.action,))
            if est is not None and est.values:
                assert d.action in est.values
                valued.add(d.seat)
    assert len(valued) == 4, valued
