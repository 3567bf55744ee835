"""How cards and seats are shown to people, shared by the terminal game and the browser server.

Kept apart from both interfaces so they sort a hand and name a status the
same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pedro.cards import JOKER_NAMES
from pedro.engine.observation import SeenHand
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState
from pedro.engine.table import TableView
from pedro.i18n import N_, _
from pedro.variants.model import POINT_NAMES, FillPolicy, Ruleset, role_card
from pedro.variants.tables import TrumpTables

#: Suits in display order: colours alternate (♠ ♥ ♣ ♦), as players sort a hand.
DISPLAY_SUITS = (0, 1, 3, 2)
RED_SUITS = frozenset({1, 2})
#: A seat's status in English, as the wire formats and records have it (``status_word`` translates it).
STATUS_WORDS = {
    Status.ACTIVE: "",
    Status.FOLDED: N_("folded"),
    Status.COLD: N_("cold"),
    Status.UP: N_("up"),
    Status.OUT: N_("out"),
}
#: The suits' names (``pedro.cards.SUIT_NAMES``), marked for translation.
_SUIT_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
#: The scoring roles' names (``pedro.variants.model.POINT_NAMES``) and the breakdown's groups, marked.
_POINT_WORDS = {
    N_("High"), N_("Low"), N_("Jack"), N_("Game"), N_("Pedro"), N_("Sancho"), N_("Three"),
    N_("Snoozer"), N_("Left pedro"), N_("King"), N_("Queen"), N_("Off-jack"), N_("Big joker"),
    N_("Small joker"), N_("card points"), N_("laid-aside trumps"),
}  # fmt: skip


def status_word(status: Status) -> str:
    """A seat's status in the player's language: ``cold``, ``kylmä``, ``kall``; "" when active."""
    word = STATUS_WORDS[status]
    return _(word) if word else ""


def suit_name(suit: int) -> str:
    """A suit's name in the player's language: ``hearts``, ``hertta``, ``hjärter``."""
    return _(_SUIT_WORDS[suit])


#: Fill policies in which the dealer robs the rest of the pack instead of being dealt cards.
DEALER_ROBS = frozenset({
    FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
    FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
    FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS,
})  # fmt: skip


def dealer_kept(state: GameState) -> int | None:
    """How many cards the dealer kept of the pack he robbed, once he has chosen; else None.

    The count is public (the table sees how many cards he laid back, not which), but no
    observation holds it: where he takes the whole stock up (Pidro) his drawn count is the
    pack's size, and it rises while he is still choosing. It is read from his cards: those
    of the stock he looked through and laid aside again are not kept.
    """
    if state.rules.fill not in DEALER_ROBS or state.phase != Phase.PLAY:
        return None
    view = TableView(state)
    dealer = state.dealer
    laid_back = view.discards(dealer) & view.seen(dealer)
    return view.drawn(dealer) - laid_back.bit_count()


def sort_hand(cards: Sequence[int], trump: TrumpTables | None = None) -> list[int]:
    """Trumps first, strongest first; then the other suits in alternating colours, high to low."""

    def key(c: int) -> tuple[int, int, int]:
        if trump is not None and trump.trump_mask >> c & 1:
            return (0, -trump.strength[c], 0)
        if c in JOKER_NAMES:
            return (1, 0, -c)
        return (2 + DISPLAY_SUITS.index(c // 13), -(c % 13), 0)

    return sorted(cards, key=key)


@dataclass(frozen=True)
class Took:
    """One line of a hand's breakdown: a scoring card (or a group of points) a side took."""

    #: ``High``, ``Low``, ``Jack``, ``Game``, ``Pedro`` ...; ``card points`` for plain point cards,
    #: ``laid-aside trumps`` for points credited when trumps were laid aside
    name: str
    points: int
    #: the card that carried the points, when one card did (the ace of trumps for High ...)
    card: int | None = None


#: Roles whose card depends on the play, not the trump suit, under ``relative_high_low``.
_RELATIVE_ROLES = frozenset({"A", "2", "T"})


def breakdown(rules: Ruleset, hand: SeenHand) -> list[list[Took]]:
    """Per side, what it took in the hand as a score sheet lists it: High, Low, Jack, Game, each
    Pedro ... in the rule sheet's order, then plain card points and credited points.

    Read from counting's own breakdown (``SeenHand.taken``), never counted again; what
    ``points`` holds beyond it was credited for trumps laid aside.
    """
    sides = rules.num_sides
    if hand.bidder is None or len(hand.taken) != sides:
        return [[] for _ in range(sides)]
    order = {role: i for i, (role, _) in enumerate(rules.points)}
    out: list[list[Took]] = []
    for side in range(sides):
        taken = hand.taken[side]
        named = sorted((it for it in taken if it[0] != "plain"), key=lambda it: order.get(it[0], len(order)))
        rows = [
            Took(POINT_NAMES.get(role, role), p, _role_card(rules, role, hand.trump))
            for role, p in named
            if p
        ]
        plain = sum(p for role, p in taken if role == "plain")
        if plain:
            rows.append(Took("card points", plain))
        credited = hand.points[side] - sum(p for _, p in taken)
        if credited > 0:
            rows.append(Took("laid-aside trumps", credited))
        out.append(rows)
    return out


def _role_card(rules: Ruleset, role: str, trump: int | None) -> int | None:
    if trump is None or (rules.relative_high_low and role in _RELATIVE_ROLES):
        return None
    return role_card(role, trump)


def took_text(took: Took, card_text: Callable[[int], str]) -> str:
    """``High A♥``, ``Pedro 5♥ (5)``, ``card points 7``: the points shown when not 1."""
    name = _(took.name) if took.name in _POINT_WORDS else took.name
    text = name + (f" {card_text(took.card)}" if took.card is not None else "")
    if took.card is None:
        return f"{text} {took.points}"
    return text + (f" ({took.points})" if took.points != 1 else "")
