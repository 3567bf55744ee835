"""The schema of what the server sends (``tables.messages``): every message fits it, and docs/server.md
says what it says.

Every server test checks each message it makes the server send (``conftest.py``); here, whole
games of every variant and house-rule set are played through a room, and every message each seat
and a spectator are sent must fit; and each kind of message is made to happen once over a
WebSocket.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient
from tests.server.client_helpers import create_table, recv, running_server, services_of, watch
from tests.server.conftest import SentMessages
from tests.server.room_helpers import play_random_game
from tests.test_properties import OPTION_SETS

import pedro.server.tables
from pedro.server.http.lifecycle import RESTART_MESSAGE, RESTARTING
from pedro.server.tables import message_docs
from pedro.server.tables.messages import ERROR_CODES, parse_server_message
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

DOC = Path(__file__).resolve().parents[2] / "docs" / "server.md"
TABLES = Path(pedro.server.tables.__file__).parent

#: Every variant, and the house-rule sets whose engine paths the variants do not reach.
GAMES = [(v, {}) for v in VARIANTS] + OPTION_SETS


# ---------------------------------------------------------------------------- the reference


def test_the_reference_in_docs_server_md_is_the_schemas() -> None:
    document = DOC.read_text(encoding="utf-8")
    assert message_docs.rewritten(document) == document, (
        "docs/server.md's reference of the messages is not the schema's: write it again with "
        "python -m pedro.server.tables.message_docs docs/server.md"
    )


def test_the_reference_names_every_message_part_and_field() -> None:
    """The generated reference leaves nothing of the schema out: each message's ``type``, each part,
    and each field of them, in a table of its own."""
    reference = message_docs.reference()
    sections = re.split(r"^#{4,5} ", reference, flags=re.MULTILINE)[1:]
    told = {
        s.split("\n", 1)[0].strip("`"): set(re.findall(r"^\| `(\w+)` \|", s, re.MULTILINE)) for s in sections
    }
    expected: dict[str, set[str]] = {}
    for message in message_docs.MESSAGES:
        expected[get_args(get_type_hints(message)["type"])[0]] = set(get_type_hints(message))
    for part in message_docs._parts():
        expected[part.__name__] = set(get_type_hints(part))
    told.pop("The parts of a message")
    assert told == expected
    assert {"SeatInfo", "Game", "Trick", "SheetRow", "ListChoice", "CardsChoice"} <= set(told)


def test_every_error_code_the_tables_send_is_in_the_schema_and_no_other() -> None:
    """The codes in the source (``RoomError("turn", ...)``, ``client.error("rate", ...)``,
    ``client.removed("removed", ...)``) are exactly the schema's. ``unfinished`` is a RoomError the
    HTTP API answers, never a message."""
    sent = {RESTARTING}
    for path in TABLES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func, first = node.func, node.args[0]
            refusal = (isinstance(func, ast.Name) and func.id == "RoomError") or (
                isinstance(func, ast.Attribute)
                and func.attr in ("error", "removed")
                and ast.unparse(func.value) != "log"
            )
            if refusal and isinstance(first, ast.Constant) and isinstance(first.value, str):
                sent.add(first.value)
    assert sent - {"unfinished"} == set(ERROR_CODES)


# ---------------------------------------------------------------------------- the schema


def test_the_schema_refuses_what_the_server_does_not_send() -> None:
    parse_server_message('{"type": "welcome", "seat": 2}')
    parse_server_message('{"type": "welcome", "seat": null}')
    refused = [
        '{"type": "welcome"}',  # a field missing
        '{"type": "welcome", "seat": 2, "extra": 1}',  # a field unknown
        '{"type": "welcome", "seat": "2"}',  # a number as text
        '{"type": "hello"}',  # no such message
        '{"type": "error", "code": "oops", "message": "m"}',  # no such code
    ]
    for text in refused:
        with pytest.raises(ValidationError):
            parse_server_message(text)


def test_a_state_message_a_little_wrong_does_not_fit() -> None:
    listeners = play_random_game("cinch", {"target": 11, "lose_at": -11}, seed=1)
    state = next(text for text in listeners[0].received if '"hand":["' in text and '"started":true' in text)
    parse_server_message(state)
    for wrong in (
        re.sub(r'"hand":\["..', '"hand":["1X', state, count=1),  # no such card
        state.replace('"phase":"', '"phase":"bidding', 1),  # no such phase
        state.replace('"started":true', '"started":1', 1),  # a number for a truth value
        state.replace('"legal":', '"legal":null,"extra":', 1),  # a field unknown
    ):
        assert wrong != state
        with pytest.raises(ValidationError):
            parse_server_message(wrong)


@pytest.mark.parametrize(("variant", "options"), GAMES, ids=[f"{v}{o or ''}" for v, o in GAMES])
def test_every_message_of_a_whole_game_fits_the_schema(variant: str, options: dict[str, Any]) -> None:
    """Random play to the game's end (a side down to minus the target loses, so every game ends);
    each seat and a spectator are sent a ``state`` after every action, each made from its view."""
    target = make_ruleset(variant, options).target
    listeners = play_random_game(variant, options | {"lose_at": -target}, seed=3)
    for listener in listeners:
        states = [parse_server_message(text) for text in listener.received]
        assert all(m["type"] == "state" and m["you"] == listener.seat for m in states)
        assert states[-1]["finished"] and len(states) > states[-1]["seq"]


# ---------------------------------------------------------------------------- over the WebSocket


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with running_server(tmp_path) as client:
        yield client


def test_each_kind_of_message_is_sent_and_fits(client: TestClient, sent_messages: SentMessages) -> None:
    """welcome, state, pong, error, and restart as the server drains; ``conftest`` checks each as it
    is sent. (A table waiting for its players: nothing else is sent meanwhile.)"""
    table = create_table(client)["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        watch(ws)
        ws.send_json({"type": "ping"})
        assert recv(ws) == {"type": "pong"}
        ws.send_json({"type": "act", "action": "pass", "seq": 0})
        assert recv(ws)["code"] == "auth"
        lifecycle = services_of(client).lifecycle
        client.portal.call(lifecycle.shutdown)  # type: ignore[union-attr]
        assert recv(ws) == {"type": "restart", "message": RESTART_MESSAGE}
    assert set(sent_messages.types) == {"welcome", "state", "pong", "error", "restart"}
