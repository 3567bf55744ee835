"""A game of one person against computer players with no server: the offline app's table.

The browser's worker (Pyodide) keeps one ``SoloTable``; the page talks to it with the messages a
served table's WebSocket carries (``join``, ``act``; ``welcome``, ``state``, ``error``), so one
table UI has two transports. The table is made of the served table's parts: its game
(``tables.game``), its computer players, seeded and kept as a served table's are
(``tables.computers``: the same deal and players decide the same), the checks an action passes
(``tables.acting``) and the seat's ``state`` message (``tables.table_view``).

A solo game is its ``SoloSetup`` and its actions: the page stores those (IndexedDB) after every
action, and a closed tab resumes by playing them again. Its record is ``offline.record_calls``'s.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pedro.engine.actions import action_text, parse_action_text
from pedro.ratings import SeatTaker, unrated_reason
from pedro.server.tables.acting import checked_action, computer_seat_name
from pedro.server.tables.computers import Computers, player_name
from pedro.server.tables.game import table_game
from pedro.server.tables.refusals import RoomError
from pedro.server.tables.table_view import Seat, Table, TableFacts, ViewMemo, state_messages
from pedro.server.tables.views import rules_json
from pedro.variants.options import make_ruleset

#: The computer levels a solo game offers: those whose decisions the browser's Python makes in
#: good time (docs/offline.md, "Computer players"); the expert's search needs the server's
#: compiled solver.
SOLO_LEVELS = ("beginner", "club")
#: The longest name a person plays under.
NAME_CHARS = 24


class SetupError(ValueError):
    """A solo game's setup that cannot be played; the message says what is allowed."""


@dataclass(frozen=True)
class SoloSetup:
    """What a solo game is made from: with its actions, the whole game."""

    #: the game's id (the page's key for it)
    id: str
    variant: str
    #: house rules (``pedro.variants.options``)
    options: Mapping[str, Any]
    #: each seat's player: None for the person, else a computer level of ``SOLO_LEVELS``
    seats: tuple[str | None, ...]
    #: the person's name
    name: str
    #: the deals' and the computers' seed
    seed: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SoloSetup:
        """A setup from the page's JSON, checked (SetupError says what is wrong). A missing id or
        seed is drawn at random."""
        variant = data.get("variant")
        options = data.get("options") or {}
        if not isinstance(variant, str) or not isinstance(options, dict):
            raise SetupError("a game needs a variant (a name) and options (an object)")
        try:
            rules = make_ruleset(variant, options)
        except ValueError as exc:
            raise SetupError(str(exc)) from None
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != rules.players:
            raise SetupError(f"{rules.name} has {rules.players} seats: give a player for each")
        if sum(seat is None for seat in seats) != 1:
            raise SetupError("exactly one seat is the person's (null); the others are computers")
        wrong = [s for s in seats if s is not None and s not in SOLO_LEVELS]
        if wrong:
            raise SetupError(f"no computer level {wrong[0]!r} here; allowed: {', '.join(SOLO_LEVELS)}")
        name = data.get("name")
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > NAME_CHARS:
            raise SetupError(f"a name of 1 to {NAME_CHARS} characters is needed")
        return cls(
            id=_text(data.get("id")) or secrets.token_hex(8),
            variant=rules.id,
            options=dict(options),
            seats=tuple(seats),
            name=name,
            seed=_text(data.get("seed")) or secrets.token_hex(16),
        )

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "options": dict(self.options),
            "seats": list(self.seats),
            "name": self.name,
            "seed": self.seed,
        }


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


class SoloTable:
    """One solo game being played: the person's seat and the computers at the others."""

    def __init__(self, setup: SoloSetup, actions: Sequence[str] = ()) -> None:
        """The game of ``setup`` after its stored ``actions`` (record text, "<seat> <words>")."""
        self.setup = setup
        self.state = table_game(setup.variant, setup.options, setup.seed, None)
        self.rules = self.state.rules
        self.you = setup.seats.index(None)
        self.actions: list[str] = []
        self.last: tuple[int, int] | None = None
        self._computers = Computers(setup.variant, setup.options, setup.seed, None)
        self._memo = ViewMemo()
        takers = [SeatTaker("human") if s is None else SeatTaker("computer", s) for s in setup.seats]
        unrated, unrated_seat = unrated_reason(setup.variant, setup.options, False, None, takers)
        self._table = Table(setup.id, "", setup.options, False, None, unrated, unrated_seat)
        self._seats = tuple(
            Seat(
                s,
                setup.name if player is None else computer_seat_name(s, player),
                "human" if player is None else "computer",
                player,
                True,
                True,
                False,
            )
            for s, player in enumerate(setup.seats)
        )
        for text in actions:
            seat, action = parse_action_text(text, self.rules.max_bid)
            if self.state.is_over or seat != self.state.current_player or self.state.why_illegal(action):
                raise SetupError(f"stored action {len(self.actions) + 1} ({text!r}) is not legal here")
            self._apply(seat, action)

    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def computer_to_act(self) -> bool:
        """A computer is to decide next (the page asks for its move after a pause)."""
        return not self.state.is_over and self.state.current_player != self.you

    def state_json(self) -> bytes:
        """The person's ``state`` message, encoded."""
        facts = TableFacts(self._table, self._seats, self.seq, True, self.last)
        return state_messages(self.state, facts, [self.you], self._memo)[self.you]

    def act(self, text: str, seq: int) -> None:
        """The person's action (the protocol's words) for state ``seq``; RoomError if refused,
        and then nothing changed."""
        action = checked_action(
            self.state, self.you, text, seq, table_seq=self.seq, started=True, name_of=self._name
        )
        self._apply(self.you, action)

    def computer_move(self, stand_in: bool = False) -> None:
        """The computer to act decides and its decision is applied; with ``stand_in``, also at the
        person's seat, which the served tables' stand-in plays (to play a game out: ``play_out``)."""
        if self.state.is_over or not (stand_in or self.computer_to_act):
            raise RoomError("turn", "no computer is to play")
        seat = self.state.current_player
        spec = self.setup.seats[seat]
        name = player_name("human" if spec is None else "computer", spec)
        action = self._computers.decide(self.state.clone(), name, self.seq, tuple(self.actions))
        self._apply(seat, action)

    def play_out(self, hands: int | None = None) -> None:
        """Play the game on, the person's seat by the stand-in, to its end or until ``hands`` hands
        are played: a seeded game's decisions, to compare across Pythons (CPython, the browser's)."""
        while not self.state.is_over and (hands is None or self.state.hand_index < hands):
            self.computer_move(stand_in=True)

    def _apply(self, seat: int, action: int) -> None:
        self.actions.append(action_text(seat, action, self.rules.max_bid))
        self.state.apply(action)
        self.last = (seat, action)

    def _name(self, seat: int) -> str:
        return self._seats[seat].name

    @property
    def names(self) -> list[str]:
        """The seats' names, as the table shows them and a record keeps them."""
        return [s.name for s in self._seats]

    def saved(self) -> dict[str, Any]:
        """What the page stores of the game: its setup and actions, and a line for its list."""
        state = self.state
        return {
            "setup": self.setup.json(),
            "actions": list(self.actions),
            "finished": state.is_over,
            "hand": state.hand_index + (0 if state.is_over else 1),
            "scores": list(state.scores),
            "winner": state.winner,
            "table": rules_json(self.rules),
        }
