"""The HTTP protocol ``pedro serve`` runs under uvicorn: uvicorn's own (httptools), with a deadline
for a request's headers.

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
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("pedro.server")


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers are too slow.

    Given to uvicorn as ``uvicorn.Config(http=header_deadline(seconds))``.
    """

    #: seconds a request's headers may take (set by ``header_deadline``)
    header_seconds = 10.0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        # the first byte of a request after a complete one (a kept-alive connection)
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()
        super().data_received(data)

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
