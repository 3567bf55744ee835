"""Reading a request: its JSON body (its size, its JSON, the model it must fit), and who sent it.

Every JSON request body is read here (``read_body``), so every endpoint refuses alike: a body
larger than ``MAX_BODY_BYTES`` is answered 413 (``too_big``) before it is read whole, one that is
not usable JSON 400 (``bad_body``), and one that does not fit its model 422 (``bad_request``, with
the problems the page says in its own language); an endpoint with refusals of its own (an
uploaded record's review) gives its limit and ``BodyRefusals``. Models are strict and forbid extra
fields, so a hostile or buggy client learns exactly what was wrong, and the server only ever sees
well-formed requests. Names and titles shown to other players are cleaned of invisible characters
here too.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError
from starlette.requests import HTTPConnection, Request

from pedro.server.http.errors import HttpError

#: Largest HTTP request body, in bytes.
MAX_BODY_BYTES = 16384
#: Deepest nesting of arrays and objects in a request body (a create-table request has 3).
MAX_JSON_DEPTH = 20
#: Longest player name and table title, in characters, once cleaned (see ``_clean_text``).
MAX_NAME_CHARS = 40
MAX_TITLE_CHARS = 100
#: At most this many of a request's problems are told (the first ones).
_MAX_PROBLEMS = 3

#: Unicode categories removed from names and titles: control (NUL, escape ...), format (bidi
#: overrides such as U+202E, zero-width characters, U+FEFF) and lone surrogates.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs"})


def _clean_text(text: str) -> str:
    """Text shown to other players, without control or invisible characters and with single spaces.

    Such characters could reorder or hide what others read (a bidi override makes a name
    read backwards), and a NUL or lone surrogate cannot be stored or sent everywhere.
    """
    kept = "".join(ch for ch in text if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE)
    return " ".join(kept.split())


def shown_text(text: str, limit: int, *, required: bool) -> str:
    """A name, title or chat message cleaned (``_clean_text``), then checked for its length in
    characters: PydanticCustomError (``empty_text``, ``text_too_long``) for a model to report."""
    cleaned = _clean_text(text)
    if required and not cleaned:
        raise PydanticCustomError(
            "empty_text",
            "should have at least 1 character once spaces and invisible characters are removed",
        )
    if len(cleaned) > limit:
        raise PydanticCustomError("text_too_long", "should have at most {limit} characters", {"limit": limit})
    return cleaned


def _shown_text(limit: int, *, required: bool) -> AfterValidator:
    """A validator that cleans a name or title, then checks its length in characters."""
    return AfterValidator(lambda text: shown_text(text, limit, required=required))


Name = Annotated[str, _shown_text(MAX_NAME_CHARS, required=True)]
Title = Annotated[str, _shown_text(MAX_TITLE_CHARS, required=False)]


class Strict(BaseModel):
    """A request model: types as given (no "1" for 1), and no field it does not name."""

    model_config = ConfigDict(extra="forbid", strict=True)


class _NotJson(ValueError):
    """A body that is not usable JSON; its text completes "the request body is ..."."""


def _load_json(body: bytes) -> Any:
    """A request body as JSON; ``_NotJson`` (never ``RecursionError``) when it is not usable JSON."""
    try:
        value = json.loads(body)
    except RecursionError:
        raise _NotJson(_too_deep()) from None
    except ValueError as exc:  # UnicodeDecodeError included
        raise _NotJson(f"not JSON ({exc})") from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise _NotJson(_too_deep())
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


def _validation_fields(exc: ValidationError, allowed: str) -> dict[str, Any]:
    """A ``bad_request`` refusal's fields: ``why`` in English (``explain``) and ``problems``, each
    a field's path, pydantic's error type and its plain limits (``max_length``, ``ge``...), which the
    page says in its own language (``validation.<type>``)."""
    problems = []
    for error in exc.errors()[:_MAX_PROBLEMS]:
        where = ".".join(str(part) for part in error["loc"]) or "message"
        limits = {k: v for k, v in (error.get("ctx") or {}).items() if isinstance(v, (int, float, str))}
        problems.append({"field": where, "type": error["type"], **limits})
    return {"why": explain(exc, allowed), "problems": problems}


def explain(exc: ValidationError, allowed: str) -> str:
    """A validation error in one line: which field, what was wrong, and what is allowed."""
    problems = []
    for error in exc.errors()[:_MAX_PROBLEMS]:
        where = ".".join(str(part) for part in error["loc"]) or "message"
        problems.append(f"{where}: {error['msg']}")
    return "; ".join(problems) + f" ({allowed})"


@dataclass(frozen=True)
class BodyRefusals:
    """How a body is refused: larger than its limit, not usable JSON, not the model's shape."""

    too_big: Callable[[int], HttpError]
    not_json: Callable[[str], HttpError]
    invalid: Callable[[ValidationError, str], HttpError]


#: The API's refusals of a body: ``too_big`` (413), ``bad_body`` (400: it cannot be read) and
#: ``bad_request`` (422: read, but not the request's shape).
REFUSALS = BodyRefusals(
    too_big=lambda limit: HttpError.of(413, "too_big", limit=limit),
    not_json=lambda why: HttpError.of(400, "bad_body", why=why),
    invalid=lambda exc, allowed: HttpError.of(422, "bad_request", **_validation_fields(exc, allowed)),
)

M = TypeVar("M", bound=BaseModel)


async def read_body(
    request: Request,
    model: type[M],
    allowed: str,
    *,
    limit: int = MAX_BODY_BYTES,
    refusals: BodyRefusals = REFUSALS,
) -> M:
    """The request's body as ``model``. Refused: past ``limit`` bytes, told by its length or as it
    arrives (413); not usable JSON (400); not the model's shape (422, saying what does not fit and
    what is ``allowed``)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise refusals.too_big(limit)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise refusals.too_big(limit)
    try:
        data = _load_json(body)
    except _NotJson as exc:
        raise refusals.not_json(str(exc)) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise refusals.invalid(exc, allowed) from None


def client_address(request: HTTPConnection) -> str:
    """Who sent a request or opened a WebSocket, as uvicorn resolved it: behind a proxy it trusts
    (``--forwarded-allow-ips``), the forwarded address; else the peer's."""
    return request.client.host if request.client is not None else "unknown"
