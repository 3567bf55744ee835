"""Solving a position with the compiled kernel: ``mem`` filled in, a ``SolveResult`` out.

The kernel (``pedro.solver.kernel``) runs every position of every catalog
variant and house rule, with one exception, including the multi-card plays of
the first trick (``keep_and_bury``): each seat's possible stacks are listed
here once, from the engine's own ``stack_plays`` (a seat's hand does not
change before it plays to the first trick), and the kernel keeps those whose
top card is legal. The exception, which ``supports`` rejects and ``solve``
searches in Python (``pedro.solver.search``): the ``relative_high_low``
option, where High and Low are the extreme trumps *played* and Game a
majority, so the points are not a sum over the cards each side takes. (Tables
with more than ``MAX_SEATS`` seats would fall back too; no variant has them.)
"""

from __future__ import annotations

import threading

import numpy as np

from pedro.engine.actions import CARD_BITS, PLAY_BASE, play_top
from pedro.engine.phases import Status
from pedro.engine.play import legal_play_mask, stack_plays
from pedro.engine.play_position import PlayPosition
from pedro.engine.scoring import TrickCards, count_points
from pedro.solver.search import SolveResult, low_owners, trick_state
from pedro.solver.tables import CARDS, ROWS, Int64s, RuleArrays, max_seats, rule_arrays
from pedro.variants.model import ExcessTrumps
from pedro.variants.tables import TrumpTables

#: Transposition table entries (a power of two): some 16 MB per thread.
TABLE_SIZE = 1 << 17
#: Moves one turn may have in the reusable buffers (single cards; longer stack lists get more).
MAX_MOVES = 32
#: Seats the kernel's table keys have room for.
MAX_SEATS = 8


class _Memory(threading.local):
    """One thread's ``mem`` for the kernel, kept from one solve to the next.

    The table is not cleared between solves: each solve bumps a generation
    number and entries of older generations read as empty. The rules are
    copied in only when they change.
    """

    def __init__(self) -> None:
        self.mem = np.zeros(0, dtype=np.int64)
        self.width = 0
        self.stack_width = -1
        self.rules: RuleArrays | None = None

    def ready(self, arrays: RuleArrays, width: int, stack_width: int) -> Int64s:
        from pedro.solver import kernel as k

        if width > self.width or stack_width > self.stack_width:
            width = max(width, self.width)
            stack_width = max(stack_width, self.stack_width)
            keys, vals, moves, scores, stacks, total = k.layout(TABLE_SIZE, width, stack_width)
            mem = np.zeros(total, dtype=np.int64)
            if self.mem.size:
                mem[k.GEN] = self.mem[k.GEN]
            mem[k.WIDTH] = width
            mem[k.TABLE] = TABLE_SIZE
            mem[k.STACK_WIDTH] = stack_width
            mem[k.KEYS_AT] = keys
            mem[k.VALS_AT] = vals
            mem[k.MOVES_AT] = moves
            mem[k.SCORES_AT] = scores
            mem[k.STACKS_AT] = stacks
            self.mem, self.width, self.stack_width, self.rules = mem, width, stack_width, None
        mem = self.mem
        if self.rules is not arrays:
            mem[: arrays.cfg.size] = arrays.cfg
            mem[k.ROWS_AT : k.ROWS_AT + ROWS * CARDS] = arrays.rows.ravel()
            mem[k.BETWEEN_AT : k.BETWEEN_AT + CARDS * CARDS] = arrays.between.ravel()
            mem[k.TRUMP_COUNT] = arrays.trumps_desc.size
            mem[k.TRUMPS_AT : k.TRUMPS_AT + arrays.trumps_desc.size] = arrays.trumps_desc
            self.rules = arrays
        return mem


_MEMORY = _Memory()


def supports(pos: PlayPosition) -> bool:
    """Whether the kernel can solve ``pos`` (else ``pedro.solver.search`` does)."""
    return not pos.rules.relative_high_low and pos.rules.players <= MAX_SEATS


def solve_kernel(pos: PlayPosition, same_deal: bool = False) -> SolveResult:
    """The ``SolveResult`` of ``pos`` from the compiled search (``supports(pos)`` must hold).

    ``same_deal``: ``pos`` and the position of the previous solve in this thread
    both follow by plays from one position (one deal, the same tricks before), so
    the transposition table that solve filled is kept: every entry is a position
    that a search of the common position reaches too, where the table is sound.
    A sampling player valuing each play of one guessed deal in turn saves much of
    the work.
    """
    if not supports(pos):
        raise ValueError("the compiled search does not handle this position (relative_high_low)")
    from pedro.solver import kernel as k  # compiles, or loads numba's cache, on first use

    rules = pos.rules
    tt = pos.tables
    arrays = rule_arrays(rules, pos.trump)
    seat = pos.to_move
    first = not pos.tricks
    stacks = _stacks(pos) if first else []
    led, bseat, bkey = trick_state(pos)
    actions = _root_actions(pos, tt, stacks, led)
    root_moves = np.array([[a & CARD_BITS, play_top(a)] for a in actions], dtype=np.int64).reshape(-1, 2)
    tcards, tpts, active, upper = _points_in_play(pos, tt, arrays)
    if not pos.plays:
        bseat = seat
    # the kernel's memory
    stack_width = max((len(x) for x in stacks), default=0)
    mem = _MEMORY.ready(arrays, max(MAX_MOVES, stack_width), stack_width)
    mem[k.NODES] = 0
    if not same_deal:
        mem[k.GEN] += 1
    mem[k.MAX_SEATS] = max_seats(rules, pos.bidder)
    mem[k.HAND_SIZE] = pos.normal_hand_size
    mem[k.HANDS_AT : k.HANDS_AT + rules.players] = pos.hands
    mem[k.STACK_COUNTS_AT : k.STACK_COUNTS_AT + MAX_SEATS] = 0
    at = int(mem[k.STACKS_AT])
    width = int(mem[k.STACK_WIDTH])
    for s, plays in enumerate(stacks):
        mem[k.STACK_COUNTS_AT + s] = len(plays)
        for j, a in enumerate(plays):
            mem[at + (s * width + j) * 2] = a & CARD_BITS
            mem[at + (s * width + j) * 2 + 1] = play_top(a)
    optimal = np.zeros(len(actions), dtype=np.bool_)
    future = k.solve_root(
        mem, active, pos.leader, len(pos.plays), seat, led, bseat, bkey, tpts, tcards, first,
        pos.first_lead_pending, root_moves, upper, optimal,
    )  # fmt: skip
    value = int(future) + _base(pos)
    best = tuple(a for a, ok in zip(actions, optimal, strict=True) if ok)
    return SolveResult(
        value=value,
        bidder=pos.bidder,
        bidder_side=rules.side_of(pos.bidder),
        to_move=seat,
        best=best,
        values=dict.fromkeys(best, value),
        nodes=int(mem[k.NODES]),
    )


def _root_actions(pos: PlayPosition, tt: TrumpTables, stacks: list[list[int]], led: int) -> list[int]:
    """The root's moves: exactly the engine's legal plays (stacks where the seat plays one)."""
    seat = pos.to_move
    hand = pos.hands[seat]
    first = not pos.tricks
    legal = legal_play_mask(tt, hand, led, first and led < 0 and pos.first_lead_pending)
    if stacks and stacks[seat]:
        return stack_plays(pos.rules, tt, hand, legal, hand.bit_count() - (pos.normal_hand_size - 1))
    actions = []
    m = legal
    while m:
        low = m & -m
        m ^= low
        actions.append(PLAY_BASE | low)
    return actions


def _points_in_play(pos: PlayPosition, tt: TrumpTables, arrays: RuleArrays) -> tuple[int, int, int, int]:
    """The cards of the trick so far and their points, the active seats (a mask), and the points
    still to take: those of the trick and of the active seats' hands (the search's upper bound)."""
    tcards = 0
    for _s, a in pos.plays:
        tcards |= a & CARD_BITS
    counted = arrays.counted
    tpts = sum(tt.points[c] for c in range(CARDS) if (tcards & counted) >> c & 1)
    active = sum(1 << s for s in range(pos.rules.players) if pos.statuses[s] == Status.ACTIVE)
    live = tcards
    for s in range(pos.rules.players):
        if active >> s & 1:
            live |= pos.hands[s]
    upper = sum(tt.points[c] for c in range(CARDS) if (live & counted) >> c & 1)
    return tcards, tpts, active, upper


def _stacks(pos: PlayPosition) -> list[list[int]]:
    """Per seat, every stack (a play action) it may play to the first trick, whatever is led.

    Only seats holding more than a normal hand play stacks (``keep_and_bury``);
    the kernel keeps those whose top card is legal when the seat's turn comes.
    Empty when no seat plays a stack.
    """
    rules = pos.rules
    if rules.excess_trumps != ExcessTrumps.KEEP_AND_BURY:
        return []
    tt = pos.tables
    lists: list[list[int]] = [[] for _ in range(rules.players)]
    for s, hand in enumerate(pos.hands):
        size = hand.bit_count() - (pos.normal_hand_size - 1)
        if size > 1:
            lists[s] = stack_plays(rules, tt, hand, hand, size)
    return lists if any(lists) else []


def _base(pos: PlayPosition) -> int:
    """Points the bidder's side has already: tricks taken, credits, and the Low of its holder or receiver."""
    rules = pos.rules
    holder_of, dealt_to = low_owners(pos)
    done = [TrickCards(w, tuple((s, a & CARD_BITS) for s, a in plays)) for w, plays in pos.tricks]
    points, _ = count_points(rules, pos.tables, done, holder_of, dealt_to, list(pos.credits), pos.credited)
    return points[rules.side_of(pos.bidder)]
