"""The exact play solver against a plain minimax over the engine itself."""

from __future__ import annotations

import random

import pytest
from tests.helpers import with_hands

from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState
from pedro.players.basic import BasicPlayer
from pedro.solver import solve
from pedro.variants.options import make_ruleset


def reference(state: GameState) -> tuple[int, set[int]]:
    """Value for the bidder's side and optimal first actions by exhaustive minimax on clones."""
    assert state.contract is not None
    side = state.rules.side_of(state.contract.bidder)
    max_seats = {s for s in range(state.players) if state.rules.side_of(s) == side}
    done = len(state.results)

    def value(st: GameState) -> int:
        if len(st.results) > done:
            return st.results[done].points[side]
        vals = []
        for a in st.legal_actions():
            child = st.clone()
            child.apply(a)
            vals.append(value(child))
        return max(vals) if st.current_player in max_seats else min(vals)

    vals = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        vals[a] = value(child)
    pick = max if state.current_player in max_seats else min
    best = pick(vals.values())
    return best, {a for a, v in vals.items() if v == best}


def at_play(variant: str, options: dict[str, object], seed: int) -> GameState | None:
    rules = make_ruleset(variant, options)
    state = GameState(rules, seed=seed)
    players = [BasicPlayer(seed=seed * 10 + s) for s in range(rules.players)]
    while state.phase != Phase.PLAY:
        if state.is_over or state.hand_index > 0:
            return None
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    return state if state.hand_index == 0 else None


def positions(variant: str, options: dict[str, object], cards_left: int, count: int) -> list[GameState]:
    """Real deals played forward at random until at most ``cards_left`` cards are in play."""
    out: list[GameState] = []
    seed = 0
    while len(out) < count:
        seed += 1
        state = at_play(variant, options, seed)
        if state is None:
            continue
        rng = random.Random(seed)
        while state.hand_index == 0 and not state.is_over and state.phase == Phase.PLAY:
            active = sum(
                h.bit_count()
                for h, st in zip(state.hands, state.observation(0).statuses, strict=True)
                if st == Status.ACTIVE
            )
            if active <= cards_left and rng.random() < 0.5:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.hand_index == 0 and state.phase == Phase.PLAY:
            out.append(state)
    return out


CASES = [
    ("cinch", {}, 12),
    ("pidro", {}, 14),
    ("king_pedro", {}, 10),
    ("king_pedro_canadian", {}, 8),
    ("eighty_three", {}, 12),
    ("sixty_three", {}, 12),
    ("piedro_jokers", {}, 11),
    ("nicaragua", {}, 12),
    ("pitch_fives", {}, 10),
    ("pitch_fives", {"relative_high_low": True}, 10),
    ("pedro_sancho", {}, 10),
    ("dom_pedro", {}, 10),
    ("petro_russian", {}, 10),
    ("petro_russian", {"plain_honours_score": True}, 10),
]


@pytest.mark.parametrize(
    ("variant", "options", "left"), CASES, ids=[c[0] + ("+" if c[1] else "") for c in CASES]
)
def test_solver_matches_minimax(variant: str, options: dict[str, object], left: int) -> None:
    for state in positions(variant, options, left, 10):
        before = state.clone()
        value, best = reference(state)
        for engine in ("auto", "python"):  # the compiled kernel (where it applies) and the reference
            result = solve(state.play_position(), engine=engine)
            assert result.value == value
            assert set(result.best) == best
        # the solver leaves the state alone
        assert state.hands == before.hands and state.actions == before.actions


def test_play_position_is_the_states_position() -> None:
    """``GameState.play_position`` holds the state's card play: what a player sees, every hand, and
    the same position again after it is written as text and read back."""
    for state in positions("king_pedro_canadian", {}, 12, 4):
        pos = state.play_position()
        obs = state.observation(state.current_player)
        assert pos.hands == state.hands and pos.to_move == state.current_player
        assert (pos.trump, pos.bidder, pos.statuses) == (obs.trump, obs.bidder, obs.statuses)
        assert [w for w, _ in pos.tricks] == [t.winner for t in obs.tricks]
        assert obs.trick is not None and pos.leader == obs.trick.leader
        assert GameState.from_text(state.rules, state.to_text()).play_position() == pos
    with pytest.raises(ValueError, match="play phase"):
        GameState(make_ruleset("cinch"), seed=1).play_position()


def test_multi_card_first_trick() -> None:
    """Cut-down cinch hands where two seats must play stacks (keep_and_bury) to the first trick."""
    checked = stacks = 0
    seed = 0
    while checked < 12:
        seed += 1
        state = at_play("cinch", {}, seed)
        trick = state.observation(0).trick if state is not None else None
        if state is None or state.observation(0).tricks or trick is None or trick.plays:
            continue
        assert state.trump is not None
        leader = state.current_player
        rng = random.Random(seed)
        sizes = {leader: 3, (leader + 1) % 4: 4}
        hands = []
        for s, hand in enumerate(state.hands):
            cards = [c for c in range(56) if hand >> c & 1]
            keep = rng.sample(cards, min(len(cards), sizes.get(s, 2)))
            hands.append(sum(1 << c for c in keep))
        state = with_hands(state, hands, size=2)
        legal = state.legal_actions()
        stacks += any((a & ((1 << 56) - 1)).bit_count() > 1 for a in legal)
        value, best = reference(state)
        for engine in ("auto", "python"):
            result = solve(state.play_position(), engine=engine)
            assert result.value == value
            assert set(result.best) == best
        checked += 1
    assert stacks
