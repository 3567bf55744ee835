"""The expert's own exchange decisions: by simulated value, over ``heuristic``'s rule only when
a choice clearly leads it (``ExpertPlayer._exchange``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import ExpertPlayer, HeuristicPlayer, UnknownPlayerError, check_player, make_player
from pedro.players.expert import EXCHANGE_OVER_RULE_Z, _lead, legal_count
from pedro.variants.catalog import get_variant


def _exchange_decisions(variant: str, game: int, hands: int = 2) -> Iterator[tuple[Observation, int]]:
    """Every exchange decision with a choice in ``heuristic`` games, with ``heuristic``'s choice."""
    rules = get_variant(variant)
    state = GameState(rules, seed=1000 + game)
    seats = [HeuristicPlayer(game * 16 + s) for s in range(rules.players)]
    while not state.is_over and len(state.results) < hands:
        seat = state.current_player
        obs = state.observation(seat)
        action = seats[seat].act(obs)
        if obs.phase == Phase.EXCHANGE and legal_count(obs) > 1:
            yield obs, action
        state.apply(action)


def test_exchange_heuristic_setting_is_registered() -> None:
    player = make_player("expert:exchange=heuristic", 3)
    assert isinstance(player, ExpertPlayer) and not player.own_exchange and player.own_bidding
    both = make_player("expert:40:bid=heuristic:exchange=heuristic", 3)
    assert isinstance(both, ExpertPlayer) and not both.own_exchange and not both.own_bidding
    assert both.worlds == 40
    own = make_player("expert", 3)
    assert isinstance(own, ExpertPlayer) and own.own_exchange


@pytest.mark.parametrize("spec", ["expert:exchange=heuristic:exchange=heuristic", "expert:exchange=basic"])
def test_bad_exchange_settings_say_what_is_allowed(spec: str) -> None:
    with pytest.raises(UnknownPlayerError, match="exchange=heuristic"):
        check_player(spec)


def test_exchange_heuristic_setting_exchanges_exactly_as_heuristic() -> None:
    compared = 0
    for game in range(2):
        for obs, rule in _exchange_decisions("eighty_three", game, hands=1):
            assert make_player("expert:exchange=heuristic", game).act(obs) == rule
            compared += 1
    assert compared >= 4


def test_the_expert_leaves_the_rule_only_for_a_choice_that_clearly_leads_it() -> None:
    # 83, game 3, second hand: the bidder must give two trumps to its partner or bury them; the
    # rule gives its two lowest, the simulation finds giving the off-five far better
    left = 0
    for obs, rule in _exchange_decisions("eighty_three", 3):
        expert = ExpertPlayer(seed=3)
        chosen = expert.act(obs)
        assert chosen in obs.legal  # type: ignore[operator]
        if chosen == rule:
            continue
        left += 1
        worlds, _ = expert.exchange_worlds(obs)
        mean = {a: sum(v) / len(v) for a, v in worlds.items()}
        assert mean[chosen] == max(mean.values()) > mean[rule]
        assert _lead(worlds[chosen], worlds[rule]) >= EXCHANGE_OVER_RULE_Z
    assert left >= 1, "the games changed: pick another game where the expert leaves the rule"


def test_one_deal_alone_is_not_enough_to_leave_the_rule() -> None:
    # a lead that rests on one deal of twenty, however large, is exactly one standard error
    one = [0.0] * 19 + [9.0]
    assert _lead(one, [0.0] * 20) == pytest.approx(1.0)
    assert EXCHANGE_OVER_RULE_Z > 1.0
