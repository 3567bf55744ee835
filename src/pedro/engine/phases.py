"""The phases of a hand and whether a seat still takes part: shared by every engine module."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    AUCTION = 0
    TRUMP = 1
    EXCHANGE = 2
    PLAY = 3
    GAME_OVER = 4


class Status(IntEnum):
    """Whether a seat takes part in the rest of the card play."""

    ACTIVE = 0
    FOLDED = 1
    COLD = 2
    UP = 3
    OUT = 4
