"""What the server sends about a game: JSON views built from one seat's ``Observation`` only.

The browser never sees the game state. A seat's view is made from that seat's
observation, and a spectator's view from an observation with every private
field removed, so a card the rules keep hidden cannot reach a client by
mistake: it is not in anything this module reads. The builders live in
``pedro.observation_json``, shared with the bot protocol; this module adds
the one view the server builds from the engine's finished tricks.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from pedro.engine.actions import play_cards
from pedro.engine.state import PlayedTrick
from pedro.observation_json import (
    LIST_LIMIT,
    PHASE_NAMES,
    SIZE_SEARCH_BUDGET,
    calls_json,
    cards_json,
    label,
    last_json,
    observation_json,
    private_json,
    public_json,
    rules_json,
    seen_trick_json,
    sheet_row_json,
    words,
)
from pedro.server.tables.json_bytes import encoded_once

__all__ = [
    "LIST_LIMIT",
    "PHASE_NAMES",
    "SIZE_SEARCH_BUDGET",
    "Parts",
    "calls_json",
    "cards_json",
    "label",
    "last_json",
    "observation_json",
    "private_json",
    "public_json",
    "rules_json",
    "seen_trick_json",
    "sheet_row_json",
    "trick_json",
    "words",
]


def trick_json(trick: PlayedTrick) -> dict[str, Any]:
    """A finished trick of the engine (all its cards were played face up)."""
    return {
        "leader": trick.leader,
        "plays": [{"seat": seat, "cards": cards_json(play_cards(a))} for seat, a in trick.plays],
        "winner": trick.winner,
    }


class Parts:
    """One table's memo for the view builders (``pedro.observation_json.Memo``): each part is
    kept encoded (``json_bytes.encoded_once``), with the key it was built from, and built again
    when the key changes.

    Every change is told to every seat, and most of a message is the same as in the last
    one (the calls, the trumps, the finished tricks, the score sheet): those are encoded
    once. A key holds everything its part is made of, so what is reused is what a fresh
    build would say.
    """

    __slots__ = ("_parts",)

    def __init__(self) -> None:
        self._parts: dict[Hashable, tuple[Any, Any]] = {}

    def __call__(self, name: Hashable, key: Any, build: Callable[[], Any]) -> Any:
        part = self._parts.get(name)
        if part is not None and (part[0] is key or part[0] == key):
            return part[1]
        fragment = encoded_once(build())
        self._parts[name] = (key, fragment)
        return fragment

    def clear(self) -> None:
        """Forget every part (each is built again when next asked for)."""
        self._parts.clear()
