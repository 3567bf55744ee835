"""The ``python_pedro`` OpenSpiel game: chance deals, ids, recall strings, tensors, resampling, search."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pedro.engine.deal import deal_positions  # noqa: E402
from pedro.envs.actions import ActionSpace  # noqa: E402
from pedro.envs.chance import CHANCE, TERMINAL, Table  # noqa: E402
from pedro.envs.encoding import ObservationEncoder  # noqa: E402
from pedro.envs.openspiel import MAX_HANDS, PedroState, parse_options  # noqa: E402
from pedro.players import make_player  # noqa: E402
from pedro.variants.catalog import VARIANTS  # noqa: E402
from pedro.variants.options import make_ruleset  # noqa: E402


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_pedro", params)


def random_step(state: PedroState, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def advance(state: PedroState, rng: random.Random, until: object) -> PedroState:
    """Random steps until ``until(state)`` holds at a decision (the state is changed in place)."""
    for _ in range(2000):
        if state.is_terminal():
            break
        if not state.is_chance_node() and until(state):
            return state
        random_step(state, rng)
    raise AssertionError("the condition was never met")


def dealt(rules_id: str, seed: int, dealer: int = 0) -> tuple[Table, list[int]]:
    """A table dealt by ``dealer`` from a pack shuffled by ``seed``, and that pack."""
    rules = make_ruleset(rules_id)
    pack = list(rules.deck)
    random.Random(seed).shuffle(pack)
    table = Table(rules, 1, dealer)
    for card in pack[:-1]:
        table.apply(card)
    return table, pack


def phase_of(state: PedroState) -> str:
    engine = state.table.engine
    return engine.phase.name if engine is not None else "DEAL"


# ---------------------------------------------------------------------- OpenSpiel's own checks


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_simulation_passes_for_every_variant(variant: str) -> None:
    pyspiel.random_sim_test(load(variant=variant), num_sims=1, serialize=False, verbose=False)


def test_random_simulation_over_several_hands_with_serialization() -> None:
    # hands=2: the second pack is drawn after the last card of the first hand; serialize=True
    # round-trips every state through serialize/deserialize_state
    pyspiel.random_sim_test(load(variant="pidro", hands=2), num_sims=1, serialize=True, verbose=False)


def test_whole_game_to_its_end() -> None:
    # hands=0 plays to the engine's game end; basic players (random ones rarely reach a target)
    game = load(variant="cinch", hands=0)
    assert game.hand_limit == MAX_HANDS
    state = game.new_initial_state()
    rng = random.Random(4)
    players = [make_player("basic", seat) for seat in range(4)]
    while not state.is_terminal():
        if state.is_chance_node():
            random_step(state, rng)
            continue
        table = state.table
        obs = table.observation(state.current_player())
        assert obs is not None
        for action_id in table.decision().ids_for(players[obs.seat].act(obs)):
            state.apply_action(action_id)
    table = state.table
    assert table.engine is not None and table.engine.is_over  # the engine's own game end
    assert 1 < len(table.results) < MAX_HANDS
    side_totals = [sum(r.change[side] for r in table.results) for side in range(2)]
    assert state.returns() == [float(side_totals[s % 2]) for s in range(4)]


# ---------------------------------------------------------------------- parameters


def test_parameters_make_the_game() -> None:
    game = load(variant="pedro_sancho", options="players=5;target=50", hands=3, dealer=2)
    rules = game.rules
    assert (rules.players, rules.target, game.hand_limit, game.dealer) == (5, 50, 3, 2)
    assert game.num_players() == 5
    assert game.num_distinct_actions() == ActionSpace(rules).size
    assert game.max_chance_outcomes() == 55
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.min_utility() < 0 < game.max_utility()
    state = game.new_initial_state()
    shuffle = state.table.shuffle  # the dealer is fixed: the first chance steps draw the pack
    assert state.is_chance_node() and shuffle is not None and shuffle.kind == "pack"
    assert state.chance_outcomes()[0] == (0, pytest.approx(1 / 52))


def test_default_game_is_one_hand_of_cinch_with_a_chance_dealer() -> None:
    game = load()
    assert game.get_parameters() == {"variant": "cinch", "options": "", "hands": 1, "dealer": -1}
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(3)
    assert len(state.chance_outcomes()) == 52


def test_options_text() -> None:
    assert parse_options("min_bid=6, dealer_forced_bid=6") == {"min_bid": 6, "dealer_forced_bid": 6}
    assert parse_options("min_bid:6;dealer_forced_bid:6") == {"min_bid": 6, "dealer_forced_bid": 6}
    assert load(variant="cinch", options="min_bid=6").rules.min_bid == 6
    assert pyspiel.load_game("python_pedro(variant=pidro,options=min_bid:6)").rules.min_bid == 6


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"variant": "pinochle"}, "valid variants: cinch, pidro"),
        ({"options": "min_bid=20"}, "allowed: min_bid 1..14"),
        ({"options": "min_bid=seven"}, "allowed: an integer from 1 to 83"),
        ({"options": "no_such_option=1"}, "unknown option 'no_such_option'"),
        ({"options": "min_bid"}, "must be written NAME=VALUE"),
        ({"hands": -1}, "hands must be 0 (play to the end) or 1 to"),
        ({"dealer": 4}, "dealer must be -1 (chance) or a seat from 0 to 3"),
    ],
)
def test_bad_parameters_say_what_is_allowed(params: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        load(**params)


# ---------------------------------------------------------------------- chance


def test_the_pack_drawn_card_by_card_is_the_deal() -> None:
    table, pack = dealt("cinch", seed=1, dealer=2)
    rules = table.rules
    assert table.shuffle is None and table.current_player() == 3  # the dealer's left opens the auction
    positions = deal_positions(4, 2, rules.first_deal_size, rules.packets)
    for seat in range(4):
        obs = table.observation(seat)
        assert obs is not None
        assert sorted(obs.hand) == sorted(pack[i] for i in positions[seat])
    # the last card needed no chance step: 51 steps for 52 cards
    assert [a for p, a in table.steps] == pack[:-1]


def test_chance_outcomes_are_the_cards_not_yet_placed() -> None:
    table = Table(make_ruleset("dom_pedro"), 1, dealer=0)  # 53 cards: the joker too
    assert [c for c, _p in table.chance_outcomes()] == list(table.rules.deck)
    table.apply(52)
    outcomes = table.chance_outcomes()
    assert 52 not in [c for c, _p in outcomes] and len(outcomes) == 52
    assert sum(p for _c, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="not a card left to place"):
        table.apply(52)


def test_a_wash_is_drawn_from_the_discard_pile() -> None:
    rules = make_ruleset("pidro")
    rng = random.Random(5)
    for _game in range(80):
        table = Table(rules, 1)
        while table.current_player() != TERMINAL:
            shuffle = table.shuffle
            if shuffle is not None and shuffle.kind == "wash":
                # the engine wanted the discard pile shuffled in the middle of an action: the table
                # holds that action back, draws the pile card by card, then plays the action
                pile = shuffle.outcomes()
                outcomes = table.chance_outcomes()
                assert [c for c, _p in outcomes] == pile and len(pile) > 1
                assert all(p == pytest.approx(1 / len(pile)) for _c, p in outcomes)
                assert table.pending is not None
                while table.current_player() == CHANCE:
                    table.apply(rng.choice(table.chance_outcomes())[0])
                assert table.deals.washes[shuffle.hand] == shuffle.order
                assert sorted(shuffle.order) == pile
                engine = table.engine
                assert engine is not None and engine.washes[-1]  # cards were dealt from the wash
                assert set(engine.washes[-1]) <= set(pile)
                assert table.pending is None
                return
            if table.current_player() == CHANCE:
                table.apply(rng.choice(table.chance_outcomes())[0])
            else:
                table.apply(rng.choice(table.legal_ids()))
    raise AssertionError("no wash in 80 random pidro hands")


def test_rewards_come_with_the_hand_and_sum_to_the_returns() -> None:
    state = load(variant="cinch", hands=3, dealer=1).new_initial_state()
    rng = random.Random(8)
    total = np.zeros(4)
    hands_seen = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            total += state.rewards()
            hands_before = len(state.table.results)
            random_step(state, rng)
            if len(state.table.results) > hands_before:
                hands_seen += 1
                change = state.table.results[-1].change
                assert state.rewards() == [float(change[s % 2]) for s in range(4)]
        else:
            random_step(state, rng)
    total += state.rewards()
    assert hands_seen == 3 == len(state.table.results)
    assert list(total) == state.returns()
    assert state.returns()[0] == state.returns()[2] and state.returns()[1] == state.returns()[3]


# ---------------------------------------------------------------------- strings and tensors


def test_recall_hides_what_a_seat_cannot_see() -> None:
    # two deals that differ only in one card of seat 2 and one of seat 3
    a, pack = dealt("cinch", seed=3)
    positions = deal_positions(4, 0, 9, (3,))
    i, j = positions[2][0], positions[3][0]
    swapped = list(pack)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    b = Table(a.rules, 1, 0)
    for card in swapped[:-1]:
        b.apply(card)
    rng = random.Random(0)
    for _ in range(4):  # the whole auction: seats 1, 2, 3, 0 call
        assert a.recall(1) == b.recall(1) and a.recall(0) == b.recall(0)
        assert a.recall(2) != b.recall(2) and a.recall(3) != b.recall(3)
        seat = a.current_player()
        assert a.legal_ids() == b.legal_ids() or seat in (2, 3)
        action = rng.choice([x for x in a.legal_ids() if x in b.legal_ids()])
        a.apply(action)
        b.apply(action)


def test_recall_tells_apart_what_a_seat_saw() -> None:
    table, _pack = dealt("cinch", seed=3)
    legal = table.legal_ids()
    first, second = table.copy(), table.copy()
    first.apply(legal[0])  # different calls by seat 1: everyone hears them
    second.apply(legal[1])
    assert all(first.recall(s) != second.recall(s) for s in range(4))
    other, _ = dealt("cinch", seed=4)  # a different deal: every seat's own cards differ
    assert all(other.recall(s) != table.recall(s) for s in range(4))


def test_a_face_down_discard_is_seen_only_by_its_maker() -> None:
    state = load(variant="nicaragua", dealer=0).new_initial_state()
    rng = random.Random(2)
    advance(state, rng, lambda s: s.table.decision().legal_ids() and _discarding(s.table))
    table = state.table
    seat = table.current_player()
    ids = table.legal_ids()
    cards = [i for i in ids if i < 55]
    assert len(cards) >= 2
    one, two = table.copy(), table.copy()
    for t, card in ((one, cards[0]), (two, cards[1])):  # discard one card: different cards, same count
        t.apply(card)
        while t.current_player() == seat and t.selection:
            t.apply(55)  # DONE
    assert one.recall(seat) != two.recall(seat)
    assert all(one.recall(s) == two.recall(s) for s in range(4) if s != seat)


def _discarding(table: Table) -> bool:
    engine = table.engine
    if engine is None or engine.phase.name != "EXCHANGE":
        return False
    legal = engine.legal()
    return not isinstance(legal, tuple) and legal.verb.name == "DISCARD" and 1 in legal.sizes


def test_strings_and_tensors_per_player() -> None:
    game = load(variant="cinch", dealer=0)
    state = game.new_initial_state()
    rng = random.Random(6)
    advance(state, rng, lambda s: phase_of(s) == "PLAY" and len(s.legal_actions()) > 1)
    seat = state.current_player()
    table = state.table
    encoder = ObservationEncoder(game.rules)
    for p in range(4):
        obs = table.observation(p)
        assert obs is not None
        tensor = np.array(state.observation_tensor(p))
        assert tensor.shape == (encoder.size,) == (game.observation_tensor_size(),)
        assert np.array_equal(tensor, encoder.encode(obs))
        assert np.array_equal(np.array(state.information_state_tensor(p)), tensor)
        text = state.observation_string(p)
        assert text.startswith(f"seat {p} hand ") and ("legal" in text) == (p == seat)
        assert state.information_state_string(p) == table.recall(p)
    # the recall of the seat to play ends with its legal ids; the observation holds its hand only
    assert state.information_state_string(seat).endswith(
        "legal " + " ".join(table.space.describe(i) for i in state.legal_actions())
    )


def test_a_pending_selection_shows_in_the_selector_views_only() -> None:
    state = load(variant="nicaragua", dealer=0).new_initial_state()
    rng = random.Random(2)
    advance(state, rng, lambda s: _discarding(s.table))
    seat = state.current_player()
    before = [state.information_state_string(p) for p in range(4)]
    card = next(i for i in state.legal_actions() if i < 55)
    state.apply_action(card)
    assert state.current_player() == seat  # still selecting
    obs = state.table.observation(seat)
    assert obs is not None
    selected = np.array(state.observation_tensor(seat))[
        ObservationEncoder(state.table.rules).slice("selection").indices()
    ]
    assert selected[card] == 1.0 and selected.sum() == 1.0
    assert "chosen" in state.observation_string(seat)
    after = [state.information_state_string(p) for p in range(4)]
    assert after[seat] != before[seat]
    assert all(after[p] == before[p] for p in range(4) if p != seat)


def test_a_clone_rebuilds_its_recall_when_asked() -> None:
    state = load(variant="pidro", dealer=1).new_initial_state()
    rng = random.Random(9)
    advance(state, rng, lambda s: phase_of(s) == "PLAY")
    before = [state.information_state_string(p) for p in range(4)]
    clone = state.clone()  # OpenSpiel's clone logs nothing until asked (rollouts never ask)
    for _ in range(6):
        random_step(clone, rng)
    assert clone.table.stale == {0, 1, 2, 3}
    assert [state.information_state_string(p) for p in range(4)] == before
    reference = PedroState(state.get_game(), Table.replayed(
        state.table.rules, 1, 1, [a for _p, a in clone.table.steps]))  # fmt: skip
    assert [clone.information_state_string(p) for p in range(4)] == [
        reference.information_state_string(p) for p in range(4)
    ]


# ---------------------------------------------------------------------- resampling


@pytest.mark.parametrize(
    ("variant", "phase"),
    [
        ("cinch", "AUCTION"),
        ("cinch", "EXCHANGE"),
        ("cinch", "PLAY"),
        ("pidro", "PLAY"),
        ("king_pedro", "PLAY"),
    ],
)
def test_resample_keeps_the_information_state_and_varies_hidden_cards(variant: str, phase: str) -> None:
    state = load(variant=variant, dealer=0).new_initial_state()
    rng = random.Random(11)
    advance(state, rng, lambda s: phase_of(s) == phase and len(s.legal_actions()) > 1)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    others = [s for s in range(4) if s != seat]
    worlds = set()
    for _ in range(6):
        new = state.resample_from_infostate(seat, sampler)
        assert new.information_state_string(seat) == state.information_state_string(seat)
        assert new.current_player() == seat and new.legal_actions() == state.legal_actions()
        assert new.history()[: state.table.hand_step] == state.history()[: state.table.hand_step]
        assert len(new.history()) == len(state.history())
        engine = new.table.engine
        assert engine is not None
        worlds.add(tuple(engine.hands[s] for s in others))
        random_step(new, rng)  # a resampled state plays on
    assert len(worlds) > 1


# ---------------------------------------------------------------------- search


@pytest.mark.slow
def test_ismcts_plays_pidro() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(variant="pidro", dealer=0)
    state = game.new_initial_state()
    rng = random.Random(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(2)
    )
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)  # seeded: the test repeats
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, sampler))
    moves = 0
    phases = set()
    while not state.is_terminal() and moves < 40:
        if state.is_chance_node() or state.current_player() != 0:
            random_step(state, rng)
            continue
        phases.add(phase_of(state))
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves >= 3 and "PLAY" in phases
