"""Every house-rule option, with the variants it applies to: the registry :data:`OPTIONS`.

Each option of the rules (the "some play that ..." rules of the sources and the
alternative readings of every open question) is one :class:`OptionSpec` here, in
the order options are applied; ``pedro.variants.options`` reads and applies them.
"""

from __future__ import annotations

from dataclasses import replace

from pedro.i18n import N_
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import (
    AllPassAction,
    AuctionModel,
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    LowRule,
    MadeScores,
    PlainLead,
    Ruleset,
    Scoring,
    TrumpDiscardClaim,
)
from pedro.variants.option_spec import (
    OptionSpec,
    OptionValue,
    as_bool,
    as_int,
    enum_choices,
    face_option,
    field_option,
    plain,
)
from pedro.variants.option_writers import (
    read_fives_rank,
    read_off_jack_rank,
    write_all_pass_action,
    write_deal_all_out,
    write_discard_and_fill,
    write_discards_face_up,
    write_fives_rank,
    write_joker,
    write_nine_card_deal,
    write_off_jack_rank,
    write_plain_honours,
)
from pedro.variants.presets import PRESETS

SANCHO_FAMILY = ("pedro_sancho", "dom_pedro")

#: The highest winning score a table may set: far above the catalog's highest (king_pedro_canadian's
#: 262) and the long game the replay benchmark serves (pidro to 6000, benchmarks/replay.py), while
#: every score and threshold stays a small integer that every client and JSON encoder takes.
MAX_TARGET = 10_000
#: The highest maximum bid of the catalog: no bid option goes beyond it (each variant's own
#: maximum bid is then checked by the constraints, docs/rules.md §option-constraints).
MAX_BID = max(rules.max_bid for rules in VARIANTS.values())
JOKER_VARIANTS = ("sixty_three", "eighty_three")


def _max_bid(rules: Ruleset) -> int:
    return rules.max_bid


_CARD_WORDS = {
    "ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "10": "T", "nine": "9", "eight": "8",
    "seven": "7", "six": "6", "five": "5", "pedro": "5", "left_pedro": "L5", "four": "4", "three": "3",
    "two": "2", "big_joker": "BJ", "small_joker": "SJ",
}  # fmt: skip


def _parse_off_jack_position(text: str) -> OptionValue:
    """``top`` or ``below_<card>`` as a position in Piedro's trump order (1 = highest)."""
    order = [role for role in VARIANTS["piedro_jokers"].trump_order if role != "OJ"]
    if text == "top":
        return 1
    if text.startswith("below_"):
        word = text.removeprefix("below_")
        role = _CARD_WORDS.get(word, word.upper())
        if role in order:
            return order.index(role) + 2
    raise OPTIONS["off_jack_rank"].bad_value(text)


# The registry. Its order is the order in which options are applied (seats,
# pack and card values, deal, auction, exchange, play, scoring, game end), so
# the result never depends on the order the user wrote the options in.
_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        name="preset",
        value_type=str,
        description=N_(
            "a named set of options: cinch_min6_forced6 = min_bid 6, dealer_forced_bid 6; "
            "cinch_min6_forced7 = min_bid 6, dealer_forced_bid 7"
        ),
        read=lambda rules: None,
        write=lambda rules, value: rules,  # expanded before the other options are applied
        choices=tuple(PRESETS),
        variants=("cinch",),
        reference="docs/rules.md §presets",
    ),
    # --- seats
    field_option(
        "players",
        int,
        N_("number of players (each playing alone unless partnerships=true)"),
        minimum=4,
        maximum=7,
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note D1",
    ),
    field_option(
        "partnerships",
        bool,
        N_("play as two fixed partnerships sitting opposite (exactly 4 players) instead of alone"),
        variants=(*SANCHO_FAMILY, "pitch_fives"),
        reference="docs/rules.md §house-rules, note F1",
    ),
    # --- pack and card values
    OptionSpec(
        name="joker",
        value_type=bool,
        description=N_(
            "play with the joker as lowest trump worth 15; the trump three then scores "
            "nothing (without it the three is worth 15); the total stays the same"
        ),
        read=lambda rules: "JK" in rules.jokers,
        write=write_joker,
        variants=JOKER_VARIANTS,
        reference="docs/rules.md §house-rules, note T8",
    ),
    OptionSpec(
        name="fives_rank",
        value_type=str,
        description=N_(
            "top: both fives are the highest trumps (trump five first); standard: they rank "
            "between the six and the four as in Pedro"
        ),
        read=read_fives_rank,
        write=write_fives_rank,
        choices=("top", "standard"),
        variants=("petro_russian",),
        reference="docs/rules.md §house-rules, note R1",
    ),
    OptionSpec(
        name="off_jack_rank",
        value_type=int,
        description=N_(
            "where the off-jack ranks among the trumps, as a position from the top "
            "(1 = highest; the default 5 is directly below the trump jack)"
        ),
        read=read_off_jack_rank,
        write=write_off_jack_rank,
        minimum=1,
        maximum=len(VARIANTS["piedro_jokers"].trump_order),
        variants=("piedro_jokers",),
        reference="docs/rules.md §house-rules, note J2",
        text_form=_parse_off_jack_position,
        text_form_help=N_("top, or below_<card> such as below_jack or below_sj"),
    ),
    OptionSpec(
        name="plain_honours_score",
        value_type=bool,
        description=N_(
            "every ace, jack, ten and two of every suit scores 1, not only the trumps (26 points in all)"
        ),
        read=lambda rules: bool(rules.plain_points),
        write=write_plain_honours,
        variants=("petro_russian",),
        reference="docs/rules.md §house-rules, note R3",
    ),
    field_option(
        "relative_high_low",
        bool,
        N_(
            "classic Pitch: High and Low are the highest and lowest trump played, Game goes to the "
            "majority of card points"
        ),
        variants=("pitch_fives",),
        reference="docs/rules.md §house-rules, note F6",
    ),
    # --- deal
    OptionSpec(
        name="nine_card_deal",
        value_type=bool,
        description=N_(
            "deal 9 cards each and no kitty or second deal; discard non-trumps, pass excess "
            "trumps to partner, the dealer fills the others to 6 and keeps 6 of the rest"
        ),
        read=lambda rules: rules.nine_card_deal,
        write=write_nine_card_deal,
        variants=JOKER_VARIANTS,
        reference="docs/rules.md §house-rules, note E9",
    ),
    OptionSpec(
        name="deal_all_out",
        value_type=bool,
        description=N_(
            "deal the whole pack round one card at a time, every player the same number; "
            "odd cards stay undealt and every card held is played"
        ),
        read=lambda rules: rules.deal_all_out,
        write=write_deal_all_out,
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note S8",
    ),
    # --- auction
    field_option(
        "auction_model",
        str,
        N_(
            "single_round: everyone bids once, the dealer last; until_one_left: bidding goes round "
            "until all but one have passed"
        ),
        enum=AuctionModel,
        reference="docs/rules.md §house-rules, notes R4, J3",
        field_name="auction",
    ),
    field_option(
        "min_bid",
        int,
        N_("lowest ordinary bid"),
        minimum=1,
        maximum=MAX_BID,
        variant_maximum=_max_bid,
        reference="docs/rules.md §house-rules, notes E1, R5",
    ),
    OptionSpec(
        name="all_pass_action",
        value_type=str,
        description=N_(
            "what happens when nobody bids: the dealer is forced to bid, or the cards are "
            "thrown in and the next dealer deals"
        ),
        read=lambda rules: plain(rules.all_pass_action),
        write=write_all_pass_action,
        choices=enum_choices(AllPassAction),
        reference="docs/rules.md §house-rules, note S3",
    ),
    field_option(
        "dealer_forced_bid",
        int,
        N_(
            "bid the dealer must take when everyone else has passed (he may bid higher instead); "
            "null means no forced bid"
        ),
        nullable=True,
        minimum=1,
        maximum=MAX_BID,
        variant_maximum=_max_bid,
        reference="docs/rules.md §house-rules, §auction",
    ),
    field_option(
        "slam",
        bool,
        N_(
            "a bid of the maximum (all points) scores twice the maximum if made and loses only the "
            "maximum if set"
        ),
        reference="docs/rules.md §house-rules, note C6",
    ),
    field_option(
        "bid_28_56",
        bool,
        N_(
            "the dealer may call 28-56 above 14 when he holds ace, king and two of the suit he then "
            "names: all 14 points for +56, or -28"
        ),
        reference="docs/rules.md §house-rules, note C6",
    ),
    field_option(
        "double_max_bid",
        bool,
        N_(
            "a call above the maximum ('83 double'): all points for twice the maximum, or minus twice "
            "the maximum"
        ),
        reference="docs/rules.md §house-rules, note E4",
    ),
    field_option(
        "protect",
        bool,
        N_("the dealer's partner may call 'protect', a bid of the minimum, while nobody has bid"),
        variants=("piedro_jokers",),
        reference="docs/rules.md §house-rules, note J4",
    ),
    field_option(
        "protect_may_equal",
        bool,
        N_("'protect' may also take over an existing bid of the minimum"),
        variants=("piedro_jokers",),
        reference="docs/rules.md §house-rules, note J4",
    ),
    # --- exchange
    OptionSpec(
        name="discard_and_fill",
        value_type=bool,
        description=N_(
            "after trumps are named everyone discards all non-trumps and the dealer fills "
            "every hand to 6 from the top of the stock"
        ),
        read=lambda rules: rules.discard is not DiscardPolicy.NONE,
        write=write_discard_and_fill,
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note S7",
    ),
    field_option(
        "keep_nontrumps",
        bool,
        N_("when discarding non-trumps a player may keep some, keeping at most 6 cards"),
        reference="docs/rules.md §house-rules, §discarding",
    ),
    face_option(
        "discards_face",
        lambda rules: rules.discards_face_up,
        write_discards_face_up,
        N_(
            "up: all discards are public; down: discards are hidden (where the variant shows "
            "discarded trumps, they stay face up)"
        ),
        reference="docs/rules.md §house-rules, notes R2, P7, F9, G4",
    ),
    OptionSpec(
        name="discards_face_up",
        value_type=bool,
        description=N_("the same as discards_face (true = up, false = down)"),
        read=lambda rules: rules.discards_face_up,
        write=lambda rules, value: write_discards_face_up(rules, as_bool(value)),
        reference="docs/rules.md §house-rules, note C5",
    ),
    face_option(
        "trump_discards_face",
        lambda rules: rules.trump_discards_face_up,
        lambda rules, up: replace(rules, trump_discards_face_up=up),
        N_("visibility of discarded trumps alone (overrides discards_face for trumps)"),
        reference="docs/rules.md §house-rules, note G4",
    ),
    field_option(
        "dealer_robs_discards",
        bool,
        N_("when completing his hand the dealer may also take trumps from the others' discards"),
        reference="docs/rules.md §house-rules, §filling",
    ),
    OptionSpec(
        name="play_hand_size",
        value_type=int,
        description=N_(
            "cards each player holds for play (and tricks per hand); with 6 each player "
            "must discard at least one card"
        ),
        read=lambda rules: rules.play_hand_size,
        write=lambda rules, value: replace(rules, play_hand_size=as_int(value)),
        choices=(6, 7),
        minimum=6,
        maximum=7,
        variants=("nicaragua",),
        reference="docs/rules.md §house-rules, note N3",
    ),
    field_option(
        "excess_trumps",
        str,
        N_("how a player with more than 6 trumps gets down to 6"),
        enum=ExcessTrumps,
        reference="docs/rules.md §house-rules, §excess-trumps",
    ),
    field_option(
        "discarded_scoring_trumps",
        str,
        N_(
            "with excess_trumps=must_discard_to_6: scoring trumps may not be discarded, or may be and "
            "their points go to the discarder's opponents"
        ),
        enum=DiscardedScoringTrumps,
        reference="docs/rules.md §house-rules, note C5",
    ),
    field_option(
        "trump_discard_claim",
        str,
        N_(
            "with face-up discards: who may take a trump found in another player's discards, giving "
            "a non-trump face up for it"
        ),
        enum=TrumpDiscardClaim,
        reference="docs/rules.md §house-rules, note C5",
    ),
    field_option(
        "fold_mandatory",
        bool,
        N_("a player with no trumps after the second deal must fold (false: he may stay in)"),
        variants=("king_pedro_canadian",),
        reference="docs/rules.md §house-rules, note K10",
    ),
    # --- play
    field_option(
        "first_lead_trump",
        bool,
        N_("the bidder must lead a trump to the first trick if he holds one"),
        reference="docs/rules.md §house-rules, note F5",
    ),
    field_option(
        "plain_lead",
        str,
        N_("what may be played when a plain (non-trump) suit is led"),
        enum=PlainLead,
        reference="docs/rules.md §house-rules, note E3",
    ),
    face_option(
        "cold_cards_face",
        lambda rules: rules.cold_cards_face_up,
        lambda rules, up: replace(rules, cold_cards_face_up=up),
        N_("how a player who goes cold lays down his remaining cards"),
        variants=("pidro",),
        reference="docs/rules.md §house-rules, note P2",
    ),
    # --- counting and scoring
    field_option(
        "low_rule",
        str,
        N_(
            "who scores the Low (trump two): the side of the player holding it when play starts, the "
            "side it was dealt to, or the side that captures it"
        ),
        enum=LowRule,
        reference="docs/rules.md §house-rules, notes C2, N5, T5, E8, R11",
    ),
    field_option(
        "scoring",
        str,
        N_(
            "standard: made bids add the points taken, set bids lose the bid; difference: no negative "
            "scores, the side that took more scores the difference"
        ),
        enum=Scoring,
        reference="docs/rules.md §house-rules, §scoring",
    ),
    field_option(
        "made_scores",
        str,
        N_("what a side that makes its bid scores: the points it made, or the amount bid"),
        enum=MadeScores,
        variants=("king_pedro_canadian",),
        reference="docs/rules.md §house-rules, note K12",
    ),
    field_option(
        "defenders_score_when_set",
        bool,
        N_("when the bidder is set, the other players still score what they took"),
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note S4",
    ),
    # --- game end
    field_option(
        "target",
        int,
        N_(
            "winning score (reach or pass); in cinch a target other than 62 switches the end rule to "
            "first_to_target_bidder_priority unless end_rule is given"
        ),
        minimum=1,
        maximum=MAX_TARGET,
        reference="docs/rules.md §house-rules, note C7",
    ),
    field_option(
        "end_rule",
        str,
        N_("how the game is won"),
        enum=EndRule,
        reference="docs/rules.md §house-rules, §game-end",
    ),
    field_option(
        "bgo_threshold",
        int,
        N_(
            "score both sides must have at the start of a hand for it to be a bidder-goes-out hand "
            "(null: target - 7)"
        ),
        nullable=True,
        minimum=-MAX_TARGET,
        maximum=MAX_TARGET,
        reference="docs/rules.md §house-rules, note C7",
    ),
    field_option(
        "lose_at",
        int,
        N_("a side at or below this (negative) score after a hand loses; null: no minus limit"),
        nullable=True,
        minimum=-MAX_TARGET,
        maximum=-1,
        reference="docs/rules.md §house-rules, note K15",
    ),
)

#: Every option by name, in the order they are applied.
OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in _SPECS}
