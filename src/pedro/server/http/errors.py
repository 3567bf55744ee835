"""The HTTP API's refusals: an English message for API users and bots, and a stable ``code``
with the ``fields`` it was filled from, which the browser translates (``httpError.<code>`` in
``static/i18n``). Code and fields are part of the API; the message's words may change.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pedro.variants.options import OptionError

#: Each refusal's English message by its code, its fields in braces.
MESSAGES = {
    "too_big": "the request body is larger than {limit} bytes",
    "bad_body": "the request body is {why}",
    "bad_request": "{why}",
    "no_table": "no such table (check the link)",
    "unknown_variant": "unknown variant {variant!r}; variants are: {variants}",
    "bad_options": "{why}",
    # house rules that clash (variants/constraints.py): the English problem and what is allowed
    "option_clash": "{problem}; allowed: {allowed}",
    "seat_count": "{variant} has {players} seats, but {described} were described",
    "bot_program": (
        "seat {seat}: the server does not run bot programs ({player!r}); its computer players are: {players}"
    ),
    "bad_player": "seat {seat}: {why}",
    "human_no_player": "seat {seat}: a human seat takes no computer player",
    "not_human": "seat {seat} is not a human seat; human seats: {humans}",
    "need_name": "give your name to sit down (1 to {limit} characters)",
    "claim_not_human": "seat {seat} is not a human seat; free seats: {free}",
    "seat_taken": "seat {seat} is taken; free seats: {free}",
    "seat_just_taken": "seat {seat} was just taken",
    "unfinished": "{why}",
    "limit": "{why}",
    "too_strong": "{why}",
    "busy": "{why}; try again in a moment",
    "no_database": "the game database is not available; try again in a moment (nothing was changed)",
    "no_api_path": "no such API path {path}; see docs/server.md",
    "no_page": "no such page",
    "no_language": "no language {lang!r}; the languages are: {known}",
    "profile_needs_seat": "a profile takes a seat: give the seat too",
    "restarting": "the server is restarting; try again in a moment (nothing was changed)",
    # duplicate tournaments (server/tournaments); tables and seats counted from 1
    "no_tournament": "no such tournament (check the link)",
    "tournament_seat_count": (
        "table {table_no}: {variant} has {players} seats, but {described} were described"
    ),
    "tournament_human_level": "table {table_no}, seat {seat_no}: a human seat takes no level",
    "unknown_level": "table {table_no}, seat {seat_no}: unknown level {level!r}; levels are: {levels}",
    "tournament_seat_player": "table {table_no}, seat {seat_no}: {why}",
    "tournament_computers_cap": (
        "a tournament without a human seat may have at most {cap} tables; make one seat human"
    ),
    "tournament_not_human": (
        "table {table_no}, seat {seat_no} is not a human seat; free seats (table/seat): {free}"
    ),
    "tournament_seat_taken": "table {table_no}, seat {seat_no} is taken; free seats (table/seat): {free}",
    "tournament_full": "table {table_no}, seat {seat_no} is taken, and the tournament is full",
    "tournament_seat_just_taken": "table {table_no}, seat {seat_no} was just taken",
    "not_tournament_player": "that secret does not belong to a seat of this tournament; take a free seat",
    "not_director": "that is not this tournament's director secret",
    # profiles (server/profiles)
    "no_profile": "no such profile",
    "name_for_computer": "the name {name!r} is kept for a computer player; choose another",
    "name_taken": "the name {name!r} is taken; choose another",
    "unknown_profile": "that profile is not known here (it may have been moved to another browser)",
    "bad_move_code": "that code is not valid (a code works once, for 15 minutes; make a new one)",
    "move_code_used": "that code has just been used",
    "profile_limit": "too many new profiles: at most {most} an hour from one address; try again in {wait} s",
    # a tournament deal not yet played at every table (server/tournaments)
    "tournament_deal_hidden": (
        "this table plays a tournament deal that other tables have not played yet: only its players may "
        "see it until then"
    ),
}


class HttpError(Exception):
    """A refused request: its status, English message, and the code and fields it was made from.

    ``HttpError(status, message)`` (no code) is a refusal the browser shows in English;
    ``HttpError.of(status, code, **fields)`` is one it translates.
    """

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        code: str = "",
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        self.code = code
        self.fields = fields or {}

    @classmethod
    def of(cls, status: int, code: str, headers: dict[str, str] | None = None, **fields: Any) -> HttpError:
        """The refusal ``MESSAGES[code]`` filled with ``fields``."""
        return cls(status, MESSAGES[code].format(**fields), headers, code, fields)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message}
        if self.code:
            body |= {"code": self.code, "fields": self.fields}
        return body


def option_refusal(exc: OptionError) -> HttpError:
    """House-rule options refused: a clash of rules by its two parts (the page translates each),
    anything else (a name, a value) as ``bad_options``."""
    if exc.is_clash:
        return HttpError.of(400, "option_clash", problem=exc.fields["problem"], allowed=exc.fields["allowed"])
    return HttpError.of(400, "bad_options", why=str(exc))


def error_response(status: int, code: str, **fields: Any) -> JSONResponse:
    """The answer of the refusal ``code`` (for exception handlers, which return rather than raise)."""
    return JSONResponse(HttpError.of(status, code, **fields).body(), status_code=status)


async def http_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HttpError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)


async def not_found_handler(request: Request, exc: Exception) -> Response:
    """No route: an API path is told as such (a client's bug), any other is a page that does not exist."""
    if request.url.path.startswith("/api/"):
        return error_response(404, "no_api_path", path=request.url.path)
    return error_response(404, "no_page")
