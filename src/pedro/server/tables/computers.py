"""A table's computer players: one player per seat and hand, kept from decision to decision.

A player learns of its hand only through the decisions it is asked (``players.base``): what it
works out for one decision (the deals its bid was valued on, which it names trumps on; its
random draws) serves the next. So a table keeps each seat's player for the hand, as
``players.games`` keeps one per seat for the game in the tournaments that docs/strength.md
measures, and a table's computers are those players, deciding as they do.

A restarted server, or another process taking over the table, restores the game from its stored
actions but not its players: a seat's player is made again, seeded the same, and asked again
each decision its seat made earlier in the hand, in order (their answers are not used, the
stored actions stand), before it decides the next. The same catching up serves a human seat's
stand-in, which is asked its seat's earlier decisions of the hand whoever made them: a player
always decides having been asked every decision of its seat in the hand, so it decides the same
whether the room ran on or was restored on the way.

Decisions are made in worker threads (the room's loop serves the other tables meanwhile), one at
a time per table (a lock): a decision cancelled by the room may still be thinking when it is asked
again, and the answer it gives is then the one given again.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pedro.engine.actions import parse_action_text
from pedro.engine.state import GameState
from pedro.players import Player, choose, is_command, make_player
from pedro.server.tables.game import table_game

#: Player that sits in for a human who has been away too long.
STAND_IN_PLAYER = "heuristic"


def player_name(kind: str, player: str | None) -> str:
    """The player that makes a seat's decisions for the computer: a computer seat's own, else the
    stand-in. A bot program is never run, even if a tampered database names one."""
    name = player if kind == "computer" and player else STAND_IN_PLAYER
    return STAND_IN_PLAYER if is_command(name) else name


def player_seed(table_seed: str, seat: int, hand: int) -> int | str:
    """The seed of a seat's player for a hand of the table.

    A table seeded with a number N plays its first hand with the players ``players.games`` plays
    the game of seed N with (seat s: ``N * 16 + s``), on the same deal: a duplicate tournament's
    deal is such a table, so its computers decide as ``pedro tournament`` does on that deal.

    >>> player_seed("12", 1, 0), player_seed("12", 1, 2), player_seed("a3f9", 0, 0)
    (193, '12:1:2', 'a3f9:0:0')
    """
    if hand == 0 and table_seed.isascii() and table_seed.isdigit():
        return int(table_seed) * 16 + seat
    return f"{table_seed}:{seat}:{hand}"


@dataclass
class _SeatPlayer:
    hand: int
    name: str
    player: Player
    #: how many of its seat's decisions of the hand it has been asked
    asked: int = 0
    #: the last decision it was asked: (seq, its action)
    answer: tuple[int, int] | None = None


class Computers:
    """The computer players of one table: made, kept and caught up as the module says."""

    def __init__(self, variant: str, options: Mapping[str, Any], seed: str, hands: int | None) -> None:
        self.variant = variant
        self.options = options
        self.seed = seed
        self.hands = hands
        self._players: dict[int, _SeatPlayer] = {}
        self._lock = threading.Lock()

    def decide(self, state: GameState, name: str, seq: int, actions: Sequence[str]) -> int:
        """The action of ``name`` playing the seat to act in ``state`` (a copy the player may keep
        reading), the table's ``seq``-th action; ``actions`` are the table's stored actions so far
        (``seq`` of them), to catch a new player up. In a worker thread."""
        seat = state.current_player
        hand = state.hand_index
        decided = sum(1 for s, _ in state.actions if s == seat)
        with self._lock:
            kept = self._players.get(seat)
            if kept is not None and kept.answer is not None and kept.answer[0] == seq:
                return kept.answer[1]  # asked again for the decision it has just made
            if kept is None or (kept.hand, kept.name) != (hand, name) or kept.asked > decided:
                kept = _SeatPlayer(hand, name, make_player(name, seed=player_seed(self.seed, seat, hand)))
                self._players = {s: p for s, p in self._players.items() if p.hand == hand}
                self._players[seat] = kept
            if kept.asked < decided:
                self._catch_up(kept, seat, actions[: seq - len(state.actions)], state.actions)
            action = choose(kept.player, state)
            kept.asked = decided + 1
            kept.answer = (seq, action)
            return action

    def _catch_up(
        self,
        kept: _SeatPlayer,
        seat: int,
        before: Sequence[str],
        hand_actions: Sequence[tuple[int, int]],
    ) -> None:
        """Ask ``kept`` its seat's decisions of the hand it has not been asked, on the game as it was
        at each: the game is played again from its first deal through ``before`` (the earlier hands)."""
        game = table_game(self.variant, self.options, self.seed, self.hands)
        for text in before:
            game.apply(parse_action_text(text, game.rules.max_bid)[1])
        made = 0
        for s, action in hand_actions:
            if s == seat:
                if made >= kept.asked:
                    choose(kept.player, game.clone())  # as it was asked then; the stored action stands
                made += 1
            game.apply(action)
        kept.asked = made
