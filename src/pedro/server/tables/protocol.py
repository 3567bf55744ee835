"""What clients may send to the tables, as pydantic models: anything else is refused with a clear message.

The WebSocket messages (``join``, ``watch``, ``act``, ``back``, ``ping``) and the HTTP requests that create
a table and claim a seat. Models are strict and forbid extra fields (``request_body.Strict``), so
the room only ever sees well-formed requests.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, TypeAdapter, ValidationError

from pedro.server.http.request_body import Name, Strict, Title, explain

#: Largest WebSocket message a client may send, in bytes: a larger one is answered ``too_big``.
MAX_MESSAGE_BYTES = 4096
#: Largest WebSocket message the transport reads at all: beyond it the connection closes (1009).
MAX_FRAME_BYTES = 65536
#: The most seats a table has (the catalog's largest game has 7 players): seats are 0 to 7.
MAX_SEATS = 8
#: The highest action number a client may name: the database numbers actions with 32-bit integers.
MAX_SEQ = 2**31 - 1

#: A seat's number, as a request names it.
SeatNumber = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]


class Join(Strict):
    type: Literal["join"]
    secret: Annotated[str, StringConstraints(min_length=1, max_length=100)]


class Watch(Strict):
    type: Literal["watch"]


class Act(Strict):
    type: Literal["act"]
    action: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]


class Back(Strict):
    """A player its turn clock counted as away is back (``tables.clocks``)."""

    type: Literal["back"]


class Ping(Strict):
    type: Literal["ping"]


ClientMessage = Join | Watch | Act | Back | Ping
_ClientMessage = Annotated[ClientMessage, Field(discriminator="type")]
_client_message: TypeAdapter[ClientMessage] = TypeAdapter(_ClientMessage)


class SeatSpec(Strict):
    kind: Literal["human", "computer"]
    player: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


class CreateTable(Strict):
    variant: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    title: Title = ""
    listed: bool = True
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    seat: SeatNumber | None = None
    name: Name | None = None
    #: a practice table: hints on request, unrated
    practice: bool = False
    #: the secret of the profile that takes ``seat`` (its name is the seat's)
    profile: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None
    #: seconds per decision of a person (a turn clock), one of the server's ``TurnClocks.lengths``
    #: (checked by the routes); None: no clock
    clock: Annotated[float, Field(gt=0, le=3600)] | None = None


class ClaimSeat(Strict):
    seat: SeatNumber
    #: the seat's name: needed without a profile (a profile's name is the seat's)
    name: Name | None = None
    #: the secret of the profile that takes the seat (its name is the seat's)
    profile: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None


class ProtocolError(ValueError):
    """A message that is not one the protocol allows."""


def parse_client_message(text: str | bytes) -> ClientMessage:
    try:
        return _client_message.validate_json(text)
    except ValidationError as exc:
        raise ProtocolError(explain(exc, "messages are {type: join|watch|act|back|ping, ...}")) from None
