"""The replay's frames for tests: finished games of computer players, and the frames rebuilt whole.

``expand_frames`` rebuilds every frame from frame 0 and the deltas, as the
viewer (``static/replayframes.js``) does, following docs/server.md ("Replay
frames") rather than the server's code.
"""

from __future__ import annotations

from typing import Any

from pedro.engine.actions import action_text
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.variants.model import Ruleset


def expand_frames(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every frame whole: frame 0 as sent, each later one the frame before with the delta applied."""
    frames = [sent[0]]
    for delta in sent[1:]:
        previous = frames[-1]
        frame = previous | {k: v for k, v in delta.items() if k not in ("hands", "game", "append")}
        if "hands" in delta:
            frame["hands"] = [
                new if new is not None else old
                for new, old in zip(delta["hands"], previous["hands"], strict=True)
            ]
        game = previous["game"] | delta.get("game", {})
        for key, items in delta.get("append", {}).items():
            game[key] = previous["game"][key] + items
        frame["game"] = game
        frames.append(frame)
    return frames


def computer_game(rules: Ruleset, seed: str, players: tuple[str, ...] = ("basic", "random")) -> list[str]:
    """The actions (record text) of a whole game of computer players, taking turns round the table."""
    state = GameState(rules, seed=seed)
    actions: list[str] = []
    while not state.is_over:
        seat = state.current_player
        player = make_player(players[seat % len(players)], seed=f"{seed}:{len(actions)}")
        action = player.act(state.observation(seat))
        actions.append(action_text(seat, action, rules.max_bid))
        state.apply(action)
    return actions
