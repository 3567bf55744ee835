"""The compiled search (``pedro.solver.kernel``) against the Python reference search.

Both must agree on the value and on the whole set of best actions, in every
catalog variant and in house rules that change the card play; the cases the
kernel does not handle must go to the Python search. The Python search follows
the engine's own turn order (``pedro.engine.turns``), which the kernel mirrors:
random positions of every variant and option set hold the kernel to it.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from tests.helpers import with_hands
from tests.test_properties import RULESET_CASES, RULESET_IDS, RULESETS, random_action
from tests.test_solver import at_play, positions

from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState
from pedro.solver import PlayPosition, solve
from pedro.solver.fast import supports
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

#: (variant, options): every catalog variant, and options that change how the cards are played
CASES: list[tuple[str, dict[str, object]]] = [(v, {}) for v in VARIANTS] + [
    ("cinch", {"first_lead_trump": True}),
    ("cinch", {"low_rule": "capturer"}),
    ("cinch", {"plain_lead": "must_follow"}),
    ("cinch", {"plain_lead": "follow_or_trump_void_must_trump"}),
    ("nicaragua", {"play_hand_size": 7}),
    ("pitch_fives", {"partnerships": False}),
    ("pedro_sancho", {"players": 6}),
    ("dom_pedro", {"players": 5, "deal_all_out": True}),
    ("king_pedro", {"plain_lead": "follow_or_trump"}),
    ("king_pedro", {"plain_lead": "nontrump_if_able"}),
    ("king_pedro_canadian", {"fold_mandatory": False}),
    ("sixty_three", {"joker": True}),
    ("eighty_three", {"nine_card_deal": True}),
    ("eighty_three", {"low_rule": "dealt"}),
    ("piedro_jokers", {"off_jack_rank": 1}),
    ("petro_russian", {"plain_honours_score": True}),
    ("petro_russian", {"fives_rank": "standard"}),
]


def _id(case: tuple[str, dict[str, object]]) -> str:
    variant, options = case
    return variant + "".join(f"+{k}={v}" for k, v in options.items())


def agree(state_or_position: GameState | PlayPosition) -> int:
    """Solve with both engines, check they agree, and return the nodes the kernel searched."""
    pos = state_or_position.play_position() if isinstance(state_or_position, GameState) else state_or_position
    kernel = solve(pos, engine="kernel")
    python = solve(pos, engine="python")
    assert kernel.value == python.value
    assert set(kernel.best) == set(python.best)
    assert kernel.values == dict.fromkeys(kernel.best, kernel.value)
    assert (kernel.bidder, kernel.bidder_side, kernel.to_move) == (
        python.bidder,
        python.bidder_side,
        python.to_move,
    )
    return kernel.nodes


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_kernel_matches_python_mid_hand(case: tuple[str, dict[str, object]]) -> None:
    """Positions later in the hand, at trick boundaries and inside tricks."""
    variant, options = case
    states = positions(variant, options, 18, 10)
    assert all(supports(s.play_position()) for s in states)
    assert any(
        s.observation(0).trick is not None and s.observation(0).trick.plays for s in states
    )  # some inside a trick
    for state in states:
        assert agree(state) > 0


FIRST_LEAD = [
    "cinch",
    "pidro",
    "king_pedro",
    "king_pedro_canadian",
    "pitch_fives",
    "piedro_jokers",
    "eighty_three",
]


@pytest.mark.slow
@pytest.mark.parametrize("variant", FIRST_LEAD)
def test_kernel_matches_python_first_lead(variant: str) -> None:
    """Fresh deals at the first lead (variants whose Python search is quick enough there)."""
    checked = 0
    seed = 0
    while checked < 3:
        seed += 1
        state = at_play(variant, {}, seed)
        if (
            state is None
            or state.observation(0).tricks
            or (state.observation(0).trick is not None and state.observation(0).trick.plays)
        ):
            continue
        agree(state)
        checked += 1


def test_kernel_on_sampled_worlds() -> None:
    """A position built from other hands than the true ones (as a sampling player does)."""
    checked = 0
    for state in positions("cinch", {}, 14, 6):
        pos = state.play_position()
        others = [s for s in range(4) if s != pos.to_move and pos.hands[s]]
        a, b = others[0], others[-1]
        cards = [c for c in range(56) if (pos.hands[a] | pos.hands[b]) >> c & 1]
        random.Random(checked).shuffle(cards)
        k = pos.hands[a].bit_count()
        hands = list(pos.hands)
        hands[a] = sum(1 << c for c in cards[:k])
        hands[b] = sum(1 << c for c in cards[k:])
        agree(dataclasses.replace(pos, hands=tuple(hands)))
        checked += 1
    assert checked == 6


def test_stacks_in_the_kernel() -> None:
    """Multi-card first-trick plays (keep_and_bury) run in the kernel, as the engine lists them."""
    checked = 0
    seed = 0
    while checked < 4:
        seed += 1
        state = at_play("cinch", {}, seed)
        if (
            state is None
            or state.observation(0).tricks
            or state.observation(0).trick is None
            or state.observation(0).trick.plays
        ):
            continue
        leader = state.current_player
        rng = random.Random(seed)
        sizes = {leader: 3, (leader + 2) % 4: 4}
        hands = []
        for s, hand in enumerate(state.hands):
            cards = [c for c in range(56) if hand >> c & 1]
            hands.append(sum(1 << c for c in rng.sample(cards, min(len(cards), sizes.get(s, 2)))))
        state = with_hands(state, hands, size=2)
        assert any((a & ((1 << 56) - 1)).bit_count() > 1 for a in state.legal_actions())
        assert supports(state.play_position())
        agree(state)
        checked += 1


def test_relative_high_low_falls_back_to_python() -> None:
    """High and Low of the trumps played are not a sum over cards: the Python search runs."""
    state = positions("pitch_fives", {"relative_high_low": True}, 10, 1)[0]
    pos = state.play_position()
    assert not supports(pos)
    with pytest.raises(ValueError, match="relative_high_low"):
        solve(pos, engine="kernel")
    auto = solve(pos)
    python = solve(pos, engine="python")
    assert (auto.value, set(auto.best), auto.nodes) == (python.value, set(python.best), python.nodes)


def test_position_needs_the_play_phase() -> None:
    state = GameState(make_ruleset("cinch"), seed=1)
    assert state.phase != Phase.PLAY
    with pytest.raises(ValueError, match="play phase"):
        state.play_position()


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_a_kept_table_gives_the_same_answers_for_the_plays_of_one_deal(
    case: tuple[str, dict[str, object]],
) -> None:
    """``same_deal``: solving each play of a position in turn, keeping the table, changes nothing."""
    variant, options = case
    checked = 0
    for state in positions(variant, options, 12, 8):
        after = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            if child.phase == Phase.PLAY and not child.results:
                after.append(child)
        fresh = [solve(child.play_position(), engine="kernel") for child in after]
        kept = [
            solve(child.play_position(), engine="kernel", same_deal=i > 0) for i, child in enumerate(after)
        ]
        for a, b in zip(fresh, kept, strict=True):
            assert (a.value, set(a.best)) == (b.value, set(b.best))
        checked += len(after) > 1
    assert checked >= 3


#: Cards still held by seats in the play at most, for the Python search to be quick.
RANDOM_CARDS_LEFT = 14
#: Positions per ruleset.
RANDOM_POSITIONS = 10


def random_positions(name: str, count: int, cards_left: int = RANDOM_CARDS_LEFT) -> list[GameState]:
    """Play positions of random games, one a game (random legal actions from the deal on, as in the
    property tests): seats folded, cold, up or out, odd discards, inside tricks and at their start."""
    rules = RULESETS[name]
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        seed += 1
        state = GameState(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.hand_index < 4:
            if state.phase == Phase.PLAY and rng.random() < 0.3:
                statuses = state.observation(0).statuses
                live = sum(h.bit_count() for h, st in zip(state.hands, statuses, strict=True) if st == 0)
                if live <= cards_left:
                    out.append(state)
                    break
            state.apply(random_action(state, rng))
    return out


@pytest.mark.parametrize("name", RULESET_CASES)
def test_kernel_follows_the_turn_order_in_random_positions_of_every_ruleset(name: str) -> None:
    """Every variant and option set of the property tests: the kernel's value and best plays are
    the Python search's, which plays by the engine's turn order."""
    states = random_positions(name, RANDOM_POSITIONS)
    for state in states:
        if supports(state.play_position()):
            agree(state)
        else:  # relative_high_low: the Python search answers
            assert RULESETS[name].relative_high_low
            auto, python = solve(state.play_position()), solve(state.play_position(), engine="python")
            assert (auto.value, set(auto.best)) == (python.value, set(python.best))


#: Cards still held by seats in the play at the start of a line, and lines per ruleset.
LINE_CARDS_LEFT = 10
LINES = 4


@pytest.mark.parametrize("name", RULESET_CASES)
def test_every_play_is_valued_alike_along_random_lines_of_every_ruleset(name: str) -> None:
    """Along random lines to the end of the hand, every legal play's value, not only the best.

    Value and best plays alone miss a kernel that hands the turn on wrongly
    where that changes only a worse play's value (a seat gone cold or out,
    the lead passing over a seat with no cards); every child's value does not.
    """
    compared = 0
    for line, state in enumerate(random_positions(name, LINES, LINE_CARDS_LEFT)):
        rng = random.Random(line)
        hand = state.hand_index
        while state.phase == Phase.PLAY and state.hand_index == hand and not state.is_over:
            if not supports(state.play_position()):
                assert RULESETS[name].relative_high_low
                return
            for action in state.legal_actions():
                child = state.clone()
                child.apply(action)
                if child.phase == Phase.PLAY and child.hand_index == hand and not child.is_over:
                    position = child.play_position()
                    kernel, python = solve(position, engine="kernel"), solve(position, engine="python")
                    assert (kernel.value, set(kernel.best)) == (python.value, set(python.best)), action
                    compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared >= LINES  # not vacuous


def test_random_positions_reach_every_turn_order_case() -> None:
    """The random positions above hold seats gone cold, up and out, and tricks under way."""
    seen: set[Status] = set()
    inside = 0
    for name in RULESET_IDS:
        for state in random_positions(name, RANDOM_POSITIONS):
            seen.update(Status(s) for s in state.observation(0).statuses)
            inside += bool(state.observation(0).trick is not None and state.observation(0).trick.plays)
    assert {Status.FOLDED, Status.COLD, Status.UP, Status.OUT} <= seen
    assert inside >= len(RULESET_IDS)
