"""Rule hook 3: everything between naming trumps and the first lead (docs/rules.md §exchange).

The exchange is a list of steps, each ``(kind, seat)``, built from the
ruleset's policies when trumps are named: folding, discarding, giving to
partner, filling, the dealer's pick of the stock, and excess trumps. A step
either happens by itself (forced) or poses one decision; steps run seat by
seat clockwise from the dealer's left, the dealer last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of, format_cards
from pedro.engine.actions import FOLD, PASS, Verb, arg_of, cards_action, verb_of
from pedro.engine.choices import CardChoice, Check
from pedro.engine.phases import Status
from pedro.engine.play import discard_category
from pedro.marks import N_
from pedro.variants.model import (
    DiscardedScoringTrumps,
    DiscardPolicy,
    ExcessTrumps,
    FillPolicy,
    Ruleset,
    TrumpDiscardClaim,
)
from pedro.variants.tables import TrumpTables

if TYPE_CHECKING:
    from pedro.engine.state import GameState

SIX: Final = 6

# Enum members are slow to look up on Python 3.11; the steps run every hand, so
# they compare against these module constants.
_ALL_NONTRUMPS: Final = DiscardPolicy.ALL_NONTRUMPS
_ANY_CARDS: Final = DiscardPolicy.ANY_CARDS
_AT_LEAST_3_ANY: Final = DiscardPolicy.AT_LEAST_3_ANY
_NO_DISCARD: Final = DiscardPolicy.NONE
_NO_CLAIM: Final = TrumpDiscardClaim.NONE
_KEEP_AND_BURY: Final = ExcessTrumps.KEEP_AND_BURY
_PASS_TO_PARTNER: Final = ExcessTrumps.PASS_TO_PARTNER
_KEEP: Final = Verb.KEEP
_ACTIVE: Final = Status.ACTIVE


def _fmt(mask: int) -> str:
    return format_cards(cards_of(mask))


class Steps:
    """The exchange's own state in one hand: its steps, how far they ran, the decision they wait for.

    ``GameState`` holds one (``_exchange``) and copies it with ``copy``; the cards
    themselves move through the state's own methods (the "exchange's moves" there).
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


def start(state: GameState) -> Steps:
    """This hand's steps, once trumps are known (the state keeps them: ``GameState._exchange``)."""
    plans = state._exchange.plans
    dealer = state._dealer
    plan = plans.get(dealer)
    if plan is None:
        plan = plans[dealer] = plan_steps(state._rules, dealer)
    return Steps(plans, list(plan))


def plan_steps(rules: Ruleset, dealer: int) -> tuple[tuple[str, int], ...]:
    """The steps of a hand dealt by ``dealer`` (steps may add others as they run)."""
    n = rules.players
    order = [(dealer + 1 + i) % n for i in range(n)]
    others = order[:-1]
    steps: list[tuple[str, int]] = []
    # under keep_and_bury an excess step acts only on kept non-trumps (``_excess_step``)
    excess = rules.excess_trumps != ExcessTrumps.KEEP_AND_BURY or rules.keep_nontrumps
    if rules.fold:
        steps += [("fold", s) for s in order]
    reduce = rules.discard == DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST
    giving = rules.excess_trumps == ExcessTrumps.PASS_TO_PARTNER and rules.partnerships
    if rules.discard != DiscardPolicy.NONE:
        for s in order:
            if reduce and giving:
                steps.append(("give", s))
            steps.append(("discard", s))
    fill = rules.fill
    if rules.nine_card_deal and not reduce and excess:
        # note E9: excess trumps go to partner before the fill
        steps += [("excess", s) for s in others]
    if fill == FillPolicy.FILL_ALL_FROM_TOP:
        steps += [("fill", s) for s in order]
    elif fill != FillPolicy.NONE:
        steps += [("fill", s) for s in others]
    if rules.trump_discard_claim != TrumpDiscardClaim.NONE:
        steps.append(("claims", dealer))
    if not reduce and not rules.nine_card_deal and excess:
        steps += [("excess", s) for s in others]
    if fill == FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS:
        steps.append(("rob", dealer))
    elif fill == FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6:
        steps.append(("take_stock", dealer))
    elif fill == FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS:
        steps.append(("pick", dealer))
    if not reduce and excess:
        steps.append(("excess", dealer))
    return tuple(steps)


def step(state: GameState) -> int:
    """Run steps until one waits for a decision: the seat that decides, or -1 when none is left.

    The decision is ``state._exchange.choice``; when the steps are done the state
    starts the card play.
    """
    ex = state._exchange
    steps = ex.steps  # steps may insert further steps into this list
    while ex.index < len(steps):
        kind, seat = steps[ex.index]
        run = _STEPS.get(kind) or _STEPS[_base_kind(kind)]
        choice = run(state, seat)
        if choice is not None:
            ex.choice = choice
            return seat
        ex.done.add(steps[ex.index])  # as ``_finish_step``
        ex.index += 1
    ex.choice = None
    return -1


def _base_kind(kind: str) -> str:
    """A step's kind without its argument (``claim:2`` is a ``claim``)."""
    return kind if ":" not in kind else kind.split(":")[0]


def _finish_step(ex: Steps) -> None:
    ex.done.add(ex.steps[ex.index])
    ex.index += 1
    ex.choice = None


def apply(state: GameState, seat: int, action: int) -> None:
    ex = state._exchange
    kind, _ = ex.steps[ex.index]
    _APPLY[_base_kind(kind)](state, seat, action)
    _finish_step(ex)


# ---------------------------------------------------------------- helpers


def _tt(state: GameState) -> TrumpTables:
    assert state._tt is not None
    return state._tt


def lay_aside(state: GameState, seat: int, mask: int, *, dead: bool = False, up: int = 0) -> None:
    """Move cards from a hand to that seat's discards, face up or down by the rules (and ``up``
    face up whatever the rules), or killed (``dead``): out of play face up."""
    if dead:
        state._kill(seat, mask)
        return
    rules = state._rules
    trump_mask = _tt(state).trump_mask
    if rules.trump_discards_face_up:
        up |= mask & trump_mask
    if rules.discards_face_up:
        up |= mask & ~trump_mask
    state._lay_aside(seat, mask, up)


def _partner(state: GameState, seat: int) -> int:
    return (seat + 2) % state._players


def _category_minimal(tt: TrumpTables, pool: int, k: int) -> tuple[int, ...]:
    """Sorted categories of the cheapest ``k`` cards of ``pool`` (note J6 / K19 order)."""
    return tuple(sorted(discard_category(tt, c) for c in cards_of(pool))[:k])


# A card choice's check is an object of plain values, never a closure: a choice is part of an
# observation, which must not reach the state (nor, through it, a hidden card).


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class _CheapestTrumps:
    """The trumps chosen are the cheapest of the pool, by category (note J6 / K19 order)."""

    tt: TrumpTables
    cheapest: tuple[int, ...]  # sorted categories of the cheapest trumps
    what: str

    def __call__(self, mask: int) -> str | None:
        tt = self.tt
        got = tuple(sorted(discard_category(tt, c) for c in cards_of(mask & tt.trump_mask)))
        if got != self.cheapest:
            return N_("{what}: non-scoring trumps first, then the two, then 1-point trumps").format(
                what=self.what
            )
        return None


def _minimal_check(tt: TrumpTables, pool: int, k: int, what: str) -> tuple[Check, str]:
    return _CheapestTrumps(tt, _category_minimal(tt, pool, k), what), what


def _any_trumps(_mask: int) -> str | None:
    """Any trumps may be laid aside (a check all sets pass, but one that must be asked)."""
    return None


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class _NontrumpsOut:
    """``all_nontrumps``: every non-trump goes, or under ``keep_nontrumps`` at most six cards are kept
    unless all of them are trumps."""

    hand: int
    trump_mask: int
    keep_nontrumps: bool
    #: the refusal of a set that keeps a non-trump, written once: listing the cards for each set
    #: that ``CardChoice.masks`` turns down took most of the time of a cinch hand's exchange
    keeps_a_nontrump: str

    def __call__(self, mask: int) -> str | None:
        kept = self.hand & ~mask
        if self.keep_nontrumps:
            if kept.bit_count() > SIX and kept & ~self.trump_mask:
                return N_("keep at most {six} cards unless all of them are trumps").format(six=SIX)
        elif kept & ~self.trump_mask:
            return self.keeps_a_nontrump
        return None


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class _GiveLimits:
    """A gift of trumps to partner: enough scoring trumps to keep six, and the partner held to six.

    ``most`` follows from the partner's hidden hand: it is kept only as far as it
    decides which gifts are legal, which the gifts offered show anyway.
    """

    scoring_mask: int
    least: int  # scoring trumps that must be given
    most: int  # scoring trumps the partner may take

    def __call__(self, mask: int) -> str | None:
        given = (mask & self.scoring_mask).bit_count()
        if given < self.least:
            return N_("you hold {held} scoring trumps and may keep only {six}: give the excess").format(
                held=self.least + SIX, six=SIX
            )
        if given > self.most:
            return N_("your partner would hold more than {six} scoring trumps").format(six=SIX)
        return None


# ---------------------------------------------------------------- fold (king_pedro_canadian)


def _fold_step(state: GameState, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = state._rules
    tt = _tt(state)
    if state._status[seat] != _ACTIVE:
        return None
    hand = state._hands[seat]
    trumps = hand & tt.trump_mask
    t = trumps.bit_count()
    if t == 0:
        if rules.fold_mandatory:
            _fold(state, seat)
            return None
        return (PASS, FOLD)
    low = any(tt.roles[c] == "2" for c in cards_of(trumps))
    partner = _partner(state, seat)
    if (
        (t == 1 or (t == 2 and low))
        and rules.partnerships
        and state._status[partner] == _ACTIVE
        and not any(frm == partner for frm, _ in state._received[seat])
        and not _leaves_partner_stuck(state, partner, trumps)
    ):
        return (PASS, cards_action(Verb.GIVE, trumps))
    return None


def _leaves_partner_stuck(state: GameState, partner: int, given: int) -> bool:
    """Under ``pass_to_partner`` scoring trumps are never discarded, so a partner given a
    seventh scoring trump could not reduce to six: such a gift is refused (docs/rules.md §excess-trumps)."""
    if state._rules.excess_trumps != ExcessTrumps.PASS_TO_PARTNER:
        return False
    scoring = _tt(state).scoring_mask
    return ((state._hands[partner] | given) & scoring).bit_count() > SIX


def _fold(state: GameState, seat: int) -> None:
    state._fold(seat)


def _apply_fold(state: GameState, seat: int, action: int) -> None:
    if action == FOLD:
        _fold(state, seat)
    elif verb_of(action) == Verb.GIVE:
        _give(state, seat, arg_of(action))
        _fold(state, seat)


def _give(state: GameState, seat: int, mask: int) -> None:
    state._give(seat, _partner(state, seat), mask)


# ---------------------------------------------------------------- discard


def _discard_step(state: GameState, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = state._rules
    if state._status[seat] != _ACTIVE:
        return None
    hand = state._hands[seat]
    n = hand.bit_count()
    policy = rules.discard
    if policy == _ALL_NONTRUMPS:
        return _all_nontrumps_choice(state, seat)
    if policy == _ANY_CARDS:
        low = max(0, n - rules.play_hand_size)
        return _card_choice(
            Verb.DISCARD, hand, list(range(low, n + 1)),
            N_("discard any {low} or more of your cards").format(low=low) if low
            else N_("discard any cards you do not want"),
        )  # fmt: skip
    if policy == _AT_LEAST_3_ANY:
        stock = len(state._stock) - state._stock_pos
        cap = min(n, 3 + max(0, stock - state._exchange.committed))
        return _card_choice(
            Verb.DISCARD, hand, list(range(min(3, n), cap + 1)),
            N_("discard at least 3 and at most {cap} cards (the talon can refill only so many)").format(
                cap=cap
            ),
        )  # fmt: skip
    return _reduce_choice(state, seat)


def _trumps_may_be_discarded(rules: Ruleset) -> bool:
    """House rules under which throwing away trumps matters (C5: robbing or claiming discards)."""
    return rules.dealer_robs_discards or rules.trump_discard_claim != _NO_CLAIM


def _all_nontrumps_choice(state: GameState, seat: int) -> CardChoice | None:
    """``all_nontrumps``; ``keep_nontrumps`` lets a player keep some, robbing rules let him throw trumps."""
    rules = state._rules
    tt = state._tt
    assert tt is not None
    hand = state._hands[seat]
    nontrumps = hand & ~tt.trump_mask
    throw_trumps = _trumps_may_be_discarded(rules)
    if not rules.keep_nontrumps and not throw_trumps:
        if nontrumps:
            lay_aside(state, seat, nontrumps)
        return None
    pool = hand if throw_trumps else nontrumps
    keep_rule = rules.keep_nontrumps
    rule = (
        N_("discard every non-trump")
        if not keep_rule
        else N_("discard non-trumps to keep at most {six} cards").format(six=SIX)
    )
    if throw_trumps:
        rule = N_("{rule}; trumps may be thrown away too").format(rule=rule)
    sizes = list(range(pool.bit_count() + 1))
    keeps_a_nontrump = N_("every non-trump must be discarded ({cards})").format(cards=_fmt(nontrumps))
    check = _NontrumpsOut(hand, tt.trump_mask, keep_rule, keeps_a_nontrump)
    return _card_choice(Verb.DISCARD, pool, sizes, rule, check)


def _card_choice(
    verb: Verb, pool: int, sizes: list[int], rule: str, check: Check | None = None
) -> CardChoice:
    """A card choice where choosing nothing is written as ``pass``."""
    alternatives = (PASS,) if 0 in sizes and (check is None or check(0) is None) else ()
    positive = tuple(k for k in sizes if k > 0)
    if check is None:
        return CardChoice(verb, pool, positive, rule, alternatives=alternatives)
    return CardChoice(verb, pool, positive, rule, check, alternatives)


def _reduce_choice(state: GameState, seat: int) -> CardChoice | None:
    """``reduce_to_6_nontrumps_first`` with the variant's excess-trump policy."""
    rules = state._rules
    tt = _tt(state)
    hand = state._hands[seat]
    n = hand.bit_count()
    nontrumps = hand & ~tt.trump_mask
    trumps = hand & tt.trump_mask
    t = trumps.bit_count()
    policy = rules.excess_trumps
    if n <= SIX:
        return None
    if policy == _PASS_TO_PARTNER:
        # note E10: non-scoring trumps may be discarded freely, scoring trumps never
        pool = hand & ~tt.scoring_mask
        return CardChoice(
            Verb.DISCARD, pool, (n - SIX,),
            N_("discard {n} cards to keep {six}; scoring trumps may not be discarded").format(
                n=n - SIX, six=SIX
            ),
        )  # fmt: skip
    if t <= SIX:
        return CardChoice(
            Verb.DISCARD,
            nontrumps,
            (n - SIX,),
            N_("discard {n} non-trumps to keep {six} cards, all trumps kept").format(n=n - SIX, six=SIX),
        )
    if policy == _KEEP_AND_BURY:
        lay_aside(state, seat, nontrumps)
        return None
    over = t - SIX
    check, rule = _excess_check(state, seat, trumps, over)
    full = n - SIX

    return CardChoice(
        Verb.DISCARD,
        hand,
        (full,),
        N_("discard all non-trumps and {over} trumps: {rule}").format(over=over, rule=rule),
        check,
        required=nontrumps,
    )


def _excess_check(state: GameState, seat: int, trumps: int, over: int) -> tuple[Check, str]:
    rules = state._rules
    tt = _tt(state)
    policy = rules.excess_trumps
    if (
        policy == ExcessTrumps.MUST_DISCARD_TO_6
        and rules.discarded_scoring_trumps == DiscardedScoringTrumps.TO_OPPONENTS
    ):
        return _any_trumps, N_("any trumps (scoring ones are credited to the opponents)")
    if policy in (
        ExcessTrumps.DISCARD_NONSCORING_FACE_UP,
        ExcessTrumps.KILL_NONSCORING_FACE_UP,
        ExcessTrumps.MUST_DISCARD_TO_6,
        ExcessTrumps.PASS_TO_PARTNER,
    ):
        return _minimal_check(tt, trumps, over, N_("non-scoring trumps only, where possible"))
    return _any_trumps, N_("any trumps")


def _apply_discard(state: GameState, seat: int, action: int) -> None:
    if action == PASS:
        return
    mask = arg_of(action)
    rules = state._rules
    tt = _tt(state)
    if rules.discard == _AT_LEAST_3_ANY:
        state._exchange.committed += max(0, mask.bit_count() - 3)
    _credit_scoring_discards(state, seat, mask & tt.trump_mask & tt.scoring_mask)
    lay_aside(state, seat, mask)


# ---------------------------------------------------------------- claims of face-up trumps (note C5)


def _claims_step(state: GameState, seat: int) -> None:
    """After the fills, offer each face-up discarded trump to the eligible players (note C5).

    Claims wait for the fills so that a claimant who threw away all his
    non-trumps has one again to give in exchange (docs/rules.md, edge case 99).
    """
    rules = state._rules
    tt = _tt(state)
    n = state._players
    order = [(state._dealer + 1 + i) % n for i in range(n)]
    steps: list[tuple[str, int]] = []
    for discarder in order:
        if not state._discards[discarder] & tt.trump_mask & state._face_up:
            continue
        claimants = [(discarder + i) % n for i in range(1, n)]
        if rules.trump_discard_claim == TrumpDiscardClaim.OPPONENTS:
            claimants = [c for c in claimants if rules.side_of(c) != rules.side_of(discarder)]
        steps += [(f"claim:{discarder}", c) for c in claimants]
    ex = state._exchange
    ex.steps[ex.index + 1 : ex.index + 1] = steps
    return None


def _claim_step(state: GameState, seat: int) -> tuple[int, ...] | None:
    """A face-up discarded trump may be taken by giving a non-trump face up for it."""
    tt = _tt(state)
    kind, _ = state._exchange.steps[state._exchange.index]
    discarder = int(kind.split(":")[1])
    trumps = state._discards[discarder] & tt.trump_mask & state._face_up
    nontrumps = state._hands[seat] & ~tt.trump_mask
    if not trumps or not nontrumps or state._status[seat] != _ACTIVE:
        return None
    claims = [
        cards_action(Verb.CLAIM, (1 << t) | (1 << c)) for t in cards_of(trumps) for c in cards_of(nontrumps)
    ]
    return (PASS, *claims)


def _apply_claim(state: GameState, seat: int, action: int) -> None:
    if action == PASS:
        return
    tt = _tt(state)
    kind, _ = state._exchange.steps[state._exchange.index]
    discarder = int(kind.split(":")[1])
    mask = arg_of(action)
    state._claim(seat, discarder, mask & tt.trump_mask, mask & ~tt.trump_mask)


def _credit_scoring_discards(state: GameState, seat: int, scoring: int) -> None:
    """Notes K11/K19 and option ``discarded_scoring_trumps = to_opponents``."""
    if not scoring:
        return
    rules = state._rules
    tt = _tt(state)
    points = sum(tt.points[c] for c in cards_of(scoring))
    side = rules.side_of(seat)
    if rules.excess_trumps == ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        state._credit(side, points, scoring)
    elif rules.excess_trumps == ExcessTrumps.MUST_DISCARD_TO_6:
        opponents = [other for other in range(rules.num_sides) if other != side]
        state._credit(opponents[0], points, scoring)


# ---------------------------------------------------------------- give (pass_to_partner)


def _give_step(state: GameState, seat: int) -> tuple[int, ...] | CardChoice | None:
    tt = _tt(state)
    if state._status[seat] != _ACTIVE:
        return None
    hand = state._hands[seat]
    trumps = hand & tt.trump_mask
    over = trumps.bit_count() - SIX
    if over <= 0:
        return None
    partner = _partner(state, seat)
    if any(frm == partner for frm, _ in state._received[seat]):
        return None
    scoring = tt.scoring_mask
    own_scoring = (trumps & scoring).bit_count()
    partner_scoring = (state._hands[partner] & tt.trump_mask & scoring).bit_count()
    least = own_scoring - SIX
    most = max(min(SIX - partner_scoring, over, own_scoring), least - 1, -1)  # (see _GiveLimits)
    check = _GiveLimits(scoring, least, most)
    sizes = list(range(1, over + 1))
    alternatives = (PASS,) if own_scoring <= SIX else ()
    return CardChoice(
        Verb.GIVE, trumps, tuple(sizes),
        N_("give up to {over} trumps to your partner (or pass and discard non-scoring trumps)").format(
            over=over
        ),
        check, alternatives,
    )  # fmt: skip


def _apply_give(state: GameState, seat: int, action: int) -> None:
    if action == PASS:
        return
    _give(state, seat, arg_of(action))
    partner = _partner(state, seat)
    reduce = state._rules.discard == DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST
    kind = "discard" if reduce else "excess_discard"
    ex = state._exchange
    if (kind, partner) in ex.done or ("excess", partner) in ex.done:
        ex.steps.insert(ex.index + 1, (kind, partner))


# ---------------------------------------------------------------- fills and the dealer's pick


def _fill_step(state: GameState, seat: int) -> None:
    if state._status[seat] != _ACTIVE:
        return None
    want = state._rules.play_hand_size - state._hands[seat].bit_count()
    if want > 0:
        state._give_from_stock(seat, want)
    return None


def _take_rest(state: GameState, seat: int) -> int:
    """The dealer looks through the rest of the stock: its cards leave the stock."""
    return state._look_through_stock(seat)


def _rob_step(state: GameState, seat: int) -> CardChoice | None:
    """``dealer_fills_others_then_robs``: all stock trumps, then non-trumps up to 6."""
    rules = state._rules
    tt = _tt(state)
    rest = _take_rest(state, seat)
    state._receive(seat, rest & tt.trump_mask)
    ex = state._exchange
    ex.pool = rest & ~tt.trump_mask
    extra = 0
    if rules.dealer_robs_discards:
        for s in range(state._players):
            if s != seat:
                state._see(seat, state._discards[s])
                extra |= state._discards[s] & tt.trump_mask
    # the non-trumps from the stock come next, as a step of their own
    ex.steps.insert(ex.index + 1, ("rob_stock", seat))
    if extra:
        return CardChoice(
            _KEEP, extra, tuple(range(1, extra.bit_count() + 1)),
            N_("take any of the trumps in the other players' discards (or pass)"),
            alternatives=(PASS,),
        )  # fmt: skip
    return None


def _rob_stock_step(state: GameState, seat: int) -> CardChoice | None:
    """The dealer's non-trumps from the stock, only to make six cards."""
    have = state._hands[seat].bit_count()
    pool_nt = state._exchange.pool
    need = max(0, SIX - have)
    if need == 0 or pool_nt.bit_count() <= need:
        _take(state, seat, pool_nt if need else 0)
        _finish_rob(state, seat)
        return None
    return CardChoice(
        _KEEP,
        pool_nt,
        (need,),
        N_("keep {need} non-trumps from the stock to make {six} cards").format(need=need, six=SIX),
    )


def _apply_rob_discards(state: GameState, seat: int, action: int) -> None:
    if action != PASS:
        _take(state, seat, arg_of(action))


def _take(state: GameState, seat: int, mask: int) -> None:
    state._take(seat, mask)


def _finish_rob(state: GameState, seat: int) -> None:
    """Leftover stock cards are out of play; a short stock is made up from the wash."""
    left = state._exchange.pool & ~state._hands[seat]
    state._out_of_play(left)
    want = SIX - state._hands[seat].bit_count()
    if want > 0:
        state._give_from_stock(seat, want)


def _apply_keep(state: GameState, seat: int, action: int) -> None:
    if action != PASS:
        _take(state, seat, arg_of(action))
    kind = state._exchange.steps[state._exchange.index][0]
    if kind == "rob_stock":
        _finish_rob(state, seat)
    elif kind == "take_stock":
        _finish_take_stock(state, seat)
    else:
        _finish_pick(state, seat)


def _take_stock_step(state: GameState, seat: int) -> CardChoice | None:
    """``pidro``: the dealer takes the rest of the stock and keeps six, trumps first."""
    tt = _tt(state)
    rest = _take_rest(state, seat)
    state._receive(seat, rest & tt.trump_mask)
    pool = state._exchange.pool = rest & ~tt.trump_mask
    have = state._hands[seat].bit_count()
    need = max(0, SIX - have)
    if need == 0 or pool.bit_count() <= need:
        _take(state, seat, pool if need else 0)
        _finish_take_stock(state, seat)
        return None
    return CardChoice(
        _KEEP,
        pool,
        (need,),
        N_("keep {need} non-trumps of the stock to make {six} cards").format(need=need, six=SIX),
    )


def _finish_take_stock(state: GameState, seat: int) -> None:
    left = state._exchange.pool & ~state._hands[seat]
    if left:
        # the dealer took the whole stock, then laid these aside
        state._lay_aside(seat, left, left if state._rules.discards_face_up else 0, drawn=True)
    want = SIX - state._hands[seat].bit_count()
    if want > 0:
        state._give_from_stock(seat, want)


def _pick_step(state: GameState, seat: int) -> CardChoice | None:
    """``nicaragua``: the dealer makes his hand up from the stock and the others' discards."""
    rules = state._rules
    rest = _take_rest(state, seat)
    others = 0
    for s in range(state._players):
        if s != seat:
            others |= state._discards[s]
    state._see(seat, others)
    pool = rest | others
    state._exchange.pool = rest
    need = rules.play_hand_size - state._hands[seat].bit_count()
    if need <= 0:
        _finish_pick(state, seat)
        return None
    if pool.bit_count() <= need:
        _take(state, seat, pool)
        _finish_pick(state, seat)
        return None
    return CardChoice(
        _KEEP,
        pool,
        (need,),
        N_("take {need} cards from the stock and the other players' discards").format(need=need),
    )


def _finish_pick(state: GameState, seat: int) -> None:
    state._out_of_play(state._exchange.pool & ~state._hands[seat])
    want = state._rules.play_hand_size - state._hands[seat].bit_count()
    if want > 0:
        state._give_from_stock(seat, want)


# ---------------------------------------------------------------- excess trumps after the fill


def _excess_step(state: GameState, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = state._rules
    if state._status[seat] != _ACTIVE:
        return None
    hand = state._hands[seat]
    over = hand.bit_count() - SIX
    policy = rules.excess_trumps
    if over <= 0:
        return None
    nontrumps = hand & ~_tt(state).trump_mask
    if nontrumps and rules.keep_nontrumps:
        # a dealer who kept non-trumps and then had to take the stock's trumps:
        # only a hand of trumps may exceed six, so non-trumps go first
        k = min(over, nontrumps.bit_count())
        state._exchange.steps.insert(state._exchange.index + 1, ("excess", seat))
        return CardChoice(
            Verb.DISCARD,
            nontrumps,
            (k,),
            N_("discard {k} non-trumps: only trumps may exceed {six}").format(k=k, six=SIX),
        )
    if policy == _KEEP_AND_BURY:
        return None
    if rules.discard in (_ANY_CARDS, _NO_DISCARD) and policy != _PASS_TO_PARTNER:
        return None  # nicaragua's seven and undiscarded hands have no excess rule
    if policy == _PASS_TO_PARTNER and rules.partnerships:
        choice = _give_step(state, seat)
        if choice is not None:
            state._exchange.steps.insert(state._exchange.index + 1, ("excess_discard", seat))
            return choice
    return _excess_discard_step(state, seat)


def _excess_discard_step(state: GameState, seat: int) -> CardChoice | None:
    rules = state._rules
    tt = _tt(state)
    hand = state._hands[seat]
    over = hand.bit_count() - SIX
    if over <= 0:
        return None
    trumps = hand & tt.trump_mask
    verb = Verb.KILL if rules.excess_trumps == ExcessTrumps.KILL_NONSCORING_FACE_UP else Verb.DISCARD
    pool = hand
    if rules.excess_trumps == ExcessTrumps.PASS_TO_PARTNER:
        nonscoring = hand & ~tt.scoring_mask
        if nonscoring.bit_count() >= over:
            return CardChoice(verb, nonscoring, (over,), f"discard {over} non-scoring cards to keep {SIX}")
        # note E9: a dealer given trumps by his partner may not give back; with too few
        # non-scoring cards he discards the cheapest scoring trumps, as under note J6
    check, rule = _excess_check(state, seat, trumps, over)
    verb_word = "kill" if verb == Verb.KILL else "discard"
    return CardChoice(verb, pool, (over,), f"{verb_word} {over} trumps face up: {rule}", check)


def _apply_excess(state: GameState, seat: int, action: int) -> None:
    verb = verb_of(action)
    if verb == Verb.GIVE or action == PASS:
        _apply_give(state, seat, action)
        return
    mask = arg_of(action)
    if not mask & _tt(state).trump_mask:  # non-trumps shed from an over-full hand
        lay_aside(state, seat, mask)
        return
    if verb == Verb.KILL:
        lay_aside(state, seat, mask, dead=True)
        return
    tt = _tt(state)
    _credit_scoring_discards(state, seat, mask & tt.scoring_mask)
    lay_aside(state, seat, mask, up=mask & tt.trump_mask)


_STEPS: Final = {
    "fold": _fold_step,
    "discard": _discard_step,
    "give": _give_step,
    "fill": _fill_step,
    "rob": _rob_step,
    "rob_stock": _rob_stock_step,
    "take_stock": _take_stock_step,
    "pick": _pick_step,
    "excess": _excess_step,
    "excess_discard": _excess_discard_step,
    "claims": _claims_step,
    "claim": _claim_step,
}
_APPLY: Final = {
    "fold": _apply_fold,
    "discard": _apply_discard,
    "give": _apply_give,
    "fill": lambda state, seat, action: None,
    "rob": _apply_rob_discards,
    "rob_stock": _apply_keep,
    "take_stock": _apply_keep,
    "pick": _apply_keep,
    "excess": _apply_excess,
    "excess_discard": _apply_excess,
    "claims": lambda state, seat, action: None,
    "claim": _apply_claim,
}
