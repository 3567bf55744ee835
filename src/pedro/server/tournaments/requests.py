"""What a tournament's director and players send: its creation, a seat taken, a secret."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from pedro.server.http.request_body import Name, Strict, Title
from pedro.server.tables.protocol import MAX_SEATS, SeatNumber

#: The most deals and tables a tournament may have.
_MAX_DEALS = 32
_MAX_TABLES = 8


class TournamentSeatSpec(Strict):
    kind: Literal["human", "computer"]
    #: a computer's strength level (``beginner``, ``club``, ``strong``, ``expert``)
    level: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


class CreateTournament(Strict):
    variant: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    title: Title = ""
    deals: Annotated[int, Field(ge=1, le=_MAX_DEALS)]
    #: per table, its seats at the first deal
    seats: list[Annotated[list[TournamentSeatSpec], Field(min_length=1, max_length=MAX_SEATS)]] = Field(
        min_length=2, max_length=_MAX_TABLES
    )


class JoinTournament(Strict):
    table: Annotated[int, Field(ge=0, le=_MAX_TABLES - 1)]
    seat: SeatNumber
    name: Name


class Secret(Strict):
    secret: Annotated[str, StringConstraints(min_length=1, max_length=100)]
