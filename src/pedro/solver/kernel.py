"""The compiled play search: alpha-beta over int64 card masks, compiled with numba.

It is the search of ``pedro.solver.search`` (same turn order, same value)
written for numba. Everything it reads and writes lives in one int64 array,
``mem`` (laid out below): the rules flattened by ``pedro.solver.tables``, the
hands (changed in place and restored), the transposition table and the move
buffers. One array keeps each recursive call cheap — numba reference-counts
every array argument. ``pedro.solver.fast`` fills ``mem`` from a
``PlayPosition`` and turns the answer into a ``SolveResult``.

The search:

- the value is the bidder's side's future points; the root finds it by
  bisection with null-window probes, and then which root moves reach it;
- at each trick boundary: the points still held by active seats bound the
  value from above, the points of the top trumps held by one side (they win
  their tricks) bound it from both sides, and the transposition table
  (hands in relative ranks, active seats, leader → bounds and best lead)
  cuts repeated work;
- cards of one class and as many points that no card of another seat
  separates (in one hand) are one move;
- moves are ordered: the table's best lead first, then trump leads from the
  top and plain leads from the bottom; follows by who is winning the trick.

It handles every variant and house rule except the ``relative_high_low``
option, which the Python search keeps (see ``pedro.solver.fast``).

numba's on-disk cache (next to this file, or in numba's user cache directory
or ``NUMBA_CACHE_DIR``) saves the compile time (some seconds) in later
processes; where no cache directory is writable, or with
``PEDRO_NUMBA_CACHE=0``, the kernel compiles in memory in each process.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit, types

from pedro.solver.tables import (
    CARDS,
    CFG_SIZE,
    COUNTED,
    FOLLOW_KEY,
    LEAD_KEY,
    NEEDED,
    ORDER_POINTS,
    OUT_RULE,
    PLAIN_MODE,
    PLAIN_SUIT,
    POINTS,
    POLICY,
    ROWS,
    STRENGTH,
    SUIT,
    TRUMPS,
    N,
)


def _probe() -> int:
    return 0


def _can_cache() -> bool:
    """Whether numba has somewhere to write its cache for this file.

    numba looks next to the source (``__pycache__``), then in the user's cache
    directory (or ``NUMBA_CACHE_DIR``); with none writable, ``cache=True``
    fails at import. Then the kernel compiles in memory in every process.
    """
    if os.environ.get("PEDRO_NUMBA_CACHE", "1") == "0":
        return False
    try:
        njit(cache=True)(_probe)  # only finds a cache directory: nothing is compiled
    except RuntimeError:
        return False
    return True


_CACHE = _can_cache()

# ---- the layout of ``mem``
#: header slots (after the ``CFG_SIZE`` rule integers at 0)
NODES = 16  # decisions searched
LEAD_BEST = 17  # best lead of the last trick searched (a card mask)
GEN = 18  # table generation: entries of older generations read as empty
WIDTH = 19  # moves one ply may hold in the move buffers
TABLE = 20  # table entries (a power of two)
MAX_SEATS = 21  # mask of the seats on the bidder's side (the maximizing side)
HAND_SIZE = 22  # a first-trick hand larger than this plays a stack
STACK_WIDTH = 23  # stacks listed per seat
TRUMP_COUNT = 24  # trumps in the pack
KEYS_AT = 25  # where the table keys start
VALS_AT = 26  # where the table values start
MOVES_AT = 27  # where the move buffers start
SCORES_AT = 28  # where the move scores start
STACKS_AT = 29  # where the stacks start
HEADER = 32
ROWS_AT = HEADER  # ``tables.ROWS`` rows of ``CARDS``
BETWEEN_AT = ROWS_AT + ROWS * CARDS  # ``CARDS`` x ``CARDS``: cards between two equivalent cards
TRUMPS_AT = BETWEEN_AT + CARDS * CARDS  # the trumps, strongest first
HANDS_AT = TRUMPS_AT + 24  # the hands, one per seat
STACK_COUNTS_AT = HANDS_AT + 8  # stacks per seat
GEN_AT = STACK_COUNTS_AT + 8  # the generation of each table entry
#: Plays in one search line: every card of the pack, with room to spare.
MAX_PLY = 64

#: Table key words (see ``canonical``): the hands in relative ranks (up to
#: ``KEY_HANDS`` seats), then active | leader << 8 | class sizes << 16, the point
#: cards still in play, and the relative ranks holding them.
KEY_HANDS = 8
KEY_META = KEY_HANDS
KEY_POINTS = KEY_HANDS + 1
KEY_SLOTS = KEY_HANDS + 2
KEY_WIDTH = KEY_HANDS + 3
#: Table value words.
LO = 0
HI = 1
HINT = 2
WORK = 3  # decisions the entry's search took: the cheaper entry of a bucket is replaced
VAL_WIDTH = 4

_INF = 1 << 30
_TRUMP_SUIT = 4
_OUT_UP = 1
_OUT_COLD = 2
_OUT_ON_TRUMP_LEAD = 3

_i8 = types.int64
_b1 = types.boolean
_V1 = types.Array(types.int64, 1, "C")
_V2 = types.Array(types.int64, 2, "C")
_B1 = types.Array(types.boolean, 1, "C")
_STATE = (_V1,) + (_i8,) * 9 + (_b1, _b1)  # mem, then the position (``node``'s first 12 arguments)
_NODE_SIG = _i8(*_STATE, _i8, _i8, _i8, _b1, _i8, _i8, _i8)
_ROOT_SIG = _i8(*_STATE, _V2, _i8, _B1)


def layout(table: int, width: int, stack_width: int) -> tuple[int, int, int, int, int, int]:
    """(keys, values, moves, scores, stacks, total size) offsets of ``mem`` for these sizes."""
    keys = GEN_AT + table
    vals = keys + (table + MAX_PLY) * KEY_WIDTH  # the rows after the table: each ply's scratch key
    moves = vals + table * VAL_WIDTH
    scores = moves + MAX_PLY * width * 2
    stacks = scores + MAX_PLY * width
    return keys, vals, moves, scores, stacks, stacks + KEY_HANDS * stack_width * 2


@njit(cache=_CACHE, inline="always")
def popcount(x: int) -> int:
    """Set bits of a non-negative mask below 2**63."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=_CACHE, inline="always")
def _sum_points(mem: np.ndarray, mask: int, row: int) -> int:
    total = 0
    base = ROWS_AT + row * CARDS
    while mask:
        low = mask & -mask
        total += mem[base + popcount(low - 1)]
        mask ^= low
    return total


@njit(cache=_CACHE, inline="always")
def legal_mask(mem: np.ndarray, hand: int, led: int, must_lead_trump: bool) -> int:
    """``pedro.engine.play.legal_play_mask`` on the flattened rules."""
    trumps = int(hand & mem[TRUMPS])
    cold = mem[OUT_RULE] == _OUT_COLD
    if led < 0:
        if trumps and (must_lead_trump or cold):
            return trumps
        return hand
    if led == _TRUMP_SUIT or cold:
        return trumps if trumps else hand
    policy = mem[POLICY]
    if policy == 0:  # any
        return hand
    suit = int(hand & mem[PLAIN_SUIT + led])
    if policy == 1:  # follow or trump
        return (suit | trumps) if suit else hand
    if policy == 2:  # must follow
        return suit if suit else hand
    if policy == 3:  # a non-trump if able
        plain = int(hand & ~mem[TRUMPS])
        return plain if plain else hand
    if suit:  # follow or trump, void must trump
        return suit | trumps
    return trumps if trumps else hand


@njit(cache=_CACHE, inline="always")
def _play_over(mem: np.ndarray, active: int, n: int) -> bool:
    needed = mem[NEEDED]
    for s in range(n):  # noqa: SIM110 (a plain loop: the compiled code needs no generator)
        if (active >> s) & 1 and mem[HANDS_AT + s] & needed:
            return False
    return True


@njit(cache=_CACHE, inline="always")
def _next_active(mem: np.ndarray, active: int, seat: int, n: int) -> int:
    for i in range(n):
        s = (seat + i) % n
        if (active >> s) & 1 and mem[HANDS_AT + s]:
            return s
    return -1


@njit(cache=_CACHE, inline="always")
def sure_points(mem: np.ndarray, max_live: int, min_live: int) -> tuple[int, int]:
    """Points of the top trumps still out that one side holds all of: they win their tricks.

    Every trump held by an active seat is played before the play ends, and
    nothing beats the highest trump still out: the run of top trumps held by
    one side (``max_live``: the cards of the bidder's side still in play,
    ``min_live``: the others') falls to that side. Returns (points sure for
    the bidder's side, points sure for the others).
    """
    owner = -1
    sure = 0
    for i in range(mem[TRUMP_COUNT]):
        c = mem[TRUMPS_AT + i]
        if (max_live >> c) & 1:
            side = 1
        elif (min_live >> c) & 1:
            side = 0
        else:
            continue  # played already, laid aside, or held by a seat out of the play
        if owner < 0:
            owner = side
        elif side != owner:
            break
        sure += mem[ROWS_AT + POINTS * CARDS + c]
    if owner == 1:
        return sure, 0
    if owner == 0:
        return 0, sure
    return 0, 0


@njit(cache=_CACHE, inline="always")
def canonical(mem: np.ndarray, active: int, leader: int, n: int, at: int) -> None:
    """Write the position at a trick boundary, in relative ranks, as a table key at ``mem[at:]``.

    Only the order of the cards still in play matters, not which cards were
    played: the live cards of each class (the trumps by strength, each plain
    suit by rank) are numbered from 0 upwards, and each seat's hand becomes a
    mask of those numbers. Where plain cards do not rank and carry no points,
    a class is just how many cards each seat holds. The point cards still in
    play and the numbers they hold complete the key, so two positions with one
    key play out alike. Seats out of the play hold nothing that matters.
    """
    live = 0
    for s in range(n):
        mem[at + s] = 0
        if (active >> s) & 1:
            live |= mem[HANDS_AT + s]
    counted = mem[COUNTED]
    slot = 0
    slots_of_points = 0
    for i in range(mem[TRUMP_COUNT]):  # the trumps by strength
        c = mem[TRUMPS_AT + i]
        if (live >> c) & 1:
            for s in range(n):
                if (mem[HANDS_AT + s] >> c) & 1:
                    mem[at + s] |= 1 << slot
                    break
            if (counted >> c) & 1:
                slots_of_points |= 1 << slot
            slot += 1
    sizes = slot
    mode = mem[PLAIN_MODE]
    for suit in range(4):
        if mode == 2:
            if suit > 0:
                break
            cls = live & (mem[PLAIN_SUIT] | mem[PLAIN_SUIT + 1] | mem[PLAIN_SUIT + 2] | mem[PLAIN_SUIT + 3])
        else:
            cls = live & mem[PLAIN_SUIT + suit]
        start = slot
        if mode == 0:
            m = cls
            while m:
                low = m & -m
                m ^= low
                for s in range(n):
                    if mem[HANDS_AT + s] & low:
                        mem[at + s] |= 1 << slot
                        break
                if counted & low:
                    slots_of_points |= 1 << slot
                slot += 1
        else:
            # no ranks and no points: how many each seat holds
            for s in range(n):
                k = popcount(mem[HANDS_AT + s] & cls)
                if k:
                    mem[at + s] |= ((1 << k) - 1) << slot
                    slot += k
        sizes |= (slot - start) << (6 * (suit + 1))
    mem[at + KEY_META] = active | (leader << 8) | (sizes << 16)
    mem[at + KEY_POINTS] = live & counted
    mem[at + KEY_SLOTS] = slots_of_points


@njit(cache=_CACHE, inline="always")
def _score(mem: np.ndarray, cards: int, top: int, nplays: int, led: int, bkey: int, friend_wins: bool) -> int:
    """How promising a move looks (higher first): trump leads from the top, then plain leads
    from the bottom; in a trick, give points to a partner who is winning, win cheaply with
    points when the other side is winning, and throw the least otherwise."""
    strength = int(mem[ROWS_AT + STRENGTH * CARDS + top])
    if nplays == 0:
        return strength * 4 + (0 if strength else 13 - top % 13)
    if cards == (1 << top):
        p = int(mem[ROWS_AT + ORDER_POINTS * CARDS + top])
    else:
        p = _sum_points(mem, cards, ORDER_POINTS)
    key = int(mem[ROWS_AT + (FOLLOW_KEY + led) * CARDS + top])
    if friend_wins:
        return p * 50 - (key % 1000 if key > bkey else 0)
    if key > bkey:
        return 1000 + p * 50 - key % 1000
    return -p * 50 - key % 1000


@njit(cache=_CACHE, inline="always")
def _victim(mem: np.ndarray, bucket: int, gen: int) -> int:
    """The entry of a bucket to replace: an empty one, else the one whose search was cheaper."""
    work = mem[VALS_AT] + bucket * VAL_WIDTH + WORK
    first = mem[work] if mem[GEN_AT + bucket] == gen else -1
    second = mem[work + VAL_WIDTH] if mem[GEN_AT + bucket + 1] == gen else -1
    return bucket if first <= second else bucket + 1


@njit(cache=_CACHE, inline="always")
def _hash(mem: np.ndarray, at: int, n: int, size: int) -> int:
    # int64 products wrap around: a multiplicative hash (odd constants below 2**63)
    h = int(mem[at + KEY_META]) * 0x2545F4914F6CDD1D
    for s in range(n):
        h = (h ^ int(mem[at + s])) * 0x7E3779B97F4A7C15
        h ^= (h >> 29) & 0x7FFFFFFFF
    h = (h ^ int(mem[at + KEY_SLOTS])) * 0x7E3779B97F4A7C15
    h ^= int(mem[at + KEY_POINTS])
    return (h ^ (h >> 31)) & (size - 1)


# one flat function on purpose: numba compiles it whole; calls and objects would cost its speed
@njit(_NODE_SIG, cache=_CACHE)
def node(
    mem: np.ndarray,
    active: int,
    leader: int,
    nplays: int,
    seat: int,
    led: int,
    bseat: int,
    bkey: int,
    tpts: int,
    tcards: int,
    first: bool,
    flp: bool,
    hint: int,
    only: int,
    only_top: int,
    boundary: bool,
    ply: int,
    alpha: int,
    beta: int,
) -> int:
    """The bidder's side's future points, searched in the window (alpha, beta).

    ``boundary``: the trick just closed, won by ``bseat`` with ``tpts``
    points in it (the up rule, the end of the play, the next leader, the
    bounds and the table are handled here). Otherwise it is ``seat``'s turn
    (``GameState._prepare_play_turn`` onwards) in a trick led by ``leader``
    with ``nplays`` plays so far (``tcards``), ``first`` in the first trick,
    ``flp`` while the first lead must be a trump; ``hint`` is a lead to try
    first; ``only`` (a card mask, with ``only_top``) restricts the turn to one
    move, for the root's probes.
    """
    # constants computed from the data, so that numba types them int64 and boolean: a
    # literal argument (0, False) would compile another copy of ``node`` for its call
    zero = int(mem[N]) * 0
    none = zero - 1
    no = zero != 0
    yes = zero == 0
    n = mem[N]
    trump_mask = mem[TRUMPS]
    out_rule = mem[OUT_RULE]
    max_seats = mem[MAX_SEATS]
    if boundary:
        gain = tpts if (max_seats >> bseat) & 1 else 0
        if out_rule == _OUT_UP:
            for s in range(n):
                if (active >> s) & 1 and not mem[HANDS_AT + s] & trump_mask:
                    active &= ~(1 << s)
        if _play_over(mem, active, n):
            return gain
        if mem[NEEDED] == -1 and active == (1 << n) - 1:
            leader = bseat  # everyone still holds cards when all play every trick
        else:
            leader = _next_active(mem, active, bseat, n)
        alpha -= gain
        beta -= gain
        max_live = 0
        min_live = 0
        for s in range(n):
            if (active >> s) & 1:
                if (max_seats >> s) & 1:
                    max_live |= mem[HANDS_AT + s]
                else:
                    min_live |= mem[HANDS_AT + s]
        remaining = _sum_points(mem, (max_live | min_live) & mem[COUNTED], POINTS)
        if remaining <= alpha:
            return gain + remaining
        if beta <= 0:
            return gain
        sure_max, sure_min = sure_points(mem, max_live, min_live)
        upper = remaining - sure_min
        if upper <= alpha:
            return gain + upper
        if sure_max >= beta:
            return gain + sure_max
        size = mem[TABLE]
        keys = mem[KEYS_AT]
        scratch = keys + (size + ply) * KEY_WIDTH
        canonical(mem, active, leader, n, scratch)
        # two entries per bucket: the key's own if stored, else the emptier or cheaper one
        gen = mem[GEN]
        bucket = _hash(mem, scratch, n, size) & ~1
        idx = -1
        for k in range(2):
            slot = bucket + k
            if mem[GEN_AT + slot] == gen:
                entry = keys + slot * KEY_WIDTH
                same = True
                for j in range(KEY_WIDTH):
                    if mem[entry + j] != mem[scratch + j]:
                        same = False
                        break
                if same:
                    idx = slot
                    break
        found = idx >= 0
        lo = sure_max
        hi = upper
        hint = 0
        if found:
            vals = mem[VALS_AT] + idx * VAL_WIDTH
            lo = max(lo, int(mem[vals + LO]))
            hi = min(hi, int(mem[vals + HI]))
            hint = int(mem[vals + HINT])
            if lo >= beta:
                return gain + lo
            if hi <= alpha:
                return gain + hi
            if lo == hi:
                return gain + lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        a0 = alpha
        b0 = beta
        mem[LEAD_BEST] = 0
        nodes = mem[NODES]
        v = node(mem, active, leader, zero, leader, none, leader, zero, zero, zero, no, no,
                 hint, zero, zero, no, ply, alpha, beta)  # fmt: skip
        best_lead = mem[LEAD_BEST]
        work = mem[NODES] - nodes
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = v
            hi = v
        # the search below used other scratch rows only (deeper plies): the key is intact;
        # the bucket may have changed meanwhile
        if not found or mem[GEN_AT + idx] != gen:
            idx = _victim(mem, bucket, gen)
        entry = keys + idx * KEY_WIDTH
        vals = mem[VALS_AT] + idx * VAL_WIDTH
        mem[GEN_AT + idx] = gen
        for j in range(KEY_WIDTH):
            mem[entry + j] = mem[scratch + j]
        mem[vals + LO] = lo
        mem[vals + HI] = hi
        mem[vals + HINT] = best_lead if best_lead else hint
        mem[vals + WORK] = work
        return gain + v

    # ---- whose turn (``TurnOrder.turn``)
    while True:
        if nplays == 0 and _play_over(mem, active, n):
            return 0
        hand = mem[HANDS_AT + seat]
        skip = False
        if not (active >> seat) & 1 or not hand:
            skip = True
        elif not hand & trump_mask and (
            out_rule == _OUT_COLD or (out_rule == _OUT_ON_TRUMP_LEAD and led == _TRUMP_SUIT)
        ):
            active &= ~(1 << seat)
            skip = True
        if not skip:
            break
        nxt = (seat + 1) % n
        if nxt == leader:
            if nplays == 0:
                return 0
            return node(mem, active, leader, zero, leader, none, bseat, zero, tpts, zero, no, no,
                        zero, zero, zero, yes, ply, alpha, beta)  # fmt: skip
        if nplays == 0:
            after = _next_active(mem, active, nxt, n)
            if after == -1 or after == leader:
                return 0
            leader = nxt
        seat = nxt

    # ---- the moves
    mem[NODES] += 1
    hand = mem[HANDS_AT + seat]
    maximizing = (max_seats >> seat) & 1 == 1
    width = mem[WIDTH]
    mv = mem[MOVES_AT] + ply * width * 2  # (cards, top) pairs
    sc = mem[SCORES_AT] + ply * width
    count = 0
    if only:
        mem[mv] = only
        mem[mv + 1] = only_top
        count = 1
    else:
        legal = legal_mask(mem, hand, led, first and flp and led < 0)
        stack_count = mem[STACK_COUNTS_AT + seat]
        if first and stack_count and popcount(hand) > mem[HAND_SIZE]:
            st = mem[STACKS_AT] + seat * mem[STACK_WIDTH] * 2
            for j in range(stack_count):
                top = mem[st + 2 * j + 1]
                if (legal >> top) & 1:
                    mem[mv + 2 * count] = mem[st + 2 * j]
                    mem[mv + 2 * count + 1] = top
                    count += 1
        else:
            # one move per class of equivalent cards: one class, as many points, and no card
            # of another seat (in a hand or in the trick) between them
            live = tcards
            for s in range(n):
                if s != seat and (active >> s) & 1:
                    live |= mem[HANDS_AT + s]
            pts_row = ROWS_AT + POINTS * CARDS
            reps = 0
            m = legal
            while m:
                low = m & -m
                m ^= low
                c = popcount(low - 1)
                pc = mem[pts_row + c]
                dup = False
                r = reps
                while r:
                    rl = r & -r
                    r ^= rl
                    rc = popcount(rl - 1)
                    b = mem[BETWEEN_AT + c * CARDS + rc]
                    if b >= 0 and not b & live and mem[pts_row + rc] == pc:
                        dup = True
                        break
                if dup:
                    continue
                reps |= low
                mem[mv + 2 * count] = low
                mem[mv + 2 * count + 1] = c
                count += 1
        if count > 1:
            # ordering: the best lead of the table first, then by a score
            friend_wins = ((max_seats >> bseat) & 1 == 1) == maximizing
            for i in range(count):
                cards = mem[mv + 2 * i]
                score = (
                    _INF
                    if hint and cards == hint
                    else _score(mem, cards, mem[mv + 2 * i + 1], nplays, led, bkey, friend_wins)
                )
                mem[sc + i] = score
            for i in range(1, count):  # insertion sort, best first
                s0 = mem[sc + i]
                c0 = mem[mv + 2 * i]
                c1 = mem[mv + 2 * i + 1]
                j = i - 1
                while j >= 0 and mem[sc + j] < s0:
                    mem[sc + j + 1] = mem[sc + j]
                    mem[mv + 2 * j + 2] = mem[mv + 2 * j]
                    mem[mv + 2 * j + 3] = mem[mv + 2 * j + 1]
                    j -= 1
                mem[sc + j + 1] = s0
                mem[mv + 2 * j + 2] = c0
                mem[mv + 2 * j + 3] = c1

    # ---- search them (``_apply_play``)
    best = -_INF if maximizing else _INF
    best_cards = 0
    nxt = (seat + 1) % n
    for i in range(count):
        cards = mem[mv + 2 * i]
        top = mem[mv + 2 * i + 1]
        new_hand = hand & ~cards
        mem[HANDS_AT + seat] = new_hand
        if nplays == 0:
            nled = mem[ROWS_AT + SUIT * CARDS + top]
            nbseat = seat
            nbkey = mem[ROWS_AT + LEAD_KEY * CARDS + top]
        else:
            nled = led
            key = mem[ROWS_AT + (FOLLOW_KEY + led) * CARDS + top]
            if key > bkey:
                nbseat = seat
                nbkey = key
            else:
                nbseat = bseat
                nbkey = bkey
        ntpts = tpts + _sum_points(mem, cards & mem[COUNTED], POINTS)
        nactive = active
        if out_rule == _OUT_UP and not new_hand & trump_mask:
            nactive &= ~(1 << seat)
        if nxt == leader:
            v = node(mem, nactive, leader, zero, leader, none, nbseat, zero, ntpts, zero, no, no,
                     zero, zero, zero, yes, ply + 1, alpha, beta)  # fmt: skip
        else:
            v = node(mem, nactive, leader, nplays + 1, nxt, nled, nbseat, nbkey, ntpts, tcards | cards,
                     first, no, zero, zero, zero, no, ply + 1, alpha, beta)  # fmt: skip
        mem[HANDS_AT + seat] = hand
        if maximizing:
            if v > best:
                best = v
                best_cards = cards
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        elif v < best:
            best = v
            best_cards = cards
            if v < beta:
                beta = v
                if alpha >= beta:
                    break
    if nplays == 0:
        mem[LEAD_BEST] = best_cards
    return best


# one flat function on purpose: numba compiles it whole; calls and objects would cost its speed
@njit(_ROOT_SIG, cache=_CACHE, nogil=True)
def solve_root(
    mem: np.ndarray,
    active: int,
    leader: int,
    nplays: int,
    seat: int,
    led: int,
    bseat: int,
    bkey: int,
    tpts: int,
    tcards: int,
    first: bool,
    flp: bool,
    root_moves: np.ndarray,
    upper: int,
    optimal: np.ndarray,
) -> int:
    """The value of the root (future points) and, in ``optimal``, which root moves reach it.

    The value is found by bisection on [0, ``upper``] with null-window probes
    of the root moves (the table keeps what each probe learnt); a move that
    reaches the probed value moves to the front for the next probe, and the
    bound a probe returns (fail-soft) narrows the interval past its middle.
    """
    zero = int(mem[N]) * 0  # typed constants (see ``node``)
    no = zero != 0
    maximizing = (mem[MAX_SEATS] >> seat) & 1 == 1
    count = root_moves.shape[0]
    friend_wins = ((mem[MAX_SEATS] >> bseat) & 1 == 1) == maximizing
    scores = np.empty(count, dtype=np.int64)
    for i in range(count):
        scores[i] = -_score(mem, root_moves[i, 0], root_moves[i, 1], nplays, led, bkey, friend_wins)
    order = np.argsort(scores, kind="mergesort")
    # what the probes proved of each move: its value is in [low[i], high[i]]
    low = np.full(count, -_INF, dtype=np.int64)
    high = np.full(count, _INF, dtype=np.int64)
    lo = 0
    hi = upper
    while lo < hi:
        mid = (lo + hi + 1) // 2 if maximizing else (lo + hi) // 2
        a, b = (mid - 1, mid) if maximizing else (mid, mid + 1)
        hit = -1
        bound = -_INF if maximizing else _INF  # the best of the failed moves' bounds
        for k in range(count):
            i = order[k]
            # what earlier probes proved may settle this one
            if maximizing and (high[i] < mid or low[i] >= mid):
                v = high[i] if high[i] < mid else low[i]
            elif not maximizing and (low[i] > mid or high[i] <= mid):
                v = low[i] if low[i] > mid else high[i]
            else:
                v = node(mem, active, leader, nplays, seat, led, bseat, bkey, tpts, tcards, first, flp,
                         zero, root_moves[i, 0], root_moves[i, 1], no, zero, a, b)  # fmt: skip
            if v <= a:
                high[i] = min(high[i], v)
            if v >= b:
                low[i] = max(low[i], v)
            if (v >= mid) if maximizing else (v <= mid):
                hit = k
                bound = v
                break
            bound = max(bound, v) if maximizing else min(bound, v)
        if hit > 0:
            first_move = order[hit]
            for k in range(hit, 0, -1):
                order[k] = order[k - 1]
            order[0] = first_move
        # the probes fail soft: a value past the window is still a bound on the true value
        if maximizing:
            if hit >= 0:
                lo = min(hi, bound)
            else:
                hi = max(lo, bound)
        elif hit >= 0:
            hi = max(lo, bound)
        else:
            lo = min(hi, bound)
    a, b = (lo - 1, lo) if maximizing else (lo, lo + 1)
    for i in range(count):
        # optimal: reaches ``lo`` (at least for the bidder's side, at most for the others)
        known_yes = low[i] >= lo if maximizing else high[i] <= lo
        known_no = high[i] < lo if maximizing else low[i] > lo
        if known_yes or known_no:
            optimal[i] = known_yes
            continue
        v = node(mem, active, leader, nplays, seat, led, bseat, bkey, tpts, tcards, first, flp,
                 zero, root_moves[i, 0], root_moves[i, 1], no, zero, a, b)  # fmt: skip
        optimal[i] = (v >= lo) if maximizing else (v <= lo)
    return lo


assert CFG_SIZE <= NODES  # the rule integers fit before the header slots
