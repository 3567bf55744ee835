"""What clients may send to the tables, as pydantic models: anything else is refused with a clear message.

The WebSocket messages (``join``, ``watch``, ``act``, ``back``, ``ping``, ``chat``) and the HTTP
requests that create a table and claim a seat. Models are strict and forbid extra fields
(``request_body.Strict``), so the room only ever sees well-formed requests.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from pedro.server.http.request_body import Name, Strict, Title, explain, shown_text
from pedro.server.settings import Limits
from pedro.server.tables.messages import Phrase

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


#: A seat's or a host's secret, as a request carries it.
Secret = Annotated[str, StringConstraints(min_length=1, max_length=100)]


class Join(Strict):
    type: Literal["join"]
    secret: Secret
    #: send me the table's chat (``chat_history`` now, ``chat`` lines as they are said)
    chat: bool = False


#: A browser's own id, made by its page and kept, so that a table's host may remove a spectator.
ViewerId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]


class Watch(Strict):
    type: Literal["watch"]
    #: the watching browser's id (the host removes a spectator by it); optional
    viewer: ViewerId | None = None
    #: the spectator's name, shown to the table's host; optional
    name: Name | None = None
    #: send me the table's chat, as ``Join.chat``
    chat: bool = False


class Act(Strict):
    type: Literal["act"]
    action: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    seq: Annotated[int, Field(ge=0, le=MAX_SEQ)]


class Back(Strict):
    """A player its turn clock counted as away is back (``tables.clocks``)."""

    type: Literal["back"]


class Ping(Strict):
    type: Literal["ping"]


def _chat_text(text: str, info: ValidationInfo) -> str:
    """Cleaned as names are (no control or invisible characters, single spaces), then no longer
    than the server's ``chat_chars``, given as the validation's context."""
    context = info.context if isinstance(info.context, dict) else {}
    return shown_text(text, int(context.get("chat_chars", Limits.chat_chars)), required=True)


class Chat(Strict):
    """A line of chat: free ``text`` or a quick ``phrase``'s code (one of the two); a spectator
    speaks under ``name`` (a seat's player under the seat's name, whatever ``name`` says)."""

    type: Literal["chat"]
    text: Annotated[str, AfterValidator(_chat_text)] | None = None
    phrase: Phrase | None = None
    name: Name | None = None

    @model_validator(mode="after")
    def _one_of_text_or_phrase(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("a chat message has either a text or a phrase")
        return self


ClientMessage = Join | Watch | Act | Back | Ping | Chat
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


def parse_client_message(text: str | bytes, chat_chars: int = Limits.chat_chars) -> ClientMessage:
    """``chat_chars``: the longest chat text the server takes (``Limits.chat_chars``)."""
    try:
        return _client_message.validate_json(text, context={"chat_chars": chat_chars})
    except ValidationError as exc:
        raise ProtocolError(explain(exc, "messages are {type: join|watch|act|back|ping|chat, ...}")) from None
