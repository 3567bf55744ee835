"""Whether a seat's action may be taken now: the checks a table makes before it commits an action.

One place for them, so a served table (``room``) and the offline app's table (``offline.solo``)
refuse the same actions with the same codes and words.
"""

from __future__ import annotations

from collections.abc import Callable

from pedro.engine.actions import ActionError, parse_action_words
from pedro.engine.state import GameState
from pedro.players.levels import level_of
from pedro.server.tables.refusals import RoomError


def checked_action(
    state: GameState,
    seat: int,
    text: str,
    seq: int,
    *,
    table_seq: int,
    started: bool,
    name_of: Callable[[int], str],
    closed: bool = False,
) -> int:
    """The action ``text`` (the protocol's words) of ``seat``, sent for the table's state ``seq``,
    if the table takes it now; else RoomError with the protocol's code and what is allowed."""
    if closed:
        raise RoomError("closed", "the table's host closed the table")
    if state.is_over:
        raise RoomError("illegal", "the game is over")
    if not started:
        raise RoomError("turn", "the game starts when every seat has a player")
    if seq != table_seq:
        raise RoomError("stale", f"that was sent for state {seq}, but the game is at state {table_seq}")
    if state.current_player != seat:
        raise RoomError("turn", f"it is not your turn: {name_of(state.current_player)} is to play")
    try:
        action = parse_action_words(text, state.rules.max_bid)
    except ActionError as exc:
        raise RoomError("illegal", f"{exc}; legal: {state.describe_legal()}") from None
    reason = state.why_illegal(action)
    if reason is not None:
        raise RoomError("illegal", f"{reason}; legal: {state.describe_legal()}")
    return action


def computer_seat_name(seat: int, player: str | None) -> str:
    """A computer seat's name where it has none of its own: the seat first, so two computers of
    one level read apart even where a name is cut.

    >>> computer_seat_name(2, "heuristic")
    '3 · club'
    """
    return f"{seat + 1} · {level_of(player or 'computer')}"
