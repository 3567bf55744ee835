"""Writing a game as a ``pedro-record/1`` record: the record of a game so far, and its JSON text."""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from pedro.cards import format_card
from pedro.engine.actions import action_text
from pedro.engine.state import GameState
from pedro.records.model import FORMAT
from pedro.variants.options import options_dict


def record_from_game(
    state: GameState, names: Sequence[str] | None = None, timed_out: Collection[int] = ()
) -> dict[str, Any]:
    """The ``pedro-record/1`` record of a game so far (finished or not), with seat ``names``;
    ``timed_out``: the actions (numbers, all hands together, from 0) a stand-in made because a
    turn clock ran out, written as each hand's ``timed_out``."""
    rules = state.rules
    n = rules.players
    seat_names = list(names) if names is not None else [f"Seat {s}" for s in range(n)]
    if len(seat_names) != n:
        raise ValueError(f"{rules.id} is played by {n} players, but {len(seat_names)} names were given")
    hands: list[dict[str, Any]] = []
    washes, hand_actions = state.washes, state.hand_actions
    first = 0  # the number of the hand's first action
    for k, (deal, kitty, stock) in enumerate(state.deal_records):
        hand: dict[str, Any] = {
            "deal": [[format_card(c) for c in cards] for cards in deal],
            "kitty": [format_card(c) for c in kitty],
            "stock": [format_card(c) for c in stock],
        }
        if washes[k]:
            hand["wash"] = [format_card(c) for c in washes[k]]
        hand["actions"] = [action_text(seat, action, rules.max_bid) for seat, action in hand_actions[k]]
        late = [i for i in range(len(hand_actions[k])) if first + i in timed_out]
        if late:
            hand["timed_out"] = late
        first += len(hand_actions[k])
        hands.append(hand)
    return {
        "format": FORMAT,
        "variant": rules.id,
        "options": options_dict(rules),
        "players": n,
        "names": seat_names,
        "first_dealer": state.first_dealer,
        "hands": hands,
    }


def record_line(record: Mapping[str, Any]) -> str:
    """The record as one line of JSON (for ``.jsonl`` files: one game per line)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def dumps_record(record: Mapping[str, Any]) -> str:
    """The record as readable JSON: one line per field, hand and group of actions.

    ``json.dumps(indent=...)`` would put every card on its own line; this keeps
    card lists together and wraps long action lists, and is still plain JSON.
    """
    out = ["{"]
    top = [key for key in record if key != "hands"]
    for key in top:
        out.append(f"  {json.dumps(key)}: {json.dumps(record[key], ensure_ascii=False)},")
    hands = list(record.get("hands", []))
    out.append('  "hands": [')
    for i, hand in enumerate(hands):
        out.append("    {")
        keys = list(hand)
        for j, key in enumerate(keys):
            comma = "," if j < len(keys) - 1 else ""
            if key == "actions" and hand[key]:
                out.append('      "actions": [')
                out.extend(_wrapped(hand[key], "        "))
                out.append(f"      ]{comma}")
            elif key == "deal" and hand[key]:
                out.append('      "deal": [')
                seats = hand[key]
                for i_seat, cards in enumerate(seats):
                    sep = "," if i_seat < len(seats) - 1 else ""
                    out.append(f"        {json.dumps(cards, ensure_ascii=False)}{sep}")
                out.append(f"      ]{comma}")
            else:
                out.append(f"      {json.dumps(key)}: {json.dumps(hand[key], ensure_ascii=False)}{comma}")
        out.append("    }" + ("," if i < len(hands) - 1 else ""))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def _wrapped(items: Sequence[Any], indent: str, width: int = 100) -> list[str]:
    lines: list[str] = []
    line = ""
    for i, item in enumerate(items):
        text = json.dumps(item, ensure_ascii=False) + ("," if i < len(items) - 1 else "")
        if line and len(indent) + len(line) + 1 + len(text) > width:
            lines.append(indent + line)
            line = text
        else:
            line = f"{line} {text}" if line else text
    if line:
        lines.append(indent + line)
    return lines


def write_record(record: Mapping[str, Any], path: str | os.PathLike[str] | TextIO) -> None:
    """Write a record as readable JSON to a path or an open text file."""
    text = dumps_record(record)
    if isinstance(path, (str, os.PathLike)):
        Path(path).write_text(text, encoding="utf-8")
    else:
        path.write(text)
