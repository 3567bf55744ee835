"""The ``state`` messages reuse what did not change, and say exactly what a fresh build says.

``table_view.state_messages`` keeps, in a table's ``ViewMemo``, the public parts that change
seldom encoded (the table, the seats, the calls, the trumps, the finished tricks, the score
sheet ...), each seat's encoded own fields while its cards stay the same and it is not to act,
and encodes the last action once when everyone may see it whole. Through whole random games of
every variant, each message must be, byte for byte, the one built from the seat's own observation
turned into JSON by ``pedro.observation_json`` with nothing reused, and the one built again after
the memo forgot all it kept. The room sends what the view builds.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from tests.server.room_helpers import Listener, table_row

from pedro.engine.choices import CardChoice
from pedro.engine.state import GameState
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.table_view import Seat, Table, TableFacts, ViewMemo, state_messages
from pedro.server.tables.views import last_json, private_json, public_json, trick_json
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

SEATS: list[int | None] = [0, 1, 2, 3, None]
TABLE = Table("t" * 22, "t", {"target": 21, "lose_at": -21}, False, None, "low_target", None)


def fresh_message(state: GameState, facts: TableFacts, seat: int | None) -> str:
    """The ``state`` message for ``seat`` built from its own observation, nothing reused."""
    obs = state.observation(0 if seat is None else seat)
    secrets = None if seat is None else obs.secrets
    game = public_json(obs)
    results = state.results
    if game["tricks"]:  # the latest finished trick, also when it closed the previous hand
        game["last_trick"] = game["tricks"][-1]
    elif results and results[-1].tricks:
        game["last_trick"] = trick_json(results[-1].tricks[-1])
    else:
        game["last_trick"] = None
    game |= private_json(secrets, obs)
    if not facts.started:
        game["legal"] = None
    message: dict[str, Any] = {
        "type": "state",
        "seq": facts.seq,
        "seats": [seat.json() for seat in facts.seats],
        "finished": state.is_over,
        "started": facts.started,
        "clock_left": facts.clock_left,
        "timed_out": facts.timed_out,
        "table": facts.table.json(state.rules),
        "you": seat,
        "last": last_json(facts.last, obs, secrets),
        "game": game,
    }
    return orjson.dumps(message).decode()


@pytest.mark.parametrize("variant", [v for v, rules in VARIANTS.items() if rules.players == 4])
def test_every_message_is_what_a_fresh_build_says(variant: str) -> None:
    state = GameState(make_ruleset(variant, dict(TABLE.options)), seed=f"seed-{variant}")
    rng = random.Random(variant)
    memo = ViewMemo()
    last: tuple[int, int] | None = None
    seq = 0
    while not state.is_over:
        # a seat comes and goes now and then: the seats' part changes too
        seats = tuple(Seat(s, f"P{s}", "human", None, True, seq % 7 != s, False) for s in range(4))
        facts = TableFacts(TABLE, seats, seq, seq % 11 != 5, last)
        messages = state_messages(state, facts, SEATS, memo)
        for seat in SEATS:
            assert messages[seat].decode() == fresh_message(state, facts, seat), (variant, seq, seat)
        memo.clear()  # the same messages again, built from nothing
        assert state_messages(state, facts, SEATS, memo) == messages
        legal = state.legal()
        action = legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal)
        last = (state.current_player, action)
        state.apply(action)
        seq += 1
    assert seq > 20


def test_the_room_sends_what_the_view_builds_from_its_facts() -> None:
    row = table_row("cinch", {"target": 21, "lose_at": -21}, "s", [None, None, None, None])
    row.seats[2].secret_hash = None  # a free seat: the game waits
    room = Room(row, store=None, settings=RoomSettings(), clock=lambda: 0.0)  # type: ignore[arg-type]
    listeners = [Listener(0), Listener(None)]
    for listener in listeners:
        room.attach(listener, listener.seat)
    facts = room.facts()
    # nobody took a seat with a profile: the table says its game will not be rated, and why
    assert facts.table == Table(row.id, row.title, row.options, row.practice, row.hands, "no_profiles", None)
    assert [s.json() for s in facts.seats] == room.seats_json()
    assert not facts.started and facts.seq == 0 and facts.last is None
    assert facts.seats[0].connected and not facts.seats[1].connected and not facts.seats[2].claimed
    sent = state_messages(room.state, facts, [0, None])
    assert [listener.received[-1].encode() for listener in listeners] == [sent[0], sent[None]]
