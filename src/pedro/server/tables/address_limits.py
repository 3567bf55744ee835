"""Limits per client address on the tables' WebSockets: how many are open, and how many refusals.

A connection's own rate bucket (``websocket.RATE_PER_SECOND``) bounds what one
socket costs; these bound what one address costs however many sockets it opens.
Each open WebSocket holds memory and a task, so an address may have at most
``Limits.websockets_per_client`` open at once. A refused join or move is work
done for nothing (a wrong secret may even send the server to the database), so
an address has a budget of refusals that refills slowly: a person who mistypes
or misclicks never comes near it, a script that guesses secrets or sends
garbage from many sockets runs out of it, and is then disconnected.

A client address is the one uvicorn reports (``request_body.client_address``):
behind a reverse proxy, the forwarded one only for a proxy trusted with
``--forwarded-allow-ips``. Counts live in this process's memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

#: Refusals an address may save up, and how many a second it gets back.
REFUSAL_BURST = 20.0
REFUSALS_PER_SECOND = 1.0
#: The close code of a connection over an address's limit (private range: "too many", as HTTP 429).
TOO_MANY_CLOSE_CODE = 4029
#: Addresses kept before those back to a full budget and with no socket open are forgotten.
_KEPT_ADDRESSES = 4096


@dataclass
class _Address:
    #: refusals left (fractional: it refills continuously) as of ``stamp``
    refusals: float
    stamp: float
    sockets: int = 0


class AddressLimits:
    """Open WebSockets and the refusal budget of each client address."""

    def __init__(self, websockets_per_client: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.websockets_per_client = websockets_per_client
        self.clock = clock
        self._addresses: dict[str, _Address] = {}

    def open(self, address: str) -> bool:
        """Count a new socket of ``address``; False (not counted) if it has as many as it may."""
        entry = self._entry(address)
        if entry.sockets >= self.websockets_per_client:
            return False
        entry.sockets += 1
        return True

    def closed(self, address: str) -> None:
        """A socket counted by ``open`` has closed."""
        entry = self._addresses.get(address)
        if entry is not None and entry.sockets > 0:
            entry.sockets -= 1

    def refused(self, address: str) -> bool:
        """Spend one of ``address``'s refusals; False if none was left (the caller disconnects)."""
        entry = self._refill(address)
        if entry.refusals < 1.0:
            return False
        entry.refusals -= 1.0
        return True

    def exhausted(self, address: str) -> bool:
        """``address`` has no refusal left: work that may end in one is not done for it."""
        return self._refill(address).refusals < 1.0

    def open_sockets(self, address: str) -> int:
        entry = self._addresses.get(address)
        return entry.sockets if entry is not None else 0

    def _refill(self, address: str) -> _Address:
        entry = self._entry(address)
        now = self.clock()
        entry.refusals = min(REFUSAL_BURST, entry.refusals + (now - entry.stamp) * REFUSALS_PER_SECOND)
        entry.stamp = now
        return entry

    def _entry(self, address: str) -> _Address:
        entry = self._addresses.get(address)
        if entry is None:
            if len(self._addresses) >= _KEPT_ADDRESSES:
                self._forget()
            entry = self._addresses[address] = _Address(REFUSAL_BURST, self.clock())
        return entry

    def _forget(self) -> None:
        """Drop the addresses that would start afresh anyway: no socket open, budget refilled."""
        now = self.clock()
        for address, entry in list(self._addresses.items()):
            full = entry.refusals + (now - entry.stamp) * REFUSALS_PER_SECOND >= REFUSAL_BURST
            if entry.sockets == 0 and full:
                del self._addresses[address]
