"""Each game rated as it ends, once, in a thread; and at start, those a stopped server did not rate.

The rating itself is ``pedro.ratings``'s, applied in one transaction by ``RatedGames.finish_game``,
which does nothing the second time: a retry, or another server process, cannot rate a game twice.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from pedro.server.finished.workers import WorkerError, Workers
from pedro.server.profiles.rated_games import CATCH_UP_AGE, RatedGames, game_end_of
from pedro.server.storage.tables_db import Store, StoreError
from pedro.server.tables.game import GameEnd, GameOver

log = logging.getLogger("pedro.server")

#: Waits before rating a game again when the database refused (it is rated once, whatever happens).
RETRY_SECONDS = (1.0, 4.0, 15.0)


class Rater:
    """A game-over listener: links each game that ends to its profiles and rates it, in a thread
    (``RatedGames``); and at start, the games a stopped server did not rate (``catch_up``)."""

    def __init__(self, games: RatedGames, store: Store, workers: Workers) -> None:
        self.games = games
        self.store = store
        self.workers = workers
        self._tasks: set[asyncio.Task[None]] = set()
        self._catching_up: asyncio.Task[None] | None = None

    def __call__(self, over: GameOver) -> None:
        task = asyncio.get_running_loop().create_task(self._rate(over.end))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _rate(self, end: GameEnd) -> None:
        for wait in (*RETRY_SECONDS, None):
            try:
                rating = await asyncio.to_thread(self.games.finish_game, end)
                break
            except StoreError as exc:  # the database is away for a moment: the game is rated later
                if wait is None:
                    log.error("table %s: the game could not be rated: %s", end.table_id, exc)
                    return
                log.warning(
                    "table %s: rating the game failed (%s); retrying in %g s", end.table_id, exc, wait
                )
                await asyncio.sleep(wait)
            except Exception:  # a bug must not take the table down; it is logged
                log.exception("table %s: the game could not be rated", end.table_id)
                return
        if rating is None:
            log.info("table %s: rated already", end.table_id)
        elif rating.rated:
            log.info("table %s: rated, %d ratings moved", end.table_id, len(rating.changes))
        else:
            log.info("table %s: not rated (%s)", end.table_id, rating.reason)

    def catch_up(self) -> None:
        """Rate, in the background, the finished games a stopped server did not (the newest week's):
        each is read, played again in a worker process, and rated (once: another process may too)."""
        self._catching_up = asyncio.get_running_loop().create_task(self._catch_up())

    async def _catch_up(self) -> None:
        try:
            missed = await asyncio.to_thread(self.games.unrated, datetime.now(UTC) - CATCH_UP_AGE)
        except StoreError as exc:
            log.error("could not look for finished games never rated: %s", exc)
            return
        for table_id in missed:
            try:
                row = await asyncio.to_thread(self.store.load_table, table_id)
                if row is None:
                    continue
                end = await self.workers.run(game_end_of, row)
            except (StoreError, WorkerError, ValueError) as exc:
                log.error("table %s: the game could not be read to rate it: %s", table_id, exc)
                continue
            except Exception:  # one game's failure must not stop the others
                log.exception("table %s: the game could not be read to rate it", table_id)
                continue
            log.info("table %s: rating a game that was not rated when it ended", table_id)
            await self._rate(end)

    async def stop(self) -> None:
        """Let ratings of games that just ended commit (a thread cannot be stopped midway anyway);
        the catch-up of older ones stops (the next start goes on with it)."""
        if self._catching_up is not None:
            self._catching_up.cancel()
            await asyncio.gather(self._catching_up, return_exceptions=True)
        await asyncio.gather(*self._tasks, return_exceptions=True)
