"""The expert's own calls: contracts valued by the solver after the exchange (``players.solved_play``)."""

from __future__ import annotations

import random
import statistics

import pytest
from tests.helpers import played_record

from pedro.analysis import decisions, needs_choice
from pedro.cards import parse_cards
from pedro.engine.actions import PASS, Verb, bid_action
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.scoring import Contract
from pedro.engine.state import GameState
from pedro.players import (
    ExpertPlayer,
    HeuristicPlayer,
    UnknownPlayerError,
    bidding,
    check_player,
    choose,
    make_player,
    samples_of,
)
from pedro.players.bidding import OPTIMISM, CallValue, Estimator, evaluate_calls, trump_values
from pedro.players.expert_bidding import (
    BID_SAMPLES_STEP,
    BID_WORK,
    CLEAR_FROM,
    CLEAR_Z,
    JUDGE_DEALS,
    JUDGE_ERROR,
    MAX_BID_SAMPLES,
    SURE_BID_SAMPLES,
    SolvedBidder,
    affordable_deals,
    calls_are_clear,
    clear_bound,
)
from pedro.players.expert_config import DEFAULT_SAMPLES, ExpertConfig
from pedro.players.heuristic import rollout_player
from pedro.players.simulation import SampledDeals, contract_state, play_out
from pedro.players.solved_play import (
    DECLARER_BIAS,
    DEFAULT_BIAS,
    CountedSolvedPoints,
    declarer_bias,
    solved_points,
)
from pedro.solver import solve
from pedro.variants.options import make_ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players


def auction_position(variant: str, hand: str, calls: list[int], seat: int) -> Observation:
    """``seat``'s observation holding ``hand`` after ``calls`` (dealer 0; the other hands dealt at random)."""
    rules = make_ruleset(variant)
    deals = SampledDeals(rules, 0, seat, parse_cards(hand), random.Random(0))
    state = GameState(rules, deals=deals)
    for action in calls:
        state.apply(action)
    assert state.current_player == seat and state.phase == Phase.AUCTION
    return state.observation(seat)


# ---------------------------------------------------------------- no wild overcalls (issue examples)

#: Pidro: ♠K Q 8 6 and no point card at all; partner passed, the opponent on the right bid 9.
NO_POINTS = "KS QS 8S 6S KH 9H 7H QD 8D"
#: Pidro: ♠K 9 6 and ♦10 8 5 3, the opponent on the right having bid 7.
SPADES_AND_DIAMOND_POINTS = "KS 9S 6S TD 8D 5D 3D QH 7C"


@pytest.mark.slow
def test_expert_does_not_bid_ten_over_nine_without_a_point_card() -> None:
    obs = auction_position("pidro", NO_POINTS, [PASS, bid_action(9)], seat=3)
    heuristic_calls = []
    for seed in range(6):
        assert ExpertPlayer(seed).act(obs) == PASS
        heuristic_calls.append(make_player("expert:bid=heuristic", seed).act(obs))
    # the position is one where heuristic's bidding overcalls on some draws of its deals
    assert bid_action(10) in heuristic_calls


@pytest.mark.slow
def test_expert_does_not_bid_eight_over_seven_with_three_small_spades() -> None:
    obs = auction_position("pidro", SPADES_AND_DIAMOND_POINTS, [bid_action(7)], seat=2)
    for seed in range(5):
        expert = ExpertPlayer(seed)
        assert expert.act(obs) == PASS
        estimates = expert.estimates(obs)
        assert estimates is not None
        assert all(estimates.values[PASS] > v for a, v in estimates.values.items() if a != PASS)


@pytest.mark.slow
def test_a_review_values_a_call_that_trails_the_best_on_more_deals_until_its_cost_is_clear() -> None:
    """``pedro analyze`` judges the call made (``include``): one that trails the best on the deals
    it was made on is valued on more deals, until its cost's standard error is small, it is the
    best after all, or the most deals are drawn; a best call costs no more deals."""
    obs = auction_position("pidro", NO_POINTS, [PASS, bid_action(9)], seat=3)
    judged_more = 0
    for seed in range(4):
        plain = ExpertPlayer(seed)
        before = plain.estimates(obs)
        assert before is not None
        drawn = len(plain.bidder.estimator(obs).samples)
        for call in (PASS, bid_action(10)):
            judged = ExpertPlayer(seed)
            review = judged.estimates(obs, include=(call,))
            assert review is not None and set(review.values) == set(before.values)
            deals = len(judged.bidder.estimator(obs).samples)
            if before.values[call] >= before.best():
                assert deals == drawn  # a best call is judged on the deals it was made on
                continue
            judged_more += 1
            assert drawn <= MAX_BID_SAMPLES and drawn < deals <= JUDGE_DEALS
            calls = {c.action: c for c in evaluate_calls(judged.bidder.estimator(obs), obs, obs.legal or ())}
            best = max(calls.values(), key=lambda c: c.value)
            diffs = [a - b for a, b in zip(best.per_sample, calls[call].per_sample, strict=True)]
            error = statistics.stdev(diffs) / len(diffs) ** 0.5
            assert best.action == call or error <= JUDGE_ERROR or deals == JUDGE_DEALS
    assert judged_more  # the position has a call that trails on some draws


@pytest.mark.parametrize(("variant", "seeds"), [("king_pedro_canadian", (3, 4)), ("cinch", (1, 2))])
@pytest.mark.slow
def test_an_unclear_call_gets_past_forty_deals_only_as_far_as_its_work_pays_for(
    variant: str, seeds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """King Pedro (Canadian)'s calls, cheap to solve and noisy, go on past 40 deals; cinch's, which
    cost the budget in 40, stop there."""
    extensions: list[tuple[int, int]] = []  # (deals, work) before each extension past SURE_BID_SAMPLES
    extend = Estimator.extend

    def counted_extend(est: Estimator, obs: Observation, count: int) -> None:
        assert isinstance(est.valuation, CountedSolvedPoints)
        if len(est.samples) >= SURE_BID_SAMPLES:
            extensions.append((len(est.samples), est.valuation.work))
        extend(est, obs, count)

    monkeypatch.setattr(Estimator, "extend", counted_extend)
    rules = make_ruleset(variant)
    deals = []
    for seed in seeds:
        state = GameState(rules, seed=seed)
        obs = state.observation(state.current_player)
        player = ExpertPlayer(seed)
        values = player.bidder.call_values(obs, obs.legal or ())
        est = player.bidder.estimator(obs)
        drawn = len(est.samples)
        assert drawn % BID_SAMPLES_STEP == 0 and drawn <= MAX_BID_SAMPLES
        # it stopped when the call was clear or the next deals were more than the work pays for
        assert calls_are_clear(values) or drawn + BID_SAMPLES_STEP > affordable_deals(est)
        deals.append(drawn)
    for done, work in extensions:  # each extension was paid for at the work a deal had cost
        assert work * (done + BID_SAMPLES_STEP) <= BID_WORK * done
    if variant == "cinch":
        assert max(deals) == SURE_BID_SAMPLES and not extensions
    else:
        assert max(deals) > SURE_BID_SAMPLES and extensions


def test_calls_are_clear_only_when_passing_and_bidding_are_apart_on_common_deals() -> None:
    noisy = [1.0, -1.0, 3.0, -2.0]
    steady = [0.5, 0.6, 0.4, 0.5]
    passing = CallValue(PASS, 0.0, None, (0.0, 0.0, 0.0, 0.0))
    assert not calls_are_clear([passing, CallValue(bid_action(7), 0.25, 0, tuple(noisy))])
    assert calls_are_clear([passing, CallValue(bid_action(7), 0.5, 0, tuple(steady))])
    # neighbouring bids are not made clear against each other, only against passing
    close = CallValue(bid_action(8), 0.45, 0, tuple(v - 0.05 for v in steady))
    assert calls_are_clear([passing, CallValue(bid_action(7), 0.5, 0, tuple(steady)), close])
    assert calls_are_clear([passing])


def _bid_leading_pass(deals: int, mean: float) -> list[CallValue]:
    """A bid whose per-deal lead over passing alternates ``mean`` ± 1 on ``deals`` deals."""
    diffs = tuple(mean + (1.0 if k % 2 else -1.0) for k in range(deals))
    return [CallValue(PASS, 0.0, None, (0.0,) * deals), CallValue(bid_action(7), mean, 0, diffs)]


def test_an_early_look_needs_a_wider_lead_to_stop_a_call() -> None:
    """The raising wars' fault: a call looked at every 20 deals must not stop on an early extreme
    draw that a flat two standard errors lets through."""
    early = _bid_leading_pass(20, 0.8)  # about 3.5 standard errors on 20 deals
    assert calls_are_clear(early, CLEAR_Z) and not calls_are_clear(early)
    assert calls_are_clear(_bid_leading_pass(20, 1.0))  # about 4.4: clear even so early
    late = _bid_leading_pass(CLEAR_FROM, 0.25)  # about 2.2 standard errors on 80 deals
    assert calls_are_clear(late)
    assert not calls_are_clear(_bid_leading_pass(40, 0.25))  # the same lead per deal on 40: 1.6
    assert [clear_bound(n) for n in (CLEAR_FROM, MAX_BID_SAMPLES)] == [CLEAR_Z, CLEAR_Z]


# ---------------------------------------------------------------- the comparison setting


def test_heuristic_bidding_setting_is_registered() -> None:
    player = make_player("expert:bid=heuristic", 3)
    assert isinstance(player, ExpertPlayer) and not isinstance(player.bidder, SolvedBidder)
    assert player.config.samples == DEFAULT_SAMPLES
    player = make_player("expert:40:bid=heuristic", 3)
    assert (
        isinstance(player, ExpertPlayer)
        and not isinstance(player.bidder, SolvedBidder)
        and player.config.samples == 40
    )
    own = make_player("expert", 3)
    assert isinstance(own, ExpertPlayer) and isinstance(own.bidder, SolvedBidder)
    assert samples_of("expert:40:bid=heuristic") == 40
    assert samples_of("expert:bid=heuristic") == DEFAULT_SAMPLES


@pytest.mark.parametrize(
    "spec",
    [
        "expert:bid=basic",
        "expert:4:5",
        "expert:bid=heuristic:0",
        "expert::",
        "expert:made=0.65",
        "expert:defend=alone",
    ],
)
def test_bad_expert_settings_say_what_is_allowed(spec: str) -> None:
    with pytest.raises(UnknownPlayerError, match="expert:N"):
        check_player(spec)


@pytest.mark.parametrize("variant", ["cinch", "eighty_three"])
@pytest.mark.slow
def test_heuristic_bidding_setting_calls_exactly_as_heuristic(variant: str) -> None:
    rules = make_ruleset(variant)
    compared = 0
    # auctions until a dozen calls are compared (83's long auctions simulate: one is enough)
    for game in range(3):
        state = GameState(rules, seed=game)
        seats = [HeuristicPlayer(game * 16 + s) for s in range(rules.players)]
        copies = [make_player("expert:bid=heuristic", game * 16 + s) for s in range(rules.players)]
        while state.phase in (Phase.AUCTION, Phase.TRUMP) and state.hand_index == 0:
            seat = state.current_player
            action = choose(seats[seat], state)
            assert choose(copies[seat], state) == action
            compared += 1
            state.apply(action)
        if compared >= 12:
            break
    assert compared >= 12


@pytest.mark.slow
def test_own_bidding_differs_from_heuristic_somewhere() -> None:
    """The expert's calls are its own: over a few auctions some call or trump differs (the search
    stops at the first that does: one is the point)."""
    rules = make_ruleset("cinch")
    differ = 0
    for game in range(4):
        state = GameState(rules, seed=game)
        own = [make_player("expert", game * 16 + s) for s in range(rules.players)]
        other = [make_player("expert:bid=heuristic", game * 16 + s) for s in range(rules.players)]
        while not differ and state.phase in (Phase.AUCTION, Phase.TRUMP) and state.hand_index == 0:
            seat = state.current_player
            action = choose(own[seat], state)
            differ += action != choose(other[seat], state)
            state.apply(action)
    assert differ > 0


# ---------------------------------------------------------------- the valuation


def _policy(rules_players: int) -> list[HeuristicPlayer]:
    return [rollout_player(f"policy:{s}") for s in range(rules_players)]


@pytest.mark.parametrize("variant", ["pidro", "cinch", "king_pedro_canadian", "eighty_three"])
def test_solved_points_give_the_declarers_side_the_solver_value(variant: str) -> None:
    rules = make_ruleset(variant)
    hand = sorted(random.Random(5).sample(list(rules.deck), rules.first_deal_size))
    checked = 0
    for k in range(4):
        deals = SampledDeals(rules, 0, 1, hand, random.Random(k))
        state = contract_state(rules, deals, 1, rules.min_bid, k % 4)
        if state is None:
            continue
        points = solved_points(state.clone(), _policy(rules.players))
        # the same exchange by the same (fresh) policy, then the solver and a full rollout: the
        # valuation takes the total from a cheaper play where the rules fix it (the same points)
        policy = _policy(rules.players)
        while state.phase != Phase.PLAY and not state.results:
            seat = state.current_player
            state.apply(policy[seat].act(state.observation(seat)))
        if state.results:
            assert points == tuple(state.results[0].points)
            continue
        value = solve(state.play_position()).value
        rollout = play_out(state.clone(), policy)
        side = rules.side_of(1)
        assert points[side] == value
        assert points[1 - side] == max(0, sum(rollout) - value)
        checked += 1
    assert checked >= 2


def test_declarer_bias_moves_points_off_the_seats_own_contracts() -> None:
    """With the same samples, a larger declarer's bias lowers every bid's value (passing is the
    others' contracts, shifted too: not compared)."""
    obs = auction_position("pidro", "AS KS JS 5S 2S 9H 4H 3D 7C", [], seat=1)
    policy = _policy(4)
    plain = Estimator(obs, policy, "bias", 8, solved_points, 0.0)
    biased = Estimator(obs, policy, "bias", 8, solved_points, 0.1)
    legal = obs.legal
    assert isinstance(legal, tuple)
    low = {c.action: c.value for c in evaluate_calls(biased, obs, legal)}
    high = {c.action: c.value for c in evaluate_calls(plain, obs, legal)}
    bids = [a for a in legal if a != PASS]
    assert bids and all(low[a] < high[a] for a in bids)


def test_the_experts_own_calls_take_no_winners_curse_share_off_its_contracts() -> None:
    """Its own calls are guarded by more deals and the bid-over-pass rule; ``OPTIMISM`` on top of
    them passed hands worth a bid. With ``heuristic``'s calls the share stays, so that setting calls
    exactly as ``heuristic`` does."""
    obs = auction_position("pidro", "AS KS JS 5S 2S 9H 4H 3D 7C", [], seat=1)
    bias = declarer_bias(obs.rules)
    assert make_player("expert", 1).bidder.estimator(obs).own_shift == bias
    assert make_player("expert:bid=heuristic", 1).bidder.estimator(obs).own_shift == OPTIMISM
    assert HeuristicPlayer(1).bidder.estimator(obs).own_shift == OPTIMISM


def test_declarer_bias_is_taken_off_only_where_measured_and_not_shown_to_cost() -> None:
    """Where everyone plays alone the solver understates the declarer and the measured share is
    moved back; in the partnership games taking the measured share off passed hands worth a bid."""
    assert declarer_bias(make_ruleset("pedro_sancho")) == DECLARER_BIAS["pedro_sancho"] < 0
    for variant in ("pidro", "cinch", "king_pedro", "king_pedro_canadian", "sixty_three", "nicaragua"):
        assert declarer_bias(make_ruleset(variant)) == DEFAULT_BIAS == 0


# ---------------------------------------------------------------- a continuing auction's later calls


@pytest.mark.parametrize(("variant", "seed"), [("eighty_three", 4), ("pidro", 2)])
@pytest.mark.slow
def test_a_later_call_is_valued_on_new_deals_that_fit_the_overcalls(variant: str, seed: int) -> None:
    """83's escalation: a bidder valuing its later calls on its first deals knew nothing of the
    overcalls made since, and kept outbidding hands they showed to be strong. Each deal a later
    call is valued on is judged against every call made so far (kept where the new calls agree
    with it, else drawn anew)."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    players = [HeuristicPlayer(seat) for seat in range(rules.players)]
    last: dict[int, tuple[Estimator, int]] = {}  # per seat: its estimator and the calls made then
    redrawn = 0
    while state.phase == Phase.AUCTION:
        seat = state.current_player
        obs = state.observation(seat)
        est = players[seat].bidder.estimator(obs)
        if seat in last:
            before, calls = last[seat]
            others_called = any(s != seat for s, _ in obs.calls[calls:])
            assert (est is not before) == others_called
            if others_called:
                redrawn += 1
                assert all(est._fit(obs, sample.hands) == sample.fit for sample in est.samples)
        last[seat] = est, len(obs.calls)
        state.apply(choose(players[seat], state))
    if variant == "eighty_three":
        assert redrawn >= 2, "the auction had no later calls after overcalls"
    else:  # one call each; the others called after the bidder, and trumps are named on its deals
        bidder = state.current_player
        assert state.phase == Phase.TRUMP
        assert players[bidder].bidder.estimator(state.observation(bidder)) is last[bidder][0]


@pytest.mark.slow
def test_hints_value_every_legal_call_and_trump_also_those_the_players_choice_leaves_out() -> None:
    # cinch, seed 1: at the first hand's 4th call partner holds the contract, and the player's own
    # choice leaves out every bid beyond its hand; the trump suits it names from are the best few
    record = played_record("cinch", seed=1, hands=1, player="heuristic")
    expert = ExpertPlayer(seed=3, config=ExpertConfig(samples=2))
    left_out = {Phase.AUCTION: 0, Phase.TRUMP: 0}
    for d in decisions(record):
        if d.phase not in left_out or not needs_choice(d):
            continue
        legal = d.obs.legal
        assert isinstance(legal, tuple)
        est = expert.estimates(d.obs)
        assert est is not None and est.unit == "score"
        assert set(est.values) == set(legal) and est.complete and est.legal == len(legal)
        if d.phase == Phase.AUCTION:
            own = expert.bidder.call_values(d.obs, legal)
        else:
            own = list(trump_values(expert.bidder.estimator(d.obs), d.obs, legal))  # type: ignore[arg-type]
        left_out[d.phase] += len(legal) - len(own)
    assert left_out[Phase.AUCTION] > 0 and left_out[Phase.TRUMP] > 0


# ---------------------------------------------------------------- the dealer's equal bid


def test_a_bid_the_dealer_may_equal_is_worth_the_dealers_contract_where_its_hand_reaches_it() -> None:
    """Dom Pedro: the dealer, speaking last, may take the contract at the bid. Valued as if it
    always stood, heuristic's bids went to the dealer and lost 0.74 points a hand to basic."""
    obs = auction_position("dom_pedro", "AS 9S 5S 3S KH 4D", [], seat=1)  # dealer 0 speaks last
    rules = obs.rules
    player = HeuristicPlayer(3)
    est = Estimator(obs, player.shared.rollout_policy(rules), "test", 16)
    legal = obs.legal
    assert isinstance(legal, tuple)
    values = {c.action: c for c in evaluate_calls(est, obs, legal)}
    bid = bid_action(6)
    side = rules.side_of(obs.seat)
    taken = kept = 0
    for index, sample in enumerate(est.samples):
        suit, reach = bidding._would_bid(rules, sample.hands[0])
        if reach >= 6 and (points := est.outcome(sample, 0, suit)) is not None:
            expected = bidding.utility(rules, side, obs.scores, Contract(0, 6, Verb.BID), points)
            taken += 1
        else:
            own = est.outcome(sample, obs.seat, values[bid].suit)
            assert own is not None
            shifted = bidding.corrected(rules, own, side, index, est.own_shift)
            expected = bidding.utility(rules, side, obs.scores, Contract(obs.seat, 6, Verb.BID), shifted)
            kept += 1
        assert values[bid].per_sample[index] == pytest.approx(expected)
    assert taken and kept, (taken, kept)
