"""What the server sends about a game: JSON views built from one seat's ``Observation`` only.

The browser never sees the game state. A seat's view is made from that seat's
observation, and a spectator's view from an observation with every private
field removed, so a card the rules keep hidden cannot reach a client by
mistake: it is not in anything this module reads. The builders live in
``pedro.observation_json``, shared with the bot protocol; this module adds
the one view the server builds from the engine's finished tricks.
"""

from __future__ import annotations

from typing import Any

from pedro.engine.actions import play_cards
from pedro.engine.state import Trick
from pedro.observation_json import (
    LIST_LIMIT,
    PHASE_NAMES,
    SIZE_SEARCH_BUDGET,
    cards_json,
    label,
    last_json,
    observation_json,
    private_json,
    public_json,
    rules_json,
    sheet_row_json,
    words,
)

__all__ = [
    "LIST_LIMIT",
    "PHASE_NAMES",
    "SIZE_SEARCH_BUDGET",
    "cards_json",
    "label",
    "last_json",
    "observation_json",
    "private_json",
    "public_json",
    "rules_json",
    "sheet_row_json",
    "trick_json",
    "words",
]


def trick_json(trick: Trick) -> dict[str, Any]:
    """A finished trick of the engine (all its cards were played face up)."""
    return {
        "leader": trick.leader,
        "plays": [{"seat": seat, "cards": cards_json(play_cards(a))} for seat, a in trick.plays],
        "winner": trick.winner,
    }
