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
from typing import Final

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of, format_cards
from pedro.engine.actions import FOLD, PASS, Verb, arg_of, cards_action, verb_of
from pedro.engine.choices import CardChoice, Check
from pedro.engine.phases import Status
from pedro.engine.play import discard_category
from pedro.engine.table import TableMoves
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

    ``GameState`` holds one and copies it with ``copy``; the cards themselves move
    through the ``TableMoves`` the state hands to ``step`` and ``apply`` (``pedro.engine.table``).
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


def step(t: TableMoves, ex: Steps) -> int:
    """Run steps until one waits for a decision: the seat that decides, or -1 when none is left.

    The decision is ``ex.choice``; when the steps are done the state starts the card play.
    """
    steps = ex.steps  # steps may insert further steps into this list
    while ex.index < len(steps):
        kind, seat = steps[ex.index]
        run = _STEPS.get(kind) or _STEPS[_base_kind(kind)]
        choice = run(t, ex, seat)
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


def apply(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    """``seat`` makes the decision the current step waits for."""
    kind, _ = ex.steps[ex.index]
    _APPLY[_base_kind(kind)](t, ex, seat, action)
    _finish_step(ex)


# ---------------------------------------------------------------- helpers


def _tt(t: TableMoves) -> TrumpTables:
    tt = t.tables
    assert tt is not None
    return tt


def lay_aside(t: TableMoves, seat: int, mask: int, *, dead: bool = False, up: int = 0) -> None:
    """Move cards from a hand to that seat's discards, face up or down by the rules (and ``up``
    face up whatever the rules), or killed (``dead``): out of play face up."""
    if dead:
        t.kill(seat, mask)
        return
    rules = t.rules
    trump_mask = _tt(t).trump_mask
    if rules.trump_discards_face_up:
        up |= mask & trump_mask
    if rules.discards_face_up:
        up |= mask & ~trump_mask
    t.lay_aside(seat, mask, up)


def _partner(t: TableMoves, seat: int) -> int:
    return (seat + 2) % t.players


def _from_partner(t: TableMoves, seat: int, partner: int) -> bool:
    """``seat`` got a gift from ``partner`` this hand (a seat gives back nothing)."""
    return any(frm == partner for frm, _ in t.received(seat))


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


def _fold_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = t.rules
    tt = _tt(t)
    if t.status(seat) != _ACTIVE:
        return None
    hand = t.hand(seat)
    trumps = hand & tt.trump_mask
    held = trumps.bit_count()
    if held == 0:
        if rules.fold_mandatory:
            t.fold(seat)
            return None
        return (PASS, FOLD)
    low = any(tt.roles[c] == "2" for c in cards_of(trumps))
    partner = _partner(t, seat)
    if (
        (held == 1 or (held == 2 and low))
        and rules.partnerships
        and t.status(partner) == _ACTIVE
        and not _from_partner(t, seat, partner)
        and not _leaves_partner_stuck(t, partner, trumps)
    ):
        return (PASS, cards_action(Verb.GIVE, trumps))
    return None


def _leaves_partner_stuck(t: TableMoves, partner: int, given: int) -> bool:
    """Under ``pass_to_partner`` scoring trumps are never discarded, so a partner given a
    seventh scoring trump could not reduce to six: such a gift is refused (docs/rules.md §excess-trumps)."""
    if t.rules.excess_trumps != ExcessTrumps.PASS_TO_PARTNER:
        return False
    scoring = _tt(t).scoring_mask
    return ((t.hand(partner) | given) & scoring).bit_count() > SIX


def _apply_fold(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action == FOLD:
        t.fold(seat)
    elif verb_of(action) == Verb.GIVE:
        _give(t, seat, arg_of(action))
        t.fold(seat)


def _give(t: TableMoves, seat: int, mask: int) -> None:
    t.give(seat, _partner(t, seat), mask)


# ---------------------------------------------------------------- discard


def _discard_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = t.rules
    if t.status(seat) != _ACTIVE:
        return None
    hand = t.hand(seat)
    n = hand.bit_count()
    policy = rules.discard
    if policy == _ALL_NONTRUMPS:
        return _all_nontrumps_choice(t, seat)
    if policy == _ANY_CARDS:
        low = max(0, n - rules.play_hand_size)
        return _card_choice(
            Verb.DISCARD, hand, list(range(low, n + 1)),
            N_("discard any {low} or more of your cards").format(low=low) if low
            else N_("discard any cards you do not want"),
        )  # fmt: skip
    if policy == _AT_LEAST_3_ANY:
        cap = min(n, 3 + max(0, t.stock_left - ex.committed))
        return _card_choice(
            Verb.DISCARD, hand, list(range(min(3, n), cap + 1)),
            N_("discard at least 3 and at most {cap} cards (the talon can refill only so many)").format(
                cap=cap
            ),
        )  # fmt: skip
    return _reduce_choice(t, seat)


def _trumps_may_be_discarded(rules: Ruleset) -> bool:
    """House rules under which throwing away trumps matters (C5: robbing or claiming discards)."""
    return rules.dealer_robs_discards or rules.trump_discard_claim != _NO_CLAIM


def _all_nontrumps_choice(t: TableMoves, seat: int) -> CardChoice | None:
    """``all_nontrumps``; ``keep_nontrumps`` lets a player keep some, robbing rules let him throw trumps."""
    rules = t.rules
    tt = _tt(t)
    hand = t.hand(seat)
    nontrumps = hand & ~tt.trump_mask
    throw_trumps = _trumps_may_be_discarded(rules)
    if not rules.keep_nontrumps and not throw_trumps:
        if nontrumps:
            lay_aside(t, seat, nontrumps)
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


def _reduce_choice(t: TableMoves, seat: int) -> CardChoice | None:
    """``reduce_to_6_nontrumps_first`` with the variant's excess-trump policy."""
    rules = t.rules
    tt = _tt(t)
    hand = t.hand(seat)
    n = hand.bit_count()
    nontrumps = hand & ~tt.trump_mask
    trumps = hand & tt.trump_mask
    held = trumps.bit_count()
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
    if held <= SIX:
        return CardChoice(
            Verb.DISCARD,
            nontrumps,
            (n - SIX,),
            N_("discard {n} non-trumps to keep {six} cards, all trumps kept").format(n=n - SIX, six=SIX),
        )
    if policy == _KEEP_AND_BURY:
        lay_aside(t, seat, nontrumps)
        return None
    over = held - SIX
    check, rule = _excess_check(t, seat, trumps, over)
    full = n - SIX

    return CardChoice(
        Verb.DISCARD,
        hand,
        (full,),
        N_("discard all non-trumps and {over} trumps: {rule}").format(over=over, rule=rule),
        check,
        required=nontrumps,
    )


def _excess_check(t: TableMoves, seat: int, trumps: int, over: int) -> tuple[Check, str]:
    rules = t.rules
    tt = _tt(t)
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


def _apply_discard(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action == PASS:
        return
    mask = arg_of(action)
    rules = t.rules
    tt = _tt(t)
    if rules.discard == _AT_LEAST_3_ANY:
        ex.committed += max(0, mask.bit_count() - 3)
    _credit_scoring_discards(t, seat, mask & tt.trump_mask & tt.scoring_mask)
    lay_aside(t, seat, mask)


# ---------------------------------------------------------------- claims of face-up trumps (note C5)


def _claims_step(t: TableMoves, ex: Steps, seat: int) -> None:
    """After the fills, offer each face-up discarded trump to the eligible players (note C5).

    Claims wait for the fills so that a claimant who threw away all his
    non-trumps has one again to give in exchange (docs/rules.md, edge case 99).
    """
    rules = t.rules
    tt = _tt(t)
    n = t.players
    order = [(t.dealer + 1 + i) % n for i in range(n)]
    steps: list[tuple[str, int]] = []
    for discarder in order:
        if not t.discards(discarder) & tt.trump_mask & t.face_up:
            continue
        claimants = [(discarder + i) % n for i in range(1, n)]
        if rules.trump_discard_claim == TrumpDiscardClaim.OPPONENTS:
            claimants = [c for c in claimants if rules.side_of(c) != rules.side_of(discarder)]
        steps += [(f"claim:{discarder}", c) for c in claimants]
    ex.steps[ex.index + 1 : ex.index + 1] = steps
    return None


def _claim_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | None:
    """A face-up discarded trump may be taken by giving a non-trump face up for it."""
    tt = _tt(t)
    kind, _ = ex.steps[ex.index]
    discarder = int(kind.split(":")[1])
    trumps = t.discards(discarder) & tt.trump_mask & t.face_up
    nontrumps = t.hand(seat) & ~tt.trump_mask
    if not trumps or not nontrumps or t.status(seat) != _ACTIVE:
        return None
    claims = [
        cards_action(Verb.CLAIM, (1 << trump) | (1 << c))
        for trump in cards_of(trumps)
        for c in cards_of(nontrumps)
    ]
    return (PASS, *claims)


def _apply_claim(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action == PASS:
        return
    tt = _tt(t)
    kind, _ = ex.steps[ex.index]
    discarder = int(kind.split(":")[1])
    mask = arg_of(action)
    t.claim(seat, discarder, mask & tt.trump_mask, mask & ~tt.trump_mask)


def _credit_scoring_discards(t: TableMoves, seat: int, scoring: int) -> None:
    """Notes K11/K19 and option ``discarded_scoring_trumps = to_opponents``."""
    if not scoring:
        return
    rules = t.rules
    tt = _tt(t)
    points = sum(tt.points[c] for c in cards_of(scoring))
    side = rules.side_of(seat)
    if rules.excess_trumps == ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        t.credit(side, points, scoring)
    elif rules.excess_trumps == ExcessTrumps.MUST_DISCARD_TO_6:
        opponents = [other for other in range(rules.num_sides) if other != side]
        t.credit(opponents[0], points, scoring)


# ---------------------------------------------------------------- give (pass_to_partner)


def _give_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | CardChoice | None:
    tt = _tt(t)
    if t.status(seat) != _ACTIVE:
        return None
    hand = t.hand(seat)
    trumps = hand & tt.trump_mask
    over = trumps.bit_count() - SIX
    if over <= 0:
        return None
    partner = _partner(t, seat)
    if _from_partner(t, seat, partner):
        return None
    scoring = tt.scoring_mask
    own_scoring = (trumps & scoring).bit_count()
    partner_scoring = (t.hand(partner) & tt.trump_mask & scoring).bit_count()
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


def _apply_give(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action == PASS:
        return
    _give(t, seat, arg_of(action))
    partner = _partner(t, seat)
    reduce = t.rules.discard == DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST
    kind = "discard" if reduce else "excess_discard"
    if (kind, partner) in ex.done or ("excess", partner) in ex.done:
        ex.steps.insert(ex.index + 1, (kind, partner))


# ---------------------------------------------------------------- fills and the dealer's pick


def _fill_step(t: TableMoves, ex: Steps, seat: int) -> None:
    if t.status(seat) != _ACTIVE:
        return None
    want = t.rules.play_hand_size - t.hand(seat).bit_count()
    if want > 0:
        t.deal_from_stock(seat, want)
    return None


def _rob_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    """``dealer_fills_others_then_robs``: all stock trumps, then non-trumps up to 6."""
    rules = t.rules
    tt = _tt(t)
    rest = t.look_through_stock(seat)
    t.receive(seat, rest & tt.trump_mask)
    ex.pool = rest & ~tt.trump_mask
    extra = 0
    if rules.dealer_robs_discards:
        for s in range(t.players):
            if s != seat:
                t.see(seat, t.discards(s))
                extra |= t.discards(s) & tt.trump_mask
    # the non-trumps from the stock come next, as a step of their own
    ex.steps.insert(ex.index + 1, ("rob_stock", seat))
    if extra:
        return CardChoice(
            _KEEP, extra, tuple(range(1, extra.bit_count() + 1)),
            N_("take any of the trumps in the other players' discards (or pass)"),
            alternatives=(PASS,),
        )  # fmt: skip
    return None


def _rob_stock_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    """The dealer's non-trumps from the stock, only to make six cards."""
    have = t.hand(seat).bit_count()
    pool_nt = ex.pool
    need = max(0, SIX - have)
    if need == 0 or pool_nt.bit_count() <= need:
        t.take(seat, pool_nt if need else 0)
        _finish_rob(t, ex, seat)
        return None
    return CardChoice(
        _KEEP,
        pool_nt,
        (need,),
        N_("keep {need} non-trumps from the stock to make {six} cards").format(need=need, six=SIX),
    )


def _apply_rob_discards(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action != PASS:
        t.take(seat, arg_of(action))


def _finish_rob(t: TableMoves, ex: Steps, seat: int) -> None:
    """Leftover stock cards are out of play; a short stock is made up from the wash."""
    left = ex.pool & ~t.hand(seat)
    t.out_of_play(left)
    want = SIX - t.hand(seat).bit_count()
    if want > 0:
        t.deal_from_stock(seat, want)


def _apply_keep(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action != PASS:
        t.take(seat, arg_of(action))
    kind = ex.steps[ex.index][0]
    if kind == "rob_stock":
        _finish_rob(t, ex, seat)
    elif kind == "take_stock":
        _finish_take_stock(t, ex, seat)
    else:
        _finish_pick(t, ex, seat)


def _take_stock_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    """``pidro``: the dealer takes the rest of the stock and keeps six, trumps first."""
    tt = _tt(t)
    rest = t.look_through_stock(seat)
    t.receive(seat, rest & tt.trump_mask)
    pool = ex.pool = rest & ~tt.trump_mask
    have = t.hand(seat).bit_count()
    need = max(0, SIX - have)
    if need == 0 or pool.bit_count() <= need:
        t.take(seat, pool if need else 0)
        _finish_take_stock(t, ex, seat)
        return None
    return CardChoice(
        _KEEP,
        pool,
        (need,),
        N_("keep {need} non-trumps of the stock to make {six} cards").format(need=need, six=SIX),
    )


def _finish_take_stock(t: TableMoves, ex: Steps, seat: int) -> None:
    left = ex.pool & ~t.hand(seat)
    if left:
        # the dealer took the whole stock, then laid these aside
        t.lay_aside(seat, left, left if t.rules.discards_face_up else 0, drawn=True)
    want = SIX - t.hand(seat).bit_count()
    if want > 0:
        t.deal_from_stock(seat, want)


def _pick_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    """``nicaragua``: the dealer makes his hand up from the stock and the others' discards."""
    rules = t.rules
    rest = t.look_through_stock(seat)
    others = 0
    for s in range(t.players):
        if s != seat:
            others |= t.discards(s)
    t.see(seat, others)
    pool = rest | others
    ex.pool = rest
    need = rules.play_hand_size - t.hand(seat).bit_count()
    if need <= 0:
        _finish_pick(t, ex, seat)
        return None
    if pool.bit_count() <= need:
        t.take(seat, pool)
        _finish_pick(t, ex, seat)
        return None
    return CardChoice(
        _KEEP,
        pool,
        (need,),
        N_("take {need} cards from the stock and the other players' discards").format(need=need),
    )


def _finish_pick(t: TableMoves, ex: Steps, seat: int) -> None:
    t.out_of_play(ex.pool & ~t.hand(seat))
    want = t.rules.play_hand_size - t.hand(seat).bit_count()
    if want > 0:
        t.deal_from_stock(seat, want)


# ---------------------------------------------------------------- excess trumps after the fill


def _excess_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = t.rules
    if t.status(seat) != _ACTIVE:
        return None
    hand = t.hand(seat)
    over = hand.bit_count() - SIX
    policy = rules.excess_trumps
    if over <= 0:
        return None
    nontrumps = hand & ~_tt(t).trump_mask
    if nontrumps and rules.keep_nontrumps:
        # a dealer who kept non-trumps and then had to take the stock's trumps:
        # only a hand of trumps may exceed six, so non-trumps go first
        k = min(over, nontrumps.bit_count())
        ex.steps.insert(ex.index + 1, ("excess", seat))
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
        choice = _give_step(t, ex, seat)
        if choice is not None:
            ex.steps.insert(ex.index + 1, ("excess_discard", seat))
            return choice
    return _excess_discard_step(t, ex, seat)


def _excess_discard_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    rules = t.rules
    tt = _tt(t)
    hand = t.hand(seat)
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
    check, rule = _excess_check(t, seat, trumps, over)
    verb_word = "kill" if verb == Verb.KILL else "discard"
    return CardChoice(verb, pool, (over,), f"{verb_word} {over} trumps face up: {rule}", check)


def _apply_excess(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    verb = verb_of(action)
    if verb == Verb.GIVE or action == PASS:
        _apply_give(t, ex, seat, action)
        return
    mask = arg_of(action)
    if not mask & _tt(t).trump_mask:  # non-trumps shed from an over-full hand
        lay_aside(t, seat, mask)
        return
    if verb == Verb.KILL:
        lay_aside(t, seat, mask, dead=True)
        return
    tt = _tt(t)
    _credit_scoring_discards(t, seat, mask & tt.scoring_mask)
    lay_aside(t, seat, mask, up=mask & tt.trump_mask)


def _no_decision(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    """A step that poses no decision (a fill, the offer of claims) is never applied."""


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
    "fill": _no_decision,
    "rob": _apply_rob_discards,
    "rob_stock": _apply_keep,
    "take_stock": _apply_keep,
    "pick": _apply_keep,
    "excess": _apply_excess,
    "excess_discard": _apply_excess,
    "claims": _no_decision,
    "claim": _apply_claim,
}
