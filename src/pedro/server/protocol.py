"""What clients may send, as pydantic models: anything else is refused with a clear message.

Models are strict and forbid extra fields, so a hostile or buggy client learns
exactly what was wrong, and the room only ever sees well-formed requests.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

#: Largest WebSocket message a client may send, in bytes: a larger one is answered ``too_big``.
MAX_MESSAGE_BYTES = 4096
#: Largest WebSocket message the transport reads at all: beyond it the connection closes (1009).
MAX_FRAME_BYTES = 65536
#: Largest HTTP request body, in bytes.
MAX_BODY_BYTES = 16384
#: Deepest nesting of arrays and objects in a request body (a create-table request has 3).
MAX_JSON_DEPTH = 20

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Join(_Strict):
    type: Literal["join"]
    secret: Annotated[str, StringConstraints(min_length=1, max_length=100)]


class Watch(_Strict):
    type: Literal["watch"]


class Act(_Strict):
    type: Literal["act"]
    action: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    seq: Annotated[int, Field(ge=0)]


class Ping(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[Join | Watch | Act | Ping, Field(discriminator="type")]
_client_message: TypeAdapter[Join | Watch | Act | Ping] = TypeAdapter(ClientMessage)


class SeatSpec(_Strict):
    kind: Literal["human", "computer"]
    player: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


class CreateTable(_Strict):
    variant: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    title: Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)] = ""
    listed: bool = True
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    seat: Annotated[int, Field(ge=0)] | None = None
    name: Name | None = None


class ClaimSeat(_Strict):
    seat: Annotated[int, Field(ge=0)]
    name: Name


class ProtocolError(ValueError):
    """A message that is not one the protocol allows."""


def parse_client_message(text: str | bytes) -> Join | Watch | Act | Ping:
    try:
        return _client_message.validate_json(text)
    except ValidationError as exc:
        raise ProtocolError(explain(exc, "messages are {type: join|watch|act|ping, ...}")) from None


def load_json(body: bytes) -> Any:
    """A request body as JSON; ``ProtocolError`` (never ``RecursionError``) when it is not usable JSON.

    The error's text completes "the request body is ...".
    """
    try:
        value = json.loads(body)
    except RecursionError:
        raise ProtocolError(_too_deep()) from None
    except ValueError as exc:  # UnicodeDecodeError included
        raise ProtocolError(f"not JSON ({exc})") from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise ProtocolError(_too_deep())
    return value


def _too_deep() -> str:
    return (
        f"JSON whose arrays and objects are nested more than {MAX_JSON_DEPTH} deep; "
        "requests nest at most 3 deep"
    )


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value``, level by level (no recursion)."""
    depth, level = 0, [value]
    while containers := [v for v in level if isinstance(v, (list, dict))]:
        depth += 1
        level = [c for v in containers for c in (v.values() if isinstance(v, dict) else v)]
    return depth


def explain(exc: ValidationError, allowed: str) -> str:
    """A validation error in one line: which field, what was wrong, and what is allowed."""
    problems = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error["loc"]) or "message"
        problems.append(f"{where}: {error['msg']}")
    return "; ".join(problems) + f" ({allowed})"
