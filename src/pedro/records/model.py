"""The ``pedro-record/1`` record model: its fields (checked by pydantic) and its errors.

A record holds only what chance and the players decided: each hand's deal
(first-deal hands, kitty, stock, and the ``wash`` when the stock ran dry) and
the written decisions as text; see ``docs/records.md`` for the format.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr

from pedro.cards import CardError, format_card, parse_card
from pedro.variants.model import Ruleset

FORMAT = "pedro-record/1"

#: Top-level and per-hand fields, in the order they are written.
RECORD_FIELDS = ("format", "variant", "options", "players", "names", "first_dealer", "hands")
HAND_FIELDS = ("deal", "kitty", "stock", "wash", "actions", "timed_out")


class ReplayError(ValueError):
    """A record that cannot be replayed; the message names the hand and action (counted from 1)."""

    def __init__(self, message: str, hand: int | None = None, action: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand
        self.action = action


class RecordError(ReplayError):
    """A record that is malformed before any action is tried (JSON, fields, cards, deal)."""


#: How a card error in a record ends; the reader then says which cards the record's variant has.
NOT_A_CARD = "is not a card"


def cards_allowed(rules: Ruleset | None) -> str:
    """The cards a record of ``rules`` may name: rank and suit, and jokers only where it has them."""
    cards = "a card is its rank (A K Q J 10 9 8 7 6 5 4 3 2, or T) then its suit (S H D C, or ♠ ♥ ♦ ♣)"
    if rules is None:
        return cards + ", or a joker (JK, BJ, SJ) in a variant that has them"
    if not rules.jokers:
        return f"{rules.name} is played with the 52 cards: {cards}"
    return f"{rules.name} has {len(rules.deck)} cards: {cards}, or the joker {' or '.join(rules.jokers)}"


def not_a_card(message: str, rules: Ruleset | None) -> str:
    """A card error's ``message`` (``'1X' is not a card: ...``) with the cards of ``rules`` said instead."""
    head, found, _rest = message.partition(NOT_A_CARD)
    return f"{head}{NOT_A_CARD}; {cards_allowed(rules)}" if found else message


def _canonical_card(text: str) -> str:
    try:
        return format_card(parse_card(text))
    except CardError:
        # which cards are allowed depends on the variant (its jokers), not known here
        raise ValueError(f"{text!r} {NOT_A_CARD}") from None


Card = Annotated[StrictStr, AfterValidator(_canonical_card)]


class HandModel(BaseModel):
    """One hand of a record: its deal and its written actions."""

    model_config = ConfigDict(extra="forbid", strict=True)

    deal: list[list[Card]]
    kitty: list[Card]
    stock: list[Card]
    wash: list[Card] | None = None
    actions: list[StrictStr]
    #: the actions (their places in ``actions``, from 0) a stand-in made because the player's
    #: turn clock ran out at a server's table; absent when none was
    timed_out: list[Annotated[int, Field(ge=0)]] | None = None


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
