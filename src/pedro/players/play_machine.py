"""The engine's card play over card masks: a guessed world replayed and played on without a
``GameState`` (the sampler's worlds, the solver's positions, the play model's replays)."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from pedro.engine.phases import Status
from pedro.engine.play import normal_hand_size
from pedro.engine.play_position import PlayPosition
from pedro.engine.turns import PlayTurns, Trick
from pedro.variants.model import Ruleset
from pedro.variants.tables import TrumpTables


class PlayMachine(PlayTurns):
    """The engine's card play over card masks, so that a guessed world can be replayed and
    played on without a ``GameState``: the turn order, legal plays and tricks are ``PlayTurns``'s.
    """

    _tt: TrumpTables
    #: the play has ended (``prepare`` is False from then on)
    over: bool

    def __init__(
        self, rules: Ruleset, tt: TrumpTables, bidder: int, hands: list[int], status: list[Status]
    ) -> None:
        """The first lead of a hand: ``status`` holds who folded."""
        self._rules = rules
        self._tt = tt
        self._hands = list(hands)
        self._status = list(status)
        self._normal_hand_size = normal_hand_size(rules)
        self._tricks = []
        self.over = False
        self._start_turns(bidder)

    def copy(self) -> PlayMachine:
        new = copy.copy(self)
        new.over = self.over  # the compiled build's copy carries only PlayTurns's (native) fields
        new._hands = list(self._hands)
        new._status = list(self._status)
        new._tricks = list(self._tricks)  # a finished trick does not change
        if self._trick is not None:
            new._trick = Trick(self._trick.leader, list(self._trick.plays), self._trick.winner)
        return new

    # read-only views for the sampler's players (typed so that mypy refuses writes)

    @property
    def tt(self) -> TrumpTables:
        return self._tt

    @property
    def hands(self) -> Sequence[int]:
        """Each seat's cards now, as masks."""
        return self._hands

    @property
    def status(self) -> Sequence[Status]:
        return self._status

    @property
    def tricks(self) -> Sequence[Trick]:
        """The finished tricks of the hand."""
        return self._tricks

    @property
    def trick(self) -> Trick | None:
        """The trick in progress (do not change it: ``copy`` first)."""
        return self._trick

    def play_position(
        self, trump: int, bidder: int, credits: tuple[int, ...], credited: int, low_dealt_to: int
    ) -> PlayPosition:
        """This world's position at the current turn, for the solver (the public facts given)."""
        return self._play_position(trump, bidder, credits, credited, low_dealt_to)

    def _end_play(self) -> None:
        self.over = True

    def prepare(self) -> bool:
        """Move on to the next seat that must play (True), or end the play (False)."""
        return not self.over and self._prepare_play_turn()

    def legal(self) -> tuple[int, ...]:
        """The current seat's legal plays."""
        return self._legal_plays(self.current_player)

    def play(self, action: int) -> None:
        """The current seat plays ``action`` (assumed legal); call ``prepare`` before the next play."""
        self._apply_play(self.current_player, action)


__all__ = ["PlayMachine"]
