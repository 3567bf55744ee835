"""A readable rule sheet generated from a ``Ruleset``.

The sheet is built only from the ruleset's fields, never from per-variant
text (apart from the variant's own summary and a pointer to its section of
docs/rules.md), so it always describes the rules the engine will actually
enforce, house-rule options included.
"""

from __future__ import annotations

import re
import textwrap

from pedro.cards import JOKERS
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

_ROLE_NOTES = {"L5": "left pedro", "OJ": "off-jack", "JK": "joker", "BJ": "big joker", "SJ": "small joker"}
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_PLAIN_RANKS = "A K Q J 10 9 8 7 6 5 4 3 2"


def rule_sheet(rules: Ruleset) -> str:
    """The complete rules of ``rules`` as markdown text a new player can learn the game from."""
    w = _Words(rules)
    sections = [
        (f"# {rules.name} (`{rules.id}`)", _intro(rules)),
        ("## Players", _players(rules)),
        ("## The pack", _pack(rules)),
        ("## Trumps", _trumps(rules)),
        ("## Card points", _points(rules, w)),
        ("## The deal", _deal(rules)),
        ("## Bidding", _bidding(rules, w)),
        ("## Naming trumps", _naming(rules)),
        ("## Before play: discarding and filling", _exchange(rules, w)),
        ("## Play", _play(rules, w)),
        ("## Counting the points", _counting(rules, w)),
        ("## Scoring", _scoring(rules, w)),
        ("## Winning the game", _game_end(rules, w)),
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
    return ", ".join(f"{_role_label(role)} ({POINT_NAMES.get(role, role)}) {p}" for role, p in items)


# ---------------------------------------------------------------------------
# words that depend on the seating


class _Words:
    """Side/player wording, so individual games do not talk about teams."""

    def __init__(self, rules: Ruleset) -> None:
        if rules.partnerships:
            self.side, self.bidders = "side", "the bidding side"
        else:
            self.side, self.bidders = "player", "the bidder"


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
            word, _, rest = lines[i].partition(" ")
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
        return f"{label}({_ROLE_NOTES[role]})"
    return label


def _count_word(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


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
        out.append("Also known as: " + ", ".join(rules.aliases) + ".")
    if rules.summary:
        out.append(rules.summary)
    if rules.options:
        shown = ", ".join(f"`{name}={option_text(value)}`" for name, value in rules.options)
        out.append(f"House rules in force: {shown}. The sheet below already includes their effect.")
    else:
        out.append(f"No house rules: these are the standard rules of {rules.name}.")
    if rules.id in VARIANTS:
        text = (
            f"The project's rules reference explains these rules and the reading behind each one: "
            f"docs/rules.md §{rules.id}"
        )
        out.append(text + (", and §house-rules for the house rules." if rules.options else "."))
    return out


def _players(rules: Ruleset) -> list[str]:
    if rules.partnerships:
        seats = (
            f"{rules.players} players in two partnerships; partners sit opposite each other "
            "(seats 0 and 2 against seats 1 and 3) and score together."
        )
    elif rules.min_players != rules.max_players:
        seats = (
            f"{rules.min_players} to {rules.max_players} players (this sheet is for {rules.players}), "
            "each playing for himself."
        )
    else:
        seats = f"{rules.players} players, each playing for himself."
    return [
        seats,
        "The first dealer is chosen by lot. After every hand, including a hand thrown in without "
        "play, the deal passes to the left. Dealing, bidding and play all go clockwise.",
    ]


def _pack(rules: Ruleset) -> list[str]:
    jokers = [j for j in rules.jokers if j in JOKERS]
    if not jokers:
        text = "A standard pack of 52 cards, no jokers."
    elif jokers == ["JK"]:
        text = "A standard pack of 52 cards plus one joker (JK): 53 cards. The joker is always a trump."
    else:
        names = " and ".join(f"the {_ROLE_NOTES[j]} ({j})" for j in jokers)
        text = (
            f"A standard pack of 52 cards plus {names}: {len(rules.deck)} cards. The jokers must be "
            "easy to tell apart, and they are always trumps."
        )
    return [text]


def _trumps(rules: Ruleset) -> list[str]:
    order = rules.trump_order
    out = [
        "The bidder chooses the trump suit (there is no no-trump game). Trumps rank from high to low:",
        f"- {trump_order_text(rules)}",
    ]
    notes = []
    if "L5" in order:
        notes.append(
            "L5, the left pedro, is the five of the other suit of the same colour as trumps (spades "
            "with clubs, hearts with diamonds); the trump five is the right pedro."
        )
    elif "5" in order:
        notes.append("The five of the other suit of the trump colour is an ordinary card of its own suit.")
    if "OJ" in order:
        notes.append(
            "OJ, the off-jack, is the jack of the other suit of the same colour as trumps; the trump "
            "jack beats it."
        )
    if "L5" in order or "OJ" in order:
        notes.append(
            "These cards are trumps for the whole hand and no longer belong to their printed suit: "
            "a player whose only card of that suit is the left pedro is void in it."
        )
    if order[:1] in (("5",), ("L5",)):
        notes.append("Note that the fives are the highest trumps here, above the ace.")
    if notes:
        out.append(" ".join(notes))
    if rules.out_of_trumps is OutOfTrumps.COLD_ON_TURN:
        out.append("Only trumps are ever played, so the other suits have no rank that matters.")
    elif rules.plain_ranking:
        out.append(
            f"In the other suits cards rank {_PLAIN_RANKS}, leaving out any card that has become a trump."
        )
    else:
        out.append(
            "Cards of the other suits have no rank at all: a trick without a trump in it is won by the "
            "player who led it, whatever the others played."
        )
    return out


def _points(rules: Ruleset, w: _Words) -> list[str]:
    total = rules.total_points
    if rules.relative_high_low:
        fixed = ", ".join(
            f"{_role_label(role)} ({POINT_NAMES.get(role, role)}) {p}"
            for role, p in rules.points
            if role not in ("A", "2", "T") and p
        )
        return [
            "Points are scored the classic Pitch way: High (1) is the highest trump played in the hand "
            "and Low (1) the lowest trump played, each going to the side that played it; Game (1) goes "
            "to the side whose tricks hold the most card points (every ten 10, ace 4, king 3, queen 2, "
            f"jack 1); and the fixed trumps {fixed} score for whoever wins them. That makes {total} "
            "points in each hand."
        ]
    out = [f"Scoring trumps: {points_text(rules)}."]
    if rules.plain_points:
        ranks = ", ".join(_role_label(role) for role, _ in rules.plain_points)
        values = {p for _, p in rules.plain_points}
        worth = f"{values.pop()} point" if len(values) == 1 else "the points listed"
        out.append(f"In addition every {ranks} of the other suits is worth {worth}.")
    else:
        out.append("No other card scores.")
    out[-1] += f" There are {total} points in each hand."
    if total and rules.max_bid == total:
        out[-1] += f" A bid of {total} is a bid to take every one of them."
    return [" ".join(out)]


def _deal(rules: Ruleset) -> list[str]:
    out = []
    n = rules.players
    if rules.deal_all_out:
        left = len(rules.deck) - n * rules.first_deal_size
        text = (
            "The dealer deals the whole pack one card at a time, clockwise from his left, so that each "
            f"player gets {_cards(rules.first_deal_size)}"
        )
        text += f"; the {_cards(left)} left over are put aside unseen." if left else "."
        out.append(text)
    else:
        packets = rules.packets
        if packets == (1,):
            how = "one at a time"
        elif len(set(packets)) == 1:
            how = f"{_count_word(packets[0])} at a time"
        else:
            how = "in packets of " + " then ".join(str(p) for p in packets)
        out.append(
            f"The dealer deals {_cards(rules.hand_size)} to each player, {how}, clockwise starting "
            "with the player on his left and ending with himself."
        )
    if rules.kitty_size:
        out.append(
            f"Then {_cards(rules.kitty_size)} are dealt face down to the table as a kitty for the bidder."
        )
    if rules.second_deal:
        out.append(
            f"After trumps are named, each player receives {_count_word(rules.second_deal)} more cards "
            "from the stock in one packet, clockwise from the dealer's left."
        )
    stock = _stock_size(rules)
    if stock > 0 and not rules.deal_all_out:
        if rules.fill is FillPolicy.NONE:
            out.append(f"The other {_cards(stock)} are not used this hand.")
        else:
            out.append(f"The remaining {_cards(stock)} form the stock, face down, used to refill hands.")
    elif stock == 0 and (rules.second_deal or rules.kitty_size):
        out.append("This uses the whole pack.")
    return [" ".join(out)]


def _bidding(rules: Ruleset, w: _Words) -> list[str]:
    lo, hi = rules.min_bid, rules.max_bid
    who = "his side" if rules.partnerships else "he"
    out = [
        f"A bid is a number: the points a player undertakes that {who} will take if he chooses "
        "trumps. No suit is mentioned in the auction."
    ]
    if rules.auction is AuctionModel.SINGLE_ROUND:
        out.append(
            "Starting with the player on the dealer's left, each player has one turn to bid or pass, "
            "the dealer speaking last. The highest bid wins."
        )
    else:
        out.append(
            "Starting with the player on the dealer's left, players bid or pass in turn, going round the "
            "table as often as needed; a player who passes takes no further part in the auction. It "
            "ends when there is a bid and everybody else has passed."
        )
    text = f"Bids run from {lo} to {hi}, and every bid must be higher than the one before"
    if rules.dealer_may_equal:
        text += (
            ", except that the dealer, speaking last, may take the contract by bidding the same as "
            "the highest bid so far"
        )
    out.append(text + ".")
    if rules.max_bid_rebid:
        out.append(
            f"Once someone has bid {hi}, every later player may also bid {hi} and take the contract "
            f"over; the last player to bid {hi} wins it."
        )
    paragraphs = [" ".join(out)]

    if rules.all_pass_action is AllPassAction.DEALER_FORCED and rules.dealer_forced_bid is not None:
        forced = rules.dealer_forced_bid
        if forced < lo:
            text = (
                f"If everyone else passes, the dealer may not pass: he becomes the bidder at {forced}, "
                f"below the usual minimum, unless he bids {lo} or more."
            )
        elif forced == lo:
            text = f"If everyone else passes, the dealer may not pass: he must bid at least {forced}."
        else:
            text = (
                f"If everyone else passes, the dealer may not pass: he must bid at least {forced} (a bid "
                f"of {lo} is open to the others, but not to a forced dealer)."
            )
        paragraphs.append(text)
    else:
        paragraphs.append(
            "If everybody passes, the cards are thrown in without play, the scores do not change and the "
            "next dealer deals."
        )

    specials = []
    if rules.protect:
        text = (
            "The dealer's partner, when his turn comes and nobody has bid yet, may call 'protect': a "
            f"bid of {lo} that makes him the bidder (later players may still bid higher)"
        )
        if rules.protect_may_equal:
            text += f"; he may also protect over an existing bid of {lo}, taking it over"
        specials.append(text + ".")
    if rules.slam:
        specials.append(
            f"A bid of {hi} is a slam: it scores {2 * hi} if the bidders take every point and loses only "
            f"{hi} if they do not."
        )
    if rules.bid_28_56:
        specials.append(
            f"The dealer alone may call '28-56', which ranks above {hi}: he must hold the ace, king and two "
            "of a suit and must then name that suit as trumps. His side must take all "
            f"{rules.total_points} points; it scores 56 if it does and loses 28 if not."
        )
    if rules.double_max_bid:
        specials.append(
            f"Any player may outbid {hi} by calling '{hi} double': his side must take all "
            f"{rules.total_points} points, and scores {2 * hi} if it does or loses {2 * hi} if not."
        )
    if specials:
        paragraphs.append(" ".join(specials))
    return paragraphs


def _naming(rules: Ruleset) -> list[str]:
    if rules.kitty_size and rules.kitty_before_trump:
        return ["The bidder first takes the kitty into his hand, and only then names the trump suit."]
    if rules.kitty_size:
        return [
            "The bidder names the trump suit first, without looking at the kitty, and then picks the "
            "kitty up into his hand."
        ]
    if rules.second_deal:
        return ["The bidder names the trump suit straight after the auction, before the second deal."]
    return ["The bidder names the trump suit straight after the auction."]


def _exchange(rules: Ruleset, w: _Words) -> list[str]:
    play = rules.play_hand_size
    out: list[str] = []
    if rules.fold:
        must = "must fold" if rules.fold_mandatory else "may fold"
        out.append(
            f"After the second deal each player in turn, starting at the dealer's left, looks at his "
            f"{rules.hand_size + rules.second_deal} cards. A player with no trump {must}: he puts his "
            "hand face down and takes no part in the play. A player with exactly one trump, or with two "
            "trumps one of which is the two, may give them to his partner and fold, unless the partner "
            "has already folded or passed cards to him. The partner then discards down as below."
        )
    discard = rules.discard
    if discard is DiscardPolicy.NONE:
        out.append("There is no discarding or drawing: everyone plays the cards he was dealt.")
        return out
    if discard is DiscardPolicy.ALL_NONTRUMPS:
        text = "Every player, the dealer included, discards all his non-trumps and keeps all his trumps."
        if rules.keep_nontrumps:
            text += (
                f" He may instead keep some non-trumps, as long as he keeps no more than {_cards(play)} "
                "(more only if they are all trumps)."
            )
        out.append(text)
    elif discard is DiscardPolicy.ANY_CARDS:
        least = rules.hand_size - play
        if least > 0:
            out.append(
                f"Every player discards any cards he does not want, trumps included, but at least "
                f"{_cards(least)}."
            )
        else:
            out.append(
                "Every player may discard any cards he does not want, trumps included, or none at all."
            )
    elif discard is DiscardPolicy.AT_LEAST_3_ANY:
        out.append(
            "Every player discards at least three cards of his choice; he may throw away trumps too, "
            "and a discarded trump is out of play for the hand. Players announce their discards in "
            "turn from the dealer's left, and nobody may discard more than three plus the stock cards "
            "not yet promised to earlier players."
        )
    else:
        text = (
            f"Every player reduces his hand to {_cards(play)}, discarding non-trumps first; a player "
            f"with fewer than {play} trumps keeps non-trumps of his choice to make up {play}."
        )
        if rules.excess_trumps is ExcessTrumps.PASS_TO_PARTNER:
            text += " Trumps that score nothing may also be discarded, but scoring trumps never are."
        else:
            text += " Trumps are discarded only as described below for a player with too many."
        out.append(text)

    out.append(_visibility(rules))
    if rules.trump_discard_claim is not TrumpDiscardClaim.NONE:
        who = (
            "an opponent of the player who discarded it"
            if rules.trump_discard_claim is TrumpDiscardClaim.OPPONENTS
            else "any other player"
        )
        out.append(
            f"A trump seen among the face-up discards may be claimed by {who}, offered in turn clockwise "
            "from the discarder's left; the claimant gives up a non-trump face up in exchange."
        )

    fill = rules.fill
    robs = " He may also take trumps from the other players' discards." if rules.dealer_robs_discards else ""
    shortage = " If the stock runs out, filling continues from the shuffled discards."
    if fill is FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS:
        out.append(
            f"The dealer then gives each other player, clockwise from his left, enough cards from the "
            f"stock to bring him up to {play}. Finally the dealer looks through the rest of the stock: "
            f"he must take every trump in it, and adds non-trumps of his choice only to reach {play}; "
            f"he may end with more than {play} cards if they are all trumps.{robs}{shortage}"
        )
    elif fill is FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6:
        out.append(
            f"The dealer then fills each other player up to {play} from the stock, clockwise from his "
            f"left, takes the whole rest of the stock into his hand and keeps {play} cards, keeping "
            f"all his trumps (up to {play}) before any non-trump.{robs}{shortage}"
        )
    elif fill is FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS:
        out.append(
            f"The dealer then gives each other player, clockwise from his left, cards from the top of "
            f"the stock to bring him back to {play}. Last, the dealer makes his own hand exactly {play} "
            "cards, choosing freely from the rest of the stock and from the other players' discards."
        )
    elif fill is FillPolicy.FILL_ALL_FROM_TOP:
        out.append(
            f"The dealer then deals every player, clockwise from his left and himself last, cards from "
            f"the top of the stock to bring each hand up to {play}."
        )
    out.append(_excess(rules, w))
    return [p for p in out if p]


def _visibility(rules: Ruleset) -> str:
    plain, trumps = rules.discards_face_up, rules.trump_discards_face_up
    may_discard_trumps = rules.discard in (DiscardPolicy.ANY_CARDS, DiscardPolicy.AT_LEAST_3_ANY) or (
        rules.excess_trumps is not ExcessTrumps.KEEP_AND_BURY
    )
    if plain and trumps:
        return "All discards are placed face up, so everybody can see them."
    if not plain and not trumps:
        return "Discards are placed face down."
    if not plain and may_discard_trumps:
        return (
            "Non-trumps are discarded face down; any trump that is discarded is shown face up, so that "
            "everybody knows it is out of play."
        )
    if not plain:
        return "Discards are placed face down."
    return "Non-trumps are discarded face up, trumps face down."


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
        text = (
            f"A player with more than {play} trumps keeps them all. At the first trick he plays his extra "
            f"cards all at once as a face-up stack, so that he has {play - 1} cards left after it, like "
            "everyone else. The top card of the stack is his play and competes for the trick; the cards "
            "under it are buried: they belong to the trick and go to its winner but cannot win it."
        )
        if rules.bury_rule is BuryRule.NONSCORING:
            text += " Buried cards must be trumps that score nothing"
            if scoring > play:
                text += (
                    "; when that is impossible he buries as few points as he can: non-scoring trumps "
                    "first, then the two, then 1-point trumps, then 5-point trumps"
                )
            text += "."
        else:
            text += (
                " Among all the cards he puts on the first trick at most one may be a scoring trump; a "
                f"player holding all {scoring} scoring trumps may put the two and one other."
            )
        return text
    if excess is ExcessTrumps.MUST_DISCARD_TO_6:
        text = f"A player with more than {play} trumps must discard trumps until he has {play}."
        if rules.discarded_scoring_trumps is DiscardedScoringTrumps.FORBIDDEN:
            text += " He may not discard scoring trumps."
        else:
            text += (
                " If he discards scoring trumps, their points are credited to his opponents at the end "
                "of the hand."
            )
        return text
    if excess is ExcessTrumps.KILL_NONSCORING_FACE_UP:
        return (
            f"A player who ends up with more than {play} trumps kills the extra ones face up; scoring "
            "trumps may not be killed, and killed cards are dead for the hand."
        )
    if excess is ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        return (
            f"A player with more than {play} trumps discards trumps that score nothing, face up, until "
            f"he has {play}. If he holds more than {play} scoring trumps he discards the two face up "
            "first (if he has it), then 1-point trumps as needed; his side is still credited with the "
            "points of scoring trumps discarded this way."
        )
    return (
        f"A player with more than {play} trumps keeps {play} and passes the extra ones to his partner, "
        "or discards extra trumps that score nothing. Scoring trumps are never discarded: if the "
        f"partners hold more than {2 * play} trumps between them they discard non-scoring trumps until "
        f"each has {play}, and nobody may pass his partner more scoring trumps than the partner can keep."
        + (" Extra trumps are passed before the stock is dealt." if rules.fill is not FillPolicy.NONE else "")
        + (
            " Only a dealer whose partner passed him trumps may have to discard scoring trumps: he may "
            f"pass none back, so if the stock leaves him more than {play} scoring trumps he discards the "
            "cheapest of them face up (the two, then 1-point trumps), and their points count for nobody."
            if rules.nine_card_deal
            else ""
        )
    )


def _play(rules: Ruleset, w: _Words) -> list[str]:
    play = rules.play_hand_size
    out = []
    text = f"Each player normally holds {_cards(play)} for play, one card to each trick."
    text += " The bidder leads to the first trick"
    text += ", and must lead a trump if he has one." if rules.first_lead_trump else "."
    if rules.fold or rules.out_of_trumps is not OutOfTrumps.CONTINUE:
        text += " If the bidder is no longer taking part, the next active player clockwise leads instead" + (
            " and must lead a trump if he can." if rules.first_lead_trump else "."
        )
    text += (
        " The winner of each trick leads to the next; if he has dropped out, the next active player "
        "clockwise leads."
        if rules.out_of_trumps is not OutOfTrumps.CONTINUE or rules.fold
        else " The winner of each trick leads to the next."
    )
    out.append(text)

    if rules.out_of_trumps is OutOfTrumps.COLD_ON_TURN:
        face = "face up" if rules.cold_cards_face_up else "face down"
        out.append(
            "Only trumps are ever played. When it is a player's turn, to lead or to follow, and he holds "
            f"no trump, he goes cold: he lays his remaining cards {face} on the table and is skipped for "
            "the rest of the hand. He may not reveal this before his turn comes. If a player wins a "
            "trick with his last trump, the lead passes to the next player clockwise who still holds a "
            "trump."
        )
    else:
        trump_led = "When a trump is led, everyone must play a trump if he can"
        if rules.out_of_trumps is OutOfTrumps.OUT_ON_TRUMP_LEAD:
            trump_led += (
                "; a player who cannot is out for the rest of the hand and plays no further card, not "
                "even to a plain-suit lead."
            )
        else:
            trump_led += "; a player without one may play any card."
        out.append(trump_led + " " + _plain_lead_text(rules.plain_lead))

    if rules.out_of_trumps is OutOfTrumps.COLD_ON_TURN:
        out.append("Each trick is won by the highest trump in it.")
    elif rules.plain_ranking:
        out.append(
            "A trick containing a trump is won by the highest trump in it; otherwise by the highest card "
            "of the suit led."
        )
    else:
        out.append(
            "A trick containing a trump is won by the highest trump in it; a trick without trumps is won "
            "by the player who led it, whatever the others played."
        )

    if rules.out_of_trumps is OutOfTrumps.UP:
        out.append(
            'As soon as a player holds no trump, even before the first trick, he announces "I\'m up", '
            "lays down the rest of his hand and is skipped for the rest of the hand, so later tricks may "
            "have fewer cards. The play ends when nobody still in holds a trump; non-trumps still held "
            "are worthless."
        )
    elif rules.out_of_trumps is OutOfTrumps.CONTINUE:
        out.append("A player who has run out of trumps simply goes on playing his other cards.")
    else:
        out.append(
            "The play ends when every active player's hand is empty or nobody still taking part holds a "
            "trump; non-trumps still held are worthless."
        )
    return out


def _plain_lead_text(policy: PlainLead) -> str:
    if policy is PlainLead.FOLLOW_OR_TRUMP:
        return (
            "When a plain suit is led, a player who has a card of that suit must either follow suit or "
            "play a trump (he may not throw a card of a third suit); a player with none of that suit "
            "may play anything."
        )
    if policy is PlainLead.MUST_FOLLOW:
        return (
            "When a plain suit is led, a player who has a card of that suit must follow suit and may not "
            "trump instead; a player with none of that suit may play anything."
        )
    if policy is PlainLead.ANY:
        return "When a plain suit is led, any card may be played: there is no need to follow suit."
    if policy is PlainLead.NONTRUMP_IF_ABLE:
        return (
            "When a plain suit is led, each player must play a non-trump, of any suit, if he has one; "
            "only a player holding nothing but trumps plays a trump."
        )
    return (
        "When a plain suit is led, a player who has a card of that suit must follow suit or trump; a "
        "player with none of that suit must trump if he can, and only otherwise may play anything."
    )


def _counting(rules: Ruleset, w: _Words) -> list[str]:
    pronoun = "it" if rules.partnerships else "he"
    text = f"After the last trick each {w.side} counts the scoring cards in the tricks {pronoun} won"
    buries = _can_overflow(rules) and rules.excess_trumps is ExcessTrumps.KEEP_AND_BURY
    text += ", buried cards included." if buries else "."
    low = POINT_NAMES.get("2", "Low")
    if rules.relative_high_low:
        pass
    elif rules.low_rule is LowRule.HOLDER:
        text += (
            f" The one exception is the {low} (the two of trumps): it always scores for the {w.side} of "
            "the player who held it when play began, whoever wins the trick it is played to; a two "
            "that nobody held then scores for nobody."
        )
    elif rules.low_rule is LowRule.DEALT:
        text += (
            f" The one exception is the {low} (the two of trumps): it scores for the {w.side} of the "
            "player to whom it was first dealt (in the deal or the refill), even if it later changed "
            "hands."
        )
    else:
        text += f" The {low} (the two of trumps) is no exception: it scores for whoever wins it."
    if _trumps_can_leave_play(rules):
        text += (
            " A scoring trump that is never played (left in the stock, undealt or discarded) scores "
            "for nobody"
        )
        if (
            rules.excess_trumps is ExcessTrumps.MUST_DISCARD_TO_6
            and rules.discarded_scoring_trumps is DiscardedScoringTrumps.TO_OPPONENTS
        ):
            text += ", except that scoring trumps discarded down to six count for the discarder's opponents"
        text += ", so a contract for all the points is then impossible."
    if rules.excess_trumps is ExcessTrumps.DISCARD_NONSCORING_FACE_UP:
        text += f" Scoring trumps discarded face up by a player with too many still count for his {w.side}."
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
        gain = (
            "the points it took" if rules.made_scores is MadeScores.POINTS_MADE else "the amount of its bid"
        )
        if not rules.partnerships:
            gain = gain.replace("it took", "he took").replace("its bid", "his bid")
        subject = w.bidders.capitalize()
        pronoun = "it" if rules.partnerships else "he"
        out.append(
            f"{subject} makes the bid by taking at least the number of points bid, and then scores "
            f"{gain}. If {pronoun} takes fewer, the amount of the bid is subtracted from "
            f"{'its' if rules.partnerships else 'his'} score (scores can go below zero) and the points "
            "taken count for nothing."
        )
        if rules.partnerships:
            others, verb, their = "The other side", "scores", "it"
        else:
            others, verb, their = "The other players", "score", "they"
        if rules.defenders_score_when_set:
            out.append(f"{others} always {verb} the points {their} took.")
        else:
            out.append(
                f"{others} {verb} the points {their} took when the bid is made; when the bidder is set, "
                "nobody else scores."
            )
    else:
        out.append(
            "Scores never go below zero. If the bid is made, the side that took more points scores the "
            "difference between the two sides' points (nobody scores if they are equal). If the bid is "
            "set, the defenders score the amount of the bid plus the points they took, and the bidders "
            "score nothing."
        )
    specials = []
    hi = rules.max_bid
    if rules.slam:
        specials.append(f"a slam ({hi}) made scores {2 * hi}, set loses {hi}")
    if rules.bid_28_56:
        specials.append("28-56 made scores 56, set loses 28")
    if rules.double_max_bid:
        specials.append(f"'{hi} double' made scores {2 * hi}, set loses {2 * hi}")
    if specials:
        text = "Special contracts replace these amounts: " + "; ".join(specials) + "."
        if rules.scoring is Scoring.DIFFERENCE:
            text += " When such a contract is set, the defenders score the set amount plus their points."
        out.append(text)
    return [" ".join(out)]


def _game_end(rules: Ruleset, w: _Words) -> list[str]:
    target = rules.target
    out = []
    if rules.lose_at is not None:
        out.append(
            f"A {w.side} whose score is {rules.lose_at} or lower after a hand loses at once, and "
            f"{'the other side wins' if rules.partnerships else 'the game ends'}; this is checked before "
            "anything else."
        )
    end = rules.end_rule
    if end is EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY:
        text = (
            f"The first {w.side} to reach {target} points or more wins. If several reach it on the same "
            f"hand, {w.bidders} wins if {'it' if rules.partnerships else 'he'} is one of them"
        )
        if rules.partnerships:
            text += " (even with fewer points); a defending side that alone reaches it wins too."
        else:
            text += "; otherwise the highest score wins, and if that is tied too another hand is played."
        out.append(text)
    elif end is EndRule.BIDDER_GOES_OUT:
        out.append(
            f"The game is to {target}. When both sides start a hand with "
            f"{rules.effective_bgo_threshold} points or more, it is a bidder-goes-out hand: if the "
            "bidders make their bid they win at once, whatever the scores (even below "
            f"{target}). Otherwise a side that alone reaches {target} wins; if both sides reach "
            f"{target} on an ordinary hand nobody wins yet, and the next hand is played as a "
            "bidder-goes-out hand."
        )
    elif end is EndRule.SUCCESSFUL_BID_ONLY:
        out.append(
            f"A {w.side} wins only at the end of a hand in which it bid and made its bid, if its score is "
            f"then {target} or more, even if the other side has more. Reaching {target} while defending, "
            "or staying above it after being set, does not win; the game goes on."
        )
    else:
        names = ", ".join(POINT_NAMES.get(role, role) for role in rules.count_out_order)
        out.append(
            f"The first {w.side} to reach {target} points or more wins. If several reach it on the same "
            f"hand, the hand's points are added again one at a time in the order {names}, starting from "
            "the scores before the hand (a set bidder's loss is taken first, so he cannot win that "
            f"hand); the first to reach {target} this way wins."
        )
    return [" ".join(out)]
