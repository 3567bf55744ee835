"""What clients may send, as pydantic models: anything else is refused with a clear message.

Models are strict and forbid extra fields, so a hostile or buggy client learns
exactly what was wrong, and the room only ever sees well-formed requests.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import PydanticCustomError

#: Largest WebSocket message a client may send, in bytes: a larger one is answered ``too_big``.
MAX_MESSAGE_BYTES = 4096
#: Largest WebSocket message the transport reads at all: beyond it the connection closes (1009).
MAX_FRAME_BYTES = 65536
#: Largest HTTP request body, in bytes.
MAX_BODY_BYTES = 16384
#: Deepest nesting of arrays and objects in a request body (a create-table request has 3).
MAX_JSON_DEPTH = 20
#: Longest player name and table title, in characters, once cleaned (see ``clean_text``).
MAX_NAME_CHARS = 40
MAX_TITLE_CHARS = 100

#: Unicode categories removed from names and titles: control (NUL, escape ...), format (bidi
#: overrides such as U+202E, zero-width characters, U+FEFF) and lone surrogates.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs"})


def clean_text(text: str) -> str:
    """Text shown to other players, without control or invisible characters and with single spaces.

    Such characters could reorder or hide what others read (a bidi override makes a name
    read backwards), and a NUL or lone surrogate cannot be stored or sent everywhere.
    """
    kept = "".join(ch for ch in text if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE)
    return " ".join(kept.split())


def _shown_text(limit: int, *, required: bool) -> AfterValidator:
    """A validator that cleans a name or title, then checks its length in characters."""

    def check(text: str) -> str:
        cleaned = clean_text(text)
        if required and not cleaned:
            raise PydanticCustomError(
                "empty_text",
                "should have at least 1 character once spaces and invisible characters are removed",
            )
        if len(cleaned) > limit:
            raise PydanticCustomError(
                "text_too_long", "should have at most {limit} characters", {"limit": limit}
            )
        return cleaned

    return AfterValidator(check)


Name = Annotated[str, _shown_text(MAX_NAME_CHARS, required=True)]
Title = Annotated[str, _shown_text(MAX_TITLE_CHARS, required=False)]


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
    title: Title = ""
    listed: bool = True
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    seat: Annotated[int, Field(ge=0)] | None = None
    name: Name | None = None
    #: a practice table: hints on request, unrated
    practice: bool = False
    #: the secret of the profile that takes ``seat`` (its name is the seat's)
    profile: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None


class ClaimSeat(_Strict):
    seat: Annotated[int, Field(ge=0)]
    name: Name
    #: the secret of the profile that takes the seat (its name is the seat's)
    profile: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None


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


#: At most this many of a request's problems are told (the first ones).
MAX_PROBLEMS = 3


def validation_fields(exc: ValidationError, allowed: str) -> dict[str, Any]:
    """A ``bad_request`` refusal's fields: ``why`` in English (``explain``) and ``problems``, each
    a field's path, pydantic's error type and its plain limits (``max_length``, ``ge``...), which the
    page says in its own language (``validation.<type>``)."""
    problems = []
    for error in exc.errors()[:MAX_PROBLEMS]:
        where = ".".join(str(part) for part in error["loc"]) or "message"
        limits = {k: v for k, v in (error.get("ctx") or {}).items() if isinstance(v, (int, float, str))}
        problems.append({"field": where, "type": error["type"], **limits})
    return {"why": explain(exc, allowed), "problems": problems}


def explain(exc: ValidationError, allowed: str) -> str:
    """A validation error in one line: which field, what was wrong, and what is allowed."""
    problems = []
    for error in exc.errors()[:MAX_PROBLEMS]:
        where = ".".join(str(part) for part in error["loc"]) or "message"
        problems.append(f"{where}: {error['msg']}")
    return "; ".join(problems) + f" ({allowed})"
