"""An exact perfect-information solver for the card play of a hand, in plain Python.

This is the reference search: ``pedro.solver.solve`` runs the compiled copy
(``pedro.solver.kernel``) where it applies and this one otherwise (see
``pedro.solver.fast``); ``solve(position, engine="python")`` forces it.

The search runs on a compact copy of the play: the hands as card masks, the
seats still playing as a bit mask, and the current trick's leader, led suit,
winning seat and key. The rules come from ``pedro.engine.play`` (legal plays,
stacks of the multi-card first trick, card keys), and the turn order is the
engine's own (``pedro.engine.turns.TurnOrder``: cold, up and out players, a
leader who cannot lead, the end of a trick and of the play).

The value is the points taken by the bidder's side. Partnership variants are a
two-sided zero-sum game in it. Individual variants are searched "paranoid":
the bidder maximizes his own points against a coalition of all the others,
which minimizes them — a bid is made or set by the bidder's points alone, so
this is exactly the question "can the bidder make N whatever the others do".

Points that are a sum over the cards taken (every variant except the
``relative_high_low`` option) are searched with alpha-beta, a transposition
table at trick boundaries, card equivalence and a bound from the points still
in play. ``relative_high_low`` (High and Low are the highest and lowest trumps
*played*, Game a majority) is not additive: it is searched by plain alpha-beta
that scores each finished play with the engine's own ``count_points``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.engine.actions import CARD_BITS, PLAY_BASE, TOP_SHIFT, play_top
from pedro.engine.phases import Status
from pedro.engine.play import card_key, effective_suit, legal_play_mask, turn_plays
from pedro.engine.play_position import PlayPosition
from pedro.engine.scoring import TrickCards, count_points
from pedro.engine.turns import CLOSE, END, TurnOrder, all_play_every_trick
from pedro.variants.model import LowRule, Ruleset
from pedro.variants.tables import TrumpTables

_INF = 1 << 20


@dataclass(frozen=True)
class SolveResult:
    """The value of a play position under perfect information.

    ``value`` is the points the bidder's side takes in the whole hand (the
    points already taken and credited included) with best play by everyone;
    ``best`` holds every optimal action of the player to move (engine action
    ints); ``values`` maps each of them to its value (``value``). ``nodes``
    counts the decisions searched. In an individual variant the points of the
    other seats are not optimized (they play as a coalition against the bidder).
    """

    value: int
    bidder: int
    bidder_side: int
    to_move: int
    best: tuple[int, ...]
    values: dict[int, int]
    nodes: int


class Solver:
    """Solves one position; build a new one per position (the table is per hand)."""

    def __init__(self, pos: PlayPosition) -> None:
        rules: Ruleset = pos.rules
        tt: TrumpTables = pos.tables
        self.pos = pos
        self.rules = rules
        self.tt = tt
        self.n = rules.players
        self.trump_mask = tt.trump_mask
        self.bidder = pos.bidder
        self.bidder_side = rules.side_of(self.bidder)
        self.max_seats = sum(1 << s for s in range(self.n) if rules.side_of(s) == self.bidder_side)
        self.additive = not rules.relative_high_low
        counted = tt.scoring_mask | (tt.points_mask if rules.plain_points else 0)
        if tt.low_card >= 0 and rules.low_rule != LowRule.CAPTURER:
            counted &= ~(1 << tt.low_card)
        self.counted = counted
        self.point_cards = [(c, tt.points[c]) for c in range(56) if counted >> c & 1 and tt.points[c]]
        self.points = tt.points
        self.strength = tt.strength
        self.plain_ranking = rules.plain_ranking
        self.order = TurnOrder.of(rules, tt.trump_mask)
        # with ``continue`` nobody leaves the play, so "all active" at the first lead is "all active" now
        self.all_active = all_play_every_trick(rules, pos.statuses)
        self.normal_hand_size = pos.normal_hand_size
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.nodes = 0
        self._between = _between_masks(rules, tt) if self.additive else None
        self.holder_of, self.dealt_to = low_owners(pos)
        self.done_tricks = [
            TrickCards(w, tuple((s, a & CARD_BITS) for s, a in plays)) for w, plays in pos.tricks
        ]
        base, _ = count_points(
            rules, tt, self.done_tricks, self.holder_of, self.dealt_to, list(pos.credits), pos.credited
        )
        self.base = base[self.bidder_side]
        # the history of the search, for non-additive counting
        self.history: list[tuple[int, tuple[tuple[int, int], ...]]] = []

    # ------------------------------------------------------------------ rules helpers

    def _moves(self, hand: int, seat: int, led: int, first: bool, flp: bool) -> list[tuple[int, int, int]]:
        """Legal plays as (cards, top, action)."""
        out = []
        if not first:  # the common case (``turn_plays`` after the first trick), without a detour
            mask = legal_play_mask(self.tt, hand, led, False)
            while mask:
                low = mask & -mask
                mask ^= low
                out.append((low, low.bit_length() - 1, PLAY_BASE | low))
            return out
        for a in turn_plays(self.rules, self.tt, hand, led, first, flp, self.normal_hand_size):
            cards = a & CARD_BITS
            top = ((a >> TOP_SHIFT) & 0xFF) - 1
            if top < 0:
                top = cards.bit_length() - 1
            out.append((cards, top, a))
        return out

    def _key(self, led: int, card: int, leads: bool) -> int:
        s = self.strength[card]
        if s:
            return 1000 + s
        return card_key(self.tt, led, card, leads)

    # ------------------------------------------------------------------ search

    def _turn(
        self,
        hands: list[int],
        active: int,
        leader: int,
        plays: int,
        seat: int,
        led: int,
        bseat: int,
        bkey: int,
        tpts: int,
        first: bool,
        flp: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """Future bidder points from ``seat``'s turn (``TurnOrder.turn`` onwards)."""
        seat, leader, active = self.order.turn(hands, active, leader, plays, seat, led)
        if seat == END:
            return self._end()
        if seat == CLOSE:
            return self._close(hands, active, bseat, tpts, alpha, beta)
        return self._decide(
            hands, active, leader, plays, seat, led, bseat, bkey, tpts, first, flp, alpha, beta
        )

    def _end(self) -> int:
        if self.additive:
            return 0
        return self._score_history()

    def _score_history(self) -> int:
        tricks = self.done_tricks + [TrickCards(w, p) for w, p in self.history]
        pts, _ = count_points(
            self.rules,
            self.tt,
            tricks,
            self.holder_of,
            self.dealt_to,
            list(self.pos.credits),
            self.pos.credited,
        )
        return pts[self.bidder_side] - self.base

    def _close(self, hands: list[int], active: int, winner: int, tpts: int, alpha: int, beta: int) -> int:
        """The current trick is complete, won by ``winner`` with ``tpts`` points in it."""
        self._trick_cards = 0  # (``_play`` restores it)
        if self.additive:
            return self._next_trick(hands, active, winner, tpts, alpha, beta)
        self.history.append((winner, tuple(self._cur_plays)))
        saved_plays = self._cur_plays
        self._cur_plays = []
        try:
            return self._next_trick(hands, active, winner, tpts, alpha, beta)
        finally:
            self._cur_plays = saved_plays
            self.history.pop()

    def _next_trick(
        self, hands: list[int], active: int, winner: int, tpts: int, alpha: int, beta: int
    ) -> int:
        gain = tpts if self.additive and self.max_seats >> winner & 1 else 0
        leader, active = self.order.next_leader(hands, active, winner, self.all_active)
        if leader == END:
            return gain + self._end()
        return gain + self._boundary(hands, active, leader, alpha - gain, beta - gain)

    def _boundary(self, hands: list[int], active: int, leader: int, alpha: int, beta: int) -> int:
        """A new trick led by ``leader``: the transposition table and the bound."""
        if not self.additive:
            return self._turn(hands, active, leader, 0, leader, -1, leader, 0, 0, False, False, alpha, beta)
        remaining = 0
        union = 0
        for h in hands:
            union |= h
        for c, p in self.point_cards:
            if union >> c & 1:
                remaining += p
        if remaining <= alpha:
            return remaining
        if beta <= 0:
            return 0
        key = (*hands, active, leader)
        entry = self.table.get(key)
        if entry is not None:
            lo, hi, hint = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        else:
            lo, hi, hint = 0, remaining, 0
        a0, b0 = alpha, beta
        self._hint = hint
        self._lead_best = 0
        v = self._turn(hands, active, leader, 0, leader, -1, leader, 0, 0, False, False, alpha, beta)
        if v <= a0:
            hi = min(hi, v)
        elif v >= b0:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.table[key] = (lo, hi, self._lead_best or hint)
        return v

    def _ordered(
        self,
        moves: list[tuple[int, int, int]],
        seat: int,
        plays: int,
        led: int,
        bseat: int,
        bkey: int,
        maximizing: bool,
    ) -> list[tuple[int, int, int]]:
        if len(moves) < 2:
            return moves
        points = self.points
        strength = self.strength
        max_seats = self.max_seats
        scored = []
        if not plays:
            for m in moves:
                cards, top, _ = m
                scored.append((strength[top] * 4 + (top % 13 if not strength[top] else 0), m))
        else:
            friend_wins = bool(max_seats >> bseat & 1) == maximizing
            for m in moves:
                cards, top, _ = m
                if cards == 1 << top:
                    p = points[top]
                else:
                    p = 0
                    c = cards
                    while c:
                        low = c & -c
                        c ^= low
                        p += points[low.bit_length() - 1]
                st = strength[top]
                key = 1000 + st if st else card_key(self.tt, led, top, False)
                if key > bkey:
                    score = 1000 + p * 50 - key % 1000 if not friend_wins else 500 - key % 1000 + p * 10
                else:
                    score = p * 50 if friend_wins else -p * 50 - key % 1000
                scored.append((score, m))
        scored.sort(reverse=True)
        return [m for _, m in scored]

    def _classes(
        self, moves: list[tuple[int, int, int]], hands: list[int], trick_cards: int
    ) -> list[tuple[int, int, int]]:
        """One move per class of equivalent cards (zero points, adjacent among the cards still out)."""
        between = self._between
        if between is None or len(moves) < 2:
            return moves
        points = self.points
        zero = 0
        for cards, top, _ in moves:
            if cards == 1 << top and not points[top]:
                zero |= cards
        if zero.bit_count() < 2:
            return moves
        live = trick_cards
        for h in hands:
            live |= h
        live &= ~zero
        out = []
        reps: list[int] = []
        for m in moves:
            top = m[1]
            if zero >> top & 1:
                row = between[top]
                if any((b := row[r]) >= 0 and not b & live for r in reps):
                    continue
                reps.append(top)
            out.append(m)
        return out

    def _decide(
        self,
        hands: list[int],
        active: int,
        leader: int,
        plays: int,
        seat: int,
        led: int,
        bseat: int,
        bkey: int,
        tpts: int,
        first: bool,
        flp: bool,
        alpha: int,
        beta: int,
        trick_cards: int = 0,
    ) -> int:
        self.nodes += 1
        hand = hands[seat]
        maximizing = bool(self.max_seats >> seat & 1)
        moves = self._moves(hand, seat, led, first, flp)
        if len(moves) > 1:
            moves = self._classes(moves, hands, self._trick_cards)
            if len(moves) > 1:
                moves = self._ordered(moves, seat, plays, led, bseat, bkey, maximizing)
        if not plays and self._hint:
            hint = self._hint
            self._hint = 0
            for i, m in enumerate(moves):
                if m[0] == hint:
                    if i:
                        moves.insert(0, moves.pop(i))
                    break
        best = -_INF if maximizing else _INF
        best_cards = 0
        for cards, top, _ in moves:
            v = self._play(hands, active, leader, plays, seat, led, bseat, bkey, tpts, first, flp, cards, top,
                           alpha, beta)  # fmt: skip
            if maximizing:
                if v > best:
                    best = v
                    best_cards = cards
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            else:
                if v < best:
                    best = v
                    best_cards = cards
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if not plays:
            self._lead_best = best_cards
        return best

    _trick_cards = 0
    _hint = 0
    _lead_best = 0

    def _play(
        self,
        hands: list[int],
        active: int,
        leader: int,
        plays: int,
        seat: int,
        led: int,
        bseat: int,
        bkey: int,
        tpts: int,
        first: bool,
        flp: bool,
        cards: int,
        top: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Play ``cards`` for ``seat`` (``PlayTurns._apply_play``) and search on."""
        hand = hands[seat]
        new_hand = hand & ~cards
        hands[seat] = new_hand
        saved_tc = self._trick_cards
        self._trick_cards = saved_tc | cards
        if not plays:
            led = effective_suit(top, self.trump_mask)
            bseat = seat
            bkey = self._key(led, top, True)
        else:
            key = self._key(led, top, False)
            if key > bkey:
                bkey = key
                bseat = seat
        counted = cards & self.counted
        while counted:
            low = counted & -counted
            counted ^= low
            tpts += self.points[low.bit_length() - 1]
        nxt, active = self.order.after_play(new_hand, active, leader, seat)
        additive = self.additive
        if not additive:
            self._cur_plays.append((seat, cards))
        try:
            if nxt == CLOSE:
                return self._close(hands, active, bseat, tpts, alpha, beta)
            return self._turn(hands, active, leader, plays + 1, nxt, led, bseat, bkey, tpts, first, False,
                              alpha, beta)  # fmt: skip
        finally:
            if not additive:
                self._cur_plays.pop()
            hands[seat] = hand
            self._trick_cards = saved_tc

    _cur_plays: list[tuple[int, int]]

    # ------------------------------------------------------------------ root

    def solve(self) -> SolveResult:
        pos = self.pos
        hands = list(pos.hands)
        active = sum(1 << s for s in range(self.n) if pos.statuses[s] == Status.ACTIVE)
        plays = len(pos.plays)
        first = not pos.tricks
        seat = pos.to_move
        led, bseat, bkey = trick_state(pos)
        if not plays:
            bseat = seat
        tcards, tpts = self._root_trick()
        maximizing = bool(self.max_seats >> seat & 1)
        moves = self._moves(hands[seat], seat, led, first, pos.first_lead_pending)
        moves = self._ordered(moves, seat, plays, led, bseat, bkey, maximizing)
        leader, flp = pos.leader, pos.first_lead_pending

        def probe(move: tuple[int, int, int], t: int) -> bool:
            """Whether the move's value reaches ``t`` (at least for the bidder, at most otherwise)."""
            cards, top, _ = move
            if maximizing:
                return self._play(hands, active, leader, plays, seat, led, bseat, bkey, tpts, first, flp,
                                  cards, top, t - 1, t) >= t  # fmt: skip
            return self._play(hands, active, leader, plays, seat, led, bseat, bkey, tpts, first, flp,
                              cards, top, t, t + 1) <= t  # fmt: skip

        # the value by bisection with null-window probes (points are small integers); the
        # transposition table keeps the bounds learnt from one probe to the next
        lo, hi = self._bounds(hands, tcards)
        while lo < hi:
            mid = (lo + hi + 1) // 2 if maximizing else (lo + hi) // 2
            hit = next((i for i, m in enumerate(moves) if probe(m, mid)), -1)
            if hit > 0:
                moves.insert(0, moves.pop(hit))
            if maximizing:
                lo, hi = (mid, hi) if hit >= 0 else (lo, mid - 1)
            else:
                lo, hi = (lo, mid) if hit >= 0 else (mid + 1, hi)
        best = lo
        best_actions = tuple(m[2] for m in moves if probe(m, best))
        exact = {a: best + self.base for a in best_actions}
        return SolveResult(
            value=best + self.base,
            bidder=self.bidder,
            bidder_side=self.bidder_side,
            to_move=seat,
            best=best_actions,
            values=exact,
            nodes=self.nodes,
        )

    def _root_trick(self) -> tuple[int, int]:
        """The cards of the root's trick so far and their points; the search starts with them."""
        tpts = 0
        tcards = 0
        self._cur_plays = []
        for s, a in self.pos.plays:
            cards = a & CARD_BITS
            tcards |= cards
            self._cur_plays.append((s, cards))
            for c in range(56):
                if cards >> c & 1 and self.counted >> c & 1:
                    tpts += self.points[c]
        self._trick_cards = tcards
        return tcards, tpts

    def _bounds(self, hands: list[int], tcards: int) -> tuple[int, int]:
        """The range the bisection searches: the least and most the rest of the hand adds to ``base``."""
        if self.additive:
            union = tcards
            for h in hands:
                union |= h
            return 0, sum(p for c, p in self.point_cards if union >> c & 1)
        # High and Low move to whoever plays the extreme trumps: the future may be negative
        return -self.base, self.rules.total_points + sum(self.pos.credits)


def _between_masks(rules: Ruleset, tt: TrumpTables) -> list[list[int]]:
    """``between[a][b]``: the cards strictly between a and b in one class, or -1 if not comparable.

    Classes are the trumps (by strength) and the plain cards of one suit (by
    rank, or all alike where plain cards do not rank).
    """
    size = 56
    between = [[-1] * size for _ in range(size)]
    trumps = sorted((c for c in rules.deck if tt.trump_mask >> c & 1), key=lambda c: tt.strength[c])
    for i, a in enumerate(trumps):
        m = 0
        for b in trumps[i + 1 :]:
            between[a][b] = between[b][a] = m
            m |= 1 << b
    for suit in range(4):
        plain = [c for c in range(suit * 13, suit * 13 + 13) if not tt.trump_mask >> c & 1]
        for i, a in enumerate(plain):
            m = 0
            for b in plain[i + 1 :]:
                between[a][b] = between[b][a] = m if rules.plain_ranking else 0
                m |= 1 << b
    return between


def trick_state(pos: PlayPosition) -> tuple[int, int, int]:
    """The current trick's led effective suit, winning seat and winning key (-1, -1, 0 before the lead)."""
    if not pos.plays:
        return -1, -1, 0
    tt = pos.tables
    led = -1
    bseat = -1
    bkey = 0
    for i, (seat, action) in enumerate(pos.plays):
        top = play_top(action)
        if i == 0:
            led = effective_suit(top, tt.trump_mask)
            bseat, bkey = seat, _card_key(tt, led, top, True)
        else:
            key = _card_key(tt, led, top, False)
            if key > bkey:
                bseat, bkey = seat, key
    return led, bseat, bkey


def _card_key(tt: TrumpTables, led: int, card: int, leads: bool) -> int:
    s = tt.strength[card]
    return 1000 + s if s else card_key(tt, led, card, leads)


def low_owners(pos: PlayPosition) -> tuple[dict[int, int], dict[int, int]]:
    """(``holder_of``, ``dealt_to``) for ``count_points``: who owns the Low under its rule."""
    low = pos.tables.low_card
    holder: dict[int, int] = {}
    dealt: dict[int, int] = {}
    if low >= 0 and pos.rules.low_rule == LowRule.HOLDER:
        for s, h in enumerate(pos.hands_at_play()):
            if h >> low & 1:
                holder[low] = s
                break
    if low >= 0 and pos.rules.low_rule == LowRule.DEALT and pos.low_dealt_to >= 0:
        dealt[low] = pos.low_dealt_to
    return holder, dealt
