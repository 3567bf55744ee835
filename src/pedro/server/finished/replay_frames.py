"""Frames for the replay viewer: the table after each action of a finished game, every hand open.

Only finished games are replayed (the caller checks), so showing every hand
gives nothing away. When an action ends a hand the engine has already dealt
the next one; the frame then carries the finished hand's tricks as
``closed`` so the viewer can show the last trick and the hand's result.

A frame's full view is ``{"seq", "hand_index", "last", "hands", "closed",
"game"}`` with ``game`` the public view of ``pedro.server.tables.views``. Sending it
whole for every action repeats the score sheet (a row per hand) and every
unchanged field thousands of times, so a long game's replay would grow with
the square of its length. Frame 0 is sent whole; every later frame only says
what changed since the frame before (docs/server.md, "Replay frames"), and
the score sheet grows by the rows of the hands that ended.

Every ``game`` view is made from seat 0's observation only, as the table's
are. Frame 0's is ``public_json``'s; after it, a key of the view is made
again only when the observation fields it is made of changed (``_PARTS``,
``public_json`` key by key), because an action changes few of them and a
long game has tens of thousands of frames.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from pedro.cards import SUITS, cards_of
from pedro.display import STATUS_WORDS, sort_hand
from pedro.engine.actions import parse_action_text
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState, HandResult
from pedro.observation_json import seen_trick_json
from pedro.server.tables.views import (
    PHASE_NAMES,
    calls_json,
    cards_json,
    label,
    observation_json,
    public_json,
    sheet_row_json,
    trick_json,
    words,
)
from pedro.variants.tables import TrumpTables


def _closed_json(result: HandResult) -> dict[str, Any]:
    return {
        "tricks": [trick_json(t) for t in result.tricks],
        "points": list(result.points),
        "made": result.made,
        "score": list(result.score),
    }


def _hand_cards(state: GameState, mask: int) -> list[str]:
    tt = state.rules.tables(state.trump) if state.trump is not None else None
    return cards_json(sort_hand(cards_of(mask), tt))


class _Hands:
    """Every seat's cards as the table shows them; a seat's are sorted again only when they may have moved.

    A hand that only lost cards keeps the order of the others (it depends on the trump suit, not on
    the rest of the hand), so its cards are the ones shown before less those it lost.
    """

    def __init__(self, state: GameState) -> None:
        self.masks = tuple(state.hands)
        self.trump = state.trump
        self.cards = [_hand_cards(state, mask) for mask in self.masks]

    def update(self, state: GameState) -> list[list[str] | None] | None:
        """The new cards of the seats whose shown hands changed, None for the others; None if none did."""
        masks = tuple(state.hands)
        if masks == self.masks and state.trump == self.trump:
            return None
        resort = state.trump != self.trump  # the order of a hand depends on the trump suit
        changed: list[list[str] | None] = []
        for seat, mask in enumerate(masks):
            cards = None
            old = self.masks[seat]
            if resort or mask != old:
                if not resort and mask & old == mask:
                    gone = set(cards_json(cards_of(old & ~mask)))
                    cards = [c for c in self.cards[seat] if c not in gone]
                else:
                    cards = _hand_cards(state, mask)
                if cards == self.cards[seat]:
                    cards = None
                else:
                    self.cards[seat] = cards
            changed.append(cards)
        self.masks, self.trump = masks, state.trump
        return changed if any(cards is not None for cards in changed) else None


# ---------------------------------------------------------------------------- the game view, key by key


def _tables(obs: Observation) -> TrumpTables | None:
    return obs.rules.tables(obs.trump) if obs.trump is not None else None


def _sorted_json(groups: tuple[tuple[int, ...], ...], obs: Observation) -> list[list[str]]:
    tt = _tables(obs)
    return [cards_json(sort_hand(cards, tt)) if cards else [] for cards in groups]


def _trumps_json(obs: Observation) -> list[str]:
    tt = _tables(obs)
    return cards_json(sort_hand(cards_of(tt.trump_mask), tt)) if tt is not None else []


def _trick_json(trick: SeenTrick | None) -> dict[str, Any] | None:
    return seen_trick_json(trick) if trick is not None else None


#: Each key of ``public_json`` but the sheet: the observation fields it is made of, and how.
_PARTS: tuple[tuple[str, tuple[str, ...], Callable[[Observation], Any]], ...] = (
    ("phase", ("phase",), lambda o: PHASE_NAMES[Phase(o.phase)]),
    ("hand_index", ("hand_index",), lambda o: o.hand_index),
    ("dealer", ("dealer",), lambda o: o.dealer),
    ("turn", ("current_player", "phase"), lambda o: o.current_player if o.phase != Phase.GAME_OVER else None),
    ("hand_sizes", ("hand_sizes",), lambda o: list(o.hand_sizes)),
    ("calls", ("calls", "dealer"), lambda o: calls_json(o.calls, o.dealer, o.rules)),
    ("bidder", ("bidder",), lambda o: o.bidder),
    ("bid", ("bid",), lambda o: o.bid),
    ("trump", ("trump",), lambda o: SUITS[o.trump] if o.trump is not None else None),
    ("trumps", ("trump",), _trumps_json),
    ("face_up", ("face_up", "trump"), lambda o: _sorted_json(o.face_up, o)),
    ("shown", ("shown", "trump"), lambda o: _sorted_json(o.shown, o)),
    ("discarded", ("discarded",), lambda o: list(o.discarded)),
    ("drawn", ("drawn",), lambda o: list(o.drawn)),
    ("wash", ("wash",), lambda o: o.wash),
    ("statuses", ("statuses",), lambda o: [STATUS_WORDS[Status(s)] for s in o.statuses]),
    ("trick", ("trick",), lambda o: _trick_json(o.trick)),
    ("tricks", ("tricks",), lambda o: [seen_trick_json(t) for t in o.tricks]),
    ("scores", ("scores",), lambda o: list(o.scores)),
    ("winner", ("winner",), lambda o: o.winner),
)
#: Fields that change every few actions (a trick, an auction): the keys made of the others are
#: looked at only when one of those changed, a few times a hand.
_OFTEN = frozenset({"current_player", "hand_sizes", "calls", "trick", "tricks"})

_Part = tuple[int, str, Callable[[Observation], Any], Callable[[Observation], Any]]


class _GameView:
    """The public view of successive observations, as ``public_json`` makes it (the sheet left out),
    each key made again only when the fields it is made of changed.

    ``whole`` is the first observation's view; the keys it has besides (the sheet, and a seat's own
    fields, empty in a public view) are not followed.
    """

    def __init__(self, obs: Observation, whole: dict[str, Any]) -> None:
        if [key for key, _, _ in _PARTS] != list(public_json(obs, sheet=False)):
            raise RuntimeError("the replay's game view no longer has the keys of public_json")
        self.often: list[_Part] = []
        self.seldom: list[_Part] = []
        for i, (key, fields, make) in enumerate(_PARTS):
            group = self.often if _OFTEN.intersection(fields) else self.seldom
            group.append((i, key, attrgetter(*fields), make))
        self.seldom_fields = attrgetter(*sorted({f for _, fields, _ in _PARTS for f in fields} - _OFTEN))
        self.seldom_seen = self.seldom_fields(obs)
        self.inputs = [fields(obs) for _, _, fields, _ in sorted(self.often + self.seldom)]
        self.values = [whole[key] for key, _, _ in _PARTS]

    def update(self, obs: Observation) -> tuple[dict[str, Any], dict[str, Any]]:
        """The keys of the view that changed: (new values, items added at the end of lists that grew)."""
        changed: dict[str, Any] = {}
        grown: dict[str, Any] = {}
        parts = self.often
        seldom = self.seldom_fields(obs)
        if seldom != self.seldom_seen:
            self.seldom_seen = seldom
            parts = self.often + self.seldom
        inputs, values = self.inputs, self.values
        for i, key, fields, make in parts:
            now = fields(obs)
            if now == inputs[i]:
                continue
            inputs[i] = now
            value, old = make(obs), values[i]
            if value == old:
                continue
            values[i] = value
            if isinstance(value, list) and isinstance(old, list) and value[: len(old)] == old:
                grown[key] = value[len(old) :]  # the calls of an auction, the tricks of a hand
            else:
                changed[key] = value
        if len(changed) > 1 and parts is not self.often:  # in the order of the view's keys
            order = [key for key, _, _ in _PARTS]
            changed = {key: changed[key] for key in order if key in changed}
        return changed, grown


def replay_frames(state: GameState, actions: Sequence[str]) -> list[dict[str, Any]]:
    """Frame 0 whole, then one delta per action, playing ``actions`` (record text) on a new game ``state``.

    ``state`` is left at the end of the game, for the caller's record. ValueError if an action is
    not one, is out of turn or is illegal (the stored actions are checked so as they are replayed).
    """
    rules = state.rules
    hands = _Hands(state)
    obs = state.observation(0)
    whole = observation_json(obs, private=False)
    game = _GameView(obs, whole)
    first = {
        "seq": 0,
        "hand_index": state.hand_index,
        "last": None,
        "closed": None,
        "hands": list(hands.cards),
    }
    frames = [first | {"game": whole}]
    hand_index, last, closed = state.hand_index, None, None  # the frame before's
    # a game repeats many actions: each text is read, and its "last" made, once
    moves: dict[str, tuple[int, int, dict[str, Any]]] = {}
    for seq, text in enumerate(actions, start=1):
        move = moves.get(text)
        if move is None:
            seat, action = parse_action_text(text, rules.max_bid)
            move = moves[text] = (
                seat,
                action,
                {"seat": seat, "action": words(action, rules), "label": label(action, rules)},
            )
        seat, action, now_last = move
        if seat != state.current_player:
            raise ValueError(f"action {seq - 1} ({text!r}) is out of turn")
        ended = len(state.results)
        state.apply(action)
        delta: dict[str, Any] = {"seq": seq}
        if state.hand_index != hand_index:
            delta["hand_index"] = hand_index = state.hand_index
        if now_last != last:
            delta["last"] = last = now_last
        now_closed = _closed_json(state.results[-1]) if len(state.results) > ended else None
        if now_closed != closed:
            delta["closed"] = closed = now_closed
        changed_hands = hands.update(state)
        if changed_hands is not None:
            delta["hands"] = changed_hands
        changed, grown = game.update(state.observation(0))
        if len(state.results) > ended:
            grown["sheet"] = [sheet_row_json(r.seen, rules) for r in state.results[ended:]]
        if changed:
            delta["game"] = changed
        if grown:
            delta["append"] = grown
        frames.append(delta)
    return frames
