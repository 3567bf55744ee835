"""A table's ``state`` message for one seat or a spectator: a function of the game and the table's facts.

The message (``tables.messages.State``) is made from the game state and what the room knows
beside it (``TableFacts``: the table, its seats' names, kinds and presence, the last action ...)
and nothing else: no I/O, no event loop, no database. So the server's rooms and a browser that
runs the engine itself (Pyodide) can build the same bytes; this module imports only the engine
and the view builders (``tables.views``), never the server's storage, sync or HTTP parts.

Every change is told to every seat, so the messages are built for many seats at once: the public
part is built and encoded once and each seat's own part spliced in. A ``ViewMemo`` keeps, from one
call to the next, the parts that did not change encoded; what is reused is what a fresh build
would say, so the memo changes the speed, never the bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pedro.engine.observation import Observation, SeatSecrets, seat_secrets
from pedro.engine.state import GameState
from pedro.server.tables.json_bytes import dumps
from pedro.server.tables.views import (
    Parts,
    last_json,
    private_json,
    public_json,
    rules_json,
    seen_trick_json,
    trick_json,
)
from pedro.variants.model import Ruleset


@dataclass(frozen=True, slots=True)
class Table:
    """What never changes at a table, and whether its game will be rated, which changes as its
    seats are taken (``tables.messages.TableInfo`` with the rules)."""

    id: str
    title: str
    options: Mapping[str, Any]
    practice: bool
    #: the game ends after this many hands (a duplicate tournament's deal); None: at the target
    hands: int | None
    #: why the game will not be rated, as things stand (``pedro.ratings.unrated_reason``); None: it will
    unrated: str | None
    #: the seat ``unrated`` is about, if any
    unrated_seat: int | None
    #: the host closed the table before its game ended: nothing more is played at it
    closed: bool = False
    #: the table of the next game, once one of the players asked to play again
    next: str | None = None
    #: seconds per decision of a person (``tables.clocks``); None: no turn clock
    clock: float | None = None

    @property
    def rated(self) -> bool:
        """The game will count for ratings, as the table's seats stand (its end may still find that a
        stand-in played most of a person's decisions)."""
        return self.unrated is None

    def json(self, rules: Ruleset) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "options": self.options,
            "practice": self.practice,
            "rated": self.rated,
            "unrated": self.unrated,
            "unrated_seat": self.unrated_seat,
            "hands": self.hands,
            "closed": self.closed,
            "next": self.next,
            "clock": self.clock,
        } | rules_json(rules)


class Seat(NamedTuple):
    """A seat as the table shows it (``tables.messages.SeatInfo``). A named tuple: every change
    at the table makes them anew, and compares them with the last ones."""

    seat: int
    name: str
    #: ``human`` or ``computer``
    kind: str
    #: the computer player; None for a human seat
    player: str | None
    claimed: bool
    connected: bool
    stand_in: bool
    #: the host gave the seat to the computer for the rest of the game
    handed: bool = False
    #: held for its player of the previous game, who has not come yet
    pending: bool = False

    def json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "player": self.player,
            "claimed": self.claimed,
            "connected": self.connected,
            "stand_in": self.stand_in,
            "handed": self.handed,
            "pending": self.pending,
        }


class TableFacts(NamedTuple):
    """Everything a state message tells besides the game state."""

    table: Table
    seats: tuple[Seat, ...]
    #: accepted actions so far, all hands together
    seq: int
    #: every seat has a player: play may begin
    started: bool
    #: the last accepted action (seat, action), shown to each seat as far as it may see it
    last: tuple[int, int] | None
    #: seconds the decision to make has left, as the message is made; None: no clock runs
    clock_left: float | None = None
    #: the last action was the stand-in's, because its seat's turn clock ran out
    timed_out: bool = False


@dataclass
class ViewMemo:
    """One table's encoded parts, reused from one call to the next while they stay the same."""

    #: the public parts that change seldom (the table, the calls, the trumps, the sheet ...)
    parts: Parts = field(default_factory=Parts)
    #: each seat's encoded own fields and what they were made from
    own: dict[int | None, tuple[SeatSecrets | None, int | None, bytes]] = field(default_factory=dict)

    def clear(self) -> None:
        """Forget everything (each part is built again when next asked for)."""
        self.parts.clear()
        self.own.clear()


def state_message(state: GameState, facts: TableFacts, seat: int | None) -> bytes:
    """The ``state`` message ``seat`` (None: a spectator) is sent, encoded (UTF-8 JSON)."""
    return state_messages(state, facts, [seat])[seat]


def state_messages(
    state: GameState, facts: TableFacts, seats: Iterable[int | None], memo: ViewMemo | None = None
) -> dict[int | None, bytes]:
    """The ``state`` message of each of ``seats`` (None: a spectator), encoded (UTF-8 JSON).

    A seat's own part is reused while its cards stay the same and it is not to act (most seats,
    most of the time), and the last action is encoded once when everyone may see all of it.
    """
    memo = ViewMemo() if memo is None else memo
    parts = memo.parts
    obs = state.observation(0)
    started = facts.started
    head = {
        "type": "state",
        "seq": facts.seq,
        "seats": parts("seats", facts.seats, lambda: [s.json() for s in facts.seats]),
        "finished": state.is_over,
        "started": started,
        "clock_left": facts.clock_left,
        "timed_out": facts.timed_out,
    }
    head_text = dumps(head)[:-1]  # the objects are reopened to splice them
    table_text = dumps(parts("table", facts.table, lambda: facts.table.json(state.rules)))
    game = public_json(obs, memo=parts)
    game["last_trick"] = _last_trick(state, obs, parts)
    game_text = dumps(game)[:-1]
    public_last = last_json(facts.last, obs, None)
    # a seat sees at least what a spectator sees: a last action shown whole to them is shown to all
    shared_last = dumps(public_last) if public_last is None or public_last["action"] else None
    # nobody is offered a move at a table its host closed
    playable = started and not facts.table.closed
    messages: dict[int | None, bytes] = {}
    for seat in seats:
        if seat in messages:
            continue
        secrets = None if seat is None else obs.secrets if seat == 0 else seat_secrets(state, seat)
        own_text = _own_text(memo, seat, secrets, obs, playable)
        last = shared_last or dumps(last_json(facts.last, obs, secrets))
        pieces = (
            head_text,
            b',"table":',
            table_text,
            b',"you":',
            dumps(seat),
            b',"last":',
            last,
            b',"game":',
            game_text,
            b",",
            own_text,
            b"}",
        )
        messages[seat] = b"".join(pieces)
    return messages


def _own_text(
    memo: ViewMemo, seat: int | None, secrets: SeatSecrets | None, obs: Observation, started: bool
) -> bytes:
    """A seat's own fields, encoded without their opening brace (to be spliced).

    Without legal actions they depend on the seat's cards and the trump (the order they are
    shown in) only, so they are reused while those stay the same.
    """
    cacheable = secrets is None or secrets.legal is None
    if cacheable:
        cached = memo.own.get(seat)
        if cached is not None and cached[0] == secrets and cached[1] == obs.trump:
            return cached[2]
    own = private_json(secrets, obs, memo=memo.parts)
    if not started:
        own["legal"] = None
    text = dumps(own)[1:]
    if cacheable:
        memo.own[seat] = (secrets, obs.trump, text)
    return text


def _last_trick(state: GameState, obs: Observation, parts: Parts) -> Any:
    """The latest finished trick, also when it closed the previous hand (the next is dealt at once)."""
    if obs.tricks:
        seen = obs.tricks[-1]
        return parts("last_trick", seen, lambda: seen_trick_json(seen))
    results = state.results
    if results and results[-1].tricks:
        trick = results[-1].tricks[-1]
        return parts("last_hand_trick", trick, lambda: trick_json(trick))
    return None
