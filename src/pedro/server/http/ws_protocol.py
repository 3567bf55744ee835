"""The WebSocket protocol ``pedro serve`` runs under uvicorn: uvicorn's own, compressing only large
messages, and able to send a message without a detour through a task.

A client that offers permessage-deflate (every browser does) has each message
compressed by uvicorn's protocol, and with several hundred connections each
compression is a cold start: some 20 µs of CPU for a 2 KB ``state`` message,
four of them for every action, about a fifth of the server's CPU per action
under load. A ``state`` message grows by a score-sheet row per hand and carries
each seat's facts (about 2.3 KB a few hands into a cinch game); up to 8 KB it
fits in six TCP segments either way, so compressing it saves its client little
time; a longer one is still compressed. Leaving messages of 4 to 8 KB as they
are took PostgreSQL's ``benchmarks/server_load.py`` from 0.70 to 0.66 ms of
server CPU an action. RFC 7692 lets a sender leave any message uncompressed
(its RSV1 bit clear), and clients read both kinds.

Only the extension is replaced; everything else is uvicorn's
``websockets-sansio`` protocol, with the same window sizes.

Every action is told to four connections, and through ASGI each message is an
``await`` of the application's send (in ``pedro.server.app``, a task per
connection drains a queue, so that a slow client holds up nobody). Most of the
time the connection can take the message at once: the protocol offers a plain
function for that in the scope's extensions (``SEND_NOW``), which writes the
message if it can and says whether it did; the queue and its task remain for
the rest (a client slow to read, or a server that does not offer it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import InvalidState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

#: Messages shorter than this many bytes are sent uncompressed.
COMPRESS_MIN_BYTES = 8192
#: The scope's extension whose ``"send"`` sends a text message at once, if the connection can
#: take it now: ``send(text) -> bool`` (``text`` a str, or bytes of UTF-8 sent as they are),
#: False (and nothing sent) when the application must await its ASGI send instead.
SEND_NOW = "pedro.send_now"


class LargeMessageDeflate(PerMessageDeflate):
    """permessage-deflate that leaves messages shorter than ``COMPRESS_MIN_BYTES`` as they are."""

    def encode(self, frame: Frame) -> Frame:
        # a whole short message goes as it is; the compressor's context is left untouched,
        # as the peer's decompressor skips it too
        short = len(frame.data) < COMPRESS_MIN_BYTES
        if short and frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            return frame
        return super().encode(frame)


class LargeMessageDeflateFactory(ServerPerMessageDeflateFactory):
    """Negotiates permessage-deflate as websockets does, and compresses as ``LargeMessageDeflate``."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        extension = LargeMessageDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )
        return response, extension


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol with ``LargeMessageDeflateFactory``.

    Given to uvicorn as ``uvicorn.Config(ws=WebSocketProtocol)``.
    """

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:
            # the settings uvicorn gives its own factory
            factory = LargeMessageDeflateFactory(
                server_max_window_bits=12, client_max_window_bits=12, compress_settings={"memLevel": 5}
            )
            self.conn = ServerProtocol(
                extensions=[factory], max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error")
            )

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the application is being started
            self.scope["extensions"][SEND_NOW] = {"send": self.send_now}

    def send_now(self, text: str | bytes) -> bool:
        """Write a text message if the connection is open and its buffer below uvicorn's limit."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        try:
            self.conn.send_text(text if isinstance(text, bytes) else text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
