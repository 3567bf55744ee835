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

>>> from pedro.cards import parse_cards
>>> from pedro.engine.actions import play_action
>>> from pedro.variants.options import make_ruleset
>>> rules = make_ruleset("cinch")
>>> text = ("play scores=0,0 hand=1 dealer=3 calls=0:pass,1:7,2:pass,3:pass trump=H size=6"
...         " hands=5H4C/AH/9H/KH tricks=1:2H,2:TH,3:JH,0:3H trick=3:QH turn=0")
>>> state = parse_state(rules, text)
>>> state.legal_actions() == (play_action(parse_cards("5H")),)
True
>>> format_position(rules, position_of(state)) == text
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pedro.cards import SUIT_SYMBOLS, SUITS, CardError, cards_of, format_card, mask_of, parse_card
from pedro.engine.actions import (
    CARD_BITS,
    ActionError,
    Verb,
    action_words,
    make,
    parse_action_words,
    play_action,
    play_cards,
    verb_of,
)
from pedro.engine.auction import Auction, apply_call, auction_over, legal_calls, next_speaker
from pedro.engine.deal import DealError, SeededDeals, pack_from_deal
from pedro.engine.phases import Phase, Status
from pedro.engine.scoring import Contract
from pedro.engine.state import GameState
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


def position_of(state: GameState) -> Position:
    """The position of a state in the card play; ValueError in any other phase."""
    if state._phase != Phase.PLAY:
        phase = state._phase.name.lower()
        raise ValueError(
            f"a position text covers the auction, naming trumps and the card play; this state is in the "
            f"{phase} phase"
        )
    assert state._trick is not None
    low = -1
    if state._rules.low_rule == LowRule.DEALT:
        low = next(iter(state._first_receivers().values()), -1)
    return Position(
        scores=tuple(state._scores),
        hand=state._hand_index,
        dealer=state._dealer,
        bgo=state._bgo_hand,
        calls=tuple(state._auction.calls),
        trump=state._trump,
        normal_hand_size=state._normal_hand_size,
        hands=tuple(state._hands),
        statuses=tuple(state._status),
        discards=tuple(d & ~state._face_up for d in state._discards),
        face_up=tuple(d & state._face_up for d in state._discards),
        killed=tuple(state._killed),
        known=tuple(state._seen),
        received=tuple(tuple(r) for r in state._received),
        credits=tuple(state._credits),
        credited=state._credited,
        gathered=tuple(state._wash_from),
        wash=state._wash_left(),
        low=low,
        tricks=tuple(tuple(t.plays) for t in state._tricks),
        trick=tuple(state._trick.plays),
        turn=state._current_player,
        drawn=tuple(state._drawn),
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
        ("credited", _cards_text(pos.credited) if pos.credited else ""),
        ("gathered", ",".join(map(str, pos.gathered)) if any(pos.gathered) else ""),
        ("drawn", ",".join(map(str, pos.drawn)) if any(pos.drawn) else ""),
        ("wash", _cards_text(pos.wash) if pos.wash else ""),
        ("low", str(pos.low) if pos.low >= 0 else ""),
        ("tricks", "/".join(_plays_text(t) for t in pos.tricks)),
        ("trick", _plays_text(pos.trick)),
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
        ("calls", ",".join(f"{seat}:{_call_text(a, top)}" for seat, a in calls)),
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


def _cards_text(mask: int) -> str:
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
    return "/".join(map(_cards_text, masks)) if always or any(masks) else ""


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


def _call_text(action: int, max_bid: int) -> str:
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


def _plays_text(plays: tuple[Play, ...]) -> str:
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
    return "/".join(",".join(f"{frm}:{_cards_text(m)}" for frm, m in r) or "-" for r in received)


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


# ---------------------------------------------------------------- to a state


def text_of(state: GameState) -> str:
    """The position text of a state in the auction, naming trumps or the card play."""
    if state._phase in (Phase.AUCTION, Phase.TRUMP):
        return format_auction(state._rules, auction_position_of(state))
    return format_position(state._rules, position_of(state))


def parse_state(rules: Ruleset, text: str) -> GameState:
    """The state of a position text; its later hands are dealt by ``SeededDeals(text)``."""
    if text.split()[:1] == ["auction"]:
        return build_auction_state(rules, parse_auction(rules, text), seed=text)
    return build_state(rules, parse_position(rules, text), seed=text)


def build_state(rules: Ruleset, pos: Position, seed: str) -> GameState:
    """Set up the hand as at its first lead, then replay the plays through the engine."""
    n = rules.players
    first_dealer = (pos.dealer - pos.hand) % n
    state = GameState(rules, SeededDeals(seed, first_dealer=first_dealer))
    _set_fields(state, pos)
    state._start_play()
    state._normal_hand_size = pos.normal_hand_size
    state._advance()
    for k, plays in enumerate((*pos.tricks, pos.trick)):
        for seat, action in plays:
            where = f"play {seat}:{''.join(map(format_card, play_cards(action)))}"
            _check_in_play(state, pos)
            if seat != state._current_player:
                raise ValueError(f"{where}: it is seat {state._current_player}'s turn")
            try:
                state.apply(action)
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
        _check_in_play(state, pos)
        if k < len(pos.tricks) and len(state._tricks) != k + 1:
            raise ValueError(f"trick {k + 1} ({_plays_text(plays)}) does not end after its plays")
    if state._current_player != pos.turn:
        raise ValueError(f"turn={pos.turn}, but after these plays it is seat {state._current_player}'s turn")
    if tuple(state._status) != pos.statuses:
        got = ",".join(f"{s}:{st.name.lower()}" for s, st in enumerate(state._status) if st)
        raise ValueError(f"status: after these plays the statuses are {got or 'all active'}")
    return state


def _check_in_play(state: GameState, pos: Position) -> None:
    if state._phase != Phase.PLAY or state._hand_index != pos.hand:
        raise ValueError("the hand's card play is over after these plays: nobody is to play")


def _set_fields(state: GameState, pos: Position) -> None:
    """Every field of the hand at its first lead that the text gives (the one place they are set)."""
    rules = state._rules
    n = rules.players
    played = [0] * n
    for seat, action in (p for t in (*pos.tricks, pos.trick) for p in t):
        played[seat] |= action & CARD_BITS
    places = [*pos.hands, *played, *pos.discards, *pos.face_up, *pos.killed]
    union = 0
    for mask in places:
        if union & mask:
            raise ValueError(f"{_cards_text(union & mask)} is in two places")
        union |= mask
    if pos.wash & ~_union(pos.discards):
        raise ValueError(
            f"wash card {_cards_text(pos.wash & ~_union(pos.discards))} is not a face-down discard"
        )
    if union & ~rules.deck_mask:
        raise ValueError(f"{_cards_text(union & ~rules.deck_mask)} is not in this variant's pack")
    auction, contract = _auction(rules, pos)
    tt = rules.tables(pos.trump)
    state._hand_index = pos.hand
    state._dealer = pos.dealer
    state._scores = list(pos.scores)
    state._bgo_hand = pos.bgo
    state._auction = auction
    state._contract = contract
    state._trump = pos.trump
    state._tt = tt
    state._hands = [h | p for h, p in zip(pos.hands, played, strict=True)]
    state._dealt_hands = (0,) * n
    state._dealt_to = {tt.low_card: pos.low} if pos.low >= 0 and tt.low_card >= 0 else {}
    state._kitty = ()
    state._stock = ()
    state._deal_records[-1] = (tuple(() for _ in range(n)), (), ())
    state._status = [Status.FOLDED if st == Status.FOLDED else Status.ACTIVE for st in pos.statuses]
    state._discards = [d | u for d, u in zip(pos.discards, pos.face_up, strict=True)]
    state._killed = list(pos.killed)
    state._face_up = _union(pos.face_up) | _union(pos.killed)
    state._dead = rules.deck_mask & ~(_union(state._hands) | _union(state._discards))
    state._seen = list(pos.known)
    state._received = [list(r) for r in pos.received]
    state._credits = list(pos.credits)
    state._credited = pos.credited
    state._wash_from = list(pos.gathered)
    state._drawn = list(pos.drawn) if pos.drawn else [0] * n
    state._wash_gathered = pos.wash


def _auction(rules: Ruleset, pos: Position) -> tuple[Auction, Contract]:
    """The auction of the calls, each checked as the engine would (hands unknown: special calls on trust)."""
    auction = Auction.start(rules, pos.dealer)
    speaker = auction.turn
    for i, (seat, action) in enumerate(pos.calls):
        where = f"call {seat}:{_call_text(action, rules.max_bid)}"
        if speaker < 0:
            raise ValueError(f"{where}: the auction is over before it")
        if seat != speaker:
            raise ValueError(f"{where}: it is seat {speaker}'s turn to call")
        if action not in legal_calls(rules, auction, seat, rules.deck_mask):
            raise ValueError(f"{where}: not a legal call after {i} calls")
        apply_call(rules, auction, seat, action, 0)
        speaker = -1 if auction_over(auction, seat) else next_speaker(auction, seat)
    if speaker >= 0 or auction.high_seat is None or auction.high_value is None:
        raise ValueError("the calls make no contract")
    return auction, Contract(auction.high_seat, auction.high_value, auction.high_verb)


def _union(masks: tuple[int, ...] | list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


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


def auction_position_of(state: GameState) -> AuctionPosition:
    """The position of a state in the auction or naming trumps."""
    assert state._phase in (Phase.AUCTION, Phase.TRUMP)
    return AuctionPosition(
        scores=tuple(state._scores),
        hand=state._hand_index,
        dealer=state._dealer,
        bgo=state._bgo_hand,
        calls=tuple(state._auction.calls),
        hands=state._dealt_hands,
        kitty=state._kitty,
        stock=state._stock,
        turn=state._current_player,
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


def build_auction_state(rules: Ruleset, pos: AuctionPosition, seed: str) -> GameState:
    """Deal the hand from the pack the position gives, then replay the calls through the engine."""
    n = rules.players
    named = 0
    for mask in (*pos.hands, mask_of(pos.kitty), mask_of(pos.stock or ())):
        if named & mask:
            raise ValueError(f"{_cards_text(named & mask)} is in two places")
        named |= mask
    if named & ~rules.deck_mask:
        raise ValueError(f"{_cards_text(named & ~rules.deck_mask)} is not in this variant's pack")
    if len(pos.kitty) != rules.kitty_size:
        raise ValueError(f"kitty: {len(pos.kitty)} cards given, this variant's kitty has {rules.kitty_size}")
    rest = [c for c in rules.deck if not named >> c & 1]
    if pos.stock is None:
        random.Random(seed).shuffle(rest)
        stock_cards = tuple(rest)
    elif rest:
        missing = _cards_text(mask_of(rest))
        raise ValueError(f"stock: {missing} is nowhere (leave out stock= to have the rest shuffled)")
    else:
        stock_cards = pos.stock
    state = GameState(rules, SeededDeals(seed, first_dealer=(pos.dealer - pos.hand) % n), scores=pos.scores)
    deal = [cards_of(h) for h in pos.hands]
    try:
        size = rules.first_deal_size
        pack = pack_from_deal(n, pos.dealer, size, state._packets(), deal, pos.kitty, stock_cards)
    except DealError as exc:
        raise ValueError(f"hands: {exc}") from None
    state._deal(pos.hand, pack, pos.bgo)
    for i, (seat, action) in enumerate(pos.calls):
        where = f"call {seat}:{_call_text(action, rules.max_bid)}"
        made = state._auction.calls
        if i < len(made):  # a call the engine made itself (the only one there was)
            if made[i] != (seat, action):
                raise ValueError(f"{where}: the engine made call {i + 1} itself, and it was another")
            continue
        if state._phase != Phase.AUCTION:
            raise ValueError(f"{where}: the auction is over before it")
        if seat != state._current_player:
            raise ValueError(f"{where}: it is seat {state._current_player}'s turn to call")
        try:
            state.apply(action)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if state._phase not in (Phase.AUCTION, Phase.TRUMP) or state._hand_index != pos.hand:
        raise ValueError("after these calls the hand is past naming trumps: an auction text ends there")
    if state._current_player != pos.turn:
        raise ValueError(f"turn={pos.turn}, but after these calls it is seat {state._current_player}'s turn")
    return state


# ---------------------------------------------------------------- repr


def summary(state: GameState) -> str:
    """A short line about a state: the variant, hand, phase, who is to act, trump, contract, scores."""
    scores = ("-" if min(state._scores) >= 0 else " ").join(map(str, state._scores))  # 12-9, or 12 -3
    if state._is_over:
        return f"<GameState {state._rules.id} over: side {state._winner} won, scores {scores}>"
    parts = [f"{state._current_player} to play"]
    if state._trump >= 0:
        parts.append(f"trump {SUIT_SYMBOLS[state._trump]}")
    contract = state._contract
    if contract is not None:
        arg = contract.value if contract.verb == Verb.BID else 0
        parts.append(
            f"contract {contract.bidder} {action_words(make(contract.verb, arg), state._rules.max_bid)}"
        )
    parts.append(f"scores {scores}")
    phase = state._phase.name.lower()
    return f"<GameState {state._rules.id} hand {state._hand_index + 1} {phase}: {', '.join(parts)}>"
