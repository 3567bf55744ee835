"""The rule sheet's sections on the auction and on naming trumps."""

from __future__ import annotations

from pedro.i18n import N_, _
from pedro.variants.model import AllPassAction, AuctionModel, Ruleset
from pedro.variants.sheet.words import Words


def bidding(rules: Ruleset, w: Words) -> list[str]:
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


def naming(rules: Ruleset) -> list[str]:
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
