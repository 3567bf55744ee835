"""Game records (``pedro-record/1``): write a game as JSON, read it back, replay it action by action.

A record holds only what chance and the players decided: each hand's deal
(first-deal hands, kitty, stock, and the ``wash`` when the stock ran dry) and
the written decisions as text. Everything else (automatic steps, points,
scores, the winner) follows from the rules, so a replay re-derives it and
checks every action on the way; see ``docs/records.md`` for the format.

>>> from pedro.engine.state import GameState
>>> from pedro.variants.options import make_ruleset
>>> state = GameState(make_ruleset("cinch"), seed=1)
>>> record = record_from_game(state, ["Ann", "Bo", "Cy", "Di"])
>>> result = replay(record)
>>> result.finished, len(result.results)
(False, 0)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TextIO

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr, ValidationError

from pedro.cards import SUITS, CardError, format_card, parse_card
from pedro.engine.actions import ActionError, action_text, parse_action_text, play_cards
from pedro.engine.deal import DealError, RecordedDeal, RecordedDeals, SeededDeals
from pedro.engine.deal import pack_from_deal as deal_pack
from pedro.engine.phases import Phase
from pedro.engine.state import GameState, HandResult, IllegalActionError
from pedro.variants.catalog import UnknownVariantError
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset, options_dict

FORMAT = "pedro-record/1"

#: Top-level and per-hand fields, in the order they are written.
RECORD_FIELDS = ("format", "variant", "options", "players", "names", "first_dealer", "hands")
HAND_FIELDS = ("deal", "kitty", "stock", "wash", "actions")


class ReplayError(ValueError):
    """A record that cannot be replayed; the message names the hand and action (counted from 1)."""

    def __init__(self, message: str, hand: int | None = None, action: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand
        self.action = action


class RecordError(ReplayError):
    """A record that is malformed before any action is tried (JSON, fields, cards, deal)."""


# ---------------------------------------------------------------------------
# writing


def record_from_game(state: GameState, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``pedro-record/1`` record of a game so far (finished or not), with seat ``names``."""
    rules = state.rules
    n = rules.players
    seat_names = list(names) if names is not None else [f"Seat {s}" for s in range(n)]
    if len(seat_names) != n:
        raise ValueError(f"{rules.id} is played by {n} players, but {len(seat_names)} names were given")
    hands: list[dict[str, Any]] = []
    washes, hand_actions = state.washes, state.hand_actions
    for k, (deal, kitty, stock) in enumerate(state.deal_records):
        hand: dict[str, Any] = {
            "deal": [[format_card(c) for c in cards] for cards in deal],
            "kitty": [format_card(c) for c in kitty],
            "stock": [format_card(c) for c in stock],
        }
        if washes[k]:
            hand["wash"] = [format_card(c) for c in washes[k]]
        hand["actions"] = [action_text(seat, action, rules.max_bid) for seat, action in hand_actions[k]]
        hands.append(hand)
    return {
        "format": FORMAT,
        "variant": rules.id,
        "options": options_dict(rules),
        "players": n,
        "names": seat_names,
        "first_dealer": state.first_dealer,
        "hands": hands,
    }


def record_line(record: Mapping[str, Any]) -> str:
    """The record as one line of JSON (for ``.jsonl`` files: one game per line)."""
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def dumps_record(record: Mapping[str, Any]) -> str:
    """The record as readable JSON: one line per field, hand and group of actions.

    ``json.dumps(indent=...)`` would put every card on its own line; this keeps
    card lists together and wraps long action lists, and is still plain JSON.
    """
    out = ["{"]
    top = [key for key in record if key != "hands"]
    for key in top:
        out.append(f"  {json.dumps(key)}: {json.dumps(record[key], ensure_ascii=False)},")
    hands = list(record.get("hands", []))
    out.append('  "hands": [')
    for i, hand in enumerate(hands):
        out.append("    {")
        keys = list(hand)
        for j, key in enumerate(keys):
            comma = "," if j < len(keys) - 1 else ""
            if key == "actions" and hand[key]:
                out.append('      "actions": [')
                out.extend(_wrapped(hand[key], "        "))
                out.append(f"      ]{comma}")
            elif key == "deal" and hand[key]:
                out.append('      "deal": [')
                seats = hand[key]
                for i_seat, cards in enumerate(seats):
                    sep = "," if i_seat < len(seats) - 1 else ""
                    out.append(f"        {json.dumps(cards, ensure_ascii=False)}{sep}")
                out.append(f"      ]{comma}")
            else:
                out.append(f"      {json.dumps(key)}: {json.dumps(hand[key], ensure_ascii=False)}{comma}")
        out.append("    }" + ("," if i < len(hands) - 1 else ""))
    out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def _wrapped(items: Sequence[Any], indent: str, width: int = 100) -> list[str]:
    lines: list[str] = []
    line = ""
    for i, item in enumerate(items):
        text = json.dumps(item, ensure_ascii=False) + ("," if i < len(items) - 1 else "")
        if line and len(indent) + len(line) + 1 + len(text) > width:
            lines.append(indent + line)
            line = text
        else:
            line = f"{line} {text}" if line else text
    if line:
        lines.append(indent + line)
    return lines


def write_record(record: Mapping[str, Any], path: str | os.PathLike[str] | TextIO) -> None:
    """Write a record as readable JSON to a path or an open text file."""
    text = dumps_record(record)
    if isinstance(path, (str, os.PathLike)):
        Path(path).write_text(text, encoding="utf-8")
    else:
        path.write(text)


# ---------------------------------------------------------------------------
# reading and validating


def _canonical_card(text: str) -> str:
    try:
        return format_card(parse_card(text))
    except CardError as exc:
        raise ValueError(str(exc)) from None


Card = Annotated[StrictStr, AfterValidator(_canonical_card)]


class _HandModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    deal: list[list[Card]]
    kitty: list[Card]
    stock: list[Card]
    wash: list[Card] | None = None
    actions: list[StrictStr]


class _RecordModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: StrictStr
    variant: StrictStr
    options: dict[str, Any] = Field(default_factory=dict)
    players: int
    names: list[StrictStr]
    first_dealer: int = Field(ge=0)
    hands: list[_HandModel] = Field(min_length=1)


@dataclass(frozen=True)
class _Checked:
    """A validated record with what replaying it needs."""

    record: dict[str, Any]
    rules: Ruleset
    packs: list[list[int]]
    washes: list[list[int]]


def read_record(source: str | bytes | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any]:
    """Read and check a record from JSON text, a file path or an already parsed dict.

    A ``str`` that starts with ``{`` is JSON text, any other ``str`` a path.
    Returns the record with canonical card names; raises ``RecordError``
    whose message says which field is wrong, what it was and what is allowed.

    >>> from pedro.engine.state import GameState
    >>> from pedro.variants.options import make_ruleset
    >>> record = record_from_game(GameState(make_ruleset("cinch"), seed=1), ["Ann", "Bo", "Cy", "Di"])
    >>> record["hands"][0]["deal"][0][:5] = ["a♣", "5d", "QS", "2c", "10s"]
    >>> read_record(record)["hands"][0]["deal"][0][:5]
    ['AC', '5D', 'QS', '2C', 'TS']
    >>> read_record(record | {"first_dealer": 4})
    Traceback (most recent call last):
    ...
    pedro.records.RecordError: field first_dealer: 4; allowed: a seat from 0 to 3
    """
    return _check(source).record


def _load_json(source: str | bytes | os.PathLike[str] | Mapping[str, Any]) -> Any:
    if isinstance(source, Mapping):
        return source
    if isinstance(source, bytes):
        source = source.decode("utf-8", errors="replace")
    if isinstance(source, str) and source.lstrip().startswith("{"):
        text = source
    else:
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RecordError(f"no such file: {path}") from None
        except IsADirectoryError:
            raise RecordError(f"{path} is a folder, not a record file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # some of json's messages end in "at" ("Invalid control character at"): the place follows
        what = exc.msg.removesuffix(" at")
        raise RecordError(f"not valid JSON at line {exc.lineno}, column {exc.colno}: {what}") from None


def _check(source: str | bytes | os.PathLike[str] | Mapping[str, Any]) -> _Checked:
    data = _load_json(source)
    if not isinstance(data, Mapping):
        raise RecordError(f"a record must be a JSON object with the fields {', '.join(RECORD_FIELDS)}")
    fmt = data.get("format")
    if fmt != FORMAT:
        got = "missing" if fmt is None else json.dumps(fmt, ensure_ascii=False)
        raise RecordError(f'field format: must be "{FORMAT}" (got {got})')
    try:
        model = _RecordModel.model_validate(data)
    except ValidationError as exc:
        raise RecordError(_validation_message(exc)) from None
    try:
        rules = make_ruleset(model.variant, model.options)
    except UnknownVariantError as exc:
        raise RecordError(f"field variant: {exc}") from None
    except OptionError as exc:
        raise RecordError(f"field options: {exc}") from None
    n = rules.players
    if model.players != n:
        raise RecordError(
            f"field players: {model.players}, but {rules.id} with these options is played by {n} "
            "(the option players sets the number where the variant allows it)"
        )
    if len(model.names) != n:
        raise RecordError(
            f"field names: {len(model.names)} names given; the game has {n} players, one name each"
        )
    if model.first_dealer >= n:
        raise RecordError(f"field first_dealer: {model.first_dealer}; allowed: a seat from 0 to {n - 1}")
    packs: list[list[int]] = []
    washes: list[list[int]] = []
    hands: list[dict[str, Any]] = []
    for k, hand in enumerate(model.hands):
        dealer = (model.first_dealer + k) % n
        deal = [[parse_card(c) for c in cards] for cards in hand.deal]
        kitty = [parse_card(c) for c in hand.kitty]
        stock = [parse_card(c) for c in hand.stock]
        wash = [parse_card(c) for c in hand.wash or []]
        try:
            packs.append(pack_from_deal(rules, dealer, deal, kitty, stock))
            _check_wash(rules, wash)
        except RecordError as exc:
            raise RecordError(f"hand {k + 1}: {exc}", hand=k + 1) from None
        washes.append(wash)
        out: dict[str, Any] = {"deal": hand.deal, "kitty": hand.kitty, "stock": hand.stock}
        if wash:
            out["wash"] = hand.wash
        out["actions"] = [" ".join(text.split()) for text in hand.actions]
        hands.append(out)
    record = {
        "format": FORMAT,
        "variant": model.variant,
        "options": options_dict(rules),
        "players": n,
        "names": list(model.names),
        "first_dealer": model.first_dealer,
        "hands": hands,
    }
    return _Checked(record, rules, packs, washes)


def _check_wash(rules: Ruleset, wash: list[int]) -> None:
    deck = set(rules.deck)
    for c in wash:
        if c not in deck:
            raise RecordError(f"wash: {format_card(c)} is not in the {rules.id} pack")
    if len(set(wash)) != len(wash):
        twice = sorted({c for c in wash if wash.count(c) > 1})
        raise RecordError(f"wash: {' '.join(format_card(c) for c in twice)} listed twice; each card once")


def pack_from_deal(
    rules: Ruleset, dealer: int, deal: Sequence[Sequence[int]], kitty: Sequence[int], stock: Sequence[int]
) -> list[int]:
    """The shuffled pack (top first) that deals exactly ``deal``, ``kitty`` and ``stock``.

    Inverts the deal convention of docs/rules.md §deal with the engine's own
    ``pack_from_deal``: packets of ``rules.packets`` (single cards under
    ``deal_all_out``) go clockwise from the dealer's left, the dealer last,
    until every hand has its first-deal size; then the kitty, then the stock.
    Raises ``RecordError`` if the sizes or the cards do not fit the variant.
    """
    n = rules.players
    size = rules.first_deal_size
    if len(deal) != n:
        raise RecordError(f"deal: {len(deal)} hands listed; the deal lists one hand per seat, {n} in all")
    for seat, cards in enumerate(deal):
        if len(cards) != size:
            raise RecordError(
                f"deal: seat {seat} was dealt {len(cards)} cards; "
                f"{rules.id} deals {size} cards to each player"
            )
    if len(kitty) != rules.kitty_size:
        raise RecordError(
            f"kitty: {_count(len(kitty), 'card')}; "
            f"{rules.id} has a kitty of {_count(rules.kitty_size, 'card')}"
            + (" (write [])" if rules.kitty_size == 0 else "")
        )
    _check_pack(rules, deal, kitty, stock)
    packets = (1,) if rules.deal_all_out else rules.packets
    return deal_pack(n, dealer, size, packets, deal, kitty, stock)


def _check_pack(
    rules: Ruleset, deal: Sequence[Sequence[int]], kitty: Sequence[int], stock: Sequence[int]
) -> None:
    deck = set(rules.deck)
    where: dict[int, list[str]] = {}
    places = [(f"the deal of seat {s}", cards) for s, cards in enumerate(deal)]
    places += [("the kitty", kitty), ("the stock", stock)]
    for place, cards in places:
        for c in cards:
            if c not in deck:
                raise RecordError(
                    f"{place}: {format_card(c)} is not in the {rules.id} pack "
                    f"({len(deck)} cards{_jokers_text(rules)})"
                )
            where.setdefault(c, []).append(place)
    for c, seen in where.items():
        if len(seen) > 1:
            raise RecordError(
                f"{format_card(c)} appears twice ({' and '.join(seen)}); each card of the pack once"
            )
    missing = sorted(deck - set(where))
    if missing:
        raise RecordError(
            f"deal, kitty and stock must hold the whole {rules.id} pack of {len(deck)} cards; "
            f"missing: {' '.join(format_card(c) for c in missing)}"
        )


def _jokers_text(rules: Ruleset) -> str:
    if not rules.jokers:
        return ", no jokers"
    return ", jokers " + " ".join(rules.jokers)


_TYPE_WORDS = {
    "string_type": "must be a string",
    "int_type": "must be a whole number",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
}


def _validation_message(exc: ValidationError) -> str:
    """Pydantic's errors in a player's words: where, what is wrong, what is allowed."""
    parts = []
    errors = exc.errors()
    for err in errors[:3]:
        where = _where(err["loc"])
        kind = err["type"]
        got = _shown(err.get("input"))
        if kind == "missing":
            parts.append(f"{where} is missing")
        elif kind == "extra_forbidden":
            fields = HAND_FIELDS if len(err["loc"]) > 1 and err["loc"][0] == "hands" else RECORD_FIELDS
            parts.append(f"{where} is not a field of a {FORMAT} record; allowed fields: {', '.join(fields)}")
        elif kind in _TYPE_WORDS:
            parts.append(f"{where} {_TYPE_WORDS[kind]} (got {got})")
        elif kind == "value_error":
            parts.append(f"{where}: {err['ctx']['error']}")
        elif kind == "too_short" and err["loc"] == ("hands",):
            parts.append("field hands must list at least one hand")
        elif kind == "greater_than_equal":
            parts.append(f"{where} must be at least {err['ctx']['ge']} (got {got})")
        else:
            parts.append(f"{where}: {err['msg']} (got {got})")
    if len(errors) > 3:
        parts.append(f"and {len(errors) - 3} more problems")
    return "; ".join(parts)


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(loc: tuple[int | str, ...]) -> str:
    """``('hands', 1, 'deal', 2, 0)`` -> ``hand 2, deal of seat 2, card 1`` (hands, cards, actions from 1)."""
    if not loc:
        return "the record"
    if loc[0] != "hands" or len(loc) < 2:
        head = f"field {loc[0]}"
        if len(loc) > 1:
            key = loc[1]
            head += f" entry {key + 1}" if isinstance(key, int) else f" key {key!r}"
        return head
    words = [f"hand {int(loc[1]) + 1}"]
    rest = loc[2:]
    if rest:
        name = rest[0]
        if name == "deal" and len(rest) >= 2:
            words.append(f"deal of seat {rest[1]}")
            if len(rest) >= 3:
                words.append(f"card {int(rest[2]) + 1}")
        elif name == "actions" and len(rest) >= 2:
            words.append(f"action {int(rest[1]) + 1}")
        elif len(rest) >= 2:
            words.append(f"{name} card {int(rest[1]) + 1}")
        else:
            words.append(f"field {name}")
    return ", ".join(words)


# ---------------------------------------------------------------------------
# replaying


@dataclass(frozen=True)
class ReplayStep:
    """One written action of a replayed hand and the phase it was made in."""

    seat: int
    action: int
    phase: Phase
    text: str


@dataclass
class ReplayResult:
    """A replayed record: the validated record, the rebuilt game and its written actions by phase."""

    record: dict[str, Any]
    rules: Ruleset
    state: GameState
    #: per recorded hand, the written actions in order
    steps: list[list[ReplayStep]]

    @property
    def names(self) -> list[str]:
        return list(self.record["names"])

    @property
    def results(self) -> tuple[HandResult, ...]:
        """The hands that were played to the end (or thrown in)."""
        return self.state.results

    @property
    def finished(self) -> bool:
        """False when the record stops before the game is over (a quit or stopped game)."""
        return self.state.is_over

    @property
    def winner(self) -> int | None:
        return self.state.winner


class _RecordDeals(RecordedDeals):
    """``RecordedDeals`` that, past the last recorded hand, deals the pack unshuffled.

    The engine deals the next hand as soon as one ends; a record that stops
    between hands is an unfinished game, not a broken one, so that next deal
    must not fail. That unrecorded hand is never reported.
    """

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        if hand_index >= len(self.hands):
            return list(deck)
        return super().pack(hand_index, deck)


class _ResumedDeals(RecordedDeals):
    """``RecordedDeals`` that go on with a seeded shuffle where the record stops.

    The recorded hands are dealt as recorded; the hands after them, and the
    rest of a wash the record lists only in part, are shuffled from ``seed``.
    """

    skips_taken_wash_cards = True

    def __init__(self, first_dealer: int, hands: list[RecordedDeal], seed: int | str | None) -> None:
        super().__init__(first_dealer, hands)
        self.seeded = SeededDeals(seed)

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        if hand_index >= len(self.hands):
            return self.seeded.pack(hand_index, deck)
        return super().pack(hand_index, deck)

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        if hand_index >= len(self.hands):
            return self.seeded.wash(hand_index, pile)
        dealt = super().wash(hand_index, pile)
        return dealt + [c for c in self.seeded.wash(hand_index, pile) if c not in dealt]


#: Called with the state and the action about to be applied, once per replayed action.
BeforeAction = Callable[[GameState, int], None]


def replay(
    record: str | bytes | os.PathLike[str] | Mapping[str, Any], before_action: BeforeAction | None = None
) -> ReplayResult:
    """Rebuild a game from its record, checking every action; raise ``ReplayError`` at the first problem.

    Each hand's actions must be exactly those the engine asks for in that
    hand: an action by the wrong seat, an illegal one, one after the hand (or
    game) is over, or a hand that stops short while a later hand follows is an
    error. A record that simply stops (last hand incomplete, or between
    hands) replays as an unfinished game.

    >>> from pedro.engine.state import GameState
    >>> from pedro.variants.options import make_ruleset
    >>> state = GameState(make_ruleset("cinch"), seed=1)
    >>> for _ in range(4):
    ...     state.apply(state.legal_actions()[0])
    >>> record = record_from_game(state)
    >>> record["hands"][0]["actions"]
    ['0 pass', '1 pass', '2 pass', '3 bid 7']
    >>> result = replay(record)
    >>> result.finished, result.state.describe_legal()
    (False, '3 trump S, 3 trump H, 3 trump D, 3 trump C')
    >>> record["hands"][0]["actions"][3] = "3 bid 6"
    >>> replay(record)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pedro.records.ReplayError: hand 1, action 4 "3 bid 6": the lowest bid is 7; legal: 3 bid 7, ..., 3 bid 14
    """
    checked = _check(record)
    return _replay(
        checked, _RecordDeals(checked.record["first_dealer"], _recorded_deals(checked)), before_action
    )


def resume(
    record: str | bytes | os.PathLike[str] | Mapping[str, Any], seed: int | str | None = None
) -> ReplayResult:
    """Rebuild an unfinished game from its record so that it can be played on.

    The record is checked as by ``replay`` (and refused the same way); the
    hands it holds are dealt as recorded, and every later hand is shuffled
    from ``seed`` (random when None). A finished game comes back finished.
    """
    checked = _check(record)
    _replay(checked, _RecordDeals(checked.record["first_dealer"], _recorded_deals(checked)))
    deals = _ResumedDeals(checked.record["first_dealer"], _recorded_deals(checked), seed)
    return _replay(checked, deals)


def _recorded_deals(checked: _Checked) -> list[RecordedDeal]:
    return [RecordedDeal(pack, wash) for pack, wash in zip(checked.packs, checked.washes, strict=True)]


def _replay(
    checked: _Checked, deals: RecordedDeals, before_action: BeforeAction | None = None
) -> ReplayResult:
    rules = checked.rules
    recorded = checked.record
    hands = recorded["hands"]
    try:
        state = GameState(rules, deals=deals)
    except DealError as exc:
        raise ReplayError(str(exc), hand=1) from None
    steps: list[list[ReplayStep]] = []
    for k, hand in enumerate(hands):
        if state.is_over:
            raise ReplayError(
                f"hand {k + 1}: the game was over after hand {k}, but the record has {len(hands)} hands",
                hand=k + 1,
            )
        hand_steps: list[ReplayStep] = []
        actions: list[str] = hand["actions"]
        for i, text in enumerate(actions):
            where = f'hand {k + 1}, action {i + 1} "{text}"'
            if state.is_over or state.hand_index != k:
                ended = "the game is over" if state.is_over else f"hand {k + 1} is over"
                raise ReplayError(
                    f"{where}: {ended} after action {i}; "
                    f"the record has {_count(len(actions) - i, 'action')} too many",
                    hand=k + 1,
                    action=i + 1,
                )
            try:
                seat, action = parse_action_text(text, rules.max_bid)
            except ActionError as exc:
                raise ReplayError(f"{where}: {exc}", hand=k + 1, action=i + 1) from None
            if seat != state.current_player:
                raise ReplayError(
                    f"{where}: it is seat {state.current_player}'s turn, not seat {seat}'s; "
                    f"legal: {state.describe_legal()}",
                    hand=k + 1,
                    action=i + 1,
                )
            reason = state.why_illegal(action)
            if reason is not None:
                raise ReplayError(
                    f"{where}: {reason}; legal: {state.describe_legal()}", hand=k + 1, action=i + 1
                )
            phase = state.phase
            if before_action is not None:
                before_action(state, action)
            try:
                state.apply(action)
            except (DealError, IllegalActionError) as exc:
                raise ReplayError(f"{where}: {exc}", hand=k + 1, action=i + 1) from None
            hand_steps.append(ReplayStep(seat, action, phase, action_text(seat, action, rules.max_bid)))
        steps.append(hand_steps)
        hand_over = state.is_over or state.hand_index > k
        if not hand_over and k < len(hands) - 1:
            raise ReplayError(
                f"hand {k + 1}: the record stops after {_count(len(actions), 'action')}, before the hand is "
                f"over, but hand {k + 2} follows; next: {state.describe_legal()}",
                hand=k + 1,
            )
        wash = checked.washes[k]
        used = state.washes[k]
        if hand_over and wash != list(used):
            raise ReplayError(
                f"hand {k + 1}: the wash lists {_count(len(wash), 'card')} ({_cards(wash) or 'none'}) but "
                f"{len(used)} were dealt from the discard pile ({_cards(used) or 'none'})",
                hand=k + 1,
            )
    return ReplayResult(recorded, rules, state, steps)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _cards(cards: Sequence[int]) -> str:
    return " ".join(format_card(c) for c in cards)


# ---------------------------------------------------------------------------
# results as JSON


def replay_json(result: ReplayResult) -> dict[str, Any]:
    """Every played hand's result as plain JSON values (cards canonical, trump a suit letter)."""
    rules = result.rules
    return {
        "variant": rules.id,
        "options": options_dict(rules),
        "sides": rules.sides(),
        "hands": [_hand_json(r) for r in result.results],
        "winner": result.winner,
    }


def _hand_json(r: HandResult) -> dict[str, Any]:
    return {
        "dealer": r.dealer,
        "bidder": r.bidder,
        "bid": r.bid,
        "call": r.call,
        "trump": SUITS[r.trump] if r.trump is not None else None,
        "hands_at_play": [[format_card(c) for c in cards] for cards in r.hands_at_play],
        "tricks": [
            {
                "leader": t.leader,
                "plays": [{"seat": s, "cards": [format_card(c) for c in play_cards(a)]} for s, a in t.plays],
                "winner": t.winner,
            }
            for t in r.tricks
        ],
        "points": list(r.points),
        "made": r.made,
        "score": list(r.score),
    }
