"""What the server sends on a table's WebSocket: every message's shape, as typed dictionaries.

``protocol`` checks what clients send; this module says what they are sent, one type per
message and per part of one, each field with its meaning where the name does not tell it.
The senders build their dictionaries as these types (mypy checks them), except the ``state``
message, which is spliced from encoded pieces for speed (``tables.table_view``): the schema
describes it, and the tests check every message the server sends against it
(:func:`parse_server_message`; the server itself never validates what it sends). docs/server.md's
reference of the messages is generated from this module (``tables.message_docs``).
"""

from __future__ import annotations

import functools
from typing import Annotated, Literal, NotRequired

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints, TypeAdapter, with_config
from typing_extensions import TypedDict  # pydantic reads typing's own only from Python 3.12

#: Every message is exactly its fields (an unknown one is an error), and a number is a number.
_EXACT = ConfigDict(extra="forbid", strict=True)


class Kind:
    """What the reference calls a constrained string, and what it is (``Annotated`` metadata,
    which validation ignores)."""

    def __init__(self, name: str, meaning: str) -> None:
        self.name = name
        self.meaning = meaning


Card = Annotated[
    str,
    StringConstraints(pattern=r"^(?:[2-9TJQKA][SHDC]|JK|BJ|SJ)$"),
    Kind("card", "a card: rank and suit letters (`TH` is the ten of hearts), or a joker's name (`JK`)"),
]
Words = Annotated[
    str,
    StringConstraints(min_length=1),
    Kind("words", "an action in record words: `play AH`, `bid 8`, `discard 2C 7D` (docs/records.md)"),
]
Suit = Literal["S", "H", "D", "C"]
#: The quick phrases and emotes of the chat, sent as their code so that each reader sees them in
#: its own language (the page's catalogs have ``chat.phrase.<code>``; emotes are emoji everywhere).
Phrase = Literal[
    "gg", "wp", "sorry", "thinking", "gl", "thanks", "smile", "laugh", "wow", "sad", "thumbs_up", "clap"
]

#: Each error code a client may be sent, and what it means. Nothing was changed by the message
#: that was refused.
ERROR_CODES = {
    "illegal": "against the rules (the game may be over); the message lists the legal actions",
    "turn": "not your turn, or the game has not started",
    "stale": "sent for an older state than the game's (its `seq`)",
    "auth": "unknown secret, or acting without a seat",
    "replaced": "the seat was opened in another window; this connection closes",
    "removed": "the table's host removed you as a spectator; this connection closes, and watching "
    "again from this browser is refused",
    "seat_changed": "the table's host changed your seat before the start; this connection closes",
    "closed": "the table's host closed the table: nothing more is played at it",
    "bad_message": "not a protocol message, or a second `join`/`watch`",
    "too_big": "the message is over 4 KiB",
    "rate": "too many messages; this one was ignored",
    "not_found": "no such table; the connection closes",
    "table_broken": "the table's stored game can no longer be played or shown; the connection closes",
    "tournament_deal_hidden": "a tournament deal still played at other tables: only its players may watch",
    "unavailable": "the database refused the action; try again",
    "restarting": "the server is shutting down: send it again once reconnected",
    "too_many_connections": "your address has as many connections open as it may; this one closes "
    "(code 4029)",
    "too_many_refusals": "your address has had too many messages refused lately; wait a few seconds "
    "(a connection that goes on is closed with code 4029)",
    "chat_off": "the table's chat is turned off; the message was not sent",
    "chat_rate": "too many chat messages in a short time; this one was not sent: send it again in a few "
    "seconds (the message says how many)",
    "chat_name": "a spectator needs a name to chat (`name` in the `chat` message)",
}


def _known_code(code: str) -> str:
    if code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    return code


# ---------------------------------------------------------------------------- the messages


@with_config(_EXACT)
class Welcome(TypedDict):
    """After `join` or `watch`: the connection is a seat's, or a spectator's. A `state` follows."""

    type: Literal["welcome"]
    seat: int | None
    """your seat; null for a spectator"""


@with_config(_EXACT)
class Error(TypedDict):
    """A message of this client's was refused; to that client alone, and nothing changed."""

    type: Literal["error"]
    code: Annotated[str, AfterValidator(_known_code), Kind("code", "an error code, listed under `error`")]
    """what went wrong (see the codes below); the browser shows it in the player's language"""
    message: str
    """what went wrong, in English, for a code the client does not know"""


@with_config(_EXACT)
class Restart(TypedDict):
    """The server is restarting: the connection is closed next with code 1012. Reconnect (with
    backoff: the new process may take a few seconds) and join again."""

    type: Literal["restart"]
    message: str


@with_config(_EXACT)
class Pong(TypedDict):
    """The answer to `ping`."""

    type: Literal["pong"]


@with_config(_EXACT)
class SeatInfo(TypedDict):
    """A seat of the table (also in the HTTP API's table summaries)."""

    seat: int
    name: str
    """the player's name, a computer's (`2 · beginner`: seat from 1, level), or `Seat N` while free"""
    kind: Literal["human", "computer"]
    player: str | None
    """the computer player (`basic`, `expert:64` ...); null for a human seat"""
    claimed: bool
    """a computer seat, or a human seat someone took"""
    connected: bool
    """a computer seat, or a human whose page is open (at any server process)"""
    stand_in: bool
    """a computer plays for the human, who has been away too long, whose turn clock ran out twice in
    a row (the player's own page then offers "I'm back"), or whom the host handed over"""
    handed: bool
    """the table's host gave the seat to the computer for the rest of the game (or until given back)"""
    pending: bool
    """held for its player of the previous game (play again), who has not come yet"""


@with_config(_EXACT)
class Rules(TypedDict):
    """The table's rules as the client needs them to draw the table."""

    variant: str
    """the variant's id (`cinch`)"""
    name: str
    """the variant's name (`Cinch`)"""
    players: int
    partnerships: bool
    sides: list[list[int]]
    """the seats of each side, side by side (`[[0, 2], [1, 3]]`)"""
    target: int
    """the score that wins"""
    dealer_robs: bool
    """the dealer robs the pack (the table says "robbed the pack: took 3", not "drew 3")"""


@with_config(_EXACT)
class TableInfo(Rules):
    """The table: what never changes during its game."""

    id: str
    title: str
    options: dict[str, bool | int | str | None]
    """the house rules chosen when the table was made"""
    practice: bool
    """a practice table: hints on request, not rated"""
    rated: bool
    """the game will count for ratings, as its seats stand now (the end may still find that a
    stand-in played most of a person's decisions: `GET /api/tables/{id}/rating` says)"""
    unrated: str | None
    """why the game will not be rated, as its seats stand now: a reason code of the ratings
    section (`no_profiles`, `practice`, `tournament_deal`, `shared_profile`, `unrated_player`,
    `low_target`, `house_rules`); null when it will be"""
    unrated_seat: int | None
    """the seat `unrated` is about (`shared_profile`, `unrated_player`), else null"""
    hands: int | None
    """hands to play (a duplicate tournament's deal: 1); null: to the game's end"""
    closed: bool
    """the table's host closed it before its game ended: nothing more is played at it"""
    next: str | None
    """the table of the next game, once one of the players asked to play again"""
    clock: float | None
    """seconds each decision of a person may take (the turn clock); null: no clock"""


@with_config(_EXACT)
class ShownAction(TypedDict):
    """An action as its seat made it."""

    seat: int
    action: Words
    label: str
    """the words a button shows (`Bid 8`, `Play 10♥`)"""


@with_config(_EXACT)
class HiddenAction(TypedDict):
    """A card-set action whose cards you may not see (a discard laid face down): its size only."""

    seat: int
    action: None
    label: str
    """`Discard 6 cards`"""
    count: int
    """how many cards"""


@with_config(_EXACT)
class Call(TypedDict):
    """A call of this hand's auction."""

    seat: int
    action: Words
    label: str
    forced: NotRequired[Literal[True]]
    """present (true) only for the dealer's bid made because everyone else passed"""


@with_config(_EXACT)
class Play(TypedDict):
    """What a seat played to a trick."""

    seat: int
    cards: list[Card]


@with_config(_EXACT)
class Trick(TypedDict):
    """A trick, as everyone saw it."""

    leader: int
    plays: list[Play]
    winner: int | None
    """the seat that took it; null while it is played"""


@with_config(_EXACT)
class Took(TypedDict):
    """A scoring role a side took in a hand."""

    name: str
    """`High`, `Low`, `Jack`, `Game`, `Pedro` ...; `card points`, `laid-aside trumps`"""
    card: Card | None
    """the card that carried the points, when one card did"""
    points: int


@with_config(_EXACT)
class SheetRow(TypedDict):
    """A finished hand's row of the score sheet."""

    dealer: int
    bidder: int | None
    """null: everyone passed"""
    bid: int | None
    call: str | None
    """a contract that is not a plain bid: `28-56`, `protect`, `83-double`; else null"""
    trump: Suit | None
    points: list[int]
    """per side, the points taken"""
    made: bool | None
    """the bidder's side made its contract; null without a contract"""
    score: list[int]
    """per side, the score after the hand"""
    taken: list[list[Took]]
    """per side, what it took"""


@with_config(_EXACT)
class ActionChoice(TypedDict):
    """An action to choose, as a button shows it."""

    action: Words
    label: str


@with_config(_EXACT)
class ListChoice(TypedDict):
    """A choice among actions."""

    kind: Literal["list"]
    prompt: str
    """`Your call`, `Your lead` ..."""
    actions: list[ActionChoice]
    cards: dict[Card, Words]
    """each card that can be played alone, and its action: the card itself is what the player clicks"""


@with_config(_EXACT)
class CardsChoice(TypedDict):
    """A set of cards to choose from `pool`: its size one of `sizes`, with every card of `required`;
    the client sends `"<verb> <cards>"`."""

    kind: Literal["cards"]
    verb: Literal["discard", "keep", "kill", "give", "claim"]
    prompt: str
    rule: str
    """the rule the set must follow, in words"""
    pool: list[Card]
    sizes: list[int]
    """only sizes some legal set has"""
    required: list[Card]
    sets: list[str] | None
    """every legal set (its cards' words) when there are at most 60; else null"""
    alternatives: list[ActionChoice]
    """the actions besides a set (`pass`)"""


Legal = Annotated[ListChoice | CardsChoice, Field(discriminator="kind")]


@with_config(_EXACT)
class Game(TypedDict):
    """The game as the receiving seat sees it. `hand`, `own_discards` and `seen` are yours alone:
    empty for a spectator."""

    phase: Literal["auction", "trump", "exchange", "play", "over"]
    hand_index: int
    """the hand being played, from 0"""
    dealer: int
    turn: int | None
    """the seat to act; null once the game is over"""
    hand_sizes: list[int]
    """per seat"""
    calls: list[Call]
    """this hand's auction"""
    bidder: int | None
    bid: int | None
    trump: Suit | None
    trumps: list[Card]
    """every card that is a trump this hand, strongest first"""
    face_up: list[list[Card]]
    """per seat: discards and kills laid face up"""
    shown: list[list[Card]]
    """per seat: cards shown by a player who went cold, up or out"""
    discarded: list[int]
    """per seat: how many cards it laid aside this hand"""
    drawn: list[int]
    """per seat: how many cards it was dealt after the first deal this hand"""
    wash: int
    """discards gathered face down when the stock ran dry, not yet dealt"""
    statuses: list[Literal["", "folded", "cold", "up", "out"]]
    """per seat"""
    trick: Trick | None
    """the trick being played"""
    tricks: list[Trick]
    """this hand's finished tricks"""
    scores: list[int]
    """per side"""
    sheet: list[SheetRow]
    """one row per finished hand"""
    winner: int | None
    """the side that won the game"""
    last_trick: Trick | None
    """the latest finished trick, also the one that ended the previous hand (the next is dealt at once)"""
    hand: list[Card]
    """your cards, in the order shown (trumps first once named)"""
    own_discards: list[Card]
    """the cards you laid aside this hand"""
    seen: list[Card]
    """other cards you have seen (a stock you looked through, cards you gave)"""
    legal: Legal | None
    """what you may do; null unless it is your turn and the game has started"""


@with_config(_EXACT)
class State(TypedDict):
    """The table as the receiving seat (or a spectator) sees it: after `welcome`, and after every
    change at the table (an action, a seat taken, someone connecting or leaving)."""

    type: Literal["state"]
    seq: int
    """accepted actions so far, all hands together: an action is sent with the `seq` it was chosen at"""
    seats: list[SeatInfo]
    finished: bool
    started: bool
    """false while a human seat is free: nobody may act yet"""
    clock_left: float | None
    """seconds the seat to act has left, as the message was sent (the page counts down from its
    own receipt of it); null when no turn clock runs (no clock, a computer's turn, a stand-in's)"""
    timed_out: bool
    """the last action was made by the stand-in because its seat's turn clock ran out"""
    table: TableInfo
    you: int | None
    """your seat; null for a spectator"""
    last: ShownAction | HiddenAction | None
    """the last accepted action, as far as you may see it"""
    game: Game


@with_config(_EXACT)
class ChatLine(TypedDict):
    """A line of the table's chat. Text is to be shown as text, never as markup."""

    seq: int
    """the line's number at the table, all channels together: lines are shown in its order"""
    channel: Literal["table", "spectators"]
    """`table`: a seat's player spoke, everyone reads it; `spectators`: a spectator spoke, which the
    seats read only while no hand is played (before the game starts, and once it is over)"""
    seat: int | None
    """the speaking seat; null for a spectator"""
    name: str
    """the seat's name as the table shows it, or the spectator's name"""
    text: str | None
    """what was said; null for a quick phrase"""
    phrase: Phrase | None
    """a quick phrase's or emote's code, for the reader's language; null for free text"""
    at: str
    """when it was said (ISO 8601, UTC)"""


@with_config(_EXACT)
class Chat(ChatLine):
    """A line said at the table, to each client that may read its channel."""

    type: Literal["chat"]


@with_config(_EXACT)
class ChatHistory(TypedDict):
    """The table's recent chat as you may read it (at most 100 lines), and whether chat is on: after
    the `state` that follows `welcome`, to the seats when the game ends (the spectators' lines join
    them), and to everyone when the table's creator turns chat off or on. It replaces the lines the
    client shows."""

    type: Literal["chat_history"]
    on: bool
    """the table's chat is on; off: nobody may chat, and `lines` is empty"""
    lines: list[ChatLine]


#: Every message the server sends.
AnyMessage = Welcome | State | Error | Restart | Pong | Chat | ChatHistory
#: ... told apart by ``type``.
ServerMessage = Annotated[AnyMessage, Field(discriminator="type")]


@functools.cache
def _adapter() -> TypeAdapter[AnyMessage]:
    return TypeAdapter(ServerMessage)


def parse_server_message(text: str | bytes) -> AnyMessage:
    """A message as the server sends it, checked against its type (pydantic's ValidationError if
    it does not fit). For the tests: the server does not check what it sends."""
    return _adapter().validate_json(text)
