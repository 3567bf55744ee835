"""The WebSocket protocol ``pedro serve`` runs under uvicorn: uvicorn's own, compressing only large messages.

A client that offers permessage-deflate (every browser does) has each message
compressed by uvicorn's protocol, and with several hundred connections each
compression is a cold start: some 20 µs of CPU for a 2 KB ``state`` message,
four of them for every action, about a fifth of the server's CPU per action
under load. A message that short fits in two TCP segments either way, so
compressing it saves its client little time; a long one (the score sheet grows
by a row per hand) is still compressed. RFC 7692 lets a sender leave any
message uncompressed (its RSV1 bit clear), and clients read both kinds.

Only the extension is replaced; everything else is uvicorn's
``websockets-sansio`` protocol, with the same window sizes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

#: Messages shorter than this many bytes are sent uncompressed.
COMPRESS_MIN_BYTES = 4096


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
