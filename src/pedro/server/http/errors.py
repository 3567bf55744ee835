"""The HTTP API's refusals: one ``HttpError`` with a status, a stable ``code``, an English message
for API users and bots, and the ``fields`` the message was filled from, which the browser
translates (``httpError.<code>`` in ``static/i18n``; a review's ``review.error.<code>``, a hint's
``practice.error.<code>``). Code and fields are part of the API; the message's words may change.

Storage and the rooms refuse with errors of their own, which carry no HTTP status (``StoreError``,
``RoomError``, ``ProfileRefused``...): each route says which answer they are.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    "table_broken": (
        "this table's stored game can no longer be played or shown (the server's log says why); "
        "it is left out of the lobby"
    ),
    "tournament_broken": (
        "this tournament's stored house rules are no longer allowed, so its deals cannot be played "
        "or shown (the server's log says why)"
    ),
    "unknown_variant": "unknown variant {variant!r}; variants are: {variants}",
    "bad_options": "{why}",
    "bad_clock": "a turn clock of {clock:g} seconds is not offered; the clocks are {clocks} seconds, or none",
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
    "profile_seated": "your profile holds seat {seat} of this table already: one seat per profile",
    "seat_just_taken": "seat {seat} was just taken",
    "unfinished": "{why}",
    "limit": "{why}",
    "too_strong": (
        "{player!r} samples {samples} worlds per card play; this server allows at most {limit} "
        "(expert:{limit}); the operator can raise it with --max-expert-samples"
    ),
    # the limits on creating tables (server/tables/limits.py)
    "too_many_tables": (
        "too many new tables: at most {limit} a minute from one address; try again in {wait} s"
    ),
    "too_many_open": (
        "you have {limit} unfinished tables, the most one address may have open; finish one (or wait "
        "until one ends) before creating another"
    ),
    "too_many_computer_tables": (
        "the server already runs {running} tables without a human seat, the most it allows ({limit}); "
        "make one seat human, or try again when one has finished"
    ),
    "busy": "{why}; try again in a moment",
    "no_database": "the game database is not available; try again in a moment (nothing was changed)",
    "no_api_path": "no such API path {path}; see docs/server.md",
    "no_page": "no such page",
    "no_offline_app": "the offline app is not available on this server: {why}",
    "no_language": "no language {lang!r}; the languages are: {known}",
    "profile_needs_seat": "a profile takes a seat: give the seat too",
    "restarting": "the server is restarting; try again in a moment (nothing was changed)",
    # a table's host (server/tables/host.py)
    "not_host": "that is not this table's host secret (the browser that created the table holds it)",
    "host_started": "the game has started: a seat is made a person's or a computer's before the start only",
    "host_not_started": "the game has not started: a seat is handed to the computer during the game",
    "host_over": "the table's game is over or the table is closed: there is nothing left to change",
    "host_seat_present": (
        "seat {seat}'s player is at the table: only the seat of a player who is away may be given "
        "to the computer"
    ),
    "host_computer_seat": "seat {seat} is a computer player's: only a person's seat is handed over",
    "host_no_seat": "no seat {seat}: the table has seats 0 to {last}",
    # play again (server/tables/again.py)
    "again_not_player": "that secret does not belong to a seat of this table: only its players play again",
    "again_unfinished": "the game is not over: the next one is set up once it has ended",
    "again_tournament": "a tournament's deal is not played again: the tournament deals the next",
    "not_held": "seat {seat} is not held for you: only a seat kept since the previous game is given up",
    # duplicate tournaments (server/tournaments); tables and seats counted from 1
    "no_tournament": "no such tournament (check the link)",
    "tournament_seat_count": (
        "table {table_no}: {variant} has {players} seats, but {described} were described"
    ),
    "tournament_human_level": "table {table_no}, seat {seat_no}: a human seat takes no level",
    "unknown_level": "table {table_no}, seat {seat_no}: unknown level {level!r}; levels are: {levels}",
    "tournament_seat_player": "table {table_no}, seat {seat_no}: {why}",
    "tournament_computers_cap": (
        "the tournament has {tables} tables without a human seat and the server runs {running} "
        "already, more than it allows ({cap}); make a seat human at some of them"
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
    """A refused request: its status, its code, its English message and the fields it was filled
    from (None: a refusal whose answer has no fields, as a hint's), and the headers it is sent with.

    ``HttpError.of(status, code, **fields)`` is a refusal of ``MESSAGES``; ``Refusals`` makes those
    of another catalog.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.headers = headers

    @classmethod
    def of(cls, status: int, code: str, headers: dict[str, str] | None = None, **fields: Any) -> HttpError:
        """The refusal ``MESSAGES[code]`` filled with ``fields``."""
        return _REFUSALS(status, code, headers, **fields)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message, "code": self.code}
        if self.fields is not None:
            body["fields"] = self.fields
        return body

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


class Refusals:
    """A catalog of refusals: each code's English message, its fields in braces (``{{`` for a brace).

    ``with_fields``: the answers say the fields they were filled from (a hint's never had any).
    """

    def __init__(self, messages: Mapping[str, str], *, with_fields: bool = True) -> None:
        self.messages = messages
        self.with_fields = with_fields

    def __call__(
        self, status: int, code: str, headers: dict[str, str] | None = None, **fields: Any
    ) -> HttpError:
        message = self.messages[code].format(**fields)
        return HttpError(status, code, message, fields if self.with_fields else None, headers)


_REFUSALS = Refusals(MESSAGES)


def option_refusal(exc: OptionError) -> HttpError:
    """House-rule options refused (422, as fields that fail validation): a clash of rules by its
    two parts (the page translates each), anything else (a name, a value) as ``bad_options``."""
    if exc.is_clash:
        return HttpError.of(422, "option_clash", problem=exc.fields["problem"], allowed=exc.fields["allowed"])
    return HttpError.of(422, "bad_options", why=str(exc))


def error_response(status: int, code: str, **fields: Any) -> JSONResponse:
    """The answer of the refusal ``code`` (for exception handlers, which return rather than raise)."""
    return HttpError.of(status, code, **fields).response()


async def http_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HttpError)
    return exc.response()


async def not_found_handler(request: Request, exc: Exception) -> Response:
    """No route: an API path is told as such (a client's bug), any other is a page that does not exist."""
    if request.url.path.startswith("/api/"):
        return error_response(404, "no_api_path", path=request.url.path)
    return error_response(404, "no_page")
