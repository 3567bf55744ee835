"""Rule hooks 4 and 5: legal plays, the multi-card first trick, and trick winners.

Everything works on bitmasks so that the legal plays of a turn cost a few
integer operations (docs/rules.md §play).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from pedro.cards import NUM_CARDS, SUIT_MASKS, cards_of, format_cards
from pedro.engine.actions import PLAY_BASE, play_action, play_mask, play_top
from pedro.marks import N_
from pedro.variants.model import (
    BuryRule,
    DiscardPolicy,
    FillPolicy,
    PlainLead,
    Ruleset,
)
from pedro.variants.tables import TrumpTables

TRUMP_SUIT: Final = 4

# Enum members are slow to look up on Python 3.11: the legal plays compare against these.
_ANY: Final = PlainLead.ANY
_FOLLOW_OR_TRUMP: Final = PlainLead.FOLLOW_OR_TRUMP
_MUST_FOLLOW: Final = PlainLead.MUST_FOLLOW
_NONTRUMP_IF_ABLE: Final = PlainLead.NONTRUMP_IF_ABLE


def effective_suit(card: int, trump_mask: int) -> int:
    if trump_mask >> card & 1:
        return TRUMP_SUIT
    return card // 13


def legal_play_mask(tt: TrumpTables, hand: int, led: int, must_lead_trump: bool) -> int:
    """The single cards ``hand`` may play; ``led`` is the led effective suit or -1 when leading."""
    trumps = hand & tt.trump_mask
    if led < 0:
        if trumps and (must_lead_trump or tt.cold_on_turn):
            return trumps
        return hand
    if led == TRUMP_SUIT or tt.cold_on_turn:
        return trumps or hand
    policy = tt.plain_lead
    if policy is _ANY:
        return hand
    suit = hand & SUIT_MASKS[led] & ~tt.trump_mask
    if policy is _FOLLOW_OR_TRUMP:
        return (suit | trumps) if suit else hand
    if policy is _MUST_FOLLOW:
        return suit or hand
    if policy is _NONTRUMP_IF_ABLE:
        return (hand & ~tt.trump_mask) or hand
    # FOLLOW_OR_TRUMP_VOID_MUST_TRUMP
    if suit:
        return suit | trumps
    return trumps or hand


def single_plays(mask: int) -> list[int]:
    """The plays of one card of ``mask`` each, in card order."""
    out = []
    plays = _SINGLE_PLAYS
    while mask:
        low = mask & -mask
        out.append(plays[low.bit_length() - 1])
        mask ^= low
    return out


#: Each card's play of itself alone, made once: an action is wider than a machine word, so
#: ``PLAY_BASE | 1 << card`` would allocate a new integer at every turn.
_SINGLE_PLAYS: Final = tuple(PLAY_BASE | 1 << c for c in range(NUM_CARDS))


def discard_category(tt: TrumpTables, card: int) -> int:
    """Burying preference of note J6: non-scoring, the Low, 1-point, then bigger cards."""
    points = tt.points[card]
    if points == 0:
        return 0
    if tt.roles[card] == "2":
        return 1
    return 2 if points == 1 else 3


def stack_plays(rules: Ruleset, tt: TrumpTables, hand: int, tops: int, size: int) -> list[int]:
    """Multi-card first-trick plays: a legal top card and ``size - 1`` buried cards."""
    out = []
    for top in cards_of(tops):
        rest = cards_of(hand & ~(1 << top))
        for buried in _legal_buried(rules, tt, top, rest, size - 1):
            out.append(play_action([top, *buried]))
    return out


def _legal_buried(
    rules: Ruleset, tt: TrumpTables, top: int, rest: list[int], k: int
) -> list[tuple[int, ...]]:
    if rules.bury_rule == BuryRule.AT_MOST_ONE_SCORING:
        combos = list(combinations(rest, k))
        scoring = tt.scoring_mask
        stack_cards = [*rest, top]
        low_card = next((c for c in stack_cards if tt.roles[c] == "2"), -1)
        nonscoring = sum(1 for c in stack_cards if not scoring >> c & 1)
        least = max(0, k + 1 - nonscoring)
        allowed = max(1, least)

        def ok(stack: tuple[int, ...]) -> bool:
            # (no ``(*stack, top)``: mypyc cannot compile a starred tuple in a generator)
            n = sum(1 for c in stack if scoring >> c & 1) + (scoring >> top & 1)
            if n > allowed:
                return False
            return n < 2 or low_card == top or low_card in stack

        return [c for c in combos if ok(c)]
    # NONSCORING with the J6 fall-back: bury the cheapest categories possible,
    # i.e. every card of the categories wholly needed and a choice in the last one.
    by_cat: dict[int, list[int]] = {}
    for c in rest:
        by_cat.setdefault(discard_category(tt, c), []).append(c)
    fixed: list[int] = []
    left = k
    for cat in sorted(by_cat):
        cards = by_cat[cat]
        if len(cards) <= left:
            fixed += cards
            left -= len(cards)
            continue
        return [(*fixed, *extra) for extra in combinations(cards, left)]
    return [tuple(fixed)] if left == 0 else []


def card_key(tt: TrumpTables, led: int, card: int, leads: bool) -> int:
    """How strongly ``card`` competes in a trick whose led effective suit is ``led``.

    The highest key wins, the earliest card among equals: trumps by trump
    rank; otherwise a card of the led suit by rank, or, where plain cards do
    not rank (docs/rules.md §winning-a-trick), the leader's card alone.
    """
    strength = tt.strength[card]
    if strength:
        return 1000 + strength
    if not tt.plain_ranking:
        return 1 if leads else 0
    if card < 52 and card // 13 == led:
        return 1 + card % 13
    return 0


def trick_winner(rules: Ruleset, tt: TrumpTables, leader: int, tops: list[tuple[int, int]]) -> int:
    """Seat that wins a trick given ``(seat, top_card)`` pairs in play order."""
    led = effective_suit(tops[0][1], tt.trump_mask)
    best_seat, best = tops[0][0], card_key(tt, led, tops[0][1], True)
    for seat, c in tops[1:]:
        key = card_key(tt, led, c, False)
        if key > best:
            best, best_seat = key, seat
    return best_seat


def normal_hand_size(rules: Ruleset) -> int:
    """Cards in a normal hand at the first lead (docs/rules.md §hand-size-at-the-first-lead).

    Hands cut by an exchange hold ``play_hand_size``; without one, the first deal's size.
    A hand holding more plays a stack to the first trick (``keep_and_bury``).
    """
    exchanged = rules.discard != DiscardPolicy.NONE or rules.fill != FillPolicy.NONE
    return rules.play_hand_size if exchanged else rules.first_deal_size


def turn_plays(
    rules: Ruleset,
    tt: TrumpTables,
    hand: int,
    led: int,
    first_trick: bool,
    first_lead_pending: bool,
    normal_hand: int,
) -> list[int]:
    """The legal plays of a seat holding ``hand``: stacks where it holds more than ``normal_hand``."""
    if not first_trick:
        return single_plays(legal_play_mask(tt, hand, led, False))
    mask = legal_play_mask(tt, hand, led, led < 0 and first_lead_pending)
    size = stack_size(tt, hand, normal_hand)
    if size > 1:
        return stack_plays(rules, tt, hand, mask, size)
    return single_plays(mask)


def stack_size(tt: TrumpTables, hand: int, normal_hand: int) -> int:
    """Cards ``hand`` plays to the first trick: one, or under ``keep_and_bury`` its excess over
    ``normal_hand`` and one more (a top card and the cards buried under it)."""
    if not tt.keep_and_bury:
        return 1
    return max(1, hand.bit_count() - (normal_hand - 1))


#: Why a card does not follow the led suit, by the rule for a plain suit led (``PlainLead``'s values).
_NOT_FOLLOWING: Final = {
    "follow_or_trump": N_("must follow suit or trump"),
    "must_follow": N_("must follow suit"),
    "nontrump_if_able": N_("must play a non-trump when a plain suit is led"),
    "follow_or_trump_void_must_trump": N_("must follow suit or trump, and trump when void"),
}


def play_refusal(
    rules: Ruleset,
    tt: TrumpTables,
    hand: int,
    action: int,
    legal: Sequence[int],
    first_trick: bool,
    normal_hand: int,
    led: int,
    first_lead_pending: bool,
) -> str:
    """Why the play ``action`` (not in ``legal``, the seat's ``turn_plays``) is refused, in a
    player's words."""
    cards = play_mask(action)
    if not cards or cards & ~rules.deck_mask:
        return N_("that names no card of this pack")
    if cards & ~hand:
        return N_("{cards} not in hand").format(cards=format_cards(cards_of(cards & ~hand)))
    need = stack_size(tt, hand, normal_hand)
    if first_trick and need > 1 and cards.bit_count() != need:
        return N_("holding {held} cards, play {need} cards to the first trick").format(
            held=hand.bit_count(), need=need
        )
    if cards.bit_count() != 1 and (not first_trick or need <= 1):
        return N_("play one card")
    if first_trick and need > 1:
        top = play_top(action)
        if any(play_top(a) == top for a in legal):
            return N_("those cards may not be buried under it (see the burying rule)")
    if led < 0:
        return N_("the first lead must be a trump") if first_lead_pending else N_("must lead a trump")
    if led == TRUMP_SUIT:
        return N_("must play a trump when a trump is led")
    return _NOT_FOLLOWING.get(rules.plain_lead.value, N_("that card may not be played now"))
