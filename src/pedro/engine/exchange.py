"""Rule hook 3: everything between naming trumps and the first lead (docs/rules.md §exchange).

What each step of the exchange does (``pedro.engine.exchange_plan`` plans them): a step
either happens by itself (forced) or poses one decision, whose card choice keeps to the
checks of ``pedro.engine.exchange_checks``. The cards move through the ``TableMoves`` the
state hands over (``pedro.engine.table``); the exchange's own state is its ``Steps``.
"""

from __future__ import annotations

from typing import Final

from pedro.cards import cards_of, format_cards
from pedro.engine.actions import FOLD, PASS, Verb, arg_of, cards_action, verb_of
from pedro.engine.choices import CardChoice
from pedro.engine.exchange_checks import (
    SIX,
    GiveLimits,
    NontrumpsOut,
    card_choice,
    excess_check,
)
from pedro.engine.exchange_plan import Steps
from pedro.engine.exchange_stock import (
    apply_keep,
    apply_rob_discards,
    fill_step,
    pick_step,
    rob_step,
    rob_stock_step,
    take_stock_step,
)
from pedro.engine.phases import Status
from pedro.engine.table import TableMoves
from pedro.marks import N_
from pedro.variants.model import DiscardPolicy, ExcessTrumps, Ruleset, TrumpDiscardClaim

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


def lay_aside(t: TableMoves, seat: int, mask: int, *, dead: bool = False, up: int = 0) -> None:
    """Move cards from a hand to that seat's discards, face up or down by the rules (and ``up``
    face up whatever the rules), or killed (``dead``): out of play face up."""
    if dead:
        t.kill(seat, mask)
        return
    rules = t.rules
    trump_mask = t.trump_tables.trump_mask
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


# ---------------------------------------------------------------- fold (king_pedro_canadian)


def _fold_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | CardChoice | None:
    rules = t.rules
    tt = t.trump_tables
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
    scoring = t.trump_tables.scoring_mask
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
        return card_choice(
            Verb.DISCARD, hand, list(range(low, n + 1)),
            N_("discard any {low} or more of your cards").format(low=low) if low
            else N_("discard any cards you do not want"),
        )  # fmt: skip
    if policy == _AT_LEAST_3_ANY:
        cap = min(n, 3 + max(0, t.stock_left - ex.committed))
        return card_choice(
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
    tt = t.trump_tables
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
    check = NontrumpsOut(hand, tt.trump_mask, keep_rule, keeps_a_nontrump)
    return card_choice(Verb.DISCARD, pool, sizes, rule, check)


def _reduce_choice(t: TableMoves, seat: int) -> CardChoice | None:
    """``reduce_to_6_nontrumps_first`` with the variant's excess-trump policy."""
    rules = t.rules
    tt = t.trump_tables
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
    check, rule = excess_check(t.rules, t.trump_tables, trumps, over)
    full = n - SIX

    return CardChoice(
        Verb.DISCARD,
        hand,
        (full,),
        N_("discard all non-trumps and {over} trumps: {rule}").format(over=over, rule=rule),
        check,
        required=nontrumps,
    )


def _apply_discard(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action == PASS:
        return
    mask = arg_of(action)
    rules = t.rules
    tt = t.trump_tables
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
    tt = t.trump_tables
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
    tt = t.trump_tables
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
    tt = t.trump_tables
    kind, _ = ex.steps[ex.index]
    discarder = int(kind.split(":")[1])
    mask = arg_of(action)
    t.claim(seat, discarder, mask & tt.trump_mask, mask & ~tt.trump_mask)


def _credit_scoring_discards(t: TableMoves, seat: int, scoring: int) -> None:
    """Notes K11/K19 and option ``discarded_scoring_trumps = to_opponents``."""
    if not scoring:
        return
    rules = t.rules
    tt = t.trump_tables
    points = sum(tt.points[c] for c in cards_of(scoring))
    side = rules.side_of(seat)
    if rules.excess_trumps == ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        t.credit(side, points, scoring)
    elif rules.excess_trumps == ExcessTrumps.MUST_DISCARD_TO_6:
        opponents = [other for other in range(rules.num_sides) if other != side]
        t.credit(opponents[0], points, scoring)


# ---------------------------------------------------------------- give (pass_to_partner)


def _give_step(t: TableMoves, ex: Steps, seat: int) -> tuple[int, ...] | CardChoice | None:
    tt = t.trump_tables
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
    most = max(min(SIX - partner_scoring, over, own_scoring), least - 1, -1)  # (see GiveLimits)
    check = GiveLimits(scoring, least, most)
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
    nontrumps = hand & ~t.trump_tables.trump_mask
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
    tt = t.trump_tables
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
    check, rule = excess_check(t.rules, t.trump_tables, trumps, over)
    verb_word = "kill" if verb == Verb.KILL else "discard"
    return CardChoice(verb, pool, (over,), f"{verb_word} {over} trumps face up: {rule}", check)


def _apply_excess(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    verb = verb_of(action)
    if verb == Verb.GIVE or action == PASS:
        _apply_give(t, ex, seat, action)
        return
    mask = arg_of(action)
    if not mask & t.trump_tables.trump_mask:  # non-trumps shed from an over-full hand
        lay_aside(t, seat, mask)
        return
    if verb == Verb.KILL:
        lay_aside(t, seat, mask, dead=True)
        return
    tt = t.trump_tables
    _credit_scoring_discards(t, seat, mask & tt.scoring_mask)
    lay_aside(t, seat, mask, up=mask & tt.trump_mask)


def _no_decision(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    """A step that poses no decision (a fill, the offer of claims) is never applied."""


_STEPS: Final = {
    "fold": _fold_step,
    "discard": _discard_step,
    "give": _give_step,
    "fill": fill_step,
    "rob": rob_step,
    "rob_stock": rob_stock_step,
    "take_stock": take_stock_step,
    "pick": pick_step,
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
    "rob": apply_rob_discards,
    "rob_stock": apply_keep,
    "take_stock": apply_keep,
    "pick": apply_keep,
    "excess": _apply_excess,
    "excess_discard": _apply_excess,
    "claims": _no_decision,
    "claim": _apply_claim,
}
