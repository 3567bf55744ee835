"""Rule hooks 6-8: counting a hand's points, scoring it, and deciding the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol, final

from pedro.cards import cards_of
from pedro.engine.actions import CARD_BITS, Verb
from pedro.variants.model import EndRule, LowRule, MadeScores, Ruleset, Scoring
from pedro.variants.tables import TrumpTables

#: Game-point values of classic Pitch, for option ``relative_high_low``.
_GAME_VALUES: Final = {12: 4, 11: 3, 10: 2, 9: 1, 8: 10}

# Enum members are slow to look up on Python 3.11; every hand is scored, so
# scoring compares against these module constants.
_BID: Final = Verb.BID
_BID_28_56: Final = Verb.BID_28_56
_BID_DOUBLE: Final = Verb.BID_DOUBLE
_CAPTURER: Final = LowRule.CAPTURER
_HOLDER: Final = LowRule.HOLDER
_DEALT: Final = LowRule.DEALT
_DIFFERENCE: Final = Scoring.DIFFERENCE
_MADE_BID: Final = MadeScores.BID
_BIDDER_GOES_OUT: Final = EndRule.BIDDER_GOES_OUT
_SUCCESSFUL_BID_ONLY: Final = EndRule.SUCCESSFUL_BID_ONLY
_COUNT_OUT: Final = EndRule.COUNT_OUT


@final
class Contract:
    """The hand's contract: who holds it, its value and its call (a bid, 28-56, a double …).

    Immutable. Compiled, a native class with ``Final`` fields, made at every auction's end
    and read at every count; ``__reduce__`` pickles and copies it (a frozen native dataclass
    cannot be, and a Python one is made by Python code).
    """

    def __init__(self, bidder: int, value: int, verb: Verb) -> None:
        self.bidder: Final = bidder
        self.value: Final = value
        self.verb: Final = verb

    def __reduce__(self) -> tuple[type[Contract], tuple[int, int, Verb]]:
        return Contract, (self.bidder, self.value, self.verb)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Contract) and self.__reduce__()[1] == other.__reduce__()[1]

    def __hash__(self) -> int:
        return hash(self.__reduce__()[1])

    def __repr__(self) -> str:
        return f"Contract(bidder={self.bidder}, value={self.value}, verb={self.verb!r})"


class TrickCards(NamedTuple):
    """What counting needs of a finished trick: its winner and who put which cards in.

    The engine passes its own tricks, whose plays are actions: an action holds
    its cards in its low bits, so masking with the card bits reads either.
    """

    winner: int
    plays: tuple[tuple[int, int], ...]  # (seat, mask of the cards it played, top and buried)

    @property
    def mask(self) -> int:
        m = 0
        for _seat, cards in self.plays:
            m |= cards
        return m


class TrickLike(Protocol):
    """A finished trick: its winner and, per play, the seat and a mask holding its cards."""

    @property
    def winner(self) -> int: ...

    @property
    def plays(self) -> Sequence[tuple[int, int]]: ...


def count_points(
    rules: Ruleset,
    tt: TrumpTables,
    tricks: Sequence[TrickLike],
    holder_of: dict[int, int],
    dealt_to: dict[int, int],
    credits: list[int],
    credited: int = 0,
) -> tuple[list[int], list[list[tuple[str, int]]]]:
    """Points per side and, per side, the scoring roles it took in capture order.

    ``holder_of`` maps cards (at least the Low) to the seat holding them when
    play started; ``dealt_to`` maps cards (at least the Low) to the seat that
    first received them.
    """
    sides = rules.num_sides
    points = list(credits)
    taken: list[list[tuple[str, int]]] = [[] for _ in range(sides)]
    if rules.relative_high_low:
        return _count_relative(rules, tt, tricks, holder_of, credits)
    low_card = tt.low_card
    counted = tt.scoring_mask | (tt.points_mask if rules.plain_points else 0)
    if low_card >= 0 and rules.low_rule != _CAPTURER:
        counted &= ~(1 << low_card)  # counted below by its rule
    values, roles, seat_sides = tt.points, tt.roles, rules.seat_sides
    for trick in tricks:
        winner = trick.winner
        m = 0
        for _seat, cards in trick.plays:
            m |= cards
        m &= counted  # (counted holds card bits only)
        if not m:
            continue
        winner_side = seat_sides[winner]
        got = taken[winner_side]
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            p = values[c]
            points[winner_side] += p
            got.append((roles[c] or "plain", p))
    if low_card >= 0 and tt.points[low_card] and not credited >> low_card & 1:
        owner: int | None = None
        if rules.low_rule == _HOLDER:
            owner = holder_of.get(low_card)
        elif rules.low_rule == _DEALT:
            owner = dealt_to.get(low_card)
        if owner is not None:
            side = rules.side_of(owner)
            points[side] += tt.points[low_card]
            taken[side].append(("2", tt.points[low_card]))
    return points, taken


def _count_relative(
    rules: Ruleset,
    tt: TrumpTables,
    tricks: Sequence[TrickLike],
    holder_of: dict[int, int],
    credits: list[int],
) -> tuple[list[int], list[list[tuple[str, int]]]]:
    """Classic Pitch counting: High and Low are the highest and lowest trumps played."""
    sides = rules.num_sides
    points = list(credits)
    taken: list[list[tuple[str, int]]] = [[] for _ in range(sides)]
    played = [
        (seat, c, trick.winner)
        for trick in tricks
        for seat, cards in trick.plays
        for c in cards_of(cards & CARD_BITS)
        if tt.trump_mask >> c & 1
    ]
    if played:
        high = max(played, key=lambda x: tt.strength[x[1]])
        low = min(played, key=lambda x: tt.strength[x[1]])
        points[rules.side_of(high[0])] += 1
        taken[rules.side_of(high[0])].append(("A", 1))
        low_owner = low[2] if rules.low_rule == _CAPTURER else low[0]
        points[rules.side_of(low_owner)] += 1
        taken[rules.side_of(low_owner)].append(("2", 1))
    game = [0] * sides
    for trick in tricks:
        side = rules.side_of(trick.winner)
        mask = 0
        for _seat, cards in trick.plays:
            mask |= cards & CARD_BITS
        for c in cards_of(mask):
            if c < 52:
                game[side] += _GAME_VALUES.get(c % 13, 0)
            role = tt.roles[c]
            if role in ("J", "5"):
                p = dict(rules.points).get(role, 0)
                points[side] += p
                taken[side].append((role, p))
    best = max(game) if game else 0
    if best and game.count(best) == 1:
        side = game.index(best)
        points[side] += 1
        taken[side].append(("T", 1))
    return points, taken


def special_values(rules: Ruleset, contract: Contract) -> tuple[int, int] | None:
    """(made, set) values of a special call, or None for an ordinary bid."""
    top = rules.max_bid
    if contract.verb == _BID_28_56:
        return 4 * top, 2 * top
    if contract.verb == _BID_DOUBLE:
        return 2 * top, 2 * top
    if rules.slam and contract.verb == _BID and contract.value == top:
        return 2 * top, top
    return None


def is_made(rules: Ruleset, contract: Contract, taken: int) -> bool:
    if special_values(rules, contract) is not None or contract.verb in (_BID_28_56, _BID_DOUBLE):
        return taken >= rules.total_points
    return taken >= contract.value


def score_hand(rules: Ruleset, contract: Contract, points: list[int]) -> tuple[list[int], bool]:
    """Score change per side and whether the bid was made (docs/rules.md §scoring)."""
    sides = rules.num_sides
    bside = rules.side_of(contract.bidder)
    pb = points[bside]
    made = is_made(rules, contract, pb)
    special = special_values(rules, contract)
    change = [0] * sides
    if rules.scoring == _DIFFERENCE:
        other = 1 - bside
        pd = points[other]
        if made:
            if special:
                change[bside] = special[0]
            elif pb > pd:
                change[bside] = pb - pd
            elif pd > pb:
                change[other] = pd - pb
        else:
            change[other] = (special[1] if special else contract.value) + pd
        return change, made
    if made:
        if special:
            change[bside] = special[0]
        elif rules.made_scores == _MADE_BID:
            change[bside] = contract.value
        else:
            change[bside] = pb
    else:
        change[bside] = -(special[1] if special else contract.value)
    if made or rules.defenders_score_when_set:
        for side in range(sides):
            if side != bside:
                change[side] += points[side]
    return change, made


def decide_winner(
    rules: Ruleset,
    before: list[int],
    after: list[int],
    contract: Contract | None,
    made: bool | None,
    bgo_hand: bool,
    taken: list[list[tuple[str, int]]],
) -> tuple[int | None, bool]:
    """(winning side or None, whether the next hand is a forced bidder-goes-out hand)."""
    if contract is None:  # hand thrown in: nothing changed
        return None, bgo_hand
    survivor = _survivor(rules, after)
    if survivor is not None:
        return survivor, False
    bside = rules.side_of(contract.bidder)
    target = rules.target
    reached = [s for s in range(rules.num_sides) if after[s] >= target]
    end = rules.end_rule
    if end == _BIDDER_GOES_OUT:
        if bgo_hand and made:
            return bside, False
        # two sides out together: the next hand is played under bidder-goes-out
        return (reached[0] if len(reached) == 1 else None), len(reached) >= 2
    if end == _SUCCESSFUL_BID_ONLY:
        return (bside if made and after[bside] >= target else None), False
    if end == _COUNT_OUT and len(reached) > 1:
        return _count_out(rules, before, after, contract, made, taken), False
    return _first_out(after, reached, bside), False


def _survivor(rules: Ruleset, after: list[int]) -> int | None:
    """Under ``lose_at``: once a side has fallen to it, the best side left wins (None: no side fell,
    or every side did)."""
    if rules.lose_at is None:
        return None
    lose_at = rules.lose_at
    rest = [s for s in range(rules.num_sides) if after[s] > lose_at]
    if len(rest) == rules.num_sides or not rest:
        return None
    return max(rest, key=lambda s: after[s])


def _first_out(after: list[int], reached: list[int], bside: int) -> int | None:
    """The side out by the plain rule: the one side past the target; of several, the bidder's,
    else the one highest alone (none: no winner yet)."""
    if len(reached) == 1:
        return reached[0]
    if not reached:
        return None
    if bside in reached:
        return bside
    best = max(after[s] for s in reached)
    leaders = [s for s in reached if after[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def _count_out(
    rules: Ruleset,
    before: list[int],
    after: list[int],
    contract: Contract,
    made: bool | None,
    taken: list[list[tuple[str, int]]],
) -> int | None:
    """Re-add the hand's points category by category; the first side to the target wins."""
    running = list(before)
    bside = rules.side_of(contract.bidder)
    scoring_sides = set(range(rules.num_sides))
    if not made:
        running[bside] -= contract.value
        scoring_sides.discard(bside)
        if not rules.defenders_score_when_set:
            scoring_sides = set()
    for role in rules.count_out_order:
        for side in sorted(scoring_sides):
            for got_role, p in taken[side]:
                if got_role == role:
                    running[side] += p
                    if running[side] >= rules.target:
                        return side
    reached = [s for s in range(rules.num_sides) if after[s] >= rules.target]
    return reached[0] if len(reached) == 1 else None
