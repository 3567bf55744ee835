"""The WebSocket of an open page: a table's players and spectators, one connection each.

The loop only translates between the wire and the room: a message is checked against the
protocol (``tables.protocol``), and the room does the rest; what is sent back is one of
``tables.messages``. Each connection has a bounded send queue drained by a task of its own,
so a slow client holds up nobody, and a rate bucket, so a flooding one is refused and then
disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pedro.server.http.errors import MESSAGES
from pedro.server.http.lifecycle import (
    REFUSED_WHILE_DRAINING,
    RESTART_CLOSE_CODE,
    RESTART_MESSAGE,
    RESTARTING,
    Lifecycle,
)
from pedro.server.http.ws_protocol import SEND_NOW
from pedro.server.storage.tables_db import StoreError, hash_secret
from pedro.server.tables.game import HiddenDeals
from pedro.server.tables.messages import Error, Pong, Restart, Welcome
from pedro.server.tables.protocol import (
    MAX_MESSAGE_BYTES,
    Act,
    Join,
    Ping,
    ProtocolError,
    parse_client_message,
)
from pedro.server.tables.registry import TableRegistry
from pedro.server.tables.room import Room, RoomError

log = logging.getLogger("pedro.server")

#: Messages a client may send per second, and the burst it may save up.
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0
#: Refused messages in a row after which a flooding client is disconnected.
FLOOD_LIMIT = 200
#: Messages waiting for a slow client before it is disconnected.
SEND_QUEUE_LIMIT = 256
#: The answer to every ``ping``.
PONG = json.dumps(Pong(type="pong"))


class WsClient:
    """One WebSocket connection: a bounded send queue drained by its own task, and a rate bucket.

    Under ``pedro serve`` a message the connection can take at once is written at once
    (``ws_protocol.SEND_NOW``), when nothing is queued before it; the queue holds the rest.
    """

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.room: Room | None = None
        #: text messages (bytes: UTF-8) waiting to be sent; None: close
        self.queue: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        now = websocket.scope.get("extensions", {}).get(SEND_NOW)
        self._send_now: Callable[[str | bytes], bool] | None = now["send"] if now is not None else None
        #: the writer task is sending a message from the queue
        self._writing = False
        self.tokens = RATE_BURST
        self.stamp = time.monotonic()
        self.refused_in_a_row = 0
        self.closing = False
        #: the close code the writer sends once the queue is drained
        self.close_code = 1008

    def send(self, text: str | bytes) -> None:
        if self.closing:
            return
        send_now = self._send_now
        if send_now is not None and not self._writing and not self.queue.qsize() and send_now(text):
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            log.warning("a client fell too far behind and was disconnected")
            self.close()
            return
        self.queue.put_nowait(text)

    def error(self, code: str, message: str) -> None:
        """Refuse a message of this client's (``code``: one of ``messages.ERROR_CODES``)."""
        self.send(json.dumps(Error(type="error", code=code, message=message), ensure_ascii=False))

    def replaced(self) -> None:
        self.error("replaced", "this seat was opened in another window; this one is closed")
        self.seat = None
        self.room = None
        self.close()

    def close(self, code: int = 1008) -> None:
        if not self.closing:
            self.close_code = code
        self.closing = True
        self.queue.put_nowait(None)

    def restart(self, message: str) -> None:
        """The server is restarting: say so, then close with 1012 so the client reconnects."""
        self.send(json.dumps(Restart(type="restart", message=message)))
        self.close(RESTART_CLOSE_CODE)

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.stamp) * RATE_PER_SECOND)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    async def writer(self) -> None:
        with contextlib.suppress(Exception):
            while (text := await self.queue.get()) is not None:
                self._writing = True
                await self.websocket.send_text(text if isinstance(text, str) else text.decode())
                self._writing = False
        if self.websocket.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await self.websocket.close(code=self.close_code if self.closing else 1000)


class TableSockets:
    """``/ws/{table}``: an open page's connection to a table, while the server is not draining."""

    def __init__(self, registry: TableRegistry, lifecycle: Lifecycle, hidden: HiddenDeals) -> None:
        self.registry = registry
        self.lifecycle = lifecycle
        self.hidden = hidden

    async def connect(self, websocket: WebSocket) -> None:
        await websocket.accept()
        client = WsClient(websocket)
        writer = asyncio.create_task(client.writer())
        lifecycle = self.lifecycle
        lifecycle.connected(client, writer)
        room = None if lifecycle.draining else await self.registry.get(websocket.path_params["table"])
        try:
            if lifecycle.draining:
                client.restart(RESTART_MESSAGE)
                return
            if room is None:
                if self.registry.is_broken(websocket.path_params["table"]):
                    client.error("table_broken", MESSAGES["table_broken"])
                else:
                    client.error("not_found", "no such table (check the link)")
                client.close()
                return
            while not client.closing:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if lifecycle.draining:
                    client.error(RESTARTING, REFUSED_WHILE_DRAINING)
                    continue
                await _handle(client, room, message.get("text") or message.get("bytes") or "", self.hidden)
        except WebSocketDisconnect:
            pass
        finally:
            lifecycle.disconnected(client)
            if client.room is not None:
                client.room.detach(client)
            if not client.closing:
                client.close()
            await asyncio.wait([writer], timeout=5)


async def _handle(client: WsClient, room: Room, text: str | bytes, hidden: HiddenDeals) -> None:
    """One message; an action is awaited until committed and announced, so a connection's messages
    are answered in order."""
    if not client.allow():
        client.refused_in_a_row += 1
        if client.refused_in_a_row > FLOOD_LIMIT:
            log.warning("table %s: a flooding client was disconnected", room.id)
            client.close()
        elif client.refused_in_a_row == 1:
            client.error(
                "rate", f"too many messages: at most {RATE_PER_SECOND:g} a second; this one was ignored"
            )
        return
    client.refused_in_a_row = 0
    # the limit is in bytes: a text of fewer characters may still be longer in UTF-8
    if len(text) > MAX_MESSAGE_BYTES or (
        isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES
    ):
        client.error("too_big", f"messages are at most {MAX_MESSAGE_BYTES} bytes; this one was ignored")
        return
    try:
        request = parse_client_message(text)
    except ProtocolError as exc:
        client.error("bad_message", str(exc))
        return
    try:
        if isinstance(request, Ping):
            client.send(PONG)
        elif isinstance(request, Act):
            if client.room is None:
                raise RoomError("auth", 'send {"type": "join", "secret": ...} or {"type": "watch"} first')
            await room.act(client, request.action, request.seq)
        elif client.room is not None:
            raise RoomError("bad_message", "this connection has already joined or is watching")
        elif isinstance(request, Join):
            secret_hash = hash_secret(request.secret)
            seat = room.seat_for_secret(secret_hash)
            if seat is None and room.settings.shared:  # claimed at another server process just now?
                await room.catch_up()
                seat = room.seat_for_secret(secret_hash)
            if seat is None:
                raise RoomError(
                    "auth", "that secret does not belong to a seat at this table; take a free seat"
                )
            _welcome(client, room, seat)
        else:
            if room.row.hands is not None and await hidden.hidden_deal(room.id):
                raise RoomError("tournament_deal_hidden", MESSAGES["tournament_deal_hidden"])
            _welcome(client, room, None)
    except RoomError as exc:
        client.error(exc.code, exc.message)
    except StoreError as exc:
        log.error("table %s: database error: %s", room.id, exc)
        client.error("unavailable", "the game database did not accept the action; nothing changed, try again")


def _welcome(client: WsClient, room: Room, seat: int | None) -> None:
    client.room = room
    client.send(json.dumps(Welcome(type="welcome", seat=seat)))
    room.attach(client, seat)
