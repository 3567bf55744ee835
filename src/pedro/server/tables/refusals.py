"""A client's request refused by a table: what the room and its chat raise, and the WebSocket tells."""

from __future__ import annotations


class RoomError(Exception):
    """A client's request refused; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
