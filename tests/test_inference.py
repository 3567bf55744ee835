"""Reading the other side's play (``pedro.players.inference``): views and world weights."""

from __future__ import annotations

import random

import pytest

from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.heuristic import HeuristicPlayer, rollout_player
from pedro.players.inference import PlayModel, seat_view
from pedro.players.play_machine import PlayMachine
from pedro.players.sampling import replay, sample_worlds
from pedro.variants.options import make_ruleset

VARIANTS = ("cinch", "pidro", "king_pedro_canadian", "eighty_three")


def heuristic_game(
    variant: str, seed: int, simulated: bool = False
) -> list[tuple[tuple[int, ...], Observation]]:
    """True hands now and the mover's observation at every card play of one hand between heuristics."""
    rules = make_ruleset(variant, {})
    state = GameState(rules, seed=seed)
    make = HeuristicPlayer if simulated else rollout_player
    players = [make(seed * 16 + s) for s in range(rules.players)]
    out = []
    while not state.results:
        seat = state.current_player
        obs = state.observation(seat)
        if state.phase == Phase.PLAY:
            out.append((tuple(state.hands), obs))
        state.apply(players[seat].act(obs))
    return out


@pytest.mark.parametrize(
    ("variant", "seed", "simulated"),
    [*((v, 4, False) for v in VARIANTS), ("cinch", 5006, True)],  # cinch 5006: a stack in the first trick
)
def test_a_replayed_view_is_what_the_engine_showed_that_seat(
    variant: str, seed: int, simulated: bool
) -> None:
    seen = heuristic_game(variant, seed, simulated)
    assert (
        variant != "cinch"
        or not simulated
        or any(
            obs.trick is not None and any(len(cards) > 1 for _s, cards in obs.trick.plays) for _h, obs in seen
        )
    )
    hands, last = seen[-1]
    views: list[Observation] = []

    def on_play(m: PlayMachine, seat: int, action: int) -> None:
        views.append(seat_view(last, m, seat, m.legal()))

    assert replay(last, hands, on_play) is not None
    assert len(views) == len(seen) - 1  # every play before the last one
    for view, (_hands, real) in zip(views, seen, strict=False):
        assert view.seat == real.seat
        assert view.hand == real.hand
        assert view.hand_sizes == real.hand_sizes
        assert view.statuses == real.statuses
        assert view.trick == real.trick or (
            view.trick is not None and not view.trick.plays and real.trick is None
        )
        assert [(t.leader, t.plays, t.winner) for t in view.tricks] == [
            (t.leader, t.plays, t.winner) for t in real.tricks
        ]
        assert isinstance(real.legal, tuple) and set(view.legal or ()) == set(real.legal)


@pytest.mark.parametrize("variant", VARIANTS)
def test_heuristic_opponents_make_the_true_world_likelier_than_sampled_ones(variant: str) -> None:
    true_weights: list[float] = []
    sampled_weights: list[float] = []
    for seed in range(3):
        for hands, obs in heuristic_game(variant, seed)[8::3]:
            model = PlayModel(obs, [rollout_player(f"model:{s}") for s in range(obs.rules.players)])
            true_weights.append(model.weight(hands))
            worlds = sample_worlds(obs, 10, random.Random(seed))
            sampled_weights += [model.weight(w.hands) for w in worlds]
    # the model is the players' own policy, but its view lacks their discards: nearly always right
    assert sum(w == 1.0 for w in true_weights) >= 0.9 * len(true_weights)
    # and the play seen tells worlds apart: the sampled ones explain it clearly worse
    assert sum(sampled_weights) / len(sampled_weights) < 0.8 * sum(true_weights) / len(true_weights)
