"""The rule sheet's section on the play of the tricks."""

from __future__ import annotations

from pedro.i18n import _
from pedro.variants.model import OutOfTrumps, PlainLead, Ruleset
from pedro.variants.sheet.words import Words, card_count


def play(rules: Ruleset, w: Words) -> list[str]:
    play = rules.play_hand_size
    out = []
    text = _("Each player normally holds {cards} for play, one card to each trick.", cards=card_count(play))
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
