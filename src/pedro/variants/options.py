"""House-rule options: named, typed changes applied on top of a catalog variant.

Each option of the rules (the "some play that ..." rules of the sources and
the alternative readings of every open question) is an :class:`OptionSpec`
in :data:`OPTIONS`. An option only rewrites ``Ruleset`` fields; the engine
never sees option names, so an option can do nothing the data model cannot
say. Options set to the variant's own value are accepted and change nothing.

Values are JSON-friendly (``bool``, ``int``, ``str`` or ``None``) so that the
options of a game record rebuild exactly the same rules::

    rules = make_ruleset("cinch", {"preset": "cinch_min6_forced6", "slam": True})
    assert make_ruleset(rules.id, options_dict(rules)) == rules

Presets are one enum-valued option, ``preset``, that stands for a fixed set
of other options; the record keeps the preset name, not its expansion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any, TypeAlias

from pedro.i18n import N_, _, translate
from pedro.variants.catalog import VARIANTS, get_variant
from pedro.variants.constraints import CLASH, first_broken
from pedro.variants.model import (
    AllPassAction,
    AuctionModel,
    DiscardedScoringTrumps,
    DiscardPolicy,
    EndRule,
    ExcessTrumps,
    FillPolicy,
    LowRule,
    MadeScores,
    PlainLead,
    Ruleset,
    Scoring,
    TrumpDiscardClaim,
)

#: The value of an option as stored in a game record.
OptionValue: TypeAlias = bool | int | str | None


#: A value an option does not take.
BAD_VALUE = N_("invalid value {value} for option {name}; allowed: {allowed}")


class OptionError(ValueError):
    """An option name, value or combination that the rules do not allow.

    Made from an English ``template`` marked with ``N_`` and its ``fields``: the message is
    English (the API's and the records' language), and :meth:`translated` says it in the player's
    language, each field read back into its own template (a clash's problem, a value's allowed
    values). A combination the rules refuse (docs/rules.md §option-constraints) is ``CLASH``.
    """

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = {name: str(value) for name, value in fields.items()}
        super().__init__(template.format(**self.fields))

    @property
    def is_clash(self) -> bool:
        return self.template == CLASH

    def translated(self) -> str:
        """The message in the language in use (``pedro.i18n``)."""
        return _(self.template, **{name: translate(value) for name, value in self.fields.items()})


# ---------------------------------------------------------------------------
# the option specification


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option: its type, allowed values, scope and effect on a Ruleset."""

    name: str
    #: python type of the value: ``bool``, ``int`` or ``str`` (``str`` options take one of ``choices``)
    value_type: type[object]
    description: str
    #: the variant's value of this option (``None`` where the option is not a property of the rules)
    read: Callable[[Ruleset], OptionValue] = field(repr=False, compare=False)
    #: returns the ruleset with the option set to a valid value
    write: Callable[[Ruleset, OptionValue], Ruleset] = field(repr=False, compare=False)
    #: allowed values when restricted (strings for enum-like options)
    choices: tuple[OptionValue, ...] = ()
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    #: ids of the variants this option applies to; empty means every variant
    variants: tuple[str, ...] = ()
    #: where docs/rules.md describes the option (section, notes)
    reference: str = ""
    #: reads other text forms of the value (e.g. ``below_jack``); ``None`` when there are none
    text_form: Callable[[str], OptionValue] | None = field(default=None, repr=False, compare=False)
    #: words describing those other forms, appended to the allowed values
    text_form_help: str = ""

    def applies_to(self, variant_id: str) -> bool:
        return not self.variants or variant_id in self.variants

    def allowed_text(self) -> str:
        """The allowed values in words, for error messages and help (English, its parts marked)."""
        low, high = self.minimum, self.maximum
        if self.value_type is bool:
            text = N_("true or false")
        elif self.choices:
            text = N_("one of {choices}").format(choices=", ".join(str(c) for c in self.choices))
        elif low is not None and high is not None:
            text = N_("an integer from {low} to {high}").format(low=low, high=high)
        elif low is not None:
            text = N_("an integer of at least {low}").format(low=low)
        elif high is not None:
            text = N_("an integer of at most {high}").format(high=high)
        else:
            text = N_("an integer")
        if self.text_form_help:
            text = N_("{allowed}, or {more}").format(allowed=text, more=self.text_form_help)
        return N_("{allowed} or null").format(allowed=text) if self.nullable else text

    def parse(self, text: str) -> OptionValue:
        """Read a value from command-line text (``true``, ``7``, ``null``, ``difference`` ...)."""
        t = text.strip().lower()
        if self.nullable and t in _NULL_WORDS:
            return None
        if self.value_type is bool:
            if t in _TRUE_WORDS:
                return True
            if t in _FALSE_WORDS:
                return False
        elif self.value_type is int:
            number = _int_or_none(t)
            if number is not None:
                return self.check(number)
            if self.text_form is not None:
                return self.check(self.text_form(t))
        else:
            return self.check(t)
        raise self.bad_value(text)

    def check(self, value: object) -> OptionValue:
        """Validate (and normalise) a typed value, e.g. from a game record or a Python caller."""
        if value is None:
            if self.nullable:
                return None
            raise self.bad_value(value)
        if isinstance(value, str) and self.value_type is not str:
            return self.parse(value)
        if self.value_type is bool:
            if isinstance(value, bool):
                return value
            raise self.bad_value(value)
        if self.value_type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.bad_value(value)
            if self.choices and value not in self.choices:
                raise self.bad_value(value)
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise self.bad_value(value)
            return int(value)
        # enum-like string option
        text = (value.value if isinstance(value, Enum) else str(value)).strip().lower().replace("-", "_")
        if text in self.choices:
            return text
        raise self.bad_value(value)

    def bad_value(self, value: object) -> OptionError:
        shown = "null" if value is None else repr(value) if isinstance(value, str) else str(value)
        return OptionError(BAD_VALUE, value=shown, name=self.name, allowed=self.allowed_text())


_TRUE_WORDS = frozenset({"true", "yes", "1", "on", "y", "t"})
_FALSE_WORDS = frozenset({"false", "no", "0", "off", "n", "f"})
_NULL_WORDS = frozenset({"null", "none"})


def option_text(value: object) -> str:
    """An option value as it is written (the form :meth:`OptionSpec.parse` reads back).

    >>> [option_text(v) for v in (None, True, False, 7, "up")]
    ['null', 'true', 'false', '7', 'up']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _int_or_none(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _enum_choices(enum: type[Enum]) -> tuple[str, ...]:
    return tuple(str(member.value) for member in enum)


def _plain(value: object) -> OptionValue:
    """A field value as an option value: enums become their string."""
    if isinstance(value, Enum):
        return str(value.value)
    if value is None or isinstance(value, bool | int | str):
        return value
    raise TypeError(f"not an option value: {value!r}")


def _as_int(value: OptionValue) -> int:
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


def _as_bool(value: OptionValue) -> bool:
    assert isinstance(value, bool)
    return value


def _as_str(value: OptionValue) -> str:
    assert isinstance(value, str)
    return value


# ---------------------------------------------------------------------------
# builders for the common shapes of option


def _field_option(
    name: str,
    value_type: type[object],
    description: str,
    *,
    enum: type[Enum] | None = None,
    nullable: bool = False,
    minimum: int | None = None,
    maximum: int | None = None,
    variants: tuple[str, ...] = (),
    reference: str = "",
    field_name: str | None = None,
) -> OptionSpec:
    """An option that sets exactly one Ruleset field (``field_name``, by default the option's name)."""
    attr = field_name or name

    def read(rules: Ruleset) -> OptionValue:
        return _plain(getattr(rules, attr))

    def write(rules: Ruleset, value: OptionValue) -> Ruleset:
        changes: dict[str, Any] = {attr: enum(value) if enum is not None and value is not None else value}
        return replace(rules, **changes)

    return OptionSpec(
        name=name,
        value_type=str if enum is not None else value_type,
        description=description,
        read=read,
        write=write,
        choices=_enum_choices(enum) if enum is not None else (),
        nullable=nullable,
        minimum=minimum,
        maximum=maximum,
        variants=variants,
        reference=reference,
    )


def _face_option(
    name: str,
    read: Callable[[Ruleset], bool],
    write: Callable[[Ruleset, bool], Ruleset],
    description: str,
    *,
    variants: tuple[str, ...] = (),
    reference: str = "",
) -> OptionSpec:
    """An ``up``/``down`` option backed by a face-up boolean."""
    return OptionSpec(
        name=name,
        value_type=str,
        description=description,
        read=lambda rules: "up" if read(rules) else "down",
        write=lambda rules, value: write(rules, value == "up"),
        choices=("up", "down"),
        variants=variants,
        reference=reference,
    )


# ---------------------------------------------------------------------------
# options that change several fields

SANCHO_FAMILY = ("pedro_sancho", "dom_pedro")
JOKER_VARIANTS = ("sixty_three", "eighty_three")

#: Presets: one option value standing for several options (docs/rules.md §presets).
PRESETS: dict[str, dict[str, OptionValue]] = {
    "cinch_min6_forced6": {"min_bid": 6, "dealer_forced_bid": 6},
    "cinch_min6_forced7": {"min_bid": 6, "dealer_forced_bid": 7},
}


def _points_in_order(
    points: Iterable[tuple[str, int]], order: tuple[str, ...]
) -> tuple[tuple[str, int], ...]:
    """Point table sorted by trump rank, so that rule sheets list it high to low."""
    rank = {role: i for i, role in enumerate(order)}
    return tuple(sorted(points, key=lambda item: rank.get(item[0], len(order))))


def _write_joker(rules: Ruleset, value: OptionValue) -> Ruleset:
    """63/83 joker: the joker is the lowest trump worth 15 and the trump three then scores nothing."""
    want = _as_bool(value)
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


def _write_fives_rank(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Petro: both fives on top (literal text) or between the six and the four (as in Pedro)."""
    rest = [role for role in rules.trump_order if role not in ("5", "L5")]
    if value == "top":
        order = ("5", "L5", *rest)
    else:
        four = rest.index("4")
        order = (*rest[:four], "5", "L5", *rest[four:])
    return replace(rules, trump_order=order)


def _read_fives_rank(rules: Ruleset) -> OptionValue:
    return "top" if rules.trump_order[:1] == ("5",) else "standard"


def _read_off_jack_rank(rules: Ruleset) -> OptionValue:
    return rules.trump_order.index("OJ") + 1 if "OJ" in rules.trump_order else None


def _write_off_jack_rank(rules: Ruleset, value: OptionValue) -> Ruleset:
    position = _as_int(value)
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


def _write_plain_honours(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Petro: every ace, jack, ten and two scores 1, not only the trump ones (26 points)."""
    plain = (("A", 1), ("J", 1), ("T", 1), ("2", 1)) if _as_bool(value) else ()
    return replace(rules, plain_points=plain)


def _write_deal_all_out(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Deal the whole pack one card at a time; the odd cards stay out and all cards are played."""
    if _as_bool(value):
        size = len(rules.deck) // rules.players
        return replace(rules, deal_all_out=True, hand_size=size, play_hand_size=size, packets=(1,))
    if not rules.deal_all_out:
        return rules
    return replace(rules, deal_all_out=False, hand_size=6, play_hand_size=6, packets=(3,))


def _write_nine_card_deal(rules: Ruleset, value: OptionValue) -> Ruleset:
    """63/83 nine-card deal (note E9): no kitty or second deal; discard, pass excess, fill to six."""
    if not _as_bool(value):
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


def _write_discard_and_fill(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Pedro Sancho / Dom Pedro: the Pitch-with-Fives exchange (discard non-trumps, fill to six)."""
    if _as_bool(value):
        return replace(rules, discard=DiscardPolicy.ALL_NONTRUMPS, fill=FillPolicy.FILL_ALL_FROM_TOP)
    return replace(rules, discard=DiscardPolicy.NONE, fill=FillPolicy.NONE)


def _write_discards_face_up(rules: Ruleset, up: bool) -> Ruleset:
    """Up: every discard is public. Down: where non-trumps already go face down, nothing changes
    (trumps keep the variant's own visibility); otherwise every discard goes face down."""
    if up:
        return replace(rules, discards_face_up=True, trump_discards_face_up=True)
    if not rules.discards_face_up:
        return rules
    return replace(rules, discards_face_up=False, trump_discards_face_up=False)


def _write_all_pass_action(rules: Ruleset, value: OptionValue) -> Ruleset:
    """Redeal clears the forced bid; a forced dealer keeps the variant's forced bid or else the minimum."""
    action = AllPassAction(_as_str(value))
    if action is AllPassAction.REDEAL_NEXT_DEALER:
        return replace(rules, all_pass_action=action, dealer_forced_bid=None)
    forced = rules.dealer_forced_bid if rules.dealer_forced_bid is not None else rules.min_bid
    return replace(rules, all_pass_action=action, dealer_forced_bid=forced)


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
    _field_option(
        "players",
        int,
        N_("number of players (each playing alone unless partnerships=true)"),
        minimum=4,
        maximum=7,
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note D1",
    ),
    _field_option(
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
        write=_write_joker,
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
        read=_read_fives_rank,
        write=_write_fives_rank,
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
        read=_read_off_jack_rank,
        write=_write_off_jack_rank,
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
        write=_write_plain_honours,
        variants=("petro_russian",),
        reference="docs/rules.md §house-rules, note R3",
    ),
    _field_option(
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
        write=_write_nine_card_deal,
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
        write=_write_deal_all_out,
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note S8",
    ),
    # --- auction
    _field_option(
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
    _field_option(
        "min_bid",
        int,
        N_("lowest ordinary bid"),
        minimum=1,
        reference="docs/rules.md §house-rules, notes E1, R5",
    ),
    OptionSpec(
        name="all_pass_action",
        value_type=str,
        description=N_(
            "what happens when nobody bids: the dealer is forced to bid, or the cards are "
            "thrown in and the next dealer deals"
        ),
        read=lambda rules: _plain(rules.all_pass_action),
        write=_write_all_pass_action,
        choices=_enum_choices(AllPassAction),
        reference="docs/rules.md §house-rules, note S3",
    ),
    _field_option(
        "dealer_forced_bid",
        int,
        N_(
            "bid the dealer must take when everyone else has passed (he may bid higher instead); "
            "null means no forced bid"
        ),
        nullable=True,
        minimum=1,
        reference="docs/rules.md §house-rules, §auction",
    ),
    _field_option(
        "slam",
        bool,
        N_(
            "a bid of the maximum (all points) scores twice the maximum if made and loses only the "
            "maximum if set"
        ),
        reference="docs/rules.md §house-rules, note C6",
    ),
    _field_option(
        "bid_28_56",
        bool,
        N_(
            "the dealer may call 28-56 above 14 when he holds ace, king and two of the suit he then "
            "names: all 14 points for +56, or -28"
        ),
        reference="docs/rules.md §house-rules, note C6",
    ),
    _field_option(
        "double_max_bid",
        bool,
        N_(
            "a call above the maximum ('83 double'): all points for twice the maximum, or minus twice "
            "the maximum"
        ),
        reference="docs/rules.md §house-rules, note E4",
    ),
    _field_option(
        "protect",
        bool,
        N_("the dealer's partner may call 'protect', a bid of the minimum, while nobody has bid"),
        variants=("piedro_jokers",),
        reference="docs/rules.md §house-rules, note J4",
    ),
    _field_option(
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
        write=_write_discard_and_fill,
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note S7",
    ),
    _field_option(
        "keep_nontrumps",
        bool,
        N_("when discarding non-trumps a player may keep some, keeping at most 6 cards"),
        reference="docs/rules.md §house-rules, §discarding",
    ),
    _face_option(
        "discards_face",
        lambda rules: rules.discards_face_up,
        _write_discards_face_up,
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
        write=lambda rules, value: _write_discards_face_up(rules, _as_bool(value)),
        reference="docs/rules.md §house-rules, note C5",
    ),
    _face_option(
        "trump_discards_face",
        lambda rules: rules.trump_discards_face_up,
        lambda rules, up: replace(rules, trump_discards_face_up=up),
        N_("visibility of discarded trumps alone (overrides discards_face for trumps)"),
        reference="docs/rules.md §house-rules, note G4",
    ),
    _field_option(
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
        write=lambda rules, value: replace(rules, play_hand_size=_as_int(value)),
        choices=(6, 7),
        variants=("nicaragua",),
        reference="docs/rules.md §house-rules, note N3",
    ),
    _field_option(
        "excess_trumps",
        str,
        N_("how a player with more than 6 trumps gets down to 6"),
        enum=ExcessTrumps,
        reference="docs/rules.md §house-rules, §excess-trumps",
    ),
    _field_option(
        "discarded_scoring_trumps",
        str,
        N_(
            "with excess_trumps=must_discard_to_6: scoring trumps may not be discarded, or may be and "
            "their points go to the discarder's opponents"
        ),
        enum=DiscardedScoringTrumps,
        reference="docs/rules.md §house-rules, note C5",
    ),
    _field_option(
        "trump_discard_claim",
        str,
        N_(
            "with face-up discards: who may take a trump found in another player's discards, giving "
            "a non-trump face up for it"
        ),
        enum=TrumpDiscardClaim,
        reference="docs/rules.md §house-rules, note C5",
    ),
    _field_option(
        "fold_mandatory",
        bool,
        N_("a player with no trumps after the second deal must fold (false: he may stay in)"),
        variants=("king_pedro_canadian",),
        reference="docs/rules.md §house-rules, note K10",
    ),
    # --- play
    _field_option(
        "first_lead_trump",
        bool,
        N_("the bidder must lead a trump to the first trick if he holds one"),
        reference="docs/rules.md §house-rules, note F5",
    ),
    _field_option(
        "plain_lead",
        str,
        N_("what may be played when a plain (non-trump) suit is led"),
        enum=PlainLead,
        reference="docs/rules.md §house-rules, note E3",
    ),
    _face_option(
        "cold_cards_face",
        lambda rules: rules.cold_cards_face_up,
        lambda rules, up: replace(rules, cold_cards_face_up=up),
        N_("how a player who goes cold lays down his remaining cards"),
        variants=("pidro",),
        reference="docs/rules.md §house-rules, note P2",
    ),
    # --- counting and scoring
    _field_option(
        "low_rule",
        str,
        N_(
            "who scores the Low (trump two): the side of the player holding it when play starts, the "
            "side it was dealt to, or the side that captures it"
        ),
        enum=LowRule,
        reference="docs/rules.md §house-rules, notes C2, N5, T5, E8, R11",
    ),
    _field_option(
        "scoring",
        str,
        N_(
            "standard: made bids add the points taken, set bids lose the bid; difference: no negative "
            "scores, the side that took more scores the difference"
        ),
        enum=Scoring,
        reference="docs/rules.md §house-rules, §scoring",
    ),
    _field_option(
        "made_scores",
        str,
        N_("what a side that makes its bid scores: the points it made, or the amount bid"),
        enum=MadeScores,
        variants=("king_pedro_canadian",),
        reference="docs/rules.md §house-rules, note K12",
    ),
    _field_option(
        "defenders_score_when_set",
        bool,
        N_("when the bidder is set, the other players still score what they took"),
        variants=SANCHO_FAMILY,
        reference="docs/rules.md §house-rules, note S4",
    ),
    # --- game end
    _field_option(
        "target",
        int,
        N_(
            "winning score (reach or pass); in cinch a target other than 62 switches the end rule to "
            "first_to_target_bidder_priority unless end_rule is given"
        ),
        minimum=1,
        reference="docs/rules.md §house-rules, note C7",
    ),
    _field_option(
        "end_rule",
        str,
        N_("how the game is won"),
        enum=EndRule,
        reference="docs/rules.md §house-rules, §game-end",
    ),
    _field_option(
        "bgo_threshold",
        int,
        N_(
            "score both sides must have at the start of a hand for it to be a bidder-goes-out hand "
            "(null: target - 7)"
        ),
        nullable=True,
        reference="docs/rules.md §house-rules, note C7",
    ),
    _field_option(
        "lose_at",
        int,
        N_("a side at or below this (negative) score after a hand loses; null: no minus limit"),
        nullable=True,
        maximum=-1,
        reference="docs/rules.md §house-rules, note K15",
    ),
)

#: Every option by name, in the order they are applied.
OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in _SPECS}


# ---------------------------------------------------------------------------
# parsing


def _spec(name: str, variant_id: str | None = None) -> OptionSpec:
    spec = OPTIONS.get(name)
    if spec is None:
        if variant_id is None:
            raise OptionError(
                N_("unknown option {name}; valid options: {options}"),
                name=repr(name),
                options=", ".join(OPTIONS),
            )
        raise OptionError(
            N_("unknown option {name} for {variant}; valid options for {of_variant}: {options}"),
            name=repr(name),
            variant=variant_id,
            of_variant=variant_id,
            options=", ".join(available_options(variant_id)),
        )
    return spec


def parse_option_value(name: str, text: str) -> OptionValue:
    """Turn the text of ``--option name=text`` into the option's typed value."""
    return _spec(name.strip()).parse(text)


def parse_option_args(args: Iterable[str]) -> dict[str, OptionValue]:
    """Parse ``["name=value", ...]`` from the command line into a typed options dict."""
    result: dict[str, OptionValue] = {}
    for arg in args:
        name, sep, text = arg.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(
                N_("option {option} must be written NAME=VALUE, e.g. min_bid=6; valid options: {options}"),
                option=repr(arg),
                options=", ".join(OPTIONS),
            )
        if name in result:
            raise OptionError(N_("option {name} is given twice; give each option once"), name=name)
        result[name] = parse_option_value(name, text)
    return result


# ---------------------------------------------------------------------------
# applying


def available_options(variant_id: str) -> list[str]:
    """Names of the options that apply to ``variant_id``, in registry order."""
    return [name for name, spec in OPTIONS.items() if spec.applies_to(variant_id)]


def option_values(rules: Ruleset) -> dict[str, OptionValue]:
    """The value of every applicable option in ``rules`` (presets excluded), for help screens."""
    return {
        name: spec.read(rules)
        for name, spec in OPTIONS.items()
        if spec.applies_to(rules.id) and name != "preset"
    }


def options_dict(rules: Ruleset) -> dict[str, OptionValue]:
    """The options a ruleset was built with, as stored in a game record."""
    return {name: _plain(value) for name, value in rules.options}


def _validated(variant_id: str, options: Mapping[str, object]) -> dict[str, OptionValue]:
    """Check option names, their scope for the variant and their values; normalise the values."""
    values: dict[str, OptionValue] = {}
    for raw_name, raw_value in options.items():
        name = str(raw_name).strip()
        spec = _spec(name, variant_id)
        if not spec.applies_to(variant_id):
            raise OptionError(
                N_(
                    "option {name} does not apply to {variant} (only to {variants}); "
                    "valid options for {of_variant}: {options}"
                ),
                name=name,
                variant=variant_id,
                of_variant=variant_id,
                variants=", ".join(spec.variants),
                options=", ".join(available_options(variant_id)),
            )
        values[name] = spec.check(raw_value)
    return values


def _expand(values: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """Replace a preset by its options; explicit options must agree with the preset."""
    expanded = dict(values)
    preset = values.get("preset")
    if isinstance(preset, str):
        for name, value in PRESETS[preset].items():
            if name in values and values[name] != value:
                raise OptionError(
                    N_(
                        "option {given} contradicts preset {preset}, which sets {setting}; drop one of them "
                        "(allowed with this preset: {allowed})"
                    ),
                    given=f"{name}={option_text(values[name])}",
                    preset=preset,
                    setting=f"{name}={option_text(value)}",
                    allowed=f"{name}={option_text(value)}",
                )
            expanded[name] = value
    return expanded


def apply_options(base: Ruleset, options: Mapping[str, object]) -> Ruleset:
    """A new ruleset: ``base`` with ``options`` applied, checked and recorded in ``options``.

    Options already recorded in ``base`` stay recorded (the new values win);
    only the new ones are applied, on top of ``base``'s fields.
    """
    given = _validated(base.id, options)
    if not given:
        return base
    expanded = _expand(given)
    rules: Ruleset = _Draft(**_fields_of(base))
    for name, spec in OPTIONS.items():
        if name in expanded:
            rules = spec.write(rules, expanded[name])
    rules = _implied(base, rules, expanded)
    _check_constraints(base, rules, expanded)
    recorded = dict(base.options) | given
    return Ruleset(**(_fields_of(rules) | {"options": tuple(sorted(recorded.items()))}))


class _Draft(Ruleset):
    """A ruleset while options are written into it, one at a time: checked once, when complete,
    since one option may pass through a combination that a later one mends (players, then partnerships).
    """

    def __post_init__(self) -> None:
        pass


def _fields_of(rules: Ruleset) -> dict[str, Any]:
    return {f.name: getattr(rules, f.name) for f in fields(rules)}


def make_ruleset(variant_id: str, options: Mapping[str, object] | None = None) -> Ruleset:
    """The catalog variant ``variant_id`` with house-rule ``options`` applied.

    >>> rules = make_ruleset("cinch", {"min_bid": 6, "dealer_forced_bid": 6})
    >>> rules.min_bid, rules.dealer_forced_bid, rules.options
    (6, 6, (('dealer_forced_bid', 6), ('min_bid', 6)))
    >>> make_ruleset("cinch", {"min_bid": 15})
    Traceback (most recent call last):
    ...
    pedro.variants.options.OptionError: min_bid=15 is above the maximum bid 14; allowed: min_bid 1..14
    """
    return apply_options(get_variant(variant_id), options or {})


def _implied(base: Ruleset, rules: Ruleset, given: Mapping[str, OptionValue]) -> Ruleset:
    """Defaults the rules tie to other options, applied only where the user did not decide."""
    # note C7: cinch's bidder-goes-out belongs to 62; other targets use bidder priority
    if (
        "target" in given
        and "end_rule" not in given
        and base.end_rule is EndRule.BIDDER_GOES_OUT
        and rules.target != base.target
    ):
        rules = replace(rules, end_rule=EndRule.FIRST_TO_TARGET_BIDDER_PRIORITY)
    # docs/rules.md §house-rules: once discards are face up, trump_discard_claim defaults to opponents
    # (note C5)
    if (
        ("discards_face_up" in given or "discards_face" in given)
        and "trump_discard_claim" not in given
        and not base.discards_face_up
        and rules.discards_face_up
        and rules.trump_discard_claim is TrumpDiscardClaim.NONE
    ):
        rules = replace(rules, trump_discard_claim=TrumpDiscardClaim.OPPONENTS)
    return rules


def _check_constraints(base: Ruleset, rules: Ruleset, given: Mapping[str, OptionValue]) -> None:
    """Refuse the combinations of docs/rules.md §option-constraints, saying what is allowed."""
    broken = first_broken(base, rules, given)
    if broken is not None:
        raise OptionError(CLASH, problem=broken.problem_text(rules), allowed=broken.allowed_text(rules))
