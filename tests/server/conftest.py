"""Every server test checks every WebSocket message the server sends against the message schema.

``WsClient.send`` is where every message leaves the server (``tables.messages``), so it is
watched in every test of this folder: a message the schema does not describe fails the test
that made the server send it. (Tests that run ``pedro serve`` in a process of its own are not
watched here; their messages are those the in-process tests see.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from pedro.server.tables import websocket
from pedro.server.tables.messages import parse_server_message


class SentMessages:
    """The types of the messages sent during a test, and those that did not fit the schema."""

    def __init__(self) -> None:
        self.types: Counter[str] = Counter()
        self.misfits: list[str] = []

    def check(self, text: str | bytes) -> None:
        try:
            self.types[parse_server_message(text)["type"]] += 1
        except ValidationError as exc:
            shown = text.decode() if isinstance(text, bytes) else text
            self.misfits.append(f"{exc}\nin the message {shown[:1000]}")


@pytest.fixture(autouse=True)
def sent_messages(monkeypatch: pytest.MonkeyPatch) -> Iterator[SentMessages]:
    sent = SentMessages()
    original = websocket.WsClient.send

    def send(client: websocket.WsClient, text: str | bytes) -> None:
        sent.check(text)  # in the server's thread: a misfit is told when the test ends
        original(client, text)

    monkeypatch.setattr(websocket.WsClient, "send", send)
    yield sent
    assert not sent.misfits, (
        f"{len(sent.misfits)} messages do not fit the schema; the first:\n{sent.misfits[0]}"
    )
