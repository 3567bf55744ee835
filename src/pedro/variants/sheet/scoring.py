"""The rule sheet's last sections: counting the points, scoring the hand, winning the game."""

from __future__ import annotations

from pedro.i18n import N_, _
from pedro.variants.model import (
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    MadeScores,
    Ruleset,
    Scoring,
)
from pedro.variants.sheet.exchange import can_overflow
from pedro.variants.sheet.words import Words, point_name, stock_size


def counting(rules: Ruleset, w: Words) -> list[str]:
    buries = can_overflow(rules) and rules.excess_trumps is ExcessTrumps.KEEP_AND_BURY
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
    low = point_name("2")
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
    unused_stock = stock_size(rules) > 0 and (rules.fill is FillPolicy.NONE or rules.deal_all_out)
    return (
        unused_stock
        or rules.discard in (DiscardPolicy.ANY_CARDS, DiscardPolicy.AT_LEAST_3_ANY)
        or rules.excess_trumps is ExcessTrumps.MUST_DISCARD_TO_6
        or rules.nine_card_deal  # note E9: a dealer may have to discard scoring trumps
        or (rules.deal_all_out and len(rules.deck) % rules.players != 0)
    )


def scoring(rules: Ruleset, w: Words) -> list[str]:
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


def game_end(rules: Ruleset, w: Words) -> list[str]:
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
        names = ", ".join(point_name(role) for role in rules.count_out_order)
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
