"""Frames for the replay viewer: the table after each action of a finished game, every hand open.

Only finished games are replayed (the caller checks), so showing every hand
gives nothing away. When an action ends a hand the engine has already dealt
the next one; the frame then carries the finished hand's tricks as
``closed`` so the viewer can show the last trick and the hand's result.

A frame's full view is ``{"seq", "hand_index", "last", "hands", "closed",
"game"}`` with ``game`` the public view of ``pedro.server.views``. Sending it
whole for every action repeats the score sheet (a row per hand) and every
unchanged field thousands of times, so a long game's replay would grow with
the square of its length. Frame 0 is sent whole; every later frame only says
what changed since the frame before (docs/server.md, "Replay frames"), and
the score sheet grows by the rows of the hands that ended. The views are the
ones the table shows; only their differences are computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pedro.cards import cards_of
from pedro.display import sort_hand
from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState, HandResult
from pedro.server.views import cards_json, label, observation_json, sheet_row_json, trick_json, words

#: Frame keys compared whole with the previous frame's (``hands`` and ``game`` are compared by part).
_WHOLE_KEYS = ("hand_index", "last", "closed")


def _closed_json(result: HandResult) -> dict[str, Any]:
    return {
        "tricks": [trick_json(t) for t in result.tricks],
        "points": list(result.points),
        "made": result.made,
        "score": list(result.score),
    }


def _hand_cards(state: GameState, mask: int) -> list[str]:
    tt = state.rules.tables(state.trump) if state.trump >= 0 else None
    return cards_json(sort_hand(cards_of(mask), tt))


class _Hands:
    """Every seat's cards as the table shows them; a seat's are sorted again only when they may have moved."""

    def __init__(self, state: GameState) -> None:
        self.masks = tuple(state.hands)
        self.trump = state.trump
        self.cards = [_hand_cards(state, mask) for mask in self.masks]

    def update(self, state: GameState) -> list[list[str] | None]:
        """The new cards of the seats whose shown hands changed, None for the others."""
        resort = state.trump != self.trump  # the order of a hand depends on the trump suit
        changed: list[list[str] | None] = []
        for seat, mask in enumerate(state.hands):
            cards = None
            if resort or mask != self.masks[seat]:
                cards = _hand_cards(state, mask)
                if cards == self.cards[seat]:
                    cards = None
                else:
                    self.cards[seat] = cards
            changed.append(cards)
        self.masks, self.trump = tuple(state.hands), state.trump
        return changed


def _game_delta(before: dict[str, Any], after: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keys of the game view that changed: (new values, items added at the end of lists that grew)."""
    changed: dict[str, Any] = {}
    grown: dict[str, Any] = {}
    for key, value in after.items():
        old = before[key]
        if value == old:
            continue
        if isinstance(value, list) and isinstance(old, list) and value[: len(old)] == old:
            grown[key] = value[len(old) :]  # the calls of an auction, the tricks of a hand
        else:
            changed[key] = value
    return changed, grown


def replay_frames(state: GameState, actions: Sequence[str]) -> list[dict[str, Any]]:
    """Frame 0 whole, then one delta per action, playing ``actions`` (record text) on a new game ``state``.

    ``state`` is left at the end of the game, for the caller's record.
    """
    rules = state.rules
    hands = _Hands(state)
    whole = observation_json(state.observation(0), private=False)
    first = {
        "seq": 0,
        "hand_index": state.hand_index,
        "last": None,
        "closed": None,
        "hands": list(hands.cards),
    }
    frames = [first | {"game": whole}]
    previous: dict[str, Any] = first
    # compared without the sheet from now on: it only grows, by a row per finished hand
    game = {k: v for k, v in whole.items() if k != "sheet"}
    for seq, text in enumerate(actions, start=1):
        seat, action = parse_action_text(text, rules.max_bid)
        ended = len(state.results)
        state.apply(action)
        view = {
            "hand_index": state.hand_index,
            "last": {"seat": seat, "action": words(action, rules), "label": label(action, rules)},
            "closed": _closed_json(state.results[-1]) if len(state.results) > ended else None,
        }
        delta: dict[str, Any] = {"seq": seq}
        delta.update((k, view[k]) for k in _WHOLE_KEYS if view[k] != previous[k])
        changed_hands = hands.update(state)
        if any(cards is not None for cards in changed_hands):
            delta["hands"] = changed_hands
        now = observation_json(state.observation(0), private=False, sheet=False)
        changed, grown = _game_delta(game, now)
        if len(state.results) > ended:
            grown["sheet"] = [sheet_row_json(r.seen) for r in state.results[ended:]]
        if changed:
            delta["game"] = changed
        if grown:
            delta["append"] = grown
        frames.append(delta)
        previous, game = view, now
    return frames
