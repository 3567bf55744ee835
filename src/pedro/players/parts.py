"""A computer player as three parts: a bidder, an exchanger and a card player.

Each part has one job and sees only the seat's ``Observation``. A player is
the parts it is made of (``ComposedPlayer``): ``basic``, ``heuristic`` and
``expert`` are each a choice of parts, and a player name's settings
(``expert:bid=heuristic``) choose other parts, not flags inside one. Parts
that must share work over a game (the simulations' rollout players, a hand's
sampled deals) are handed the same object when they are built.
"""

from __future__ import annotations

from typing import Protocol

from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase


class Bidder(Protocol):
    """Makes the calls of the auction and names trumps for the contract it won."""

    def bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        """A call of ``legal`` (more than one)."""
        ...

    def name_trump(self, obs: Observation, legal: tuple[int, ...]) -> int:
        """A trump action of ``legal`` (more than one)."""
        ...


class Exchanger(Protocol):
    """Decides the exchange: discards, keeps, kills, gives, folds and claims."""

    def exchange(self, obs: Observation) -> int:
        """A choice of ``obs.legal``: a card-set choice, or a list of more than one action."""
        ...


class CardPlayer(Protocol):
    """Plays the cards."""

    def play(self, obs: Observation, legal: tuple[int, ...]) -> int:
        """A play of ``legal`` (more than one)."""
        ...


class ComposedPlayer:
    """A computer player made of a bidder, an exchanger and a card player: each decision goes to
    the part whose job it is; a decision with one legal action is made without asking."""

    name = "composed"

    def __init__(self, bidder: Bidder, exchanger: Exchanger, card_player: CardPlayer, name: str = "") -> None:
        self.bidder = bidder
        self.exchanger = exchanger
        self.card_player = card_player
        if name:
            self.name = name

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        if legal is None:
            raise ValueError("it is not this seat's turn")
        if isinstance(legal, CardChoice):
            return self.exchanger.exchange(obs)
        if len(legal) == 1:
            return legal[0]
        phase = obs.phase
        if phase == Phase.AUCTION:
            action = self.bidder.bid(obs, legal)
        elif phase == Phase.TRUMP:
            action = self.bidder.name_trump(obs, legal)
        elif phase == Phase.PLAY:
            action = self.card_player.play(obs, legal)
        else:
            action = self.exchanger.exchange(obs)
        return action if action in legal else legal[0]


__all__ = ["Bidder", "CardPlayer", "ComposedPlayer", "Exchanger"]
