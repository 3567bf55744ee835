"""The twelve variants of the Pedro family as ``Ruleset`` values.

Every rule of each variant in docs/rules.md §variants, including the defaults
chosen where the sources leave a rule open (the notes), is spelled out here as data; the engine reads
only these fields, so a variant is nothing more than this value.

Cinch, the classic, is the base and is written out; every other variant is
written as its differences from Cinch, or from the game it is a form of (Dom
Pedro from Pedro Sancho, Canadian King Pedro from King Pedro, Eighty-Three
from Sixty-Three), so what sets a variant apart reads off the page. A field
with a comment is written even where it equals the base's, for the comment.
"""

from __future__ import annotations

from dataclasses import replace

from pedro.i18n import N_
from pedro.variants.model import (
    STANDARD_TRUMP_ORDER,
    AllPassAction,
    AuctionModel,
    BuryRule,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    OutOfTrumps,
    PlainLead,
    Ruleset,
    Scoring,
)


class UnknownVariantError(ValueError):
    """A variant id that is not in the catalog."""


#: A, K, ..., 2 without the left pedro: the sister five stays a plain card.
NO_LEFT_PEDRO_ORDER = tuple(role for role in STANDARD_TRUMP_ORDER if role != "L5")

#: The 14 points of Pedro / Cinch: High, Jack, Game, both pedros, Low.
PEDRO_POINTS: tuple[tuple[str, int], ...] = (("A", 1), ("J", 1), ("T", 1), ("5", 5), ("L5", 5), ("2", 1))

CINCH = Ruleset(
    id="cinch",
    name="Cinch",
    aliases=("Pedro", "Double Pedro", "High Five"),
    summary=N_(
        "The classic American partnership Pedro: 14 points a hand, played to 62. Nine cards each and one "
        "round of bidding for the right to name trumps; then everybody throws away all non-trumps and is "
        "refilled to six from the stock, and the dealer robs the rest of the stock, taking every trump in "
        "it. Both fives of the trump colour are worth 5, and the ace, jack, ten and two of trumps 1 each. "
        "Once both sides are close to 62, the bidding side goes out by making its bid."
    ),
    players=4,
    min_players=4,
    max_players=4,
    partnerships=True,
    jokers=(),
    trump_order=STANDARD_TRUMP_ORDER,
    plain_ranking=True,
    points=PEDRO_POINTS,
    hand_size=9,
    packets=(3,),
    kitty_size=0,
    second_deal=0,
    auction=AuctionModel.SINGLE_ROUND,
    min_bid=7,
    max_bid=14,
    all_pass_action=AllPassAction.DEALER_FORCED,
    dealer_forced_bid=7,
    discard=DiscardPolicy.ALL_NONTRUMPS,
    discards_face_up=False,
    trump_discards_face_up=False,
    fill=FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
    play_hand_size=6,
    excess_trumps=ExcessTrumps.KEEP_AND_BURY,
    bury_rule=BuryRule.NONSCORING,
    first_lead_trump=False,
    plain_lead=PlainLead.FOLLOW_OR_TRUMP,
    out_of_trumps=OutOfTrumps.CONTINUE,
    low_rule=LowRule.HOLDER,
    scoring=Scoring.STANDARD,
    target=62,
    end_rule=EndRule.BIDDER_GOES_OUT,
    bgo_threshold=None,
    lose_at=None,
)

PIDRO = replace(
    CINCH,
    id="pidro",
    name="Pidro",
    aliases=("Finnish Pidro", "Österbotten Pidro"),
    summary=N_(
        "The Finnish partnership game from Österbotten in which only trumps are ever played. Dealt and "
        "counted like Cinch (14 points, nine cards, refill to six), but bidding starts at 6 and a later "
        "player may take over a bid of 14 by bidding 14 again. Discards are made face up, trumps beyond "
        "six are killed face up, and a player who has no trump when his turn comes goes cold and drops out"
        " of the hand. First side to 62 wins; if both get there, the bidders win."
    ),
    min_bid=6,
    max_bid_rebid=True,
    dealer_forced_bid=6,
    discards_face_up=True,
    trump_discards_face_up=True,
    fill=FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
    excess_trumps=ExcessTrumps.KILL_NONSCORING_FACE_UP,
    first_lead_trump=True,  # automatic: only trumps are ever played
    plain_lead=PlainLead.FOLLOW_OR_TRUMP,  # never used: no plain card is ever led
    out_of_trumps=OutOfTrumps.COLD_ON_TURN,
    end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
)

NICARAGUA = replace(
    CINCH,
    id="nicaragua",
    name="Pedro in Nicaragua",
    aliases=("Nicaraguan Pedro",),
    summary=N_(
        "A partnership Pedro with seven-card hands and free discarding, played to 52. It has the Cinch "
        "trumps and 14 points. After trumps are named every player may throw away any cards he likes, "
        "trumps included, face down, and is dealt back up to seven; the dealer, last, picks what he wants "
        "from the rest of the stock and from everyone's discards. A plain suit must be followed when "
        "possible. Bids start at 7, but a dealer left with everyone passing takes the hand at 6."
    ),
    hand_size=7,
    packets=(3, 4),
    dealer_forced_bid=6,
    discard=DiscardPolicy.ANY_CARDS,
    fill=FillPolicy.FILL_OTHERS_DEALER_ROBS_STOCK_AND_DISCARDS,
    play_hand_size=7,
    excess_trumps=ExcessTrumps.KEEP_AND_BURY,  # never triggers: hands are capped at 7 and all are played
    dealer_robs_discards=True,  # built into the fill policy: any card, from stock or discards
    plain_lead=PlainLead.MUST_FOLLOW,
    target=52,
    end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
)

PITCH_FIVES = replace(
    CINCH,
    id="pitch_fives",
    name="Pitch with Fives",
    aliases=("Catch Five",),
    summary=N_(
        "A small partnership game between Pitch and Pedro, with a single pedro and 9 points a hand. Six "
        "cards each; only the trump five is a pedro (the other five of that colour is a plain card), and "
        "it is worth 5 beside High, Low, Jack and Game. Bidding runs from 2 to 9 in one round, and the "
        "dealer may steal the contract by equalling the best bid. Everybody discards non-trumps and is "
        "refilled to six; a plain suit must be followed when possible. Game is 31."
    ),
    trump_order=NO_LEFT_PEDRO_ORDER,
    points=(("A", 1), ("J", 1), ("T", 1), ("5", 5), ("2", 1)),
    hand_size=6,
    min_bid=2,
    max_bid=9,
    dealer_may_equal=True,
    dealer_forced_bid=2,
    fill=FillPolicy.FILL_ALL_FROM_TOP,
    excess_trumps=ExcessTrumps.KEEP_AND_BURY,  # never triggers: six dealt, refilled to six
    plain_lead=PlainLead.MUST_FOLLOW,
    target=31,
    end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
)

PEDRO_SANCHO = replace(
    CINCH,
    id="pedro_sancho",
    name="Pedro Sancho",
    aliases=("Nine-Five",),
    summary=N_(
        "A game for four to seven players, each on his own, where the trump nine (Sancho) is worth 9. "
        "Together with the trump five (Pedro, 5), High, Low, Jack and Game a hand holds 18 points. Six "
        "cards each, no discarding and no stock play. One round of bidding from 1 up, the dealer may equal"
        " the best bid, and the bidder must lead a trump first. Every card, the two included, scores for "
        "the player who wins it. Game is 100; a tie past 100 is settled by counting out the hand's points "
        "in a fixed order."
    ),
    max_players=7,
    partnerships=False,
    trump_order=NO_LEFT_PEDRO_ORDER,
    points=(("A", 1), ("J", 1), ("T", 1), ("9", 9), ("5", 5), ("2", 1)),
    hand_size=6,
    min_bid=1,
    max_bid=18,
    dealer_may_equal=True,
    dealer_forced_bid=1,
    discard=DiscardPolicy.NONE,
    fill=FillPolicy.NONE,
    first_lead_trump=True,
    low_rule=LowRule.CAPTURER,
    target=100,
    end_rule=EndRule.COUNT_OUT,
    count_out_order=("A", "2", "J", "T", "5", "9"),
)

DOM_PEDRO = replace(
    PEDRO_SANCHO,
    id="dom_pedro",
    name="Dom Pedro",
    aliases=("Snoozer",),
    summary=N_(
        "Pedro Sancho with a joker, the Snoozer, as the lowest trump worth 15. The trump three also scores"
        " 3, so a hand holds 36 points. Everything else is as in Pedro Sancho: four to seven players each "
        "on his own, six cards, no discarding, one round of bidding from 1 where the dealer may equal, a "
        "compulsory trump lead, points to whoever wins them, and 100 to win with a count-out for ties."
    ),
    jokers=("JK",),
    trump_order=(*NO_LEFT_PEDRO_ORDER, "JK"),
    points=(("A", 1), ("J", 1), ("T", 1), ("9", 9), ("5", 5), ("3", 3), ("2", 1), ("JK", 15)),
    max_bid=36,
    count_out_order=("A", "2", "J", "T", "3", "5", "9", "JK"),
)

KING_PEDRO = replace(
    CINCH,
    id="king_pedro",
    name="King Pedro",
    aliases=(),
    summary=N_(
        "A partnership game where the trump king is worth 30 and only a made bid can win. A hand holds 44 "
        "points. Twelve cards each and a kitty of four; bidding goes round until only one bidder is left, "
        "from 30 up. The bidder names trumps and then takes the kitty; everyone keeps six cards, "
        "discarding non-trumps, and a player with more than six trumps plays the extra ones onto the first"
        " trick. A player out of trumps is 'up' and drops out. Plain cards have no rank: a trick without "
        "trumps goes to its leader. A side wins by making a bid at 200 or more, and loses at -100."
    ),
    plain_ranking=False,
    points=(("A", 1), ("K", 30), ("J", 1), ("T", 1), ("5", 5), ("L5", 5), ("2", 1)),
    hand_size=12,
    kitty_size=4,
    auction=AuctionModel.UNTIL_ONE_LEFT,
    min_bid=30,
    max_bid=44,
    all_pass_action=AllPassAction.REDEAL_NEXT_DEALER,
    dealer_forced_bid=None,
    discard=DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST,
    trump_discards_face_up=True,
    fill=FillPolicy.NONE,
    plain_lead=PlainLead.ANY,
    out_of_trumps=OutOfTrumps.UP,
    bury_rule=BuryRule.AT_MOST_ONE_SCORING,
    target=200,
    end_rule=EndRule.SUCCESSFUL_BID_ONLY,
    lose_at=-100,
)

KING_PEDRO_CANADIAN = replace(
    KING_PEDRO,
    id="king_pedro_canadian",
    name="Canadian King Pedro",
    aliases=("Ukrainian King Pedro", "Ukrainian-Canadian King Pedro"),
    summary=N_(
        "The Ukrainian-Canadian King Pedro, with folding, a compulsory trump lead and 62 points a hand. "
        "The king is worth 30, ten 10, nine 9, both fives 5, and ace, jack and two 1. Nine cards each; "
        "after an open auction from 30 the bidder names trumps and everyone gets four more cards, then "
        "keeps six. A player with no trumps folds, and one with a single trump (or two including the two) "
        "may hand them to his partner and fold. On a plain lead you must throw a non-trump if you can, and"
        " a trick without trumps goes to its leader. Only a made bid can win, at 262."
    ),
    points=(("A", 1), ("K", 30), ("J", 1), ("T", 10), ("9", 9), ("5", 5), ("L5", 5), ("2", 1)),
    hand_size=9,
    kitty_size=0,
    second_deal=4,
    max_bid=62,
    excess_trumps=ExcessTrumps.DISCARD_NONSCORING_FACE_UP,
    fold=True,
    first_lead_trump=True,
    plain_lead=PlainLead.NONTRUMP_IF_ABLE,
    out_of_trumps=OutOfTrumps.CONTINUE,
    bury_rule=BuryRule.NONSCORING,
    target=262,
    lose_at=None,
)

SIXTY_THREE = replace(
    CINCH,
    id="sixty_three",
    name="Sixty-Three",
    aliases=("63",),
    summary=N_(
        "A partnership game in which the whole pack is dealt, so all 63 points are always in play. The "
        "king is worth 25, the trump three 15, nine 9, both fives 5, and ace, jack, ten and two 1. Nine "
        "cards each; after an open auction from 1 the bidder names trumps and everyone receives four more "
        "cards. Each player keeps six cards, discarding non-trumps first; surplus trumps are passed to "
        "partner, and scoring trumps are never thrown away. Every card scores for the side that wins it. "
        "First side to 152 wins."
    ),
    points=(("A", 1), ("K", 25), ("J", 1), ("T", 1), ("9", 9), ("5", 5), ("L5", 5), ("3", 15), ("2", 1)),
    second_deal=4,
    auction=AuctionModel.UNTIL_ONE_LEFT,
    min_bid=1,
    max_bid=63,
    all_pass_action=AllPassAction.REDEAL_NEXT_DEALER,
    dealer_forced_bid=None,
    discard=DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST,
    trump_discards_face_up=True,
    fill=FillPolicy.NONE,
    excess_trumps=ExcessTrumps.PASS_TO_PARTNER,
    low_rule=LowRule.CAPTURER,
    target=152,
    end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
)

EIGHTY_THREE = replace(
    SIXTY_THREE,
    id="eighty_three",
    name="Eighty-Three",
    aliases=("83",),
    summary=N_(
        "The bigger relative of Sixty-Three, with a kitty, a joker and the '83 double' call. The joker is "
        "the lowest trump; king 25, queen 20, joker 15, nine 9, both fives 5, and ace, jack, ten and two 1"
        " make 83 points a hand. Twelve cards each and a kitty of five; after an open auction from 30 the "
        "bidder takes the kitty before naming trumps. Anyone may outbid 83 with '83 double', which wins or"
        " loses 166. Hands are cut to six with surplus trumps passed to partner, every card scores for the"
        " side that wins it, and the game is played to an agreed target, normally 200."
    ),
    jokers=("JK",),
    trump_order=(*STANDARD_TRUMP_ORDER, "JK"),
    points=(
        ("A", 1),
        ("K", 25),
        ("Q", 20),
        ("J", 1),
        ("T", 1),
        ("9", 9),
        ("5", 5),
        ("L5", 5),
        ("2", 1),
        ("JK", 15),
    ),
    hand_size=12,
    kitty_size=5,
    second_deal=0,
    min_bid=30,
    max_bid=83,
    double_max_bid=True,
    kitty_before_trump=True,
    target=200,
)

PIEDRO_JOKERS = replace(
    CINCH,
    id="piedro_jokers",
    name="Piedro",
    aliases=("Pedro with two jokers",),
    summary=N_(
        "A partnership Pedro with two jokers and the off-jack as extra trumps, 17 points a hand. The big "
        "and small jokers and the jack of the same colour as trumps (the off-jack) rank between the trump "
        "jack and ten and are worth 1 each, besides the Cinch points. Nine cards each and one round of "
        "bidding from 9 to 17, where the dealer's partner may 'protect' with 9 while nobody has bid. "
        "Everybody discards non-trumps and is refilled to six. Plain cards have no rank, so a trick "
        "without trumps goes to its leader, and a player who cannot follow a trump lead is out for the "
        "rest of the hand. Game is 62."
    ),
    jokers=("BJ", "SJ"),
    trump_order=("A", "K", "Q", "J", "OJ", "BJ", "SJ", "T", "9", "8", "7", "6", "5", "L5", "4", "3", "2"),
    plain_ranking=False,
    points=(("A", 1), ("J", 1), ("OJ", 1), ("BJ", 1), ("SJ", 1), ("T", 1), ("5", 5), ("L5", 5), ("2", 1)),
    min_bid=9,
    max_bid=17,
    dealer_forced_bid=9,
    protect=True,
    plain_lead=PlainLead.ANY,
    out_of_trumps=OutOfTrumps.OUT_ON_TRUMP_LEAD,
    end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
)

PETRO_RUSSIAN = replace(
    CINCH,
    id="petro_russian",
    name="Petro",
    aliases=("Russian Pedro",),
    summary=N_(
        "Pedro as described in Russian: four players, each on his own, with the two fives as the top "
        "trumps. The Cinch points (14) are used, but the trump five is the highest trump and the other "
        "five the second. Nine cards each; bidding goes round until one bidder is left, from 7, and a "
        "dealer left with everyone passing must take it at 7. Each player lays out at least three cards "
        "face up, trumps included if he wishes, and is refilled to six from the talon. Every card scores "
        "for the player who wins it. Game is 62."
    ),
    partnerships=False,
    trump_order=("5", "L5", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "4", "3", "2"),
    auction=AuctionModel.UNTIL_ONE_LEFT,
    discard=DiscardPolicy.AT_LEAST_3_ANY,
    discards_face_up=True,
    trump_discards_face_up=True,
    fill=FillPolicy.FILL_ALL_FROM_TOP,
    excess_trumps=ExcessTrumps.KEEP_AND_BURY,  # never triggers: at most six cards are kept
    low_rule=LowRule.CAPTURER,
    end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY,
)

#: All variants by id, in the order of docs/rules.md §variants.
VARIANTS: dict[str, Ruleset] = {
    rules.id: rules
    for rules in (
        CINCH,
        PIDRO,
        NICARAGUA,
        PITCH_FIVES,
        PEDRO_SANCHO,
        DOM_PEDRO,
        KING_PEDRO,
        KING_PEDRO_CANADIAN,
        SIXTY_THREE,
        EIGHTY_THREE,
        PIEDRO_JOKERS,
        PETRO_RUSSIAN,
    )
}


def get_variant(variant_id: str) -> Ruleset:
    """The catalog ruleset ``variant_id``; the error names every valid id so a typo is easy to fix."""
    try:
        return VARIANTS[variant_id]
    except KeyError:
        raise UnknownVariantError(
            f"unknown variant {variant_id!r}; valid variants: {', '.join(VARIANTS)}"
        ) from None
