"""The room's ``state`` messages reuse what did not change, and say exactly what a fresh build says.

``Room.state_messages`` keeps the public parts that change seldom encoded (the
calls, the trumps, the finished tricks, the score sheet ...), each seat's
encoded own fields while its cards stay the same and it is not to act, and
encodes the last action once when everyone may see it whole. Through whole
random games of every variant, each message must be, byte for byte, the one
built from the seat's own observation turned into JSON by
``pedro.observation_json`` with nothing reused, and the one the room builds
again after forgetting all it kept.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from pedro.engine.choices import CardChoice
from pedro.server.storage.tables_db import SeatRow, TableRow
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.views import last_json, private_json, public_json, trick_json
from pedro.variants.catalog import VARIANTS

SEATS: list[int | None] = [0, 1, 2, 3, None]


def fresh_message(room: Room, seat: int | None) -> str:
    """The ``state`` message for ``seat`` built from its own observation, nothing reused."""
    obs = room.state.observation(0 if seat is None else seat)
    secrets = None if seat is None else obs.secrets
    game = public_json(obs)
    results = room.state.results
    if game["tricks"]:  # the latest finished trick, also when it closed the previous hand
        game["last_trick"] = game["tricks"][-1]
    elif results and results[-1].tricks:
        game["last_trick"] = trick_json(results[-1].tricks[-1])
    else:
        game["last_trick"] = None
    game |= private_json(secrets, obs)
    if not room.started:
        game["legal"] = None
    message: dict[str, Any] = {
        "type": "state",
        "seq": room.seq,
        "seats": room.seats_json(),
        "finished": room.finished,
        "started": room.started,
        "table": room.table_json(),
        "you": seat,
        "last": last_json(room.last, obs, secrets),
        "game": game,
    }
    return orjson.dumps(message).decode()


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
            assert messages[seat] == fresh_message(room, seat), (variant, room.seq, seat)
        room._own_texts.clear()  # the same messages again, built from nothing
        room._parts.clear()
        assert room.state_messages(SEATS) == messages
        reused += 1
        legal = room.state.legal()
        action = legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal)
        room.last = (room.state.current_player, action)
        room.state.apply(action)
        room.row.actions.append("-")
    assert reused > 20
