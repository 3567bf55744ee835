"""The HTTP protocol ``pedro serve`` runs under uvicorn: uvicorn's own (httptools), with a deadline
and a size limit for a request's headers.

uvicorn bounds a connection's idle time between requests (``timeout_keep_alive``),
but once a byte of a request has come, nothing bounds how long its headers take:
a client that sends one header line every few seconds holds a connection, its
buffers and a file descriptor for as long as it likes, and a few hundred such
clients hold a few hundred of them (uvicorn has no such timeout of its own). Here
a request's headers must be complete within ``header_seconds`` of the
connection's opening, or of the request's first byte on a kept-alive connection;
else the connection is closed without an answer. Once the headers are in, the
deadline is gone: a slow body is the application's to bound (``request_body``
reads at most ``MAX_BODY_BYTES``), and a WebSocket is the WebSocket protocol's.

Nor does uvicorn's httptools protocol bound the headers' size (its h11 one does,
``h11_max_incomplete_event_size``): a request line and headers of more than
``MAX_HEADER_BYTES`` are answered 400 and the connection closed, as uvicorn answers
a request it cannot parse.
"""

from __future__ import annotations

import asyncio
import logging

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("pedro.server")

#: Largest request line and headers together, in bytes (nginx's default buffers hold 32 KiB).
MAX_HEADER_BYTES = 32 * 1024


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers are too slow.

    Given to uvicorn as ``uvicorn.Config(http=header_deadline(seconds))``.
    """

    #: seconds a request's headers may take (set by ``header_deadline``)
    header_seconds = 10.0
    _deadline: asyncio.TimerHandle | None = None
    #: bytes of the current request's line and headers so far
    _header_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        # the first byte of a request after a complete one (a kept-alive connection)
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._header_bytes = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value))
        super().on_header(name, value)

    def _count(self, size: int) -> None:
        self._header_bytes += size
        if self._header_bytes > MAX_HEADER_BYTES:
            # raised through the parser: uvicorn answers 400 and closes, as for any unreadable request
            raise httptools.HttpParserCallbackError(f"request headers over {MAX_HEADER_BYTES} bytes")

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            log.debug("a connection whose request headers took over %g s was closed", self.header_seconds)
            self.transport.close()


def header_deadline(seconds: float) -> type[HeaderDeadlineProtocol]:
    """``HeaderDeadlineProtocol`` with a deadline of ``seconds``."""
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), {"header_seconds": seconds})
