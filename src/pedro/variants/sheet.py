"""A readable rule sheet generated from a ``Ruleset``.

The sheet is built only from the ruleset's fields, never from per-variant
text (apart from the variant's own summary and a pointer to its section of
docs/rules.md), so it always describes the rules the engine will actually
enforce, house-rule options included.

It is written in the player's language (``pedro.i18n``): every sentence is a whole text in the
catalogs, its numbers and names filled in, and a sentence that differs for partnerships and for
players on their own is two texts, as other languages do not say "he" and "it" the English way.
"""

from __future__ import annotations

import re
import textwrap

from pedro.cards import JOKERS
from pedro.i18n import N_, _, ngettext
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import (
    POINT_NAMES,
    AllPassAction,
    AuctionModel,
    BuryRule,
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    MadeScores,
    OutOfTrumps,
    PlainLead,
    Ruleset,
    Scoring,
    TrumpDiscardClaim,
)
from pedro.variants.options import option_text

_ROLE_NOTES = {
    "L5": N_("left pedro"),
    "OJ": N_("off-jack"),
    "JK": N_("joker"),
    "BJ": N_("big joker"),
    "SJ": N_("small joker"),
}
_NUMBER_WORDS = (
    N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"),
    N_("six"), N_("seven"), N_("eight"), N_("nine"), N_("ten"),
)  # fmt: skip
_PLAIN_RANKS = "A K Q J 10 9 8 7 6 5 4 3 2"


def rule_sheet(rules: Ruleset) -> str:
    """The complete rules of ``rules`` as markdown text a new player can learn the game from,
    in the language in use."""
    w = _Words(rules)
    sections = [
        (f"# {rules.name} (`{rules.id}`)", _intro(rules)),
        ("## " + _("Players"), _players(rules)),
        ("## " + _("The pack"), _pack(rules)),
        ("## " + _("Trumps"), _trumps(rules)),
        ("## " + _("Card points"), _points(rules, w)),
        ("## " + _("The deal"), _deal(rules)),
        ("## " + _("Bidding"), _bidding(rules, w)),
        ("## " + _("Naming trumps"), _naming(rules)),
        ("## " + _("Before play: discarding and filling"), _exchange(rules, w)),
        ("## " + _("Play"), _play(rules, w)),
        ("## " + _("Counting the points"), _counting(rules, w)),
        ("## " + _("Scoring"), _scoring(rules, w)),
        ("## " + _("Winning the game"), _game_end(rules, w)),
    ]
    out: list[str] = []
    for heading, paragraphs in sections:
        out.append(heading)
        out.extend(_wrap(p) for p in paragraphs if p)
    return "\n\n".join(out) + "\n"


def trump_order_text(rules: Ruleset) -> str:
    """Trump order high to low with role names, e.g. ``A K ... 5 L5(left pedro) 4 3 2``."""
    return " ".join(_role_label(role, note=True) for role in rules.trump_order)


def points_text(rules: Ruleset) -> str:
    """The point table in trump order, e.g. ``A (High) 1, J (Jack) 1, ...``."""
    order = {role: i for i, role in enumerate(rules.trump_order)}
    items = sorted(
        ((role, p) for role, p in rules.points if p), key=lambda item: order.get(item[0], len(order))
    )
    return ", ".join(f"{_role_label(role)} ({_point_name(role)}) {p}" for role, p in items)


def _point_name(role: str) -> str:
    """A scoring role's name in the language in use: ``High``, ``Korkein``, ``Högsta``."""
    name = POINT_NAMES.get(role)
    return _(name) if name is not None else role


# ---------------------------------------------------------------------------
# words that depend on the seating


class _Words:
    """Whether the sheet talks of sides or of players; the sentences that differ are whole texts."""

    def __init__(self, rules: Ruleset) -> None:
        self.partnerships = rules.partnerships

    def pick(self, sides: str, players: str, **fields: object) -> str:
        """The partnership text or the players' one (both marked with ``N_``), translated and filled."""
        return _(sides if self.partnerships else players, **fields)


#: A line Markdown would read as the start of a list, a heading or a quote ("2 (Low) 1." wrapped
#: before the "1." made an item numbered 1 of the sentence after it).
_BLOCK_START = re.compile(r"(\d+[.)]|[-+*]|#+|>)(\s|$)")


def _wrap(paragraph: str) -> str:
    """Wrapped for reading as plain text too, with no line that Markdown would take for a block."""
    if paragraph.startswith(("- ", "#")):
        return paragraph
    lines = textwrap.wrap(paragraph, width=92, break_on_hyphens=False)
    i = 1
    while i < len(lines):
        if _BLOCK_START.match(lines[i]):  # its first word goes up to the line before
            word, _sep, rest = lines[i].partition(" ")
            lines[i - 1] += " " + word
            if rest:
                lines[i] = rest
                continue
            del lines[i]
            continue
        i += 1
    return "\n".join(lines)


def _role_label(role: str, *, note: bool = False) -> str:
    label = "10" if role == "T" else role
    if note and role in _ROLE_NOTES:
        return f"{label}({_(_ROLE_NOTES[role])})"
    return label


def _count_word(n: int) -> str:
    return _(_NUMBER_WORDS[n]) if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n)


def _scoring_trumps(rules: Ruleset) -> int:
    return rules.tables(0).scoring_mask.bit_count()


def _stock_size(rules: Ruleset) -> int:
    dealt = rules.players * (rules.first_deal_size + rules.second_deal) + rules.kitty_size
    return len(rules.deck) - dealt


# ---------------------------------------------------------------------------
# sections


def _intro(rules: Ruleset) -> list[str]:
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


def _players(rules: Ruleset) -> list[str]:
    if rules.partnerships:
        seats = _(
            "{n} players in two partnerships; partners sit opposite each other "
            "(seats 0 and 2 against seats 1 and 3) and score together.",
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


def _pack(rules: Ruleset) -> list[str]:
    jokers = [j for j in rules.jokers if j in JOKERS]
    if not jokers:
        text = _("A standard pack of 52 cards, no jokers.")
    elif jokers == ["JK"]:
        text = _("A standard pack of 52 cards plus one joker (JK): 53 cards. The joker is always a trump.")
    else:
        names = _(" and ").join(_("the {name} ({code})", name=_(_ROLE_NOTES[j]), code=j) for j in jokers)
        text = _(
            "A standard pack of 52 cards plus {jokers}: {n} cards. The jokers must be "
            "easy to tell apart, and they are always trumps.",
            jokers=names,
            n=len(rules.deck),
        )
    return [text]


def _trumps(rules: Ruleset) -> list[str]:
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


def _points(rules: Ruleset, w: _Words) -> list[str]:
    total = rules.total_points
    if rules.relative_high_low:
        fixed = ", ".join(
            f"{_role_label(role)} ({_point_name(role)}) {p}"
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
        ranks = ", ".join(_role_label(role) for role, _p in rules.plain_points)
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


def _deal(rules: Ruleset) -> list[str]:
    out = []
    n = rules.players
    if rules.deal_all_out:
        left = len(rules.deck) - n * rules.first_deal_size
        each = _cards(rules.first_deal_size)
        out.append(
            _(
                "The dealer deals the whole pack one card at a time, clockwise from his left, so that each "
                "player gets {cards}; the {left} left over are put aside unseen.",
                cards=each,
                left=_cards(left),
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
            how = _("{count} at a time", count=_count_word(packets[0]))
        else:
            how = _("in packets of {sizes}", sizes=_(" then ").join(str(p) for p in packets))
        out.append(
            _(
                "The dealer deals {cards} to each player, {how}, clockwise starting "
                "with the player on his left and ending with himself.",
                cards=_cards(rules.hand_size),
                how=how,
            )
        )
    if rules.kitty_size:
        out.append(
            _(
                "Then {cards} are dealt face down to the table as a kitty for the bidder.",
                cards=_cards(rules.kitty_size),
            )
        )
    if rules.second_deal:
        out.append(
            _(
                "After trumps are named, each player receives {count} more cards "
                "from the stock in one packet, clockwise from the dealer's left.",
                count=_count_word(rules.second_deal),
            )
        )
    stock = _stock_size(rules)
    if stock > 0 and not rules.deal_all_out:
        if rules.fill is FillPolicy.NONE:
            out.append(_("The other {cards} are not used this hand.", cards=_cards(stock)))
        else:
            out.append(
                _(
                    "The remaining {cards} form the stock, face down, used to refill hands.",
                    cards=_cards(stock),
                )
            )
    elif stock == 0 and (rules.second_deal or rules.kitty_size):
        out.append(_("This uses the whole pack."))
    return [" ".join(out)]


def _bidding(rules: Ruleset, w: _Words) -> list[str]:
    lo, hi = rules.min_bid, rules.max_bid
    out = [
        w.pick(
            N_(
                "A bid is a number: the points a player undertakes that his side will take if he chooses "
                "trumps. No suit is mentioned in the auction."
            ),
            N_(
                "A bid is a number: the points a player undertakes that he will take if he chooses "
                "trumps. No suit is mentioned in the auction."
            ),
        )
    ]
    if rules.auction is AuctionModel.SINGLE_ROUND:
        out.append(
            _(
                "Starting with the player on the dealer's left, each player has one turn to bid or pass, "
                "the dealer speaking last. The highest bid wins."
            )
        )
    else:
        out.append(
            _(
                "Starting with the player on the dealer's left, players bid or pass in turn, going round the "
                "table as often as needed; a player who passes takes no further part in the auction. It "
                "ends when there is a bid and everybody else has passed."
            )
        )
    if rules.dealer_may_equal:
        out.append(
            _(
                "Bids run from {low} to {high}, and every bid must be higher than the one before, except "
                "that the dealer, speaking last, may take the contract by bidding the same as the highest "
                "bid so far.",
                low=lo,
                high=hi,
            )
        )
    else:
        out.append(
            _(
                "Bids run from {low} to {high}, and every bid must be higher than the one before.",
                low=lo,
                high=hi,
            )
        )
    if rules.max_bid_rebid:
        out.append(
            _(
                "Once someone has bid {high}, every later player may also bid {high} and take the contract "
                "over; the last player to bid {high} wins it.",
                high=hi,
            )
        )
    paragraphs = [" ".join(out)]

    if rules.all_pass_action is AllPassAction.DEALER_FORCED and rules.dealer_forced_bid is not None:
        forced = rules.dealer_forced_bid
        if forced < lo:
            text = _(
                "If everyone else passes, the dealer may not pass: he becomes the bidder at {forced}, "
                "below the usual minimum, unless he bids {low} or more.",
                forced=forced,
                low=lo,
            )
        elif forced == lo:
            text = _(
                "If everyone else passes, the dealer may not pass: he must bid at least {forced}.",
                forced=forced,
            )
        else:
            text = _(
                "If everyone else passes, the dealer may not pass: he must bid at least {forced} (a bid "
                "of {low} is open to the others, but not to a forced dealer).",
                forced=forced,
                low=lo,
            )
        paragraphs.append(text)
    else:
        paragraphs.append(
            _(
                "If everybody passes, the cards are thrown in without play, the scores do not change and the "
                "next dealer deals."
            )
        )

    specials = []
    if rules.protect:
        if rules.protect_may_equal:
            text = _(
                "The dealer's partner, when his turn comes and nobody has bid yet, may call 'protect': a "
                "bid of {low} that makes him the bidder (later players may still bid higher); he may also "
                "protect over an existing bid of {low}, taking it over.",
                low=lo,
            )
        else:
            text = _(
                "The dealer's partner, when his turn comes and nobody has bid yet, may call 'protect': a "
                "bid of {low} that makes him the bidder (later players may still bid higher).",
                low=lo,
            )
        specials.append(text)
    if rules.slam:
        specials.append(
            _(
                "A bid of {high} is a slam: it scores {double} if the bidders take every point and loses "
                "only {high} if they do not.",
                high=hi,
                double=2 * hi,
            )
        )
    if rules.bid_28_56:
        specials.append(
            _(
                "The dealer alone may call '28-56', which ranks above {high}: he must hold the ace, king and "
                "two of a suit and must then name that suit as trumps. His side must take all {total} "
                "points; it scores 56 if it does and loses 28 if not.",
                high=hi,
                total=rules.total_points,
            )
        )
    if rules.double_max_bid:
        specials.append(
            _(
                "Any player may outbid {high} by calling '{high} double': his side must take all {total} "
                "points, and scores {double} if it does or loses {double} if not.",
                high=hi,
                total=rules.total_points,
                double=2 * hi,
            )
        )
    if specials:
        paragraphs.append(" ".join(specials))
    return paragraphs


def _naming(rules: Ruleset) -> list[str]:
    if rules.kitty_size and rules.kitty_before_trump:
        return [_("The bidder first takes the kitty into his hand, and only then names the trump suit.")]
    if rules.kitty_size:
        return [
            _(
                "The bidder names the trump suit first, without looking at the kitty, and then picks the "
                "kitty up into his hand."
            )
        ]
    if rules.second_deal:
        return [_("The bidder names the trump suit straight after the auction, before the second deal.")]
    return [_("The bidder names the trump suit straight after the auction.")]


def _exchange(rules: Ruleset, w: _Words) -> list[str]:
    play = rules.play_hand_size
    out: list[str] = []
    if rules.fold:
        out.append(
            _(
                "After the second deal each player in turn, starting at the dealer's left, looks at his "
                "{n} cards. A player with no trump must fold: he puts his "
                "hand face down and takes no part in the play. A player with exactly one trump, or with two "
                "trumps one of which is the two, may give them to his partner and fold, unless the partner "
                "has already folded or passed cards to him. The partner then discards down as below.",
                n=rules.hand_size + rules.second_deal,
            )
            if rules.fold_mandatory
            else _(
                "After the second deal each player in turn, starting at the dealer's left, looks at his "
                "{n} cards. A player with no trump may fold: he puts his "
                "hand face down and takes no part in the play. A player with exactly one trump, or with two "
                "trumps one of which is the two, may give them to his partner and fold, unless the partner "
                "has already folded or passed cards to him. The partner then discards down as below.",
                n=rules.hand_size + rules.second_deal,
            )
        )
    discard = rules.discard
    if discard is DiscardPolicy.NONE:
        out.append(_("There is no discarding or drawing: everyone plays the cards he was dealt."))
        return out
    if discard is DiscardPolicy.ALL_NONTRUMPS:
        text = _("Every player, the dealer included, discards all his non-trumps and keeps all his trumps.")
        if rules.keep_nontrumps:
            text += " " + _(
                "He may instead keep some non-trumps, as long as he keeps no more than {cards} "
                "(more only if they are all trumps).",
                cards=_cards(play),
            )
        out.append(text)
    elif discard is DiscardPolicy.ANY_CARDS:
        least = rules.hand_size - play
        if least > 0:
            out.append(
                _(
                    "Every player discards any cards he does not want, trumps included, but at least "
                    "{cards}.",
                    cards=_cards(least),
                )
            )
        else:
            out.append(
                _("Every player may discard any cards he does not want, trumps included, or none at all.")
            )
    elif discard is DiscardPolicy.AT_LEAST_3_ANY:
        out.append(
            _(
                "Every player discards at least three cards of his choice; he may throw away trumps too, "
                "and a discarded trump is out of play for the hand. Players announce their discards in "
                "turn from the dealer's left, and nobody may discard more than three plus the stock cards "
                "not yet promised to earlier players."
            )
        )
    else:
        text = _(
            "Every player reduces his hand to {cards}, discarding non-trumps first; a player "
            "with fewer than {n} trumps keeps non-trumps of his choice to make up {n}.",
            cards=_cards(play),
            n=play,
        )
        if rules.excess_trumps is ExcessTrumps.PASS_TO_PARTNER:
            text += " " + _("Trumps that score nothing may also be discarded, but scoring trumps never are.")
        else:
            text += " " + _("Trumps are discarded only as described below for a player with too many.")
        out.append(text)

    out.append(_visibility(rules))
    if rules.trump_discard_claim is not TrumpDiscardClaim.NONE:
        out.append(
            _(
                "A trump seen among the face-up discards may be claimed by an opponent of the player who "
                "discarded it, offered in turn clockwise from the discarder's left; the claimant gives up a "
                "non-trump face up in exchange."
            )
            if rules.trump_discard_claim is TrumpDiscardClaim.OPPONENTS
            else _(
                "A trump seen among the face-up discards may be claimed by any other player, offered in turn "
                "clockwise from the discarder's left; the claimant gives up a non-trump face up in exchange."
            )
        )

    fill = rules.fill
    robs = (
        " " + _("He may also take trumps from the other players' discards.")
        if rules.dealer_robs_discards
        else ""
    )
    shortage = " " + _("If the stock runs out, filling continues from the shuffled discards.")
    if fill is FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS:
        out.append(
            _(
                "The dealer then gives each other player, clockwise from his left, enough cards from the "
                "stock to bring him up to {n}. Finally the dealer looks through the rest of the stock: "
                "he must take every trump in it, and adds non-trumps of his choice only to reach {n}; "
                "he may end with more than {n} cards if they are all trumps.",
                n=play,
            )
            + robs
            + shortage
        )
    elif fill is FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6:
        out.append(
            _(
                "The dealer then fills each other player up to {n} from the stock, clockwise from his "
                "left, takes the whole rest of the stock into his hand and keeps {n} cards, keeping "
                "all his trumps (up to {n}) before any non-trump.",
                n=play,
            )
            + robs
            + shortage
        )
    elif fill is FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS:
        out.append(
            _(
                "The dealer then gives each other player, clockwise from his left, cards from the top of "
                "the stock to bring him back to {n}. Last, the dealer makes his own hand exactly {n} "
                "cards, choosing freely from the rest of the stock and from the other players' discards.",
                n=play,
            )
        )
    elif fill is FillPolicy.FILL_ALL_FROM_TOP:
        out.append(
            _(
                "The dealer then deals every player, clockwise from his left and himself last, cards from "
                "the top of the stock to bring each hand up to {n}.",
                n=play,
            )
        )
    out.append(_excess(rules, w))
    return [p for p in out if p]


def _visibility(rules: Ruleset) -> str:
    plain, trumps = rules.discards_face_up, rules.trump_discards_face_up
    may_discard_trumps = rules.discard in (DiscardPolicy.ANY_CARDS, DiscardPolicy.AT_LEAST_3_ANY) or (
        rules.excess_trumps is not ExcessTrumps.KEEP_AND_BURY
    )
    if plain and trumps:
        return _("All discards are placed face up, so everybody can see them.")
    if not plain and not trumps:
        return _("Discards are placed face down.")
    if not plain and may_discard_trumps:
        return _(
            "Non-trumps are discarded face down; any trump that is discarded is shown face up, so that "
            "everybody knows it is out of play."
        )
    if not plain:
        return _("Discards are placed face down.")
    return _("Non-trumps are discarded face up, trumps face down.")


def _can_overflow(rules: Ruleset) -> bool:
    """Whether a player can hold more trumps than cards for play, so the excess-trump rule matters."""
    return rules.discard in (
        DiscardPolicy.ALL_NONTRUMPS,
        DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST,
    ) and (rules.first_deal_size + rules.second_deal + rules.kitty_size > rules.play_hand_size)


def _excess(rules: Ruleset, w: _Words) -> str:
    play = rules.play_hand_size
    if not _can_overflow(rules):
        return ""
    excess = rules.excess_trumps
    scoring = _scoring_trumps(rules)
    if excess is ExcessTrumps.KEEP_AND_BURY:
        text = _(
            "A player with more than {n} trumps keeps them all. At the first trick he plays his extra "
            "cards all at once as a face-up stack, so that he has {left} cards left after it, like "
            "everyone else. The top card of the stack is his play and competes for the trick; the cards "
            "under it are buried: they belong to the trick and go to its winner but cannot win it.",
            n=play,
            left=play - 1,
        )
        if rules.bury_rule is BuryRule.NONSCORING:
            if scoring > play:
                text += " " + _(
                    "Buried cards must be trumps that score nothing; when that is impossible he buries as "
                    "few points as he can: non-scoring trumps first, then the two, then 1-point trumps, "
                    "then 5-point trumps."
                )
            else:
                text += " " + _("Buried cards must be trumps that score nothing.")
        else:
            text += " " + _(
                "Among all the cards he puts on the first trick at most one may be a scoring trump; a "
                "player holding all {n} scoring trumps may put the two and one other.",
                n=scoring,
            )
        return text
    if excess is ExcessTrumps.MUST_DISCARD_TO_6:
        text = _("A player with more than {n} trumps must discard trumps until he has {n}.", n=play)
        if rules.discarded_scoring_trumps is DiscardedScoringTrumps.FORBIDDEN:
            text += " " + _("He may not discard scoring trumps.")
        else:
            text += " " + _(
                "If he discards scoring trumps, their points are credited to his opponents at the end "
                "of the hand."
            )
        return text
    if excess is ExcessTrumps.KILL_NONSCORING_FACE_UP:
        return _(
            "A player who ends up with more than {n} trumps kills the extra ones face up; scoring "
            "trumps may not be killed, and killed cards are dead for the hand.",
            n=play,
        )
    if excess is ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        return _(
            "A player with more than {n} trumps discards trumps that score nothing, face up, until "
            "he has {n}. If he holds more than {n} scoring trumps he discards the two face up "
            "first (if he has it), then 1-point trumps as needed; his side is still credited with the "
            "points of scoring trumps discarded this way.",
            n=play,
        )
    text = _(
        "A player with more than {n} trumps keeps {n} and passes the extra ones to his partner, "
        "or discards extra trumps that score nothing. Scoring trumps are never discarded: if the "
        "partners hold more than {both} trumps between them they discard non-scoring trumps until "
        "each has {n}, and nobody may pass his partner more scoring trumps than the partner can keep.",
        n=play,
        both=2 * play,
    )
    if rules.fill is not FillPolicy.NONE:
        text += " " + _("Extra trumps are passed before the stock is dealt.")
    if rules.nine_card_deal:
        text += " " + _(
            "Only a dealer whose partner passed him trumps may have to discard scoring trumps: he may "
            "pass none back, so if the stock leaves him more than {n} scoring trumps he discards the "
            "cheapest of them face up (the two, then 1-point trumps), and their points count for nobody.",
            n=play,
        )
    return text


def _play(rules: Ruleset, w: _Words) -> list[str]:
    play = rules.play_hand_size
    out = []
    text = _("Each player normally holds {cards} for play, one card to each trick.", cards=_cards(play))
    text += " " + (
        _("The bidder leads to the first trick, and must lead a trump if he has one.")
        if rules.first_lead_trump
        else _("The bidder leads to the first trick.")
    )
    if rules.fold or rules.out_of_trumps is not OutOfTrumps.CONTINUE:
        text += " " + (
            _(
                "If the bidder is no longer taking part, the next active player clockwise leads instead "
                "and must lead a trump if he can."
            )
            if rules.first_lead_trump
            else _("If the bidder is no longer taking part, the next active player clockwise leads instead.")
        )
    text += " " + (
        _(
            "The winner of each trick leads to the next; if he has dropped out, the next active player "
            "clockwise leads."
        )
        if rules.out_of_trumps is not OutOfTrumps.CONTINUE or rules.fold
        else _("The winner of each trick leads to the next.")
    )
    out.append(text)

    if rules.out_of_trumps is OutOfTrumps.COLD_ON_TURN:
        out.append(
            _(
                "Only trumps are ever played. When it is a player's turn, to lead or to follow, and he holds "
                "no trump, he goes cold: he lays his remaining cards face up on the table and is skipped for "
                "the rest of the hand. He may not reveal this before his turn comes. If a player wins a "
                "trick with his last trump, the lead passes to the next player clockwise who still holds a "
                "trump."
            )
            if rules.cold_cards_face_up
            else _(
                "Only trumps are ever played. When it is a player's turn, to lead or to follow, and he holds "
                "no trump, he goes cold: he lays his remaining cards face down on the table and is skipped "
                "for the rest of the hand. He may not reveal this before his turn comes. If a player wins a "
                "trick with his last trump, the lead passes to the next player clockwise who still holds a "
                "trump."
            )
        )
    else:
        trump_led = (
            _(
                "When a trump is led, everyone must play a trump if he can; a player who cannot is out for "
                "the rest of the hand and plays no further card, not even to a plain-suit lead."
            )
            if rules.out_of_trumps is OutOfTrumps.OUT_ON_TRUMP_LEAD
            else _(
                "When a trump is led, everyone must play a trump if he can; a player without one may play "
                "any card."
            )
        )
        out.append(trump_led + " " + _plain_lead_text(rules.plain_lead))

    if rules.out_of_trumps is OutOfTrumps.COLD_ON_TURN:
        out.append(_("Each trick is won by the highest trump in it."))
    elif rules.plain_ranking:
        out.append(
            _(
                "A trick containing a trump is won by the highest trump in it; otherwise by the highest card "
                "of the suit led."
            )
        )
    else:
        out.append(
            _(
                "A trick containing a trump is won by the highest trump in it; a trick without trumps is won "
                "by the player who led it, whatever the others played."
            )
        )

    if rules.out_of_trumps is OutOfTrumps.UP:
        out.append(
            _(
                'As soon as a player holds no trump, even before the first trick, he announces "I\'m up", '
                "lays down the rest of his hand and is skipped for the rest of the hand, so later tricks may "
                "have fewer cards. The play ends when nobody still in holds a trump; non-trumps still held "
                "are worthless."
            )
        )
    elif rules.out_of_trumps is OutOfTrumps.CONTINUE:
        out.append(_("A player who has run out of trumps simply goes on playing his other cards."))
    else:
        out.append(
            _(
                "The play ends when every active player's hand is empty or nobody still taking part holds a "
                "trump; non-trumps still held are worthless."
            )
        )
    return out


def _plain_lead_text(policy: PlainLead) -> str:
    if policy is PlainLead.FOLLOW_OR_TRUMP:
        return _(
            "When a plain suit is led, a player who has a card of that suit must either follow suit or "
            "play a trump (he may not throw a card of a third suit); a player with none of that suit "
            "may play anything."
        )
    if policy is PlainLead.MUST_FOLLOW:
        return _(
            "When a plain suit is led, a player who has a card of that suit must follow suit and may not "
            "trump instead; a player with none of that suit may play anything."
        )
    if policy is PlainLead.ANY:
        return _("When a plain suit is led, any card may be played: there is no need to follow suit.")
    if policy is PlainLead.NONTRUMP_IF_ABLE:
        return _(
            "When a plain suit is led, each player must play a non-trump, of any suit, if he has one; "
            "only a player holding nothing but trumps plays a trump."
        )
    return _(
        "When a plain suit is led, a player who has a card of that suit must follow suit or trump; a "
        "player with none of that suit must trump if he can, and only otherwise may play anything."
    )


def _counting(rules: Ruleset, w: _Words) -> list[str]:
    buries = _can_overflow(rules) and rules.excess_trumps is ExcessTrumps.KEEP_AND_BURY
    if buries:
        text = w.pick(
            N_(
                "After the last trick each side counts the scoring cards in the tricks it won, buried "
                "cards included."
            ),
            N_(
                "After the last trick each player counts the scoring cards in the tricks he won, buried "
                "cards included."
            ),
        )
    else:
        text = w.pick(
            N_("After the last trick each side counts the scoring cards in the tricks it won."),
            N_("After the last trick each player counts the scoring cards in the tricks he won."),
        )
    low = _point_name("2")
    if rules.relative_high_low:
        pass
    elif rules.low_rule is LowRule.HOLDER:
        text += " " + w.pick(
            N_(
                "The one exception is the {low} (the two of trumps): it always scores for the side of "
                "the player who held it when play began, whoever wins the trick it is played to; a two "
                "that nobody held then scores for nobody."
            ),
            N_(
                "The one exception is the {low} (the two of trumps): it always scores for the player "
                "who held it when play began, whoever wins the trick it is played to; a two "
                "that nobody held then scores for nobody."
            ),
            low=low,
        )
    elif rules.low_rule is LowRule.DEALT:
        text += " " + w.pick(
            N_(
                "The one exception is the {low} (the two of trumps): it scores for the side of the "
                "player to whom it was first dealt (in the deal or the refill), even if it later changed "
                "hands."
            ),
            N_(
                "The one exception is the {low} (the two of trumps): it scores for the player "
                "to whom it was first dealt (in the deal or the refill), even if it later changed "
                "hands."
            ),
            low=low,
        )
    else:
        text += " " + _(
            "The {low} (the two of trumps) is no exception: it scores for whoever wins it.", low=low
        )
    if _trumps_can_leave_play(rules):
        if (
            rules.excess_trumps is ExcessTrumps.MUST_DISCARD_TO_6
            and rules.discarded_scoring_trumps is DiscardedScoringTrumps.TO_OPPONENTS
        ):
            text += " " + _(
                "A scoring trump that is never played (left in the stock, undealt or discarded) scores "
                "for nobody, except that scoring trumps discarded down to six count for the discarder's "
                "opponents, so a contract for all the points is then impossible."
            )
        else:
            text += " " + _(
                "A scoring trump that is never played (left in the stock, undealt or discarded) scores "
                "for nobody, so a contract for all the points is then impossible."
            )
    if rules.excess_trumps is ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        text += " " + w.pick(
            N_("Scoring trumps discarded face up by a player with too many still count for his side."),
            N_("Scoring trumps discarded face up by a player with too many still count for his player."),
        )
    return [text]


def _trumps_can_leave_play(rules: Ruleset) -> bool:
    """Whether a scoring trump can end a hand unplayed (unused stock, undealt cards or discards)."""
    unused_stock = _stock_size(rules) > 0 and (rules.fill is FillPolicy.NONE or rules.deal_all_out)
    return (
        unused_stock
        or rules.discard in (DiscardPolicy.ANY_CARDS, DiscardPolicy.AT_LEAST_3_ANY)
        or rules.excess_trumps is ExcessTrumps.MUST_DISCARD_TO_6
        or rules.nine_card_deal  # note E9: a dealer may have to discard scoring trumps
        or (rules.deal_all_out and len(rules.deck) % rules.players != 0)
    )


def _scoring(rules: Ruleset, w: _Words) -> list[str]:
    out = []
    if rules.scoring is Scoring.STANDARD:
        points_made = rules.made_scores is MadeScores.POINTS_MADE
        if rules.partnerships:
            out.append(
                _(
                    "The bidding side makes the bid by taking at least the number of points bid, and then "
                    "scores the points it took. If it takes fewer, the amount of the bid is subtracted from "
                    "its score (scores can go below zero) and the points taken count for nothing."
                )
                if points_made
                else _(
                    "The bidding side makes the bid by taking at least the number of points bid, and then "
                    "scores the amount of its bid. If it takes fewer, the amount of the bid is subtracted "
                    "from its score (scores can go below zero) and the points taken count for nothing."
                )
            )
        else:
            out.append(
                _(
                    "The bidder makes the bid by taking at least the number of points bid, and then scores "
                    "the points he took. If he takes fewer, the amount of the bid is subtracted from his "
                    "score (scores can go below zero) and the points taken count for nothing."
                )
                if points_made
                else _(
                    "The bidder makes the bid by taking at least the number of points bid, and then scores "
                    "the amount of his bid. If he takes fewer, the amount of the bid is subtracted from his "
                    "score (scores can go below zero) and the points taken count for nothing."
                )
            )
        if rules.defenders_score_when_set:
            out.append(
                w.pick(
                    N_("The other side always scores the points it took."),
                    N_("The other players always score the points they took."),
                )
            )
        else:
            out.append(
                w.pick(
                    N_(
                        "The other side scores the points it took when the bid is made; when the bidder is "
                        "set, nobody else scores."
                    ),
                    N_(
                        "The other players score the points they took when the bid is made; when the bidder "
                        "is set, nobody else scores."
                    ),
                )
            )
    else:
        out.append(
            _(
                "Scores never go below zero. If the bid is made, the side that took more points scores the "
                "difference between the two sides' points (nobody scores if they are equal). If the bid is "
                "set, the defenders score the amount of the bid plus the points they took, and the bidders "
                "score nothing."
            )
        )
    specials = []
    hi = rules.max_bid
    if rules.slam:
        specials.append(_("a slam ({high}) made scores {double}, set loses {high}", high=hi, double=2 * hi))
    if rules.bid_28_56:
        specials.append(_("28-56 made scores 56, set loses 28"))
    if rules.double_max_bid:
        specials.append(_("'{high} double' made scores {double}, set loses {double}", high=hi, double=2 * hi))
    if specials:
        text = _("Special contracts replace these amounts: {list}.", list="; ".join(specials))
        if rules.scoring is Scoring.DIFFERENCE:
            text += " " + _(
                "When such a contract is set, the defenders score the set amount plus their points."
            )
        out.append(text)
    return [" ".join(out)]


def _game_end(rules: Ruleset, w: _Words) -> list[str]:
    target = rules.target
    out = []
    if rules.lose_at is not None:
        out.append(
            w.pick(
                N_(
                    "A side whose score is {lose} or lower after a hand loses at once, and the other side "
                    "wins; this is checked before anything else."
                ),
                N_(
                    "A player whose score is {lose} or lower after a hand loses at once, and the game ends; "
                    "this is checked before anything else."
                ),
                lose=rules.lose_at,
            )
        )
    end = rules.end_rule
    if end is EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY:
        out.append(
            w.pick(
                N_(
                    "The first side to reach {target} points or more wins. If several reach it on the same "
                    "hand, the bidding side wins if it is one of them (even with fewer points); a defending "
                    "side that alone reaches it wins too."
                ),
                N_(
                    "The first player to reach {target} points or more wins. If several reach it on the same "
                    "hand, the bidder wins if he is one of them; otherwise the highest score wins, and if "
                    "that is tied too another hand is played."
                ),
                target=target,
            )
        )
    elif end is EndRule.BIDDER_GOES_OUT:
        out.append(
            _(
                "The game is to {target}. When both sides start a hand with "
                "{threshold} points or more, it is a bidder-goes-out hand: if the "
                "bidders make their bid they win at once, whatever the scores (even below "
                "{target}). Otherwise a side that alone reaches {target} wins; if both sides reach "
                "{target} on an ordinary hand nobody wins yet, and the next hand is played as a "
                "bidder-goes-out hand.",
                target=target,
                threshold=rules.effective_bgo_threshold,
            )
        )
    elif end is EndRule.SUCCESSFUL_BID_ONLY:
        out.append(
            w.pick(
                N_(
                    "A side wins only at the end of a hand in which it bid and made its bid, if its score is "
                    "then {target} or more, even if the other side has more. Reaching {target} while "
                    "defending, or staying above it after being set, does not win; the game goes on."
                ),
                N_(
                    "A player wins only at the end of a hand in which it bid and made its bid, if its score "
                    "is then {target} or more, even if the other side has more. Reaching {target} while "
                    "defending, or staying above it after being set, does not win; the game goes on."
                ),
                target=target,
            )
        )
    else:
        names = ", ".join(_point_name(role) for role in rules.count_out_order)
        out.append(
            w.pick(
                N_(
                    "The first side to reach {target} points or more wins. If several reach it on the same "
                    "hand, the hand's points are added again one at a time in the order {names}, starting "
                    "from the scores before the hand (a set bidder's loss is taken first, so he cannot win "
                    "that hand); the first to reach {target} this way wins."
                ),
                N_(
                    "The first player to reach {target} points or more wins. If several reach it on the "
                    "same hand, the hand's points are added again one at a time in the order {names}, "
                    "starting from the scores before the hand (a set bidder's loss is taken first, so he "
                    "cannot win that hand); the first to reach {target} this way wins."
                ),
                target=target,
                names=names,
            )
        )
    return [" ".join(out)]
