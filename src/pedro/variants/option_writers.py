"""The options that change several ``Ruleset`` fields at once, each a ``write`` (and ``read``)
of its :class:`~pedro.variants.option_spec.OptionSpec` in ``pedro.variants.option_table``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from pedro.i18n import N_
from pedro.variants.catalog import get_variant
from pedro.variants.model import AllPassAction, DiscardPolicy, FillPolicy, Ruleset
from pedro.variants.option_spec import BAD_VALUE, OptionError, OptionValue, as_bool, as_int, as_str


def _points_in_order(
    points: Iterable[tuple[str, int]], order: tuple[str, ...]
) -> tuple[tuple[str, int], ...]:
    """Point table sorted by trump rank, so that rule sheets list it high to low."""
    rank = {role: i for i, role in enumerate(order)}
    return tuple(sorted(points, key=lambda item: rank.get(item[0], len(order))))


def write_joker(rules: Ruleset, value: OptionValue) -> Ruleset:
    """63/83 joker: the joker is the lowest trump worth 15 and the trump three then scores nothing."""
    want = as_bool(value)
    if want == ("JK" in rules.jokers):
        return rules
    if want:
        jokers = (*rules.jokers, "JK")
        order = (*rules.trump_order, "JK")
        points = [(role, p) for role, p in rules.points if role != "3"] + [("JK", 15)]
    else:
        jokers = tuple(j for j in rules.jokers if j != "JK")
        order = tuple(role for role in rules.trump_order if role != "JK")
        points = [(role, p) for role, p in rules.points if role not in ("JK", "3")] + [("3", 15)]
    new = replace(rules, jokers=jokers, trump_order=order, points=_points_in_order(points, order))
    if new.kitty_size:
        # the kitty is what is left after the hands (83: 5 cards with the joker, 4 without)
        new = replace(new, kitty_size=len(new.deck) - new.players * (new.hand_size + new.second_deal))
    return new


def write_fives_rank(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Petro: both fives on top (literal text) or between the six and the four (as in Pedro)."""
    rest = [role for role in rules.trump_order if role not in ("5", "L5")]
    if value == "top":
        order = ("5", "L5", *rest)
    else:
        four = rest.index("4")
        order = (*rest[:four], "5", "L5", *rest[four:])
    return replace(rules, trump_order=order)


def read_fives_rank(rules: Ruleset) -> OptionValue:
    return "top" if rules.trump_order[:1] == ("5",) else "standard"


def read_off_jack_rank(rules: Ruleset) -> OptionValue:
    return rules.trump_order.index("OJ") + 1 if "OJ" in rules.trump_order else None


def write_off_jack_rank(rules: Ruleset, value: OptionValue) -> Ruleset:
    position = as_int(value)
    rest = [role for role in rules.trump_order if role != "OJ"]
    if not 1 <= position <= len(rest) + 1:
        raise OptionError(
            BAD_VALUE,
            value=position,
            name="off_jack_rank",
            allowed=N_("an integer from 1 to {high} (position from the top of the trump order)").format(
                high=len(rest) + 1
            ),
        )
    return replace(rules, trump_order=(*rest[: position - 1], "OJ", *rest[position - 1 :]))


def write_plain_honours(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Petro: every ace, jack, ten and two scores 1, not only the trump ones (26 points)."""
    plain = (("A", 1), ("J", 1), ("T", 1), ("2", 1)) if as_bool(value) else ()
    return replace(rules, plain_points=plain)


def write_deal_all_out(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Deal the whole pack one card at a time; the odd cards stay out and all cards are played."""
    if as_bool(value):
        size = len(rules.deck) // rules.players
        return replace(rules, deal_all_out=True, hand_size=size, play_hand_size=size, packets=(1,))
    if not rules.deal_all_out:
        return rules
    return replace(rules, deal_all_out=False, hand_size=6, play_hand_size=6, packets=(3,))


def write_nine_card_deal(rules: Ruleset, value: OptionValue) -> Ruleset:
    """63/83 nine-card deal (note E9): no kitty or second deal; discard, pass excess, fill to six."""
    if not as_bool(value):
        if not rules.nine_card_deal:
            return rules
        home = get_variant(rules.id)
        return replace(
            rules,
            nine_card_deal=False,
            hand_size=home.hand_size,
            packets=home.packets,
            kitty_size=len(rules.deck) - rules.players * home.hand_size if home.kitty_size else 0,
            second_deal=home.second_deal,
            kitty_before_trump=home.kitty_before_trump,
            discard=home.discard,
            fill=home.fill,
        )
    return replace(
        rules,
        nine_card_deal=True,
        hand_size=9,
        packets=(3,),
        kitty_size=0,
        second_deal=0,
        kitty_before_trump=False,
        discard=DiscardPolicy.ALL_NONTRUMPS,
        fill=FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
    )


def write_discard_and_fill(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Pedro Sancho / Dom Pedro: the Pitch-with-Fives exchange (discard non-trumps, fill to six)."""
    if as_bool(value):
        return replace(rules, discard=DiscardPolicy.ALL_NONTRUMPS, fill=FillPolicy.FILL_ALL_FROM_TOP)
    return replace(rules, discard=DiscardPolicy.NONE, fill=FillPolicy.NONE)


def write_discards_face_up(rules: Ruleset, up: bool) -> Ruleset:
    """Up: every discard is public. Down: where non-trumps already go face down, nothing changes
    (trumps keep the variant's own visibility); otherwise every discard goes face down."""
    if up:
        return replace(rules, discards_face_up=True, trump_discards_face_up=True)
    if not rules.discards_face_up:
        return rules
    return replace(rules, discards_face_up=False, trump_discards_face_up=False)


def write_all_pass_action(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Redeal clears the forced bid; a forced dealer keeps the variant's forced bid or else the minimum."""
    action = AllPassAction(as_str(value))
    if action is AllPassAction.REDEAL_NEXT_DEALER:
        return replace(rules, all_pass_action=action, dealer_forced_bid=None)
    forced = rules.dealer_forced_bid if rules.dealer_forced_bid is not None else rules.min_bid
    return replace(rules, all_pass_action=action, dealer_forced_bid=forced)
