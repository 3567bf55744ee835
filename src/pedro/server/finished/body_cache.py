"""Built response bodies kept by key: the least recently used go first past a size, one build per key.

Meant for what never changes once built (a finished game's record and
replay). However many requests ask for the same key at once, the body is
built once and every one of them gets it: five people opening a long game's
replay cost one build, not five. A request that gives up (its client left)
does not stop the build the others wait for.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

from pedro.server.http.response_body import Body


class BodyCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._bodies: OrderedDict[Hashable, Body] = OrderedDict()
        self._building: dict[Hashable, asyncio.Task[Body]] = {}
        #: bodies built so far (not taken from the cache), for tests and logs
        self.builds = 0

    def __len__(self) -> int:
        return len(self._bodies)

    async def get(self, key: Hashable, build: Callable[[], Awaitable[Body]]) -> Body:
        """The body kept for ``key``, else the one being built for it, else ``build()``'s, kept.

        An exception of ``build`` reaches every request waiting for it, and
        nothing is kept: the next request tries again.
        """
        body = self._bodies.get(key)
        if body is not None:
            self._bodies.move_to_end(key)
            return body
        task = self._building.get(key)
        if task is None:
            task = asyncio.ensure_future(self._build(key, build))
            task.add_done_callback(_retrieved)
            self._building[key] = task
        # shielded: a request cancelled while waiting leaves the build to the others
        return await asyncio.shield(task)

    async def _build(self, key: Hashable, build: Callable[[], Awaitable[Body]]) -> Body:
        try:
            body = await build()
            self.builds += 1
            self._keep(key, body)
            return body
        finally:
            del self._building[key]

    def _keep(self, key: Hashable, body: Body) -> None:
        size = len(body.gzipped)
        if size > self.max_bytes:
            return  # larger than the whole cache: served, not kept
        self._bodies[key] = body
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, dropped = self._bodies.popitem(last=False)
            self.bytes -= len(dropped.gzipped)


def _retrieved(task: asyncio.Task[Body]) -> None:
    """A failed build whose requests had all left is not reported as an exception nobody saw."""
    if not task.cancelled():
        task.exception()
