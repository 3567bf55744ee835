"""The room's ``state`` messages reuse what did not change, and say exactly what a fresh build says.

``Room.state_messages`` keeps each seat's encoded own fields while its cards
stay the same and it is not to act, and encodes the last action once when
everyone may see it whole. Through whole random games of every variant, each
message must be the one built with nothing reused (byte for byte), and say
what the seat's own observation turned into JSON by ``pedro.observation_json``
says.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from pedro.engine.choices import CardChoice
from pedro.server.room import Room, RoomSettings
from pedro.server.store import SeatRow, TableRow
from pedro.server.views import last_json, observation_json
from pedro.variants.catalog import VARIANTS

SEATS: list[int | None] = [0, 1, 2, 3, None]


def fresh_game_json(room: Room, seat: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The ``game`` and ``last`` fields for ``seat`` built from its observation, nothing reused."""
    obs = room.state.observation(0 if seat is None else seat)
    game = observation_json(obs, private=seat is not None)
    if room.started:
        game["last_trick"] = room._last_trick(game)
    else:
        game["legal"] = None
    return game, last_json(room.last, obs, None if seat is None else obs.secrets)


@pytest.mark.parametrize("variant", [v for v, rules in VARIANTS.items() if rules.players == 4])
def test_every_message_is_what_a_fresh_build_says(variant: str) -> None:
    seats = [SeatRow(s, "human", name=f"P{s}", secret_hash=f"{s:064d}") for s in range(4)]
    row = TableRow(
        "t" * 22,
        "t",
        variant,
        {"target": 21, "lose_at": -21},
        f"seed-{variant}",
        True,
        datetime.now(UTC),
        seats,
    )
    room = Room(row, store=None, settings=RoomSettings(), clock=lambda: 0.0)  # type: ignore[arg-type]
    rng = random.Random(variant)
    reused = 0
    while not room.finished:
        messages = room.state_messages(SEATS)
        for seat in SEATS:
            message = json.loads(messages[seat])
            game, last = fresh_game_json(room, seat)
            assert message["game"] == game, (variant, room.seq, seat)
            assert message["last"] == last, (variant, room.seq, seat)
            assert message["you"] == seat and message["seq"] == room.seq
        room._own_texts.clear()  # the same messages again, built from nothing
        assert room.state_messages(SEATS) == messages
        reused += 1
        legal = room.state.legal()
        action = legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal)
        room.last = (room.state.current_player, action)
        room.state.apply(action)
        room.row.actions.append("-")
    assert reused > 20
