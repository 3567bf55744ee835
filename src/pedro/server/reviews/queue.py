"""Who waits for the review workers: reviews made first come, first served, a bounded number of them.

A review costs seconds of a core per hand (docs/server.md, "Time"), so the work one
request may start is the largest cost a client can put on the server. Before, every
review sent its hands to the workers at once and they shared them: forty uploads took
every review, each a hand at a time, ten minutes, and a practice table's hint waited
behind forty hands. Here at most as many reviews are made at once as there are review
workers; the others wait in order, and each knows its place. A client address may have
``Limits.reviews_per_client`` reviews waiting or under way, the server
``Limits.reviews_queued`` in all; a review asked for again is the same review, not a
new one. Counts live in this process's memory, as the other limits per address do.
"""

from __future__ import annotations

import asyncio
import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

#: Seconds of a worker a hand's review takes, as first guessed (then measured: ``ReviewQueue.timed``);
#: a 10-hand game's seat takes 12 to 16 s on one core of the compiled build.
FIRST_GUESS_SECONDS_PER_HAND = 2.0
#: How much each measured hand moves the estimate (an exponential moving average).
_WEIGHT = 0.2

Key = tuple[str, str, int]  # ("table" or "upload", table id or record digest, seat)


@dataclass
class Progress:
    """A review waiting or being made (or made, for an upload): hands done of ``total``."""

    total: int
    #: the hands made here (an upload's are kept here; a table's go to the database)
    hands: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: hands made before (a table's, read from the database)
    done: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = None
    #: what every answer about the review starts with (its seat, names, whether the game is over)
    head: dict[str, Any] = field(default_factory=dict)

    @property
    def made(self) -> int:
        return self.done + len(self.hands)

    @property
    def left(self) -> int:
        return max(0, self.total - self.made)


@dataclass
class _Entry:
    address: str
    progress: Progress
    turn: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class Refusal:
    """Why a new review is not taken now: a code of ``reviews.routes.MESSAGES``, its fields, and
    the seconds until it likely would be."""

    code: str
    limit: int
    wait: int


class ReviewQueue:
    """The reviews waiting or under way, in order: the first ``slots`` are under way."""

    def __init__(self, slots: int, per_client: int, total: int) -> None:
        self.slots = max(1, slots)
        self.per_client = per_client
        self.total = total
        self._entries: OrderedDict[Key, _Entry] = OrderedDict()
        self.seconds_per_hand = FIRST_GUESS_SECONDS_PER_HAND

    def __contains__(self, key: Key) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def refusal(self, address: str) -> Refusal | None:
        """Why ``address`` may not start another review now, or None if it may."""
        if len(self._entries) >= self.total:
            return Refusal("reviews_busy", self.total, self._wait(next(iter(self._entries))))
        own = [key for key, entry in self._entries.items() if entry.address == address]
        if len(own) >= self.per_client:
            return Refusal("too_many_reviews", self.per_client, self._wait(own[0]))
        return None

    def join(self, key: Key, address: str, progress: Progress) -> None:
        """Queue the review ``key`` (asked for by ``address``) behind those already there."""
        self._entries[key] = _Entry(address, progress)
        self._start()

    async def wait_turn(self, key: Key) -> None:
        """Return when the review ``key`` is among the first ``slots``: its turn to be made."""
        entry = self._entries.get(key)
        if entry is not None:
            await entry.turn.wait()

    def leave(self, key: Key) -> None:
        """The review ``key`` is made, failed or dropped: the next in line gets its turn."""
        if self._entries.pop(key, None) is not None:
            self._start()

    def place(self, key: Key) -> int:
        """0 for a review under way (or not queued), else its place among those waiting (from 1)."""
        for index, queued in enumerate(self._entries):
            if queued == key:
                return max(0, index - self.slots + 1)
        return 0

    def timed(self, seconds: float) -> None:
        """A hand's review took ``seconds`` in a worker: the wait estimates follow it."""
        self.seconds_per_hand += _WEIGHT * (seconds - self.seconds_per_hand)

    def _wait(self, key: Key) -> int:
        """Seconds, by the estimate, until the review ``key`` is made: the hands of the reviews
        before it and its own, shared among the workers."""
        hands = 0
        for queued, entry in self._entries.items():
            hands += entry.progress.left
            if queued == key:
                break
        return max(1, math.ceil(hands * self.seconds_per_hand / self.slots))

    def _start(self) -> None:
        for entry in list(self._entries.values())[: self.slots]:
            entry.turn.set()
