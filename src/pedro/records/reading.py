"""Reading a record and checking it before any action is replayed: JSON, fields, cards, deal.

Every problem is a ``RecordError`` whose message says which field is wrong, what it
was and what is allowed, in the player's words rather than pydantic's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pedro.cards import format_card, parse_card
from pedro.engine.deal import pack_from_deal as deal_pack
from pedro.records.model import (
    FORMAT,
    HAND_FIELDS,
    NOT_A_CARD,
    RECORD_FIELDS,
    RecordError,
    RecordModel,
    cards_allowed,
)
from pedro.variants.catalog import UnknownVariantError
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset, options_dict


@dataclass(frozen=True)
class CheckedRecord:
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
    >>> from pedro.records import record_from_game
    >>> from pedro.variants.options import make_ruleset
    >>> record = record_from_game(GameState(make_ruleset("cinch"), seed=1), ["Ann", "Bo", "Cy", "Di"])
    >>> record["hands"][0]["deal"][0][:5] = ["a♣", "5d", "QS", "2c", "10s"]
    >>> read_record(record)["hands"][0]["deal"][0][:5]
    ['AC', '5D', 'QS', '2C', 'TS']
    >>> read_record(record | {"first_dealer": 4})
    Traceback (most recent call last):
    ...
    pedro.records.model.RecordError: field first_dealer: 4; allowed: a seat from 0 to 3
    """
    return check(source).record


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


def check(source: str | bytes | os.PathLike[str] | Mapping[str, Any]) -> CheckedRecord:
    """The record of ``source`` checked, with its rules and each hand's pack and wash."""
    data = _load_json(source)
    if not isinstance(data, Mapping):
        raise RecordError(f"a record must be a JSON object with the fields {', '.join(RECORD_FIELDS)}")
    fmt = data.get("format")
    if fmt != FORMAT:
        got = "missing" if fmt is None else json.dumps(fmt, ensure_ascii=False)
        raise RecordError(f'field format: must be "{FORMAT}" (got {got})')
    try:
        model = RecordModel.model_validate(data)
    except ValidationError as exc:
        message = _validation_message(exc)
        if NOT_A_CARD in message:
            message += "; " + _cards_of(data.get("variant"), data.get("options"))
        raise RecordError(message) from None
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
        if hand.timed_out:
            if hand.timed_out != sorted(set(hand.timed_out)) or hand.timed_out[-1] >= len(hand.actions):
                raise RecordError(
                    f"hand {k + 1}: timed_out: {hand.timed_out}; it lists places in actions, from 0 "
                    f"to {len(hand.actions) - 1}, each once and in order",
                    hand=k + 1,
                )
            out["timed_out"] = hand.timed_out
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
    return CheckedRecord(record, rules, packs, washes)


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
            f"kitty: {counted(len(kitty), 'card')}; "
            f"{rules.id} has a kitty of {counted(rules.kitty_size, 'card')}"
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


def _cards_of(variant: object, options: object) -> str:
    """The cards a record of ``variant`` (with ``options``) may name, as far as they are known."""
    try:
        rules = make_ruleset(str(variant), dict(options) if isinstance(options, Mapping) else {})
    except (UnknownVariantError, OptionError, TypeError, ValueError):
        return cards_allowed(None)
    return cards_allowed(rules)


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


def counted(n: int, word: str) -> str:
    """``1 card``, ``2 cards``: the count and its word, for the messages."""
    return f"{n} {word}" + ("" if n == 1 else "s")
