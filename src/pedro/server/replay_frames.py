"""Frames for the replay viewer: the table after each action of a finished game, every hand open.

Only finished games are replayed (the caller checks), so showing every hand
gives nothing away. When an action ends a hand the engine has already dealt
the next one; the frame then carries the finished hand's tricks as
``closed`` so the viewer can show the last trick and the hand's result.
"""

from __future__ import annotations

from typing import Any

from pedro.cards import cards_of
from pedro.display import sort_hand
from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState, HandResult
from pedro.server.views import cards_json, label, observation_json, trick_json, words
from pedro.variants.model import Ruleset


def _closed_json(result: HandResult) -> dict[str, Any]:
    return {
        "tricks": [trick_json(t) for t in result.tricks],
        "points": list(result.points),
        "made": result.made,
        "score": list(result.score),
    }


def _hands(state: GameState, rules: Ruleset) -> list[list[str]]:
    tt = rules.tables(state.trump) if state.trump >= 0 else None
    return [cards_json(sort_hand(cards_of(mask), tt)) for mask in state.hands]


def replay_frames(rules: Ruleset, seed: str, actions: list[str]) -> list[dict[str, Any]]:
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
