"""Where costly requests run: worker processes, so the event loop keeps serving every table meanwhile.

A thread would free the event loop but not the interpreter: pure Python
work in a thread holds the GIL, and the loop then waits for it at every
step of every request (a few milliseconds each, many times per request).
A worker process shares nothing with the server. It is started with the
server (``start``; else by the first costly request), so that no request
waits for a fresh interpreter (``spawn``, never a fork of the running server)
to start and import the code, and kept for the next ones. A worker ends with
the server, also when the server is killed and cannot stop it.

A job in a worker runs with the cyclic garbage collector off: a long game's
replay is a tree of millions of containers that all live until the job ends,
which each collection would walk again (about a third of the build).
Reference counting frees them when the job ends, and the collector, on again,
takes any cycles a job left.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from pedro.i18n import N_

log = logging.getLogger("pedro.server")

T = TypeVar("T")
A = TypeVar("A")

#: Added to a worker's niceness: a replay built at a game's end waits for the CPU behind the moves
#: of every table (the event loop stays at the server's own priority).
WORKER_NICENESS = 10


#: Why a job got no answer (English; the page translates it with the gettext catalog).
WORKER_STOPPED = N_("a worker process stopped before it answered")


class WorkerError(RuntimeError):
    """A worker process died (killed, or out of memory) before it answered."""


class Workers:
    """Run plain functions in worker processes; ``processes=0`` runs them in threads of this process.

    Threads are for tests, which replace a function in this process, and for
    a platform without worker processes; the server uses processes.
    """

    def __init__(self, processes: int) -> None:
        if processes < 0:
            raise ValueError("the number of worker processes is 0 or more")
        self.processes = processes
        self._pool: Executor | None = None
        #: the warm-ups ``start`` sent to the worker processes
        self.warm_ups: list[Future[object]] = []

    def _executor(self) -> Executor | None:
        if self.processes == 0:
            return None  # the loop's default thread pool
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
            )
        return self._pool

    def start(self, warm_up: Callable[[], object]) -> None:
        """Start the worker processes now, each running ``warm_up`` (a module-level function: it
        imports what the jobs need); nothing to do with threads."""
        executor = self._executor()
        if executor is None:
            return
        self.warm_ups = [executor.submit(warm_up) for _ in range(self.processes)]
        for future in self.warm_ups:
            future.add_done_callback(_warmed)

    async def run(self, function: Callable[[A], T], argument: A) -> T:
        """``function(argument)`` in a worker; both must pickle (a module-level function, plain values)."""
        executor = self._executor()
        try:
            loop = asyncio.get_running_loop()
            if executor is None:
                return await loop.run_in_executor(None, function, argument)
            return await loop.run_in_executor(executor, _without_cyclic_gc, function, argument)
        except BrokenProcessPool:
            log.error("a worker process died; the workers are restarted")
            if self._pool is executor and executor is not None:
                self._pool = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise WorkerError(WORKER_STOPPED) from None

    def close(self) -> None:
        """Stop the workers (waiting for a job already running: no process outlives the server)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _warmed(future: Future[object]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("a worker process did not start: %s", future.exception())


def _without_cyclic_gc(function: Callable[[A], T], argument: A) -> T:
    """In a worker: ``function(argument)``, the cyclic garbage collector off meanwhile."""
    gc.disable()
    try:
        return function(argument)
    finally:
        gc.enable()


def _worker_start(server: int) -> None:
    """In a new worker: leave Ctrl-C to the server, which stops its workers, and end when it is gone;
    and give way to the server: on a machine with no core to spare, the players' moves come first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)  # the server was killed: nobody is waiting for this worker's answers

    threading.Thread(target=watch, name="exit-with-server", daemon=True).start()
