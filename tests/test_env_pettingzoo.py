"""The PettingZoo environment: PettingZoo's checks, rewards, episode ends, masks, errors, the text view."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from pedro.cards import pretty_card
from pedro.engine.phases import Phase
from pedro.envs import encoding
from pedro.envs.actions import DONE
from pedro.envs.pettingzoo import env, raw_env
from pedro.variants.catalog import VARIANTS

#: PettingZoo warns about every dict observation ({"observation", "action_mask"}), its own recommended form
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


def _random_episode(e: Any, seed: int, rng: random.Random) -> dict[str, float]:
    """Play random legal ids (masks only) to the episode's end; the reward each agent was given."""
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last(observe=False)
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))
    return totals


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pettingzoo_api_and_seed_tests_pass(variant: str) -> None:
    api_test(env(variant), num_cycles=40, verbose_progress=False)
    seed_test(lambda: env(variant, hands=None), num_cycles=40)


def test_api_test_passes_for_a_whole_game_and_a_cut_game() -> None:
    api_test(env("pitch_fives", hands=None, game_reward=True), num_cycles=150)
    api_test(env("cinch", hands=2), num_cycles=150)
    seven = env("pedro_sancho", options={"players": 7}, hands=None)
    api_test(seven, num_cycles=60)
    assert seven.possible_agents == [f"player_{s}" for s in range(7)]


@pytest.mark.parametrize("variant", ["cinch", "pedro_sancho", "king_pedro_canadian"])
def test_rewards_are_each_sides_score_change(variant: str) -> None:
    e = env(variant, hands=3)
    totals = _random_episode(e, 11, random.Random(1))
    game = e.unwrapped.game
    rules = e.unwrapped.rules
    assert len(game.results) == 3 and all(e.truncations.get(a, True) for a in e.possible_agents)
    for agent, total in totals.items():
        seat = int(agent.split("_")[1])
        expected = sum(r.change[rules.side_of(seat)] for r in game.results)
        assert total == expected
    if rules.partnerships:
        assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]


def test_one_hand_terminates_and_a_game_reward_comes_at_the_end() -> None:
    one = env("cinch")
    _random_episode(one, 5, random.Random(5))
    assert len(one.unwrapped.game.results) == 1
    assert one.agents == []  # every agent terminated and stepped out
    whole = env("cinch", options={"target": 11}, hands=None, game_reward=True)
    totals = _random_episode(whole, 3, random.Random(3))
    game = whole.unwrapped.game
    assert game.is_over and game.winner is not None
    for agent, total in totals.items():
        side = whole.unwrapped.rules.side_of(int(agent.split("_")[1]))
        bonus = 1.0 if side == game.winner else -1.0
        assert total == sum(r.change[side] for r in game.results) + bonus


def test_a_card_set_is_chosen_by_one_agent_over_several_steps() -> None:
    """Nicaragua's dealer keeps cards from the stock one at a time: same agent, growing selection."""
    e = raw_env("nicaragua")
    rng = random.Random(0)
    for seed in range(20):
        e.reset(seed=seed)
        while e.agents and e.game.phase != Phase.EXCHANGE:
            e.step(int(rng.choice(np.flatnonzero(e.action_mask(e.agent_selection)))))
        if not e.agents:
            continue
        agent = e.agent_selection
        mask = e.action_mask(agent)
        card = int(np.flatnonzero(mask[:DONE])[0])
        e.step(card)
        assert e.agent_selection == agent and e.decision().selection == (card,)
        selection = e.observe(agent)["observation"][e.encoder.slice("selection").indices()]
        assert list(np.flatnonzero(selection)) == [card]
        assert e.action_mask(agent)[card] == 0  # a card is chosen once
        return
    pytest.fail("no exchange decision in 20 nicaragua deals")


def test_only_the_acting_agent_has_a_mask_and_it_is_the_engines() -> None:
    e = raw_env("pidro")
    e.reset(seed=4)
    acting = e.agent_selection
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert np.array_equal(mask, e.action_mask(agent))
        assert mask.any() == (agent == acting)
    legal = e.game.legal()
    assert isinstance(legal, tuple)
    ids = sorted(e.space.id_of(a) for a in legal)
    assert list(np.flatnonzero(e.action_mask(acting))) == ids


def test_stepping_with_masks_encodes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = encoding.ObservationEncoder.encode

    def counting(self: encoding.ObservationEncoder, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(encoding.ObservationEncoder, "encode", counting)
    e = env("cinch", hands=None)
    rng = random.Random(2)
    e.reset(seed=2)
    for _ in range(200):
        agent = e.agent_selection
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))
    assert calls == []
    e.observe(e.agent_selection)
    assert calls == [1]


def test_an_illegal_id_raises_and_names_the_legal_ones() -> None:
    e = env("cinch")
    e.reset(seed=1)
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.action_mask(agent) == 0)[0])
    with pytest.raises(
        ValueError, match=rf"{agent}: action id {illegal} .* is not legal; legal ids: 56 \(pass\)"
    ):
        e.step(illegal)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)
    assert e.agent_selection == agent  # nothing happened


def test_bad_arguments_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="unknown variant 'chinch'; valid variants: cinch"):
        env("chinch")
    with pytest.raises(ValueError, match="unknown option 'bogus' for cinch; valid options for cinch"):
        env("cinch", options={"bogus": 1})
    with pytest.raises(ValueError, match="must be written NAME=VALUE"):
        env("cinch", options=["min_bid"])
    with pytest.raises(ValueError, match="render modes: ansi"):
        env("cinch", render_mode="human")
    with pytest.raises(ValueError, match="hands must be a whole number of at least 1"):
        env("cinch", hands=0)
    assert raw_env("cinch", options=["min_bid=6", "dealer_forced_bid=6"]).rules.min_bid == 6


def test_ansi_render_shows_the_acting_seats_hand_and_not_the_others() -> None:
    e = env("cinch", render_mode="ansi", hands=None)
    rng = random.Random(9)
    e.reset(seed=9)
    for _ in range(30):  # into the play, where tricks and face-up cards are on the table
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(e.agent_selection)))))
    game = e.unwrapped.game
    seat = game.current_player
    text = e.render()
    assert isinstance(text, str) and "[/" not in text and "\x1b" not in text
    assert f"player_{seat} (seat {seat}) sees:" in text
    obs = game.observation(seat)
    assert all(pretty_card(c) in text for c in obs.hand)
    public = {c for cards in obs.face_up + obs.shown for c in cards}
    if obs.trick is not None:
        public |= {c for _, cards in obs.trick.plays for c in cards}
    hidden = [
        c for s in range(4) if s != seat for c in range(55) if game.hands[s] >> c & 1 and c not in public
    ]
    assert hidden and not any(pretty_card(c) in text for c in hidden)
    assert "legal: " in text
    silent = env("cinch")
    silent.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert silent.render() is None
