"""A play position for the solver: public facts plus one full assignment of the hidden cards.

The solver needs no engine-private state: what any seat at the table knows
(the rules, trump, contract, tricks, statuses, credits) and, for a
perfect-information search, the cards in each hand. A player who guesses the
hidden cards (sampling worlds) builds one ``PlayPosition`` per guess; the
engine's own state gives the true one with ``PlayPosition.from_state``.
Everything else the search uses (the led suit, the seat winning the trick,
each seat's cards at the first lead) is derived from these fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.engine.actions import CARD_BITS
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.variants.model import LowRule, Ruleset, TrumpTables


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
    hand_size: int

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

    @staticmethod
    def from_state(state: GameState) -> PlayPosition:
        """The true position of a game in the play phase."""
        if state.phase != Phase.PLAY or state.trick is None or state.tt is None or state.contract is None:
            raise ValueError("a play position needs a state in the play phase")
        rules = state.rules
        low_dealt_to = -1
        low = state.tt.low_card
        if low >= 0 and rules.low_rule == LowRule.DEALT:
            for s, h in enumerate(state.dealt_hands):
                if h >> low & 1:
                    low_dealt_to = s
                    break
            else:
                low_dealt_to = state.dealt_to.get(low, -1)
        return PlayPosition(
            rules=rules,
            trump=state.trump,
            bidder=state.contract.bidder,
            hands=tuple(state.hands),
            statuses=tuple(int(s) for s in state.status),
            tricks=tuple((t.winner, tuple(t.plays)) for t in state.tricks),
            leader=state.trick.leader,
            plays=tuple(state.trick.plays),
            to_move=state.current_player,
            first_lead_pending=state.first_lead_pending,
            credits=tuple(state.credits),
            credited=state.credited,
            low_dealt_to=low_dealt_to,
            hand_size=state.normal_hand,
        )
