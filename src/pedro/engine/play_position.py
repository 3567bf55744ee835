"""A card-play position as one immutable value: the one entry of the solver and the sampler.

The solver needs no engine-private state: what any seat at the table knows
(the rules, trump, contract, tricks, statuses, credits) and, for a
perfect-information search, the cards in each hand. The engine gives the true
position with ``GameState.play_position()``; a player who guesses the hidden
cards (the sampler's worlds, ``pedro.players.play_machine.PlayMachine``) builds one
per guess with ``PlayTurns.play_position``. Everything else the search uses
(the led suit, the seat winning the trick, each seat's cards at the first
lead) is derived from these fields (docs/engine.md, "PlayPosition").
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.engine.actions import CARD_BITS
from pedro.variants.model import Ruleset
from pedro.variants.tables import TrumpTables


@dataclass(frozen=True)
class PlayPosition:
    """Everything the solver needs about a hand in the play phase (see the module docstring)."""

    #: the variant's rules (legal plays, turn order, trick winners, counting)
    rules: Ruleset
    #: the trump suit 0-3 (fixes trumps, strengths and points)
    trump: int
    #: the seat that won the auction (the search maximizes its side's points)
    bidder: int
    #: each seat's cards now, as card masks (the assumed deal of the hidden cards)
    hands: tuple[int, ...]
    #: each seat's ``Status`` as an int (who still plays: folded, cold, up and out seats do not)
    statuses: tuple[int, ...]
    #: finished tricks in order: (winner, ((seat, play action), ...)) — points taken, first trick or not
    tricks: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    #: the seat leading the current trick (who closes it and who may lead after a cold leader)
    leader: int
    #: the current trick so far: ((seat, play action), ...) — led suit and winning seat derive from it
    plays: tuple[tuple[int, int], ...]
    #: the seat to play now
    to_move: int
    #: the first lead must be a trump and has not been made yet (``first_lead_trump``)
    first_lead_pending: bool
    #: points per side already credited for trumps laid aside (counted in the value)
    credits: tuple[int, ...]
    #: mask of cards whose points were credited already (not counted again)
    credited: int
    #: the seat that first received the Low (``low_rule == dealt``), -1 if unknown or unused
    low_dealt_to: int
    #: cards in a normal hand at the first trick: a bigger hand plays a stack (``keep_and_bury``)
    normal_hand_size: int

    @property
    def tables(self) -> TrumpTables:
        return self.rules.tables(self.trump)

    @property
    def first_trick(self) -> bool:
        return not self.tricks

    def played_by(self) -> list[int]:
        """Cards each seat has played in this hand (finished tricks and the current one)."""
        played = [0] * self.rules.players
        for _winner, plays in self.tricks:
            for seat, action in plays:
                played[seat] |= action & CARD_BITS
        for seat, action in self.plays:
            played[seat] |= action & CARD_BITS
        return played

    def hands_at_play(self) -> list[int]:
        """Each seat's cards at the first lead: its hand now and the cards it played."""
        return [h | p for h, p in zip(self.hands, self.played_by(), strict=True)]
