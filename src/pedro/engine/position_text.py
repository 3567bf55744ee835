"""A position as one line of text, like FEN for chess (docs/engine.md, "Position text").

The text names everything a hand in the card play needs to go on exactly:
scores, hand number, dealer, the auction's calls (which give the contract),
trump, each seat's cards, statuses and laid-aside cards, credits, and the
plays so far. The ruleset is not in the text: ``GameState.from_text`` is given
it. A state is rebuilt by replaying the plays through the engine from the
first lead, so whatever the plays imply (the led suit, trick winners, seats
going cold, up or out, each seat's cards at the first lead) is derived the
engine's own way and a text that breaks the rules is refused with the
engine's reason.

The grammar is here (``parse_position``, ``format_position`` and the auction's), with
what reads a state's position through its ``TableView``; ``GameState.from_text`` builds a
state from a text, which ``pedro.engine.position_replay`` checks against the engine.

>>> from pedro.variants.options import make_ruleset
>>> rules = make_ruleset("cinch")
>>> text = ("play scores=0,0 hand=1 dealer=3 calls=0:pass,1:7,2:pass,3:pass trump=H size=6"
...         " hands=5H4C/AH/9H/KH tricks=1:2H,2:TH,3:JH,0:3H trick=3:QH turn=0")
>>> position = parse_position(rules, text)
>>> position.trump, position.turn, len(position.tricks)
(1, 0, 1)
>>> format_position(rules, position) == text
True
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.cards import SUIT_SYMBOLS, SUITS, CardError, cards_of, format_card, parse_card
from pedro.engine.actions import (
    ActionError,
    Verb,
    action_words,
    make,
    parse_action_words,
    play_action,
    play_cards,
    verb_of,
)
from pedro.engine.phases import Phase, Status
from pedro.engine.table import Table, TableView
from pedro.variants.model import LowRule, Ruleset

#: A play as the engine keeps it: (seat, play action).
Play = tuple[int, int]


@dataclass(frozen=True)
class Position:
    """The fields of a position text, parsed (per-seat tuples are indexed by seat)."""

    scores: tuple[int, ...]
    #: the hand's index, from 0 (the text counts from 1)
    hand: int
    dealer: int
    bgo: bool
    calls: tuple[Play, ...]
    trump: int
    #: cards in a normal hand at the first lead: a bigger hand plays a stack (``keep_and_bury``)
    normal_hand_size: int
    hands: tuple[int, ...]
    statuses: tuple[Status, ...]
    #: cards laid aside face down (those gathered into the wash included) and face up
    discards: tuple[int, ...]
    face_up: tuple[int, ...]
    killed: tuple[int, ...]
    known: tuple[int, ...]
    #: per seat, (from seat, cards) given to it by its partner
    received: tuple[tuple[Play, ...], ...]
    credits: tuple[int, ...]
    credited: int
    #: per seat, how many of its discards were gathered into the wash; the gathered cards not dealt
    gathered: tuple[int, ...]
    wash: int
    #: the seat that first received the Low (``low_rule = dealt``), -1 if none or unused
    low: int
    tricks: tuple[tuple[Play, ...], ...]
    trick: tuple[Play, ...]
    turn: int
    #: per seat, how many cards it received after the first deal (a public count)
    drawn: tuple[int, ...] = ()


# ---------------------------------------------------------------- from a state


def position_of(state: Table) -> Position:
    """The position of a state (a ``GameState``) in the card play; ValueError in any other phase."""
    view = TableView(state)
    trick, trump = view.trick, view.trump
    if view.phase != Phase.PLAY:
        phase = view.phase.name.lower()
        raise ValueError(
            f"a position text covers the auction, naming trumps and the card play; this state is in the "
            f"{phase} phase"
        )
    assert trick is not None and trump is not None
    seats = range(view.players)
    face_up = view.face_up
    return Position(
        scores=view.scores,
        hand=view.hand_index,
        dealer=view.dealer,
        bgo=view.bidder_goes_out,
        calls=view.calls,
        trump=trump,
        normal_hand_size=view.normal_hand_size,
        hands=tuple(view.hand(s) for s in seats),
        statuses=tuple(view.status(s) for s in seats),
        discards=tuple(view.discards(s) & ~face_up for s in seats),
        face_up=tuple(view.discards(s) & face_up for s in seats),
        killed=tuple(view.killed(s) for s in seats),
        known=tuple(view.seen(s) for s in seats),
        received=tuple(view.received(s) for s in seats),
        credits=view.credits,
        credited=view.credited,
        gathered=tuple(view.gathered(s) for s in seats),
        wash=view.wash,
        low=view.low_receiver if view.rules.low_rule == LowRule.DEALT else -1,
        tricks=tuple(tuple(t.plays) for t in view.tricks),
        trick=tuple(trick.plays),
        turn=view.current_player,
        drawn=tuple(view.drawn(s) for s in seats),
    )


# ---------------------------------------------------------------- text


def format_position(rules: Ruleset, pos: Position) -> str:
    """The one-line text; fields that are empty for every seat are left out."""
    fields = [
        *_header_fields(rules, pos.scores, pos.hand, pos.dealer, pos.bgo, pos.calls),
        ("trump", SUITS[pos.trump]),
        ("size", str(pos.normal_hand_size)),
        ("hands", _seats(pos.hands, always=True)),
        ("status", ",".join(f"{s}:{st.name.lower()}" for s, st in enumerate(pos.statuses) if st)),
        ("discards", _seats(pos.discards)),
        ("faceup", _seats(pos.face_up)),
        ("killed", _seats(pos.killed)),
        ("known", _seats(pos.known)),
        ("received", _received_text(pos.received)),
        ("credits", ",".join(map(str, pos.credits)) if any(pos.credits) else ""),
        ("credited", cards_text(pos.credited) if pos.credited else ""),
        ("gathered", ",".join(map(str, pos.gathered)) if any(pos.gathered) else ""),
        ("drawn", ",".join(map(str, pos.drawn)) if any(pos.drawn) else ""),
        ("wash", cards_text(pos.wash) if pos.wash else ""),
        ("low", str(pos.low) if pos.low >= 0 else ""),
        ("tricks", "/".join(plays_text(t) for t in pos.tricks)),
        ("trick", plays_text(pos.trick)),
        ("turn", str(pos.turn)),
    ]
    return " ".join(["play", *(f"{name}={value}" for name, value in fields if value)])


def _header_fields(
    rules: Ruleset, scores: tuple[int, ...], hand: int, dealer: int, bgo: bool, calls: tuple[Play, ...]
) -> list[tuple[str, str]]:
    """The fields every phase's text starts with (``_header`` reads them)."""
    top = rules.max_bid
    return [
        ("scores", ",".join(map(str, scores))),
        ("hand", str(hand + 1)),
        ("dealer", str(dealer)),
        ("bgo", "yes" if bgo else ""),
        ("calls", ",".join(f"{seat}:{call_text(a, top)}" for seat, a in calls)),
    ]


_REQUIRED = ("scores", "hand", "dealer", "calls", "trump", "size", "hands", "turn")
_PHASES = ("play", "auction")
_OPTIONAL = (
    "bgo", "status", "discards", "faceup", "killed", "known", "received", "credits", "credited",
    "gathered", "drawn", "wash", "low", "tricks", "trick",
)  # fmt: skip


def parse_position(rules: Ruleset, text: str) -> Position:
    """Read a position text; ValueError naming the field that cannot be read."""
    fields = _fields(text, "play", _REQUIRED, _OPTIONAL)
    scores, hand, dealer, bgo, calls = _header(rules, fields)
    n = rules.players
    name = ""
    try:
        name = "trump"
        trump = _suit(fields["trump"])
        name = "size"
        size = int(fields["size"])
        name = "hands"
        hands = _seat_cards(fields["hands"], n)
        name = "status"
        statuses = [Status.ACTIVE] * n
        for item in _items(fields.get("status", "")):
            seat, _, status = item.partition(":")
            statuses[_seat(seat, n)] = Status[status.upper()]
        per_seat = {}
        for name in ("discards", "faceup", "killed", "known"):
            per_seat[name] = _seat_cards(fields[name], n) if name in fields else (0,) * n
        name = "received"
        received = _received(fields.get("received", ""), n)
        name = "credits"
        credits = _ints(fields["credits"], rules.num_sides) if "credits" in fields else (0,) * rules.num_sides
        name = "credited"
        credited = _cards(fields.get("credited", "-"))
        name = "gathered"
        gathered = _ints(fields["gathered"], n) if "gathered" in fields else (0,) * n
        name = "drawn"
        drawn = _ints(fields["drawn"], n) if "drawn" in fields else (0,) * n
        name = "wash"
        wash = _cards(fields.get("wash", "-"))
        name = "low"
        low = _seat(fields["low"], n) if "low" in fields else -1
        name = "tricks"
        tricks = tuple(_plays(t, n) for t in fields["tricks"].split("/")) if "tricks" in fields else ()
        name = "trick"
        trick = _plays(fields.get("trick", ""), n)
        name = "turn"
        turn = _seat(fields["turn"], n)
    except (ValueError, KeyError) as exc:
        raise ValueError(f"field {name!r}: {exc}") from None
    return Position(
        scores, hand, dealer, bgo, calls, trump, size, hands, tuple(statuses), per_seat["discards"],
        per_seat["faceup"], per_seat["killed"], per_seat["known"], received, credits, credited, gathered,
        wash, low, tricks, trick, turn, drawn,
    )  # fmt: skip


def _header(
    rules: Ruleset, fields: dict[str, str]
) -> tuple[tuple[int, ...], int, int, bool, tuple[Play, ...]]:
    """The fields every phase's text has: (scores, hand index, dealer, bidder goes out, calls)."""
    n = rules.players
    name = ""
    try:
        name = "scores"
        scores = _ints(fields["scores"], rules.num_sides)
        name = "hand"
        hand = int(fields["hand"]) - 1
        if hand < 0:
            raise ValueError("hands count from 1")
        name = "dealer"
        dealer = _seat(fields["dealer"], n)
        name = "bgo"
        bgo = fields.get("bgo", "no") == "yes"
        name = "calls"
        calls = tuple(_call(c, n, rules.max_bid) for c in _items(fields.get("calls", "")))
    except (ValueError, KeyError) as exc:
        raise ValueError(f"field {name!r}: {exc}") from None
    return scores, hand, dealer, bgo, calls


def _fields(text: str, phase: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict[str, str]:
    """The ``name=value`` fields of a text of ``phase``: known names, each once, the required all there."""
    words = text.split()
    if not words or words[0] not in _PHASES:
        raise ValueError("a position text starts with its phase, 'play' or 'auction'")
    if words[0] != phase:
        raise ValueError(f"this is a text of the {words[0]!r} phase, not {phase!r}")
    fields: dict[str, str] = {}
    for word in words[1:]:
        name, eq, value = word.partition("=")
        if not eq or name not in (*required, *optional):
            names = ", ".join((*required, *optional))
            raise ValueError(f"{word!r} is not a field; fields are name=value with names {names}")
        if name in fields:
            raise ValueError(f"field {name!r} is given twice")
        fields[name] = value
    missing = [name for name in required if name not in fields]
    if missing:
        raise ValueError(f"missing field(s): {', '.join(missing)}")
    return fields


def cards_text(mask: int) -> str:
    """Two characters a card (``TH``, ``JK``), no separator; ``-`` for none."""
    return "".join(format_card(c) for c in cards_of(mask)) or "-"


def _cards(text: str) -> int:
    if text == "-":
        return 0
    if len(text) % 2:
        raise ValueError(f"{text!r}: cards are two characters each (T for ten), e.g. ASTH5C")
    mask = 0
    for i in range(0, len(text), 2):
        try:
            c = parse_card(text[i : i + 2])
        except CardError as exc:
            raise ValueError(str(exc)) from None
        if mask >> c & 1:
            raise ValueError(f"{text[i : i + 2]} is named twice")
        mask |= 1 << c
    return mask


def _seats(masks: tuple[int, ...], always: bool = False) -> str:
    return "/".join(map(cards_text, masks)) if always or any(masks) else ""


def _seat_cards(text: str, n: int) -> tuple[int, ...]:
    parts = text.split("/")
    if len(parts) != n:
        raise ValueError(f"{len(parts)} seats given, the game has {n} (separate seats with /)")
    return tuple(_cards(p) for p in parts)


def _seat(text: str, n: int) -> int:
    seat = int(text)
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not one of 0 to {n - 1}")
    return seat


def _ints(text: str, count: int) -> tuple[int, ...]:
    values = tuple(int(v) for v in text.split(","))
    if len(values) != count:
        raise ValueError(f"{len(values)} values given, {count} wanted")
    return values


def _items(text: str) -> list[str]:
    return [item for item in text.split(",") if item]


def _suit(text: str) -> int:
    suit = text.upper()
    if len(suit) != 1 or suit not in SUITS + SUIT_SYMBOLS:
        raise ValueError(f"{text!r} is not a suit; suits are S, H, D, C")
    return (SUITS + SUIT_SYMBOLS).index(suit) % 4


def call_text(action: int, max_bid: int) -> str:
    """A call without its verb ``bid``: ``pass``, ``7``, ``28-56``, ``14-double``, ``protect``."""
    return action_words(action, max_bid).removeprefix("bid ")


def _call(text: str, n: int, max_bid: int) -> Play:
    seat, _, call = text.partition(":")
    words = f"bid {call}" if call[:1].isdigit() else call
    try:
        action = parse_action_words(words, max_bid)
    except ActionError as exc:
        raise ValueError(f"{text!r}: {exc}") from None
    if verb_of(action) > Verb.PROTECT:
        raise ValueError(f"{text!r} is not a call")
    return _seat(seat, n), action


def plays_text(plays: tuple[Play, ...]) -> str:
    return ",".join(f"{seat}:{''.join(map(format_card, play_cards(a)))}" for seat, a in plays)


def _plays(text: str, n: int) -> tuple[Play, ...]:
    out = []
    for item in _items(text):
        seat, _, cards = item.partition(":")
        mask = _cards(cards)
        top = parse_card(cards[:2])
        out.append((_seat(seat, n), play_action([top, *(c for c in cards_of(mask) if c != top)])))
    return tuple(out)


def _received_text(received: tuple[tuple[Play, ...], ...]) -> str:
    if not any(received):
        return ""
    return "/".join(",".join(f"{frm}:{cards_text(m)}" for frm, m in r) or "-" for r in received)


def _received(text: str, n: int) -> tuple[tuple[Play, ...], ...]:
    if not text:
        return ((),) * n
    parts = text.split("/")
    if len(parts) != n:
        raise ValueError(f"{len(parts)} seats given, the game has {n} (separate seats with /)")
    out = []
    for part in parts:
        items = [] if part == "-" else _items(part)
        out.append(tuple((_seat(i.partition(":")[0], n), _cards(i.partition(":")[2])) for i in items))
    return tuple(out)


# ---------------------------------------------------------------- a state's text


def text_of(state: Table) -> str:
    """The position text of a state in the auction, naming trumps or the card play."""
    view = TableView(state)
    if view.phase in (Phase.AUCTION, Phase.TRUMP):
        return format_auction(view.rules, auction_position_of(state))
    return format_position(view.rules, position_of(state))


def is_auction_text(text: str) -> bool:
    """The text is an auction's (``auction …``), else it is read as the card play's."""
    return text.split()[:1] == ["auction"]


# ---------------------------------------------------------------- the auction's text


@dataclass(frozen=True)
class AuctionPosition:
    """The fields of an auction's position text: the hand as dealt and the calls so far.

    It covers naming trumps too: what happens between the last call and the trump (the
    kitty taken, say) follows from the calls, so the state is rebuilt by replaying them.
    """

    scores: tuple[int, ...]
    hand: int
    dealer: int
    bgo: bool
    calls: tuple[Play, ...]
    #: each seat's first-deal cards
    hands: tuple[int, ...]
    #: the kitty and the stock in pack order, top card first; ``stock`` None: the cards left,
    #: shuffled from the text (a text need not say what the stock holds, only what was dealt)
    kitty: tuple[int, ...]
    stock: tuple[int, ...] | None
    turn: int


def auction_position_of(state: Table) -> AuctionPosition:
    """The position of a state (a ``GameState``) in the auction or naming trumps."""
    view = TableView(state)
    assert view.phase in (Phase.AUCTION, Phase.TRUMP)
    return AuctionPosition(
        scores=view.scores,
        hand=view.hand_index,
        dealer=view.dealer,
        bgo=view.bidder_goes_out,
        calls=view.calls,
        hands=view.dealt_hands,
        kitty=view.kitty,
        stock=view.stock,
        turn=view.current_player,
    )


def format_auction(rules: Ruleset, pos: AuctionPosition) -> str:
    """The one-line text of an auction position (``auction`` and its fields)."""
    fields = [
        *_header_fields(rules, pos.scores, pos.hand, pos.dealer, pos.bgo, pos.calls),
        ("hands", _seats(pos.hands, always=True)),
        ("kitty", "".join(map(format_card, pos.kitty))),
        ("stock", "".join(map(format_card, pos.stock or ()))),
        ("turn", str(pos.turn)),
    ]
    return " ".join(["auction", *(f"{name}={value}" for name, value in fields if value)])


def parse_auction(rules: Ruleset, text: str) -> AuctionPosition:
    """Read an auction's position text; ValueError naming the field that cannot be read."""
    fields = _fields(text, "auction", ("scores", "hand", "dealer", "hands", "turn"), _AUCTION_OPTIONAL)
    scores, hand, dealer, bgo, calls = _header(rules, fields)
    n = rules.players
    name = ""
    try:
        name = "hands"
        hands = _seat_cards(fields["hands"], n)
        name = "kitty"
        kitty = _card_list(fields.get("kitty", "-"))
        name = "stock"
        stock = _card_list(fields["stock"]) if "stock" in fields else None
        name = "turn"
        turn = _seat(fields["turn"], n)
    except (ValueError, KeyError) as exc:
        raise ValueError(f"field {name!r}: {exc}") from None
    return AuctionPosition(scores, hand, dealer, bgo, calls, hands, kitty, stock, turn)


_AUCTION_OPTIONAL = ("bgo", "calls", "kitty", "stock")


def _card_list(text: str) -> tuple[int, ...]:
    """Cards in the order written (a pack's order matters), each once."""
    _cards(text)  # two characters a card, none twice
    return () if text == "-" else tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))


# ---------------------------------------------------------------- repr


def summary(state: Table) -> str:
    """A short line about a state: the variant, hand, phase, who is to act, trump, contract, scores."""
    view = TableView(state)
    rules, scores = view.rules, view.scores
    line = ("-" if min(scores) >= 0 else " ").join(map(str, scores))  # 12-9, or 12 -3
    if view.is_over:
        return f"<GameState {rules.id} over: side {view.winner} won, scores {line}>"
    parts = [f"{view.current_player} to play"]
    if view.trump is not None:
        parts.append(f"trump {SUIT_SYMBOLS[view.trump]}")
    contract = view.contract
    if contract is not None:
        arg = contract.value if contract.verb == Verb.BID else 0
        parts.append(f"contract {contract.bidder} {action_words(make(contract.verb, arg), rules.max_bid)}")
    parts.append(f"scores {line}")
    phase = view.phase.name.lower()
    return f"<GameState {rules.id} hand {view.hand_index + 1} {phase}: {', '.join(parts)}>"
