"""Replaying a record action by action, checking each one, and playing on an unfinished game.

Everything a record leaves out (automatic steps, points, scores, the winner)
follows from the rules, so a replay re-derives it and checks every action on
the way; ``resume`` deals the hands after the recorded ones from a seed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pedro.cards import SUITS, format_card
from pedro.engine.actions import ActionError, action_text, parse_action_text, play_cards
from pedro.engine.deal import DealError, RecordedDeal, RecordedDeals, SeededDeals
from pedro.engine.phases import Phase
from pedro.engine.state import GameState, HandResult, IllegalActionError
from pedro.records.model import ReplayError, not_a_card
from pedro.records.reading import CheckedRecord, check, counted
from pedro.variants.model import Ruleset
from pedro.variants.options import options_dict


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
    >>> from pedro.records import record_from_game
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
    pedro.records.model.ReplayError: hand 1, action 4 "3 bid 6": the lowest bid is 7; legal: 3 bid 7, ...
    """
    checked = check(record)
    return _replay(checked, _dealt_as_recorded(checked), before_action)


def resume(
    record: str | bytes | os.PathLike[str] | Mapping[str, Any], seed: int | str | None = None
) -> ReplayResult:
    """Rebuild an unfinished game from its record so that it can be played on.

    The record is checked as by ``replay`` (and refused the same way); the
    hands it holds are dealt as recorded, and every later hand is shuffled
    from ``seed`` (random when None). A finished game comes back finished.
    """
    checked = check(record)
    _replay(checked, _dealt_as_recorded(checked))
    deals = _ResumedDeals(checked.record["first_dealer"], _recorded_deals(checked), seed)
    return _replay(checked, deals)


def recorded_game(record: str | bytes | os.PathLike[str] | Mapping[str, Any]) -> tuple[GameState, list[str]]:
    """A record's game before its first action, dealt as recorded, and every action of the record
    in order (all hands together): to step through again, as a replay viewer does. The record is
    checked as by ``replay`` first, and refused the same way."""
    checked = check(record)
    _replay(checked, _dealt_as_recorded(checked))
    state = GameState(checked.rules, deals=_dealt_as_recorded(checked))
    return state, [text for hand in checked.record["hands"] for text in hand["actions"]]


def _dealt_as_recorded(checked: CheckedRecord) -> _RecordDeals:
    """The record's deals, from its first dealer: its game dealt again as it was played."""
    return _RecordDeals(checked.record["first_dealer"], _recorded_deals(checked))


def _recorded_deals(checked: CheckedRecord) -> list[RecordedDeal]:
    return [RecordedDeal(pack, wash) for pack, wash in zip(checked.packs, checked.washes, strict=True)]


def _replay(
    checked: CheckedRecord, deals: RecordedDeals, before_action: BeforeAction | None = None
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
                    f"the record has {counted(len(actions) - i, 'action')} too many",
                    hand=k + 1,
                    action=i + 1,
                )
            try:
                seat, action = parse_action_text(text, rules.max_bid)
            except ActionError as exc:
                said = not_a_card(str(exc), rules)
                raise ReplayError(f"{where}: {said}", hand=k + 1, action=i + 1) from None
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
                f"hand {k + 1}: the record stops after {counted(len(actions), 'action')}, before the hand is "
                f"over, but hand {k + 2} follows; next: {state.describe_legal()}",
                hand=k + 1,
            )
        wash = checked.washes[k]
        used = state.washes[k]
        if hand_over and wash != list(used):
            raise ReplayError(
                f"hand {k + 1}: the wash lists {counted(len(wash), 'card')} ({_cards(wash) or 'none'}) but "
                f"{len(used)} were dealt from the discard pile ({_cards(used) or 'none'})",
                hand=k + 1,
            )
    return ReplayResult(recorded, rules, state, steps)


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
