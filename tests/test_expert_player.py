"""The ``expert`` (sampled worlds solved exactly) and the ``omniscient`` ceiling."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pedro.engine.actions import PASS
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import (
    PLAYERS,
    ExpertPlayer,
    HeuristicPlayer,
    OmniscientPlayer,
    UnknownPlayerError,
    check_player,
    choose,
    make_player,
)
from pedro.players.base import RandomPlayer, StateAwarePlayer
from pedro.players.card_search import MIN_WORLDS, play_classes
from pedro.players.expert_bidding import bid_beats_pass
from pedro.players.expert_config import ExpertConfig
from pedro.players.games import play_game
from pedro.players.hand_constraints import knowledge
from pedro.players.last_exchange import applies
from pedro.players.sampling import World, replay, sample_worlds
from pedro.players.solved_worlds import score_of_points, solved_world, world_values
from pedro.solver import solve
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players


def positions(variant: str, games: int, options: dict[str, object] | None = None) -> Iterator[GameState]:
    """Card-play states (two choices at least) of a few games of random players."""
    rules = make_ruleset(variant, options or {})
    for g in range(games):
        state = GameState(rules, seed=g)
        players = [RandomPlayer(g * 10 + s) for s in range(rules.players)]
        while not state.is_over and state.hand_index < 1:
            seat = state.current_player
            if state.phase == Phase.PLAY and len(state.legal_actions()) > 1:
                yield state
            state.apply(players[seat].act(state.observation(seat)))


def exact_values(state: GameState) -> dict[int, float]:
    """Each legal play's points for the mover's side with best play after it, from the engine.

    The other side takes what the bidder's side does not of the hand's points, whose sum is
    found by playing the hand out at random.
    """
    assert state.contract is not None
    rules = state.rules
    seat = state.current_player
    bidder_side = rules.side_of(state.contract.bidder)
    done = len(state.results)
    out = state.clone()
    rng = random.Random(0)
    while len(out.results) == done:
        out.apply(rng.choice(out.legal_actions()))
    total = sum(out.results[done].points)
    values = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        v = (
            child.results[done].points[bidder_side]
            if len(child.results) > done
            else solve(child.play_position()).value
        )
        values[a] = float(v if rules.side_of(seat) == bidder_side else total - v)
    return values


# ---------------------------------------------------------------- registry and settings


def test_expert_and_omniscient_are_registered() -> None:
    assert isinstance(make_player("expert", 1), ExpertPlayer)
    assert isinstance(make_player("omniscient", 1), OmniscientPlayer)
    assert {"expert", "omniscient"} <= set(PLAYERS)
    player = make_player("expert:7", 1)
    assert isinstance(player, ExpertPlayer) and player.config.samples == 7


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("expert:0", "expert:N"),
        ("expert:many", "expert:N"),
        ("expert:", "expert:N"),
        ("expert:100000", "1 to 1000"),
        ("heuristic:3", "takes no setting"),
        ("grandmaster", "players are: random, basic, heuristic, expert, omniscient"),
    ],
)
def test_bad_player_specs_say_what_is_allowed(spec: str, says: str) -> None:
    with pytest.raises(UnknownPlayerError, match=says):
        check_player(spec)


def test_expert_rejects_bad_strength() -> None:
    with pytest.raises(ValueError, match="samples"):
        ExpertPlayer(1, config=ExpertConfig(samples=0))


@pytest.mark.slow
def test_exchange_and_heuristic_bidding_setting_are_the_heuristics() -> None:
    """The expert's exchange is ``heuristic``'s; with ``heuristic_bidding=True`` its calls and trumps are
    too (its own calls: ``tests/test_expert_bidding.py``); the omniscient player's are all of them."""
    compared = 0
    for variant in ("cinch", "king_pedro_canadian"):
        rules = make_ruleset(variant, {})
        state = GameState(rules, seed=1)
        while state.phase != Phase.PLAY and state.hand_index == 0:
            seat = state.current_player
            obs = state.observation(seat)
            action = HeuristicPlayer(seed=seat).act(obs)
            assert ExpertPlayer(seed=seat, heuristic_bidding=True).act(obs) == action
            if state.phase == Phase.EXCHANGE:
                assert ExpertPlayer(seed=seat).act(obs) == action
            assert OmniscientPlayer(seed=seat).act_on_state(state, seat) == action
            state.apply(action)
            compared += 1
    assert compared > 5


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_expert_and_omniscient_play_legal_games(variant: str) -> None:
    """Two hands of every variant: their card plays are legal (the engine refuses illegal ones).

    The other decisions are made at random here, to keep the test quick (they are
    ``heuristic``'s, tested with it).
    """
    rules = make_ruleset(variant, {})
    state = GameState(rules, seed=3)
    players = [
        ExpertPlayer(seed=s, config=ExpertConfig(samples=2)) if s % 2 == 0 else OmniscientPlayer(seed=s)
        for s in range(4)
    ]
    other = RandomPlayer(3)
    plays = 0
    while not state.is_over and state.hand_index < 2:
        seat = state.current_player
        if state.phase == Phase.PLAY:
            action = choose(players[seat], state)
            assert action in state.legal_actions()
            plays += 1
        else:
            action = other.act(state.observation(seat))
        state.apply(action)
    assert plays > 10


def test_play_game_runs_expert_and_omniscient() -> None:
    state = play_game(make_ruleset("pidro", {}), ["expert:2", "heuristic", "omniscient", "random"], 1, 1)
    assert len(state.results) == 1


# ---------------------------------------------------------------- against the solver


def true_world_values(state: GameState, for_score: bool = False) -> dict[int, float]:
    """``world_values`` of the mover's legal plays in the one world that is the real deal."""
    obs = state.observation(state.current_player)
    machine = replay(obs, tuple(state.hands))
    assert machine is not None
    return world_values(obs, World(tuple(state.hands), 1.0, machine), state.legal_actions(), for_score)


@pytest.mark.parametrize("variant", ["cinch", "pidro", "king_pedro_canadian", "eighty_three", "pedro_sancho"])
def test_the_true_world_is_valued_as_the_engine_and_solver_value_it(variant: str) -> None:
    """One world, the real one: every play's value is the exact one, and the best are the solver's."""
    checked = 0
    for state in positions(variant, 4):
        if checked >= 6:
            break
        values = true_world_values(state)
        assert values == exact_values(state)
        top = max(values.values())
        assert {a for a, v in values.items() if v == top} == set(solve(state.play_position()).best)
        checked += 1
    assert checked == 6


@pytest.mark.parametrize("variant", ["cinch", "pidro"])
def test_in_the_true_world_a_plays_score_is_the_engines_score_of_the_hand_played_out_perfectly(
    variant: str,
) -> None:
    """``world_values(for_score=True)``: each play's worth is the score change of the seat's side
    less the other side's, as the engine scores the hand when both sides then play perfectly
    (a partnership game: the other side takes exactly what the bidder's side does not)."""
    checked = 0
    for state in positions(variant, 6):
        if checked >= 6:
            break
        if any(s >= state.rules.target - state.rules.total_points for s in state.scores):
            continue  # the game's end would count too
        values = true_world_values(state, for_score=True)
        side = state.rules.side_of(state.current_player)
        done = len(state.results)
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            while len(child.results) == done:
                child.apply(solve(child.play_position()).best[0])
            change = child.results[done].change
            assert values[action] == change[side] - change[1 - side], (action, change)
        checked += 1
    assert checked == 6


def test_valued_for_score_a_play_is_worth_more_to_a_side_the_more_points_it_takes() -> None:
    """The worth in score is monotone in the points (so the solver's play in a world stays right),
    and falls by the contract's value where the bidder's side misses its bid."""
    state = next(positions("pidro", 1))
    obs = state.observation(state.current_player)
    assert obs.bidder is not None and obs.bid is not None
    rules = state.rules
    bidder_side = rules.side_of(obs.bidder)
    mine = rules.side_of(obs.seat) == bidder_side
    total = rules.total_points
    own = {p: float(p if mine else total - p) for p in range(total + 1)}  # keyed by the bidder's points
    worth = score_of_points(obs, bidder_side, total, own)
    ordered = [worth[p] for p in range(total + 1)]
    assert ordered == sorted(ordered, reverse=not mine)
    sign = 1 if mine else -1
    # an ordinary point is worth 2 (one side's gain, the other's loss); the point that makes the
    # bid is worth the bid more at least
    ordinary = sign * (worth[obs.bid + 1] - worth[obs.bid])
    making = sign * (worth[obs.bid] - worth[obs.bid - 1])
    assert ordinary == 2 and making >= 2 + obs.bid, (ordinary, making, obs.bid)


@pytest.mark.slow
def test_the_node_cap_stops_new_worlds_but_never_below_the_fewest() -> None:
    """``max_nodes``: once the decision's solves have searched that many nodes no new world is
    valued, but ``MIN_WORLDS`` always are; without a cap every world drawn is valued."""
    first_leads = [s.clone() for s in positions("cinch", 4) if not s.observation(s.current_player).tricks][:3]
    assert first_leads
    for state in first_leads:
        obs = state.observation(state.current_player)
        tight = ExpertPlayer(seed=1, config=ExpertConfig(samples=40, max_solves=None, max_nodes=1))
        tight.card_player.evaluate(obs)
        assert tight.card_player.last_worlds == MIN_WORLDS
        free = ExpertPlayer(seed=1, config=ExpertConfig(samples=40, max_solves=None, max_nodes=None))
        free.card_player.evaluate(obs)
        assert free.card_player.last_worlds == 40
        world = next(iter(sample_worlds(obs, 1, random.Random(0))))
        actions = list(obs.legal)
        values, searched = solved_world(obs, world, actions)
        assert values == world_values(obs, world, actions) and searched > 0


def test_with_every_card_known_the_expert_plays_as_the_solver() -> None:
    """Pidro shows cold hands and discards face up: late in a hand the hidden cards can be forced."""
    found = 0
    for state in positions("pidro", 12):
        obs = state.observation(state.current_player)
        k = knowledge(obs, likely=False)
        seats = [s for s in range(4) if s != obs.seat and k.need[s] > 0]
        if k.pool.bit_count() != sum(k.need[s] for s in seats):
            continue  # some hidden card may be out of play
        if any(sum(1 for s in seats if k.allowed[s] >> c & 1) != 1 for c in range(56) if k.pool >> c & 1):
            continue  # some hidden card may be in two hands
        expert = ExpertPlayer(seed=1, config=ExpertConfig(samples=3))
        assert expert.card_player.evaluate(obs) == pytest.approx(exact_values(state))
        assert expert.act(obs) in solve(state.play_position()).best
        found += 1
    assert found >= 5


def test_plays_of_equal_effect_get_equal_values() -> None:
    """Cards grouped by ``play_classes`` have the same exact value in the true world."""
    grouped = 0
    for state in positions("pitch_fives", 6):
        obs = state.observation(state.current_player)
        legal = state.legal_actions()
        reps = play_classes(obs, legal)
        values = exact_values(state)
        for a, rep in reps.items():
            assert values[a] == values[rep]
            grouped += a != rep
    assert grouped > 5


def test_omniscient_plays_a_best_move_of_the_solver() -> None:
    player = OmniscientPlayer(seed=2)
    assert isinstance(player, StateAwarePlayer)
    checked = 0
    for variant in ("cinch", "sixty_three", "dom_pedro"):
        for state in positions(variant, 2):
            action = choose(player, state)
            assert action in solve(state.play_position()).best
            checked += 1
    assert checked > 20


def test_choose_gives_a_fair_player_only_the_observation() -> None:
    state = GameState(make_ruleset("cinch", {}), seed=5)
    seen = []

    class Spy(RandomPlayer):
        def act(self, obs):  # type: ignore[no-untyped-def]
            seen.append(obs)
            return super().act(obs)

    action = choose(Spy(1), state)
    assert seen and seen[0].seat == state.current_player
    assert action in state.legal_actions()


# ---------------------------------------------------------------- estimates and determinism


def test_evaluate_covers_every_legal_play_and_is_deterministic() -> None:
    states = [s.clone() for s, _ in zip(positions("eighty_three", 2), range(4), strict=False)]
    for state in states:
        obs = state.observation(state.current_player)
        a = ExpertPlayer(seed=9, config=ExpertConfig(samples=4))
        b = ExpertPlayer(seed=9, config=ExpertConfig(samples=4))
        va = a.card_player.evaluate(obs)
        assert set(va) == set(state.legal_actions())
        assert va == b.card_player.evaluate(obs)
        assert a.act(obs) == b.act(obs)
        assert all(0 <= v <= state.rules.total_points for v in va.values())
        est = a.estimates(obs)
        assert est is not None and est.unit == "points" and dict(est.values) == va
    assert len(states) == 4


def test_calls_are_valued_in_score_and_the_call_made_is_a_best_one() -> None:
    state = GameState(make_ruleset("cinch", {}), seed=1)
    obs = state.observation(state.current_player)
    player = ExpertPlayer(seed=1, config=ExpertConfig(samples=2))
    est = player.estimates(obs)
    assert est is not None and est.unit == "score"
    assert set(est.values) == set(state.legal_actions())
    made = player.act(obs)
    if est.values[made] != est.best():  # the best is a bid that does not lead passing clearly
        values = {c.action: c for c in player.bidder.call_values(obs, state.legal_actions())}
        best = max(values.values(), key=lambda c: c.value)
        assert made == PASS and best.value == est.best() and not bid_beats_pass(best, values[PASS])
    with pytest.raises(ValueError, match="card play"):
        player.card_player.evaluate(obs)


@pytest.mark.slow
def test_every_trump_and_cinchs_last_exchange_choice_is_valued() -> None:
    # the dealer robs the pack holding cards of the stock, which no sampled first deal gives him,
    # so the simulation cannot reach his decision (``exchange_values``); it is the exchange's last,
    # so each choice is valued at the first lead instead (``last_exchange``)
    state = GameState(make_ruleset("cinch", {}), seed=1)
    player = ExpertPlayer(seed=1, config=ExpertConfig(samples=2))
    seen = set()
    while state.phase != Phase.PLAY:
        obs = state.observation(state.current_player)
        est = player.estimates(obs)
        if state.phase == Phase.TRUMP:
            seen.add(state.phase)
            assert est is not None and est.unit == "score"
            # every legal suit, also those the player's own choice does not simulate
            assert set(est.values) == set(state.legal_actions()) and est.complete
            # the suit the player names is the one it values best
            assert est.values[choose(player, state)] == est.best()
        elif state.phase == Phase.EXCHANGE and est is not None and est.legal > 1:
            seen.add(state.phase)
            obs = state.observation(state.current_player)
            assert applies(obs) and est.unit == "points"
            assert set(est.values) == set(state.legal_actions()) and est.complete and not est.note()
            assert all(0 <= v <= state.rules.total_points for v in est.values.values())
            again = ExpertPlayer(seed=1, config=ExpertConfig(samples=2)).estimates(obs)
            assert again is not None and again.values == est.values  # seeded: the same worlds
        state.apply(choose(player, state))
    assert seen == {Phase.TRUMP, Phase.EXCHANGE}
