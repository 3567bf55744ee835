"""The ``pedro-record/1`` record model: its fields (checked by pydantic) and its errors.

A record holds only what chance and the players decided: each hand's deal
(first-deal hands, kitty, stock, and the ``wash`` when the stock ran dry) and
the written decisions as text; see ``docs/records.md`` for the format.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr

from pedro.cards import CardError, format_card, parse_card

FORMAT = "pedro-record/1"

#: Top-level and per-hand fields, in the order they are written.
RECORD_FIELDS = ("format", "variant", "options", "players", "names", "first_dealer", "hands")
HAND_FIELDS = ("deal", "kitty", "stock", "wash", "actions")


class ReplayError(ValueError):
    """A record that cannot be replayed; the message names the hand and action (counted from 1)."""

    def __init__(self, message: str, hand: int | None = None, action: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand
        self.action = action


class RecordError(ReplayError):
    """A record that is malformed before any action is tried (JSON, fields, cards, deal)."""


def _canonical_card(text: str) -> str:
    try:
        return format_card(parse_card(text))
    except CardError as exc:
        raise ValueError(str(exc)) from None


Card = Annotated[StrictStr, AfterValidator(_canonical_card)]


class HandModel(BaseModel):
    """One hand of a record: its deal and its written actions."""

    model_config = ConfigDict(extra="forbid", strict=True)

    deal: list[list[Card]]
    kitty: list[Card]
    stock: list[Card]
    wash: list[Card] | None = None
    actions: list[StrictStr]


class RecordModel(BaseModel):
    """A whole record, strict: a field of the wrong type or one not in the format is refused."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: StrictStr
    variant: StrictStr
    options: dict[str, Any] = Field(default_factory=dict)
    players: int
    names: list[StrictStr]
    first_dealer: int = Field(ge=0)
    hands: list[HandModel] = Field(min_length=1)
