"""The rule sheet's first sections: the game, its players, pack, trumps, card points and deal."""

from __future__ import annotations

from pedro.cards import JOKERS
from pedro.i18n import _, ngettext
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import FillPolicy, OutOfTrumps, Ruleset
from pedro.variants.options import option_text
from pedro.variants.sheet.words import (
    ROLE_NOTES,
    Words,
    card_count,
    count_word,
    point_name,
    points_text,
    role_label,
    stock_size,
    trump_order_text,
)

_PLAIN_RANKS = "A K Q J 10 9 8 7 6 5 4 3 2"


def intro(rules: Ruleset) -> list[str]:
    out = []
    if rules.aliases:
        out.append(_("Also known as: {names}.", names=", ".join(rules.aliases)))
    if rules.summary:
        out.append(_(rules.summary))
    if rules.options:
        shown = ", ".join(f"`{name}={option_text(value)}`" for name, value in rules.options)
        out.append(
            _(
                "House rules in force: {options}. The sheet below already includes their effect.",
                options=shown,
            )
        )
    else:
        out.append(_("No house rules: these are the standard rules of {name}.", name=rules.name))
    if rules.id in VARIANTS:
        out.append(
            _(
                "The project's rules reference explains these rules and the reading behind each one: "
                "docs/rules.md §{id}, and §house-rules for the house rules.",
                id=rules.id,
            )
            if rules.options
            else _(
                "The project's rules reference explains these rules and the reading behind each one: "
                "docs/rules.md §{id}.",
                id=rules.id,
            )
        )
    return out


def players(rules: Ruleset) -> list[str]:
    if rules.partnerships:
        seats = _(
            "{n} players in two partnerships; partners sit opposite each other "
            "(seats 1 and 3 against seats 2 and 4) and score together.",
            n=rules.players,
        )
    elif rules.min_players != rules.max_players:
        seats = _(
            "{low} to {high} players (this sheet is for {n}), each playing for himself.",
            low=rules.min_players,
            high=rules.max_players,
            n=rules.players,
        )
    else:
        seats = _("{n} players, each playing for himself.", n=rules.players)
    return [
        seats,
        _(
            "The first dealer is chosen by lot. After every hand, including a hand thrown in without "
            "play, the deal passes to the left. Dealing, bidding and play all go clockwise."
        ),
    ]


def pack(rules: Ruleset) -> list[str]:
    jokers = [j for j in rules.jokers if j in JOKERS]
    if not jokers:
        text = _("A standard pack of 52 cards, no jokers.")
    elif jokers == ["JK"]:
        text = _("A standard pack of 52 cards plus one joker (JK): 53 cards. The joker is always a trump.")
    else:
        names = _(" and ").join(_("the {name} ({code})", name=_(ROLE_NOTES[j]), code=j) for j in jokers)
        text = _(
            "A standard pack of 52 cards plus {jokers}: {n} cards. The jokers must be "
            "easy to tell apart, and they are always trumps.",
            jokers=names,
            n=len(rules.deck),
        )
    return [text]


def trumps(rules: Ruleset) -> list[str]:
    order = rules.trump_order
    out = [
        _("The bidder chooses the trump suit (there is no no-trump game). Trumps rank from high to low:"),
        f"- {trump_order_text(rules)}",
    ]
    notes = []
    if "L5" in order:
        notes.append(
            _(
                "L5, the left pedro, is the five of the other suit of the same colour as trumps (spades "
                "with clubs, hearts with diamonds); the trump five is the right pedro."
            )
        )
    elif "5" in order:
        notes.append(_("The five of the other suit of the trump colour is an ordinary card of its own suit."))
    if "OJ" in order:
        notes.append(
            _(
                "OJ, the off-jack, is the jack of the other suit of the same colour as trumps; the trump "
                "jack beats it."
            )
        )
    if "L5" in order or "OJ" in order:
        notes.append(
            _(
                "These cards are trumps for the whole hand and no longer belong to their printed suit: "
                "a player whose only card of that suit is the left pedro is void in it."
            )
        )
    if order[:1] in (("5",), ("L5",)):
        notes.append(_("Note that the fives are the highest trumps here, above the ace."))
    if notes:
        out.append(" ".join(notes))
    if rules.out_of_trumps is OutOfTrumps.COLD_ON_TURN:
        out.append(_("Only trumps are ever played, so the other suits have no rank that matters."))
    elif rules.plain_ranking:
        out.append(
            _(
                "In the other suits cards rank {ranks}, leaving out any card that has become a trump.",
                ranks=_PLAIN_RANKS,
            )
        )
    else:
        out.append(
            _(
                "Cards of the other suits have no rank at all: a trick without a trump in it is won by the "
                "player who led it, whatever the others played."
            )
        )
    return out


def points(rules: Ruleset, w: Words) -> list[str]:
    total = rules.total_points
    if rules.relative_high_low:
        fixed = ", ".join(
            f"{role_label(role)} ({point_name(role)}) {p}"
            for role, p in rules.points
            if role not in ("A", "2", "T") and p
        )
        return [
            _(
                "Points are scored the classic Pitch way: High (1) is the highest trump played in the hand "
                "and Low (1) the lowest trump played, each going to the side that played it; Game (1) goes "
                "to the side whose tricks hold the most card points (every ten 10, ace 4, king 3, queen 2, "
                "jack 1); and the fixed trumps {fixed} score for whoever wins them. That makes {total} "
                "points in each hand.",
                fixed=fixed,
                total=total,
            )
        ]
    out = [_("Scoring trumps: {points}.", points=points_text(rules))]
    if rules.plain_points:
        ranks = ", ".join(role_label(role) for role, _p in rules.plain_points)
        values = {p for _r, p in rules.plain_points}
        if len(values) == 1:
            out.append(
                ngettext(
                    "In addition every {ranks} of the other suits is worth {n} point.",
                    "In addition every {ranks} of the other suits is worth {n} points.",
                    values.pop(),
                    ranks=ranks,
                )
            )
        else:
            out.append(
                _("In addition every {ranks} of the other suits is worth the points listed.", ranks=ranks)
            )
    else:
        out.append(_("No other card scores."))
    out[-1] += " " + _("There are {total} points in each hand.", total=total)
    if total and rules.max_bid == total:
        out[-1] += " " + _("A bid of {total} is a bid to take every one of them.", total=total)
    return [" ".join(out)]


def deal(rules: Ruleset) -> list[str]:
    out = []
    n = rules.players
    if rules.deal_all_out:
        left = len(rules.deck) - n * rules.first_deal_size
        each = card_count(rules.first_deal_size)
        out.append(
            _(
                "The dealer deals the whole pack one card at a time, clockwise from his left, so that each "
                "player gets {cards}; the {left} left over are put aside unseen.",
                cards=each,
                left=card_count(left),
            )
            if left
            else _(
                "The dealer deals the whole pack one card at a time, clockwise from his left, so that each "
                "player gets {cards}.",
                cards=each,
            )
        )
    else:
        packets = rules.packets
        if packets == (1,):
            how = _("one at a time")
        elif len(set(packets)) == 1:
            how = _("{count} at a time", count=count_word(packets[0]))
        else:
            how = _("in packets of {sizes}", sizes=_(" then ").join(str(p) for p in packets))
        out.append(
            _(
                "The dealer deals {cards} to each player, {how}, clockwise starting "
                "with the player on his left and ending with himself.",
                cards=card_count(rules.hand_size),
                how=how,
            )
        )
    if rules.kitty_size:
        out.append(
            _(
                "Then {cards} are dealt face down to the table as a kitty for the bidder.",
                cards=card_count(rules.kitty_size),
            )
        )
    if rules.second_deal:
        out.append(
            _(
                "After trumps are named, each player receives {count} more cards "
                "from the stock in one packet, clockwise from the dealer's left.",
                count=count_word(rules.second_deal),
            )
        )
    stock = stock_size(rules)
    if stock > 0 and not rules.deal_all_out:
        if rules.fill is FillPolicy.NONE:
            out.append(_("The other {cards} are not used this hand.", cards=card_count(stock)))
        else:
            out.append(
                _(
                    "The remaining {cards} form the stock, face down, used to refill hands.",
                    cards=card_count(stock),
                )
            )
    elif stock == 0 and (rules.second_deal or rules.kitty_size):
        out.append(_("This uses the whole pack."))
    return [" ".join(out)]
