"""Reading the other side's card play: worlds weighed by how likely its plays were in them.

Sampling alone keeps every world in which the plays seen were *legal*. But
players do not play at random: a defender who could drop a five on his
partner's sure winner and did not, most likely has no five. ``PlayModel``
replays the play in a world and asks a model player (``heuristic`` by
default) what each opponent would have played there, seeing what that seat
saw: its hand in that world, the tricks so far, the public facts. A play the
model would also have made keeps the world's weight; any other play
multiplies it by ``miss``, so a world survives a surprise or two but worlds
that explain the play well count most.

Only the other side is read: a partner is assumed to play like oneself,
whom this model would not describe. The model's view lacks the opponent's
own discards and what else it saw in the exchange (the world does not hold
them); its choices are cached per seat, trick position and hand, so worlds
that agree on a hand share the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pedro.cards import cards_of
from pedro.engine.actions import play_cards
from pedro.engine.observation import Observation, SeenTrick
from pedro.players.base import Player
from pedro.players.play_machine import PlayMachine
from pedro.players.sampling import replay

#: Weight factor of a play the model would not have made.
MISS = 0.15


def _seen(plays: Sequence[tuple[int, int]]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Plays as the engine shows them: each seat's cards, the top card first (a stack's too)."""
    return tuple((s, tuple(play_cards(a))) for s, a in plays)


def seat_view(obs: Observation, m: PlayMachine, seat: int, legal: Sequence[int]) -> Observation:
    """What ``seat`` saw when it played at the machine's turn, in the world the machine replays."""
    tricks = tuple(SeenTrick(t.leader, _seen(t.plays), t.winner) for t in m.tricks)
    assert m.trick is not None
    return replace(
        obs,
        seat=seat,
        current_player=seat,
        hand=tuple(cards_of(m.hands[seat])),
        hand_sizes=tuple(h.bit_count() for h in m.hands),
        own_discards=(),
        seen=(),
        statuses=tuple(m.status),
        tricks=tricks,
        trick=SeenTrick(m.trick.leader, _seen(m.trick.plays), -1),
        legal=tuple(legal),
    )


class PlayModel:
    """Weighs worlds by the other side's plays (module docstring); one per decision."""

    def __init__(
        self,
        obs: Observation,
        players: Sequence[Player],
        miss: float = MISS,
    ) -> None:
        self.obs = obs
        self.players = players
        self.miss = miss
        self._side = obs.rules.side_of(obs.seat)
        self._choices: dict[tuple[int, int, int], int] = {}

    def weight(self, hands: Sequence[int]) -> float:
        """The world's weight from the plays: ``miss`` for each the model would not have made."""
        rules = self.obs.rules
        misses = 0
        step = 0

        def on_play(m: PlayMachine, seat: int, action: int) -> None:
            nonlocal misses, step
            step += 1
            if rules.side_of(seat) == self._side:
                return
            legal = m.legal()
            if len(legal) < 2:
                return
            key = (step, seat, m.hands[seat])
            choice = self._choices.get(key)
            if choice is None:
                choice = self._choices[key] = self.players[seat].act(seat_view(self.obs, m, seat, legal))
            if choice != action:
                misses += 1

        replay(self.obs, list(hands), on_play)
        return self.miss**misses


__all__ = ["MISS", "PlayModel", "seat_view"]
