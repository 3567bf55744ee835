"""The exchange's steps in a hand: which run, in what order, how far they ran (docs/rules.md §exchange).

A hand's steps, each ``(kind, seat)``, are planned from the ruleset's policies when trumps
are named: folding, discarding, giving to partner, filling, the dealer's pick of the stock,
and excess trumps, seat by seat clockwise from the dealer's left, the dealer last. What each
step does is ``pedro.engine.exchange``'s; ``Steps`` is the exchange's own state, which the
game state holds and copies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from pedro.engine.choices import CardChoice
from pedro.variants.model import DiscardPolicy, ExcessTrumps, FillPolicy, Ruleset, TrumpDiscardClaim


class Steps:
    """The exchange's own state in one hand: its steps, how far they ran, the decision they wait for.

    The game state holds one and copies it with ``copy``; the cards themselves move
    through the ``TableMoves`` the state hands to ``exchange.step`` and ``exchange.apply``.
    """

    __slots__ = ("choice", "committed", "done", "index", "plans", "pool", "steps")

    #: the steps by dealer, a cache of pure values shared by every copy and every hand
    plans: dict[int, tuple[tuple[str, int], ...]]
    #: this hand's steps, ``(kind, seat)``; steps may insert further steps
    steps: list[tuple[str, int]]
    #: the step running now
    index: int
    #: the steps finished
    done: set[tuple[str, int]]
    #: the decision the current step waits for
    choice: tuple[int, ...] | CardChoice | None
    #: cards promised beyond three by ``at_least_3_any`` discards (the talon refills only so many)
    committed: int
    #: the stock cards the dealer looked through and may keep from (rob, take, pick)
    pool: int

    def __init__(self, plans: dict[int, tuple[tuple[str, int], ...]], steps: list[tuple[str, int]]) -> None:
        self.plans = plans
        self.steps = steps
        self.index = 0
        self.done = set()
        self.choice = None
        self.committed = 0
        self.pool = 0

    def __reduce__(self) -> tuple[Callable[..., Steps], tuple[object, ...]]:
        """Pickled by its fields: compiled, a native class's own pickling calls ``__init__`` with none."""
        return _restored_steps, (
            self.plans, self.steps, self.index, self.done, self.choice, self.committed, self.pool,
        )  # fmt: skip

    def next_hand(self) -> Steps:
        """No steps, before trumps are named in the next hand; the cached plans kept."""
        return Steps(self.plans, [])

    def copy(self) -> Steps:
        new = Steps(self.plans, self.steps[:])
        new.index = self.index
        new.done = self.done.copy()
        new.choice = self.choice  # a tuple or a frozen card choice
        new.committed = self.committed
        new.pool = self.pool
        return new


def _restored_steps(
    plans: dict[int, tuple[tuple[str, int], ...]],
    steps: list[tuple[str, int]],
    index: int,
    done: set[tuple[str, int]],
    choice: tuple[int, ...] | CardChoice | None,
    committed: int,
    pool: int,
) -> Steps:
    new = Steps(plans, steps)
    new.index, new.done, new.choice, new.committed, new.pool = index, done, choice, committed, pool
    return new


def no_steps() -> Steps:
    """The exchange before trumps are named: no steps yet, and an empty cache of plans."""
    return Steps({}, [])


def start(rules: Ruleset, dealer: int, before: Steps) -> Steps:
    """This hand's steps, once trumps are known; ``before`` is the state's last ``Steps``, whose
    cache of plans is kept."""
    plans = before.plans
    plan = plans.get(dealer)
    if plan is None:
        plan = plans[dealer] = plan_steps(rules, dealer)
    return Steps(plans, list(plan))


def plan_steps(rules: Ruleset, dealer: int) -> tuple[tuple[str, int], ...]:
    """The steps of a hand dealt by ``dealer`` (steps may add others as they run)."""
    n = rules.players
    order = [(dealer + 1 + i) % n for i in range(n)]
    others = order[:-1]
    reduce = rules.discard == DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST
    # under keep_and_bury an excess step acts only on kept non-trumps (``_excess_step``);
    # reducing to six deals with excess trumps in the discard
    excess = not reduce and (rules.excess_trumps != ExcessTrumps.KEEP_AND_BURY or rules.keep_nontrumps)
    steps = [("fold", s) for s in order] if rules.fold else []
    steps += _discard_steps(rules, order, reduce)
    if excess and rules.nine_card_deal:
        # note E9: excess trumps go to partner before the fill
        steps += [("excess", s) for s in others]
    steps += [("fill", s) for s in _filled(rules.fill, order)]
    if rules.trump_discard_claim != TrumpDiscardClaim.NONE:
        steps.append(("claims", dealer))
    if excess and not rules.nine_card_deal:
        steps += [("excess", s) for s in others]
    if rules.fill in _DEALER_STEPS:
        steps.append((_DEALER_STEPS[rules.fill], dealer))
    if excess:
        steps.append(("excess", dealer))
    return tuple(steps)


def _discard_steps(rules: Ruleset, order: list[int], reduce: bool) -> list[tuple[str, int]]:
    """Each seat's discard, after its gift to partner when excess trumps pass before reducing to six."""
    if rules.discard == DiscardPolicy.NONE:
        return []
    giving = reduce and rules.excess_trumps == ExcessTrumps.PASS_TO_PARTNER and rules.partnerships
    kinds = ("give", "discard") if giving else ("discard",)
    return [(kind, s) for s in order for kind in kinds]


def _filled(fill: FillPolicy, order: list[int]) -> list[int]:
    """The seats filled from the stock: everyone, or all but the dealer (who has a step of his own)."""
    if fill == FillPolicy.NONE:
        return []
    return order if fill == FillPolicy.FILL_ALL_FROM_TOP else order[:-1]


#: The dealer's own step with the stock, after the others' fills.
_DEALER_STEPS: Final = {
    FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS: "rob",
    FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6: "take_stock",
    FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS: "pick",
}
