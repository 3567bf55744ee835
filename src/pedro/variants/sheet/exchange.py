"""The rule sheet's section on the exchange before play: discarding, filling, excess trumps."""

from __future__ import annotations

from pedro.i18n import _
from pedro.variants.model import (
    BuryRule,
    DiscardedScoringTrumps,
    DiscardPolicy,
    ExcessTrumps,
    FillPolicy,
    Ruleset,
    TrumpDiscardClaim,
)
from pedro.variants.sheet.words import Words, card_count, scoring_trumps


def exchange(rules: Ruleset, w: Words) -> list[str]:
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
                cards=card_count(play),
            )
        out.append(text)
    elif discard is DiscardPolicy.ANY_CARDS:
        least = rules.hand_size - play
        if least > 0:
            out.append(
                _(
                    "Every player discards any cards he does not want, trumps included, but at least "
                    "{cards}.",
                    cards=card_count(least),
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
            cards=card_count(play),
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


def can_overflow(rules: Ruleset) -> bool:
    """Whether a player can hold more trumps than cards for play, so the excess-trump rule matters."""
    return rules.discard in (
        DiscardPolicy.ALL_NONTRUMPS,
        DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST,
    ) and (rules.first_deal_size + rules.second_deal + rules.kitty_size > rules.play_hand_size)


def _excess(rules: Ruleset, w: Words) -> str:
    play = rules.play_hand_size
    if not can_overflow(rules):
        return ""
    excess = rules.excess_trumps
    scoring = scoring_trumps(rules)
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
