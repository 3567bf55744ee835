"""``pedro serve``'s WebSocket protocol compresses long messages only, and clients read both kinds;
a message the connection can take at once is written at once, never ahead of one queued before it.

A message shorter than ``COMPRESS_MIN_BYTES`` goes uncompressed (its RSV1 bit
clear, as RFC 7692 allows); a longer one is compressed with the context of the
long ones before it, which the peer's decompressor shares.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from starlette.websockets import WebSocketState
from tests.server.client_helpers import seats_spec
from tests.serving import running_server as serve_process
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect
from websockets.typing import ExtensionParameter

from pedro.server.http.ws_protocol import COMPRESS_MIN_BYTES, SEND_NOW, LargeMessageDeflate
from pedro.server.tables.websocket import WsClient


def long_text(rng: random.Random, n: int) -> bytes:
    words = ["play", "bid", "pass", "AS", "KH", "QD", "JC", "trump", "seat", "hand"]
    text = json.dumps({"sheet": [rng.choice(words) for _ in range(n)]})
    return text.encode()


def test_short_messages_go_as_they_are_and_long_ones_compressed_in_one_context() -> None:
    rng = random.Random(7)
    server = LargeMessageDeflate(False, False, 12, 12, {"memLevel": 5})
    client = PerMessageDeflate(False, False, 12, 12)  # the peer's side of the same agreement
    first = long_text(rng, 1200)
    messages = [b'{"type":"welcome"}', first, b"x" * (COMPRESS_MIN_BYTES - 1), first + b" ", b"", first[:-1]]
    for data in messages:
        frame = server.encode(Frame(Opcode.TEXT, data))
        long = len(data) >= COMPRESS_MIN_BYTES
        assert frame.rsv1 is long
        if long:
            assert len(frame.data) < len(data) // 4
        else:
            assert frame.data == data
        assert client.decode(frame).data == data
    # control frames and message fragments are left to websockets, as before
    ping = Frame(Opcode.PING, b"hi")
    assert server.encode(ping) is ping


class RecordingDeflate(ClientPerMessageDeflateFactory):
    """A client's permessage-deflate that notes, for each message it receives, whether it came compressed."""

    def __init__(self, seen: list[bool]) -> None:
        super().__init__(client_max_window_bits=True)
        self.seen = seen

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        extension = super().process_response_params(params, accepted_extensions)
        decode = extension.decode

        def noting(frame: Frame, *, max_size: int | None = None) -> Frame:
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                self.seen.append(frame.rsv1)
            return decode(frame, max_size=max_size)

        extension.decode = noting  # type: ignore[method-assign]
        return extension


@pytest.mark.slow
def test_pedro_serve_agrees_on_compression_and_sends_short_messages_uncompressed(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    with serve_process(database, tmp_path) as proc:
        humans = seats_spec("human", "human", "human", "human")
        body = {"variant": "cinch", "seats": humans, "seat": 0, "name": "A"}
        made = httpx.post(f"{proc.url}/api/tables", json=body, timeout=10).json()
        seen: list[bool] = []
        url = f"{proc.ws_url}/ws/{made['table']}"
        with connect(url, compression=None, extensions=[RecordingDeflate(seen)], open_timeout=10) as ws:
            assert [e.name for e in ws.protocol.extensions] == ["permessage-deflate"]
            ws.send(json.dumps({"type": "join", "secret": made["secret"]}))  # compressed by the client
            assert json.loads(ws.recv(timeout=10)) == {"type": "welcome", "seat": 0}
            state = json.loads(ws.recv(timeout=10))
            assert state["type"] == "state" and state["you"] == 0 and len(state["game"]["hand"]) == 9
            ws.send('{"type": "ping"}')
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        assert seen == [False, False, False]


class FakeWebSocket:
    """What ``WsClient`` uses of a WebSocket, with a ``SEND_NOW`` that takes messages only when told."""

    def __init__(self, sent: list[str]) -> None:
        self.sent = sent
        self.open = False  # does the connection take a message at once
        self.scope = {"extensions": {SEND_NOW: {"send": self.send_now}}}
        self.application_state = WebSocketState.CONNECTED

    def send_now(self, text: str) -> bool:
        if self.open:
            self.sent.append(f"now {text}")
        return self.open

    async def send_text(self, text: str) -> None:
        self.sent.append(f"queued {text}")

    async def close(self, code: int = 1000) -> None:
        self.application_state = WebSocketState.DISCONNECTED


def test_a_message_is_sent_at_once_only_when_nothing_waits_before_it() -> None:
    one, two, three = (json.dumps({"type": "restart", "message": str(n)}) for n in (1, 2, 3))

    async def scenario() -> list[str]:
        sent: list[str] = []
        websocket = FakeWebSocket(sent)
        client = WsClient(websocket)  # type: ignore[arg-type]
        writer = asyncio.create_task(client.writer())
        client.send(one)  # the connection cannot take it now: queued
        websocket.open = True
        client.send(two)  # it could, but one waits: queued behind it, so the order holds
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        client.send(three)  # nothing waits any more: at once
        client.close()
        await writer
        return sent

    assert asyncio.run(scenario()) == [f"queued {one}", f"queued {two}", f"now {three}"]
