"""What the offline app's Web Worker calls: JSON text in, JSON text out.

The worker (``static/soloworker.js``) runs Pyodide and keeps one game open at a time; the page
sends it a served table's client messages and gets a served table's messages back
(docs/server.md, "Messages"), so ``static/table.js`` draws a solo game as it draws a served one.
Besides the table's messages the worker asks for what a server would have answered over HTTP: a
game's setup checked, the new-game form's variants (a record, and an opened record's replay, are
``record_calls``'s).

Every function takes and returns ``str`` (JSON), the one type that crosses into JavaScript as
it is; a refused request is an answer, never an exception, so the page can show why.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pedro.players.levels import LEVELS
from pedro.server.offline.solo import SOLO_LEVELS, SetupError, SoloSetup, SoloTable
from pedro.server.tables.refusals import RoomError
from pedro.server.tables.variants_json import variants_json

_table: SoloTable | None = None


def open_table() -> SoloTable | None:
    """The game open now, if any."""
    return _table


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def catalog() -> str:
    """What the new-game form offers (as ``GET /api/variants``), with the levels a solo game has."""
    levels = [level for level in LEVELS if level.name in SOLO_LEVELS]
    return json.dumps(variants_json(levels, players=()))


def open_game(saved: str) -> str:
    """Open a game from its setup and stored actions (``{"setup": ..., "actions": [...]}``: a new
    game has no actions; its id and seed are drawn if missing): its ``saved`` line, or an error."""
    global _table
    try:
        data = json.loads(saved)
        setup = SoloSetup.from_json(data["setup"])
        _table = SoloTable(setup, [str(a) for a in data.get("actions", [])])
    except (SetupError, ValueError, KeyError, TypeError) as exc:
        return json.dumps(_error("bad_setup", str(exc)))
    return json.dumps(_table.saved())


def receive(message: str) -> str:
    """A client message for the open game: the messages it answers, as a list."""
    msg = json.loads(message)
    kind = msg.get("type") if isinstance(msg, dict) else None
    if _table is None:
        return json.dumps([_error("not_found", "no game is open")])
    if kind == "join":
        return f"[{json.dumps({'type': 'welcome', 'seat': _table.you})},{_table.state_json().decode()}]"
    if kind == "ping":
        return json.dumps([{"type": "pong"}])
    if kind == "act":
        seq = msg.get("seq")
        if not isinstance(seq, int):
            why = "an act needs the seq (a number) of the state it answers"
            return json.dumps([_error("bad_message", why)])
        try:
            _table.act(str(msg.get("action", "")), seq)
        except RoomError as exc:
            return json.dumps([_error(exc.code, exc.message)])
        return f"[{_table.state_json().decode()}]"
    return json.dumps([_error("bad_message", f"a solo game takes join, act and ping, not {kind!r}")])


def computer_to_act() -> bool:
    """A computer of the open game is to decide (the page asks for ``computer_move`` after a pause)."""
    return _table is not None and _table.computer_to_act


def computer_move(stand_in: bool = False) -> str:
    """The computer to act decides: the messages that tells, as a list. With ``stand_in``, the
    person's turn too is played by the computer (a benchmark times every decision of a game)."""
    if _table is None:
        return json.dumps([_error("not_found", "no game is open")])
    try:
        _table.computer_move(stand_in)
    except RoomError as exc:
        return json.dumps([_error(exc.code, exc.message)])
    return f"[{_table.state_json().decode()}]"


def fingerprint(setup: str, hands: int) -> str:
    """The first ``hands`` hands of a seeded game played by the computers (``SoloTable.play_out``):
    the SHA-256 of its actions, the same in every Python that plays pedro's rules with its players."""
    table = SoloTable(SoloSetup.from_json(json.loads(setup)))
    table.play_out(hands)
    return hashlib.sha256("\n".join(table.actions).encode()).hexdigest()


def saved() -> str:
    """The open game as the page stores it (``SoloTable.saved``)."""
    return json.dumps(_table.saved() if _table is not None else None)
