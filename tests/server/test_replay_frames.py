"""The replay's frames as deltas: they rebuild exactly the full frames sent before, and grow linearly.

The full frames of before are kept here as they were written (``full_frames``),
one view of the table per action with the whole score sheet every time, so
the rebuilt frames are compared with an independent account of every step.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from tests.server.replay_helpers import computer_game, expand_frames

from pedro.cards import cards_of
from pedro.display import sort_hand
from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState
from pedro.server.finished.bodies import replay_body
from pedro.server.finished.replay_frames import _closed_json, replay_frames
from pedro.server.tables.game import FinishedGame
from pedro.server.tables.views import cards_json, label, observation_json, words
from pedro.variants.model import Ruleset
from pedro.variants.options import make_ruleset

# ---------------------------------------------------------------------------- the full frames of before


def _hands(state: GameState, rules: Ruleset) -> list[list[str]]:
    tt = rules.tables(state.trump) if state.trump is not None else None
    return [cards_json(sort_hand(cards_of(mask), tt)) for mask in state.hands]


def _frame(
    state: GameState, rules: Ruleset, seq: int, last: dict[str, Any] | None, closed: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "seq": seq,
        "hand_index": state.hand_index,
        "last": last,
        "hands": _hands(state, rules),
        "closed": closed,
        "game": observation_json(state.observation(0), private=False),
    }


def full_frames(rules: Ruleset, seed: str, actions: list[str]) -> list[dict[str, Any]]:
    state = GameState(rules, seed=seed)
    frames = [_frame(state, rules, 0, None, None)]
    for seq, text in enumerate(actions, start=1):
        seat, action = parse_action_text(text, rules.max_bid)
        hands_before = len(state.results)
        state.apply(action)
        last = {"seat": seat, "action": words(action, rules), "label": label(action, rules)}
        closed = _closed_json(state.results[-1]) if len(state.results) > hands_before else None
        frames.append(_frame(state, rules, seq, last, closed))
    return frames


# ---------------------------------------------------------------------------- tests

#: variants with different phases: an exchange from the stock, kills, a widow, no partners, jokers
VARIANTS = ["cinch", "pidro", "sixty_three", "king_pedro", "petro_russian", "pedro_sancho", "piedro_jokers"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_deltas_rebuild_every_full_frame(variant: str) -> None:
    rules = make_ruleset(variant, {})
    actions = computer_game(rules, seed=f"frames-{variant}")
    state = GameState(rules, seed=f"frames-{variant}")
    sent = replay_frames(state, actions)
    assert state.is_over, "replay_frames leaves the state at the end of the game"
    expected = full_frames(rules, f"frames-{variant}", actions)
    assert len(sent) == len(expected) == len(actions) + 1
    assert sent[0] == expected[0]
    rebuilt = expand_frames(sent)
    for seq, (got, want) in enumerate(zip(rebuilt, expected, strict=True)):
        assert got == want, f"{variant}: frame {seq} differs in {[k for k in want if got.get(k) != want[k]]}"
    # a delta never repeats the sheet, and each finished hand's row is sent once
    assert all("sheet" not in d.get("game", {}) for d in sent[1:])
    assert sum(len(d.get("append", {}).get("sheet", [])) for d in sent) == len(state.results) >= 1


def test_a_delta_holds_only_what_changed() -> None:
    rules = make_ruleset("cinch", {})
    actions = computer_game(rules, seed="only-changes")
    sent = replay_frames(GameState(rules, seed="only-changes"), actions)
    full = expand_frames(sent)
    for i in range(1, len(sent)):
        delta, before, after = sent[i], full[i - 1], full[i]
        assert delta["seq"] == i
        for key in ("hand_index", "last", "closed"):
            assert (key in delta) == (after[key] != before[key]), (i, key)
        for key, value in delta.get("game", {}).items():
            assert value != before["game"][key], (i, key)
        for key, items in delta.get("append", {}).items():
            assert items and not set(delta.get("game", {})) & set(delta["append"]), (i, key)
            assert after["game"][key] == before["game"][key] + items, (i, key)
        if "hands" in delta:
            for seat, cards in enumerate(delta["hands"]):
                assert (cards is None) == (after["hands"][seat] == before["hands"][seat]), (i, seat)


def _replay_size(target: int) -> tuple[int, int]:
    """(actions, bytes of the replay body's JSON) of a pidro game to ``target`` of one strong side."""
    rules = make_ruleset("pidro", {"target": target})
    actions = computer_game(rules, seed=f"long-{target}")
    game = FinishedGame(
        "t" * 22, "pidro", {"target": target}, f"long-{target}", tuple(actions), ("a",) * 4, {}
    )
    return len(actions), replay_body(game).size


def test_the_replay_grows_linearly_with_the_game() -> None:
    # basic against random players: the basic side gains some 10 points a hand, so the
    # target sets the game's length; four times the target, some four times the actions
    short_actions, short_bytes = _replay_size(150)
    long_actions, long_bytes = _replay_size(600)
    assert long_actions > 3 * short_actions
    per_action_short = short_bytes / short_actions
    per_action_long = long_bytes / long_actions
    # the old frames repeated the score sheet: the longer game's would take ~4 times more per action
    assert per_action_long < 1.15 * per_action_short, (per_action_short, per_action_long)


def test_frames_are_plain_json() -> None:
    rules = make_ruleset("pidro", {})
    actions = computer_game(rules, seed="json")
    sent = replay_frames(GameState(rules, seed="json"), actions)
    assert orjson.loads(orjson.dumps(sent)) == sent
