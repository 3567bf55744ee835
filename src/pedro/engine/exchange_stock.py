"""The exchange's steps that deal from the stock: the fills, and the dealer's rob, take or pick of it.

Each step, of ``pedro.engine.exchange``'s dispatch, either happens by itself or poses the
dealer's choice of what to keep; the cards move through the state's ``TableMoves``.
"""

from __future__ import annotations

from typing import Final

from pedro.engine.actions import PASS, Verb, arg_of
from pedro.engine.choices import CardChoice
from pedro.engine.exchange_checks import SIX
from pedro.engine.exchange_plan import Steps
from pedro.engine.phases import Status
from pedro.engine.table import TableMoves
from pedro.marks import N_

_KEEP: Final = Verb.KEEP
_ACTIVE: Final = Status.ACTIVE


def fill_step(t: TableMoves, ex: Steps, seat: int) -> None:
    if t.status(seat) != _ACTIVE:
        return None
    want = t.rules.play_hand_size - t.hand(seat).bit_count()
    if want > 0:
        t.deal_from_stock(seat, want)
    return None


def rob_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    """``dealer_fills_others_then_robs``: all stock trumps, then non-trumps up to 6."""
    rules = t.rules
    tt = t.trump_tables
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


def rob_stock_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
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


def apply_rob_discards(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action != PASS:
        t.take(seat, arg_of(action))


def _finish_rob(t: TableMoves, ex: Steps, seat: int) -> None:
    """Leftover stock cards are out of play; a short stock is made up from the wash."""
    left = ex.pool & ~t.hand(seat)
    t.out_of_play(left)
    want = SIX - t.hand(seat).bit_count()
    if want > 0:
        t.deal_from_stock(seat, want)


def apply_keep(t: TableMoves, ex: Steps, seat: int, action: int) -> None:
    if action != PASS:
        t.take(seat, arg_of(action))
    kind = ex.steps[ex.index][0]
    if kind == "rob_stock":
        _finish_rob(t, ex, seat)
    elif kind == "take_stock":
        _finish_take_stock(t, ex, seat)
    else:
        _finish_pick(t, ex, seat)


def take_stock_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
    """``pidro``: the dealer takes the rest of the stock and keeps six, trumps first."""
    tt = t.trump_tables
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


def pick_step(t: TableMoves, ex: Steps, seat: int) -> CardChoice | None:
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
