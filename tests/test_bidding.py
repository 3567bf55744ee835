"""Bidding by simulation: sane estimates, score-aware calls, determinism, legal everywhere."""

from __future__ import annotations

import pytest
from tests.helpers import S, W, deal_state, rules

from pedro.engine.actions import PASS, Verb, arg_of, bid_action, verb_of
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.scoring import Contract
from pedro.engine.state import GameState
from pedro.players.bidding import (
    OPTIMISM,
    CallValue,
    Estimator,
    corrected,
    evaluate_calls,
    made_share,
    utility,
)
from pedro.players.heuristic import HeuristicPlayer, SimulatedBidder, rollout_player
from pedro.variants.catalog import VARIANTS

HEARTS = 1  # suit index of hearts (suits are S, H, D, C)
STRONG = "AH KH QH JH TH 9H 5H 5D 2H"
WEAK = "3S 4S 6H 7H 3D 4D 6C 7C 8C"


def _estimator(hand: str, seed: str = "t", samples: int = 8) -> tuple[Estimator, GameState]:
    r = rules("cinch")
    state = deal_state(r, S, {W: hand})
    obs = state.observation(state.current_player)
    policy = [rollout_player(s) for s in range(4)]
    return Estimator(obs, policy, seed, samples), state


def test_all_top_trumps_take_nearly_every_point() -> None:
    est, _ = _estimator(STRONG)
    side = rules("cinch").side_of(W)
    estimate = est.suit_estimate(HEARTS)
    assert len(estimate.points) == 8
    assert estimate.mean(side) >= 12.0
    # the engine's scoring makes a bid of 11 on three deals in four or more
    share = made_share(est, W, CallValue(bid_action(11), 0.0, HEARTS))
    assert share is not None and share >= 0.75


def test_a_hopeless_hand_takes_little() -> None:
    # in cinch a trumpless hand throws everything and draws six fresh cards, and partner holds a
    # random hand: the side still expects some points, but under half of them (the best of four
    # suits' means over 24 samples: about 6.5 on average over seeds, so 7 is the bound)
    est, _ = _estimator(WEAK, samples=24)
    side = rules("cinch").side_of(W)
    best = max(est.suit_estimate(s).mean(side) for s in range(4))
    strong, _ = _estimator(STRONG)
    assert best < 7.0
    assert strong.suit_estimate(HEARTS).mean(side) - best >= 6.0


def test_the_weak_hand_passes_because_the_set_risk_dominates() -> None:
    est, state = _estimator(WEAK)
    obs = state.observation(state.current_player)
    assert isinstance(obs.legal, tuple) and PASS in obs.legal
    values = {c.action: c.value for c in evaluate_calls(est, obs, obs.legal)}
    bids = [v for a, v in values.items() if verb_of(a) == Verb.BID]
    assert values[PASS] > max(bids)
    # higher bids are worth less: more is lost when set, nothing more is won when made
    seven, fourteen = (values[a] for a in values if verb_of(a) == Verb.BID and arg_of(a) in (7, 14))
    assert seven > fourteen
    assert HeuristicPlayer(0).act(obs) == PASS


def test_the_strong_hand_bids_and_names_its_suit() -> None:
    r = rules("cinch")
    state = deal_state(r, S, {W: STRONG})
    player = HeuristicPlayer(0, samples=6)
    action = player.act(state.observation(W))
    assert verb_of(action) == Verb.BID
    state.apply(action)
    while state.phase == Phase.AUCTION:  # the others pass
        state.apply(PASS if PASS in state.legal() else state.legal_actions()[0])
    assert state.phase == Phase.TRUMP and state.current_player == W
    assert player.act(state.observation(W)) & 3 == HEARTS


def test_the_estimate_is_deterministic_and_cached() -> None:
    a, _ = _estimator(STRONG, seed="same")
    b, _ = _estimator(STRONG, seed="same")
    c, _ = _estimator(STRONG, seed="other")
    assert a.suit_estimate(HEARTS).points == b.suit_estimate(HEARTS).points
    assert [s.deals_seed for s in a.samples] != [s.deals_seed for s in c.samples]
    r = rules("cinch")
    state = deal_state(r, S, {W: STRONG})
    player = HeuristicPlayer(0, samples=4)
    obs = state.observation(W)
    assert player.bidder.estimator(obs) is player.bidder.estimator(obs)


def test_utility_scores_made_and_set_contracts() -> None:
    r = rules("cinch")
    contract = Contract(W, 9, Verb.BID)
    side = r.side_of(W)
    made = [0, 0]
    made[side], made[1 - side] = 10, 4
    set_ = [0, 0]
    set_[side], set_[1 - side] = 8, 6
    assert utility(r, side, (0, 0), contract, made) == 10 - 4
    assert utility(r, side, (0, 0), contract, set_) == -9 - 6


def test_utility_counts_the_end_of_the_game() -> None:
    r = rules("cinch")
    side = r.side_of(W)
    contract = Contract(W, 7, Verb.BID)
    points = [0, 0]
    points[side], points[1 - side] = 9, 5
    near = [0, 0]
    near[side] = r.target - 8
    assert utility(r, side, tuple(near), contract, points) >= r.target
    # the opponents' made contract that takes them out costs the game
    theirs = Contract((W + 1) % 4, 7, Verb.BID)
    far = [0, 0]
    far[1 - side] = r.target - 8
    swapped = [0, 0]
    swapped[side], swapped[1 - side] = 5, 9
    assert utility(r, side, tuple(far), theirs, swapped) <= -r.target


def test_the_opponents_near_the_target_make_it_bid_more() -> None:
    r = VARIANTS["cinch"]
    counts = []
    for scores in ((0, 0), (0, r.target - 8)):
        bids = 0
        for seed in range(8):
            seat = GameState(r, seed=seed).current_player
            mine = r.side_of(seat)
            state = GameState(r, seed=seed, scores=scores if mine == 0 else scores[::-1])
            obs = state.observation(seat)
            action = HeuristicPlayer(seed, samples=6).act(obs)
            bids += action != PASS
        counts.append(bids)
    assert counts[1] > counts[0], counts


def test_corrected_moves_the_optimism_from_the_side() -> None:
    r = rules("cinch")
    moved = sum(12 - corrected(r, (12, 2), 0, i)[0] for i in range(100))
    # the fractional shift is spread over the samples: the total is right within a point or two
    assert abs(moved - OPTIMISM * 14 * 100) <= 2
    assert all(sum(corrected(r, (12, 2), 0, i)) == 14 for i in range(10))
    assert corrected(r, (0, 14), 0, 3) == (0, 14)  # nothing to take


def test_a_negative_correction_moves_points_from_the_best_opponent_to_the_side() -> None:
    """Where the solver understates the declarer (everyone on his own: Pedro Sancho), the shift
    runs the other way, fractionally too, and never takes more than the best opponent holds."""
    r = rules("pedro_sancho")
    total = r.total_points
    points = (3, 5, 1, total - 9)
    shifted = [corrected(r, points, 0, i, -0.047) for i in range(100)]
    gained = sum(p[0] - 3 for p in shifted)
    assert abs(gained - 0.047 * total * 100) <= 2
    assert all(sum(p) == total and p[1:3] == (5, 1) and p[0] >= 3 for p in shifted)
    assert corrected(r, (9, 0, 0, 0), 0, 3, -0.5) == (9, 0, 0, 0)  # nothing to take


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_bids_and_trumps_are_legal_in_every_variant(variant_id: str) -> None:
    r = VARIANTS[variant_id]
    for seed in range(2):
        state = GameState(r, seed=seed)
        players = [HeuristicPlayer(seed * 16 + s, samples=3) for s in range(r.players)]
        while not state.is_over and state.hand_index < 1:
            seat = state.current_player
            obs = state.observation(seat)
            action = players[seat].act(obs)
            assert obs.legal is not None and action in obs.legal, (variant_id, seed, state.words(action))
            state.apply(action)


def _later_calls(carry: bool) -> list[tuple[Estimator, Estimator, Observation]]:
    """Each later call of a seat after others called, in a seeded 83 auction of ``heuristic``s:
    the seat's estimator before it, the one it called on, and the observation."""
    state = GameState(VARIANTS["eighty_three"], seed=4)
    players = [HeuristicPlayer(f"carry:{seat}") for seat in range(4)]
    bidders = [player.bidder for player in players]
    assert all(isinstance(bidder, SimulatedBidder) for bidder in bidders)
    for bidder in bidders:
        bidder.carry = carry
    found = []
    while state.phase == Phase.AUCTION:
        seat = state.current_player
        obs = state.observation(seat)
        kept = bidders[seat]._estimator
        action = players[seat].act(obs)
        now = bidders[seat]._estimator
        if kept is not None and now is not None and kept[1] is not now[1]:
            found.append((kept[1], now[1], obs))
        state.apply(action)
    return found


def test_a_later_call_keeps_the_samples_the_calls_made_since_agree_with() -> None:
    kept_any = redrawn_any = 0
    for before, after, obs in _later_calls(carry=True):
        assert len(after.samples) == len(before.samples)
        for old, new in zip(before.samples, after.samples, strict=True):
            if before._fit(obs, old.hands) >= old.fit:
                assert new is old  # with the rollouts played on it
                kept_any += 1
            else:
                assert new.deals_seed.startswith(f"{after.seed}:") and after.seed != before.seed
                assert after._fit(obs, new.hands) == new.fit
                redrawn_any += 1
    assert kept_any and redrawn_any


def test_without_carrying_a_later_call_draws_every_sample_anew() -> None:
    calls = _later_calls(carry=False)
    assert calls
    for before, after, _ in calls:
        assert not {id(s) for s in before.samples} & {id(s) for s in after.samples}
        assert all(s.deals_seed.startswith(f"{after.seed}:") for s in after.samples)
