"""Reviewing the decisions of a recorded game with the ``expert``'s estimates.

A recorded game is replayed; at every decision of the chosen hands the
deciding seat's observation (only what that seat could see) goes to an
estimator, which values each legal choice. The cost of the choice made is
the best value less its own, so a player's biggest mistakes sort first. The
estimates are the same ones ``pedro play --hints`` shows during a game.

Values are in the units the estimator names: card plays and exchange choices
in the points the seat's side is expected to take in the hand, calls in the
expected change of the side's score.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.estimates import Estimates
from pedro.records import replay


class ChoiceEstimator(Protocol):
    """Values the legal choices of a decision seen from the deciding seat, or None when it cannot."""

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        """``include``: choices to value even where not every legal choice is (the one made)."""
        ...


@dataclass(frozen=True)
class Decision:
    """One recorded decision with what the deciding seat saw."""

    hand: int  # 1-based, as players count hands
    number: int  # 1-based position of the action in its hand
    index: int  # 0-based position of the action in the whole game (a replay's frame before it)
    seat: int
    phase: Phase
    action: int
    obs: Observation


@dataclass(frozen=True)
class Review:
    """A decision and the estimator's view of it."""

    decision: Decision
    estimates: Estimates | None

    @property
    def cost(self) -> float | None:
        """How much worse the choice made was than the best valued choice (0 when it was a best one).

        None when the choice made has no value, or is the only choice valued: a lone value
        is compared with nothing, so it is neither best nor a mistake.
        """
        est = self.estimates
        if est is None or self.decision.action not in est.values or not est.comparable:
            return None
        return est.best() - est.values[self.decision.action]

    @property
    def verdict(self) -> str:
        """One plain word for the choice made: best, best of those valued, a cost, or why none."""
        est = self.estimates
        cost = self.cost
        if est is None or not est.values:
            return "not valued"
        if self.decision.action not in est.values:
            return "this choice not valued"
        if cost is None:
            return "only this choice valued"
        if cost > 1e-9:
            return f"cost {cost:.2f}"
        return "best" if est.complete else "best of those valued"


def decisions(
    record: str | bytes | os.PathLike[str] | Mapping[str, Any],
    hands: Iterable[int] | None = None,
    seats: Iterable[int] | None = None,
) -> list[Decision]:
    """Every decision of the record (of ``hands`` only, 1-based, and of ``seats`` only, when given),
    with the deciding seat's observation.

    The record is checked as ``pedro replay`` checks it: a bad record raises
    ``ReplayError`` before anything is estimated.
    """
    wanted = set(hands) if hands is not None else None
    deciders = set(seats) if seats is not None else None
    found: list[Decision] = []
    number = [0, -1, 0]  # action number within the hand, the hand index it counts, actions so far

    def keep(state: GameState, action: int) -> None:
        if number[1] != state.hand_index:
            number[:2] = [0, state.hand_index]
        number[0] += 1
        number[2] += 1
        hand = state.hand_index + 1
        seat = state.current_player
        if (wanted is not None and hand not in wanted) or (deciders is not None and seat not in deciders):
            return
        obs = state.observation(seat)
        found.append(Decision(hand, number[0], number[2] - 1, seat, state.phase, action, obs))

    replay(record, before_action=keep)
    return found


def needs_choice(decision: Decision) -> bool:
    """Whether the seat had more than one legal choice (forced moves are not worth reviewing)."""
    legal = decision.obs.legal
    if legal is None:
        return False
    if isinstance(legal, tuple):
        return len(legal) > 1
    return True


def review(
    found: list[Decision],
    estimator: ChoiceEstimator | Callable[[], ChoiceEstimator],
    advance: Callable[[], None] | None = None,
) -> list[Review]:
    """Estimate every decision that had a choice; ``advance`` is called after each (a progress bar).

    ``estimator`` may be a function making one: then each hand's decisions of each seat get a
    fresh estimator, so that a seat's values do not depend on which other hands or seats were
    reviewed with it (``pedro analyze --hand 3`` values hand 3 as the whole game's review does,
    and a server's review of one seat as ``pedro analyze`` does).
    """
    factory = isinstance(estimator, type) or not hasattr(estimator, "estimates")
    make = cast(Callable[[], ChoiceEstimator], estimator) if factory else None
    fresh: dict[tuple[int, int], ChoiceEstimator] = {}
    out: list[Review] = []
    for decision in found:
        if needs_choice(decision):
            if make is None:
                judge = cast(ChoiceEstimator, estimator)
            else:
                key = (decision.hand, decision.seat)
                judge = fresh.get(key) or fresh.setdefault(key, make())
            out.append(Review(decision, judge.estimates(decision.obs, include=(decision.action,))))
        if advance is not None:
            advance()
    return out


def biggest_mistakes(reviews: Iterable[Review], limit: int | None = None) -> list[Review]:
    """The reviewed decisions that cost something, most costly first."""
    costly = [r for r in reviews if (r.cost or 0.0) > 1e-9]
    costly.sort(key=lambda r: (-(r.cost or 0.0), r.decision.hand, r.decision.number))
    return costly if limit is None else costly[:limit]
