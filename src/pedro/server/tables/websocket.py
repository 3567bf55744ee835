"""The WebSocket of an open page: a table's players and spectators, one connection each.

The loop only translates between the wire and the room: a message is checked against the
protocol (``tables.protocol``), and the room does the rest; what is sent back is one of
``tables.messages``. Each connection has a bounded send queue drained by a task of its own,
so a slow client holds up nobody, and a rate bucket, so a flooding one is refused and then
disconnected. Each client address may have so many sockets open, and so many refusals
(``address_limits``); a socket over the first is closed with ``TOO_MANY_CLOSE_CODE``, and so is
one that goes on after its address's refusals ran out.
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
from pedro.server.http.request_body import client_address
from pedro.server.http.ws_protocol import SEND_NOW
from pedro.server.storage.tables_db import StoreError, hash_secret
from pedro.server.tables.address_limits import TOO_MANY_CLOSE_CODE, AddressLimits
from pedro.server.tables.game import HiddenDeals
from pedro.server.tables.messages import Error, Pong, Restart, Welcome
from pedro.server.tables.protocol import (
    MAX_MESSAGE_BYTES,
    Act,
    Back,
    Chat,
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
#: Refusals that count against the address's budget (``address_limits``): a wrong secret (or a
#: move without a seat), and a move that is no move or against the rules; each may have cost a
#: look at the database or at the rules. A stale or out-of-turn move is a race any client may
#: lose, and a malformed message costs no more than the connection's own rate allows.
COUNTED_REFUSALS = frozenset({"auth", "illegal"})
#: Refusals past its address's budget after which a connection is closed: not at the first, as a
#: client that reconnects at once would then cost the server a handshake for every message.
OVER_BUDGET_LIMIT = 20
#: Seconds a closing connection is given to take its last messages.
_CLOSE_SECONDS = 5.0


class WsClient:
    """One WebSocket connection: a bounded send queue drained by its own task, and a rate bucket.

    Under ``pedro serve`` a message the connection can take at once is written at once
    (``ws_protocol.SEND_NOW``), when nothing is queued before it; the queue holds the rest.
    """

    def __init__(self, websocket: WebSocket, address: str = "unknown") -> None:
        self.websocket = websocket
        #: the client address the limits count by (``request_body.client_address``)
        self.address = address
        self.seat: int | None = None
        self.room: Room | None = None
        #: what a spectator's ``watch`` said of it (see ``tables.protocol.Watch``)
        self.viewer: str | None = None
        self.name: str | None = None
        #: text messages (bytes: UTF-8) waiting to be sent; None: close
        self.queue: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        now = websocket.scope.get("extensions", {}).get(SEND_NOW)
        self._send_now: Callable[[str | bytes], bool] | None = now["send"] if now is not None else None
        #: the writer task is sending a message from the queue
        self._writing = False
        self.tokens = RATE_BURST
        self.stamp = time.monotonic()
        self.refused_in_a_row = 0
        #: refusals of this connection's past its address's budget
        self.over_budget = 0
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
        self.removed("replaced", "this seat was opened in another window; this one is closed")

    def removed(self, code: str, message: str) -> None:
        self.error(code, message)
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

    def __init__(
        self, registry: TableRegistry, lifecycle: Lifecycle, hidden: HiddenDeals, limits: AddressLimits
    ) -> None:
        self.registry = registry
        self.lifecycle = lifecycle
        self.hidden = hidden
        self.limits = limits

    async def connect(self, websocket: WebSocket) -> None:
        await websocket.accept()
        client = WsClient(websocket, client_address(websocket))
        writer = asyncio.create_task(client.writer())
        if not self.limits.open(client.address):
            limit = self.limits.websockets_per_client
            log.info("a client with %d table connections open was refused one more", limit)
            client.error(
                "too_many_connections",
                f"your address has {limit} connections to this server open, as many as it may; "
                "this one is closed",
            )
            client.close(TOO_MANY_CLOSE_CODE)
            await asyncio.wait([writer], timeout=_CLOSE_SECONDS)
            return
        try:
            await self._serve(client, writer)
        finally:
            self.limits.closed(client.address)

    async def _serve(self, client: WsClient, writer: asyncio.Task[None]) -> None:
        websocket = client.websocket
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
                text = message.get("text") or message.get("bytes") or ""
                await _handle(client, room, text, self.hidden, self.limits)
        except WebSocketDisconnect:
            pass
        finally:
            lifecycle.disconnected(client)
            if client.room is not None:
                client.room.detach(client)
            if not client.closing:
                client.close()
            await asyncio.wait([writer], timeout=_CLOSE_SECONDS)


async def _handle(
    client: WsClient, room: Room, text: str | bytes, hidden: HiddenDeals, limits: AddressLimits
) -> None:
    """One message; an action is awaited until committed and announced, so a connection's messages
    are answered in order. A refusal of the kinds counted (``COUNTED_REFUSALS``) spends one of the
    client address's; past its budget it is ``too_many_refusals``, and ``OVER_BUDGET_LIMIT`` of
    those close the connection."""
    try:
        await _answer(client, room, text, hidden, limits)
    except RoomError as exc:
        if exc.code in COUNTED_REFUSALS and not limits.refused(client.address):
            client.over_budget += 1
            client.error(
                "too_many_refusals",
                f"too many refused messages from your address; wait a few seconds (this one: {exc.message})",
            )
            if client.over_budget > OVER_BUDGET_LIMIT:
                # info, as the refused socket's: a script reconnecting in a loop must not flood the log
                log.info("table %s: a client whose address keeps being refused was disconnected", room.id)
                client.close(TOO_MANY_CLOSE_CODE)
        else:
            client.error(exc.code, exc.message)


async def _answer(
    client: WsClient, room: Room, text: str | bytes, hidden: HiddenDeals, limits: AddressLimits
) -> None:
    """One message, answered; RoomError: refused."""
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
        request = parse_client_message(text, room.settings.chat_chars)
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
        elif isinstance(request, Chat):
            if client.room is None:
                raise RoomError("auth", 'send {"type": "join", "secret": ...} or {"type": "watch"} first')
            await room.chat.say(client, request.text, request.phrase, request.name)
        elif isinstance(request, Back):
            if client.room is None:
                raise RoomError("auth", 'send {"type": "join", "secret": ...} first')
            await room.back(client)
        elif client.room is not None:
            raise RoomError("bad_message", "this connection has already joined or is watching")
        elif isinstance(request, Join):
            secret_hash = hash_secret(request.secret)
            seat = room.seat_for_secret(secret_hash)
            if seat is None and not limits.exhausted(client.address):
                seat = await room.seat_claimed_elsewhere(secret_hash)
            if seat is None:
                raise RoomError(
                    "auth", "that secret does not belong to a seat at this table; take a free seat"
                )
            await room.take_up(seat)  # a seat held since the previous game: its player came
            _welcome(client, room, seat, request.chat)
        else:
            if room.row.hands is not None and await hidden.hidden_deal(room.id):
                raise RoomError("tournament_deal_hidden", MESSAGES["tournament_deal_hidden"])
            if request.viewer is not None and request.viewer in room.row.barred:
                raise RoomError("removed", "the table's host removed you as a spectator")
            client.viewer, client.name = request.viewer, request.name
            _welcome(client, room, None, request.chat)
    except StoreError as exc:
        log.error("table %s: database error: %s", room.id, exc)
        client.error("unavailable", "the game database did not accept the action; nothing changed, try again")


def _welcome(client: WsClient, room: Room, seat: int | None, chat: bool) -> None:
    client.room = room
    client.send(json.dumps(Welcome(type="welcome", seat=seat)))
    room.attach(client, seat)
    if chat:
        room.chat.welcome(client)
