"""Actions as flat integers, and their text form for records and people.

An action is ``verb << 64 | arg``: a bid's value, a suit, or a card bitmask.
Integers keep legal-action lists cheap to build and compare (OpenSpiel's flat
actions); the text form ``"<seat> <verb> [args]"`` is the record contract.

>>> a = play_action(parse_cards("AH"))
>>> action_text(2, a)
'2 play AH'
>>> verb_of(a) == Verb.PLAY
True
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from pedro.cards import SUITS, CardError, cards_of, format_card, parse_cards, pretty_card

#: The verb sits above bit 64: ``action >> VERB_SHIFT`` is the verb, ``action & ARG_MASK`` the argument.
VERB_SHIFT: Final = 64
ARG_MASK: Final = (1 << VERB_SHIFT) - 1
#: In a multi-card play the top card's index (plus one) sits above the 55 card bits.
TOP_SHIFT: Final = 56
#: The card bits of a card-set action: ``action & CARD_BITS`` drops its verb and top-card index.
CARD_BITS: Final = (1 << TOP_SHIFT) - 1


class Verb(IntEnum):
    PASS = 0
    BID = 1
    BID_28_56 = 2
    BID_DOUBLE = 3
    PROTECT = 4
    TRUMP = 5
    DISCARD = 6
    KEEP = 7
    KILL = 8
    GIVE = 9
    FOLD = 10
    CLAIM = 11
    PLAY = 12


VERB_WORDS: Final = {
    Verb.PASS: "pass", Verb.BID: "bid", Verb.PROTECT: "protect", Verb.TRUMP: "trump",
    Verb.DISCARD: "discard", Verb.KEEP: "keep", Verb.KILL: "kill", Verb.GIVE: "give",
    Verb.FOLD: "fold", Verb.CLAIM: "claim", Verb.PLAY: "play",
}  # fmt: skip
CARD_VERBS: Final = frozenset({Verb.DISCARD, Verb.KEEP, Verb.KILL, Verb.GIVE, Verb.CLAIM})

PASS: Final = Verb.PASS << VERB_SHIFT
FOLD: Final = Verb.FOLD << VERB_SHIFT
PROTECT: Final = Verb.PROTECT << VERB_SHIFT


class ActionError(ValueError):
    """An action's text could not be read."""


def verb_of(action: int) -> Verb:
    return Verb(action >> VERB_SHIFT)


def arg_of(action: int) -> int:
    return action & ARG_MASK


def make(verb: Verb, arg: int = 0) -> int:
    return (int(verb) << VERB_SHIFT) | arg


def bid_action(value: int) -> int:
    return make(Verb.BID, value)


def trump_action(suit: int) -> int:
    return make(Verb.TRUMP, suit)


def cards_action(verb: Verb, mask: int) -> int:
    return make(verb, mask)


def play_action(cards: list[int]) -> int:
    """A play of ``cards``; the first card is the one that counts (the top card)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    if len(cards) > 1:
        mask |= (cards[0] + 1) << TOP_SHIFT
    return make(Verb.PLAY, mask)


PLAY_BASE: Final = int(Verb.PLAY) << VERB_SHIFT


def play_mask(action: int) -> int:
    """All cards of a play action (top and buried)."""
    return action & CARD_BITS


def play_top(action: int) -> int:
    """The card that counts in a play action."""
    top = (action >> TOP_SHIFT) & 0xFF
    if top:
        return top - 1
    return (action & CARD_BITS).bit_length() - 1


def play_cards(action: int) -> list[int]:
    """The cards of a play, the top card first."""
    top = play_top(action)
    return [top] + [c for c in cards_of(play_mask(action)) if c != top]


def action_cards(action: int) -> list[int]:
    """Cards named by a card-carrying action, in text order."""
    verb = verb_of(action)
    if verb == Verb.PLAY:
        return play_cards(action)
    if verb in CARD_VERBS:
        return cards_of(arg_of(action))
    return []


def action_words(action: int, max_bid: int = 0, pretty: bool = False) -> str:
    """The action without the seat: ``bid 8``, ``play 5H``, ``bid 83-double``."""
    verb = verb_of(action)
    arg = arg_of(action)
    if verb == Verb.BID:
        return f"bid {arg}"
    if verb == Verb.BID_28_56:
        return "bid 28-56"
    if verb == Verb.BID_DOUBLE:
        return f"bid {max_bid}-double"
    if verb == Verb.TRUMP:
        return f"trump {SUITS[arg]}"
    fmt = pretty_card if pretty else format_card
    cards = action_cards(action)
    if cards:
        return VERB_WORDS[verb] + " " + " ".join(fmt(c) for c in cards)
    return VERB_WORDS[verb]


def action_text(seat: int, action: int, max_bid: int = 0) -> str:
    """Record text: ``"<seat> <verb> [args]"``.

    >>> action_text(1, bid_action(8)), action_text(3, trump_action(1)), action_text(0, PASS)
    ('1 bid 8', '3 trump H', '0 pass')
    >>> action_text(2, play_action(parse_cards("5H 7C")))
    '2 play 5H 7C'
    """
    return f"{seat} {action_words(action, max_bid)}"


_WORD_VERBS: Final = {word: verb for verb, word in VERB_WORDS.items()}


def parse_action_words(text: str, max_bid: int = 0) -> int:
    """Read an action without its seat (``bid 8``, ``play 10h``, ``trump ♥``).

    >>> parse_action_words("trump ♥") == trump_action(1)
    True
    >>> action_words(parse_action_words("discard 9s 2c 10h"))
    'discard 9S TH 2C'
    >>> action_words(parse_action_words("bid 14-double", max_bid=14), max_bid=14)
    'bid 14-double'
    >>> parse_action_words("bid eight")
    Traceback (most recent call last):
    ...
    pedro.engine.actions.ActionError: bid value 'eight' is not a whole number
    """
    parts = text.split()
    if not parts:
        raise ActionError("empty action")
    word = parts[0].lower()
    args = parts[1:]
    verb = _WORD_VERBS.get(word)
    if verb is None:
        allowed = ", ".join(sorted(_WORD_VERBS))
        raise ActionError(f"unknown verb {parts[0]!r}; verbs are: {allowed}")
    if verb in (Verb.PASS, Verb.FOLD, Verb.PROTECT):
        if args:
            raise ActionError(f"{word!r} takes no arguments")
        return make(verb)
    if verb == Verb.BID:
        if len(args) != 1:
            raise ActionError("bid takes one value, e.g. 'bid 8', 'bid 28-56', 'bid 83-double'")
        value = args[0].lower()
        if value == "28-56":
            return make(Verb.BID_28_56)
        if value.endswith("-double"):
            if value != f"{max_bid}-double":
                raise ActionError(f"{args[0]!r} is not a call here; the double call is '{max_bid}-double'")
            return make(Verb.BID_DOUBLE)
        if not value.isdigit():
            raise ActionError(f"bid value {args[0]!r} is not a whole number")
        return bid_action(int(value))
    if verb == Verb.TRUMP:
        if len(args) != 1:
            raise ActionError("trump takes one suit: S, H, D or C")
        suit_text = args[0].upper()
        symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
        suit_text = symbols.get(suit_text, suit_text)
        if suit_text not in SUITS or len(suit_text) != 1:
            raise ActionError(f"{args[0]!r} is not a suit; suits are S, H, D, C")
        return trump_action(SUITS.index(suit_text))
    if not args:
        raise ActionError(f"{word!r} needs at least one card")
    try:
        cards = parse_cards(args)
    except CardError as exc:
        raise ActionError(str(exc)) from None
    if len(set(cards)) != len(cards):
        raise ActionError("a card is named twice")
    if verb == Verb.PLAY:
        return play_action(cards)
    mask = 0
    for c in cards:
        mask |= 1 << c
    return cards_action(verb, mask)


def parse_action_text(text: str, max_bid: int = 0) -> tuple[int, int]:
    """Read record text ``"<seat> <verb> [args]"`` into ``(seat, action)``.

    >>> parse_action_text("2 bid 8") == (2, bid_action(8))
    True
    """
    parts = text.split(maxsplit=1)
    if len(parts) < 2 or not parts[0].isdigit():
        raise ActionError(f"{text!r} must start with a seat number and a verb, e.g. '0 bid 8'")
    return int(parts[0]), parse_action_words(parts[1], max_bid)


def parse_turn_text(text: str, max_bid: int, current_player: int) -> tuple[int, int]:
    """Record text of the action a stored game goes on with: ActionError unless it is
    ``current_player``'s (whether it is legal, ``GameState.apply`` checks)."""
    seat, action = parse_action_text(text, max_bid)
    if seat != current_player:
        raise ActionError(f"{text!r} is out of turn: it is seat {current_player}'s turn")
    return seat, action
