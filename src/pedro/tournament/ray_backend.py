"""A tournament backend that spreads deals over a Ray cluster (the optional extra ``pedro[ray]``).

Ray is imported only when a :class:`RayBackend` is started, so ``import pedro``
never needs it. Deals go out in chunks, one Ray task per chunk, because a
duplicate deal takes milliseconds and a task costs about as much; the results
come back in completion order, which :func:`~pedro.tournament.runner.run_tournament`
sorts, and since every seat's player is seeded from the deal's seed and the
seat alone they are the same as on any local backend.

Without an address (nor ``RAY_ADDRESS``) a local Ray instance is started with
``num_cpus`` CPUs and shut down at the end. With an address the backend joins that cluster
(``HOST:PORT`` of its head, ``auto`` for the one started with ``ray start`` on
this machine, or ``ray://HOST:PORT`` through Ray Client) and uses all its CPUs;
``pedro`` must be installed in the same version on every node. Ray retries an
unreachable address for minutes, so the address is first tried with a plain
TCP connection, and the whole connection is given ``connect_timeout`` seconds.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType, TracebackType
from typing import Any, TypeVar

from pedro.tournament.runner import TournamentError

T = TypeVar("T")

#: What to run when the extra is missing.
INSTALL_HINT = "pip install 'pedro[ray]'"
#: At most this many deals per Ray task: bigger chunks cost less, smaller ones move the progress bar.
MAX_CHUNK = 32
#: Chunks per CPU when there are enough deals, so that fast and slow workers even out.
CHUNKS_PER_CPU = 4


class RayBackendError(Exception):
    """Ray is missing, the cluster cannot be reached, or it failed while playing."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`RayBackendError` that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise RayBackendError(
            f"--backend ray needs Ray, which is not installed ({exc}); install it with: {INSTALL_HINT}"
        ) from None
    return ray


def parse_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` or ``ray://HOST:PORT``; ``None`` for ``auto``."""
    if address == "auto":
        return None
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")  # an IPv6 literal, [::1]:6379
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayBackendError(
            f"bad Ray address {address!r}: give the head node as HOST:PORT (e.g. 10.0.0.5:6379), "
            "ray://HOST:PORT for Ray Client, or auto for the cluster started on this machine"
        )
    return host, int(port)


def check_reachable(address: str, timeout: float) -> None:
    """Fail fast, with the reason, when nothing listens at ``address``."""
    target = parse_address(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=timeout):
            pass
    except OSError as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise RayBackendError(
            f"cannot reach a Ray cluster at {address}: {reason}; start one with `ray start --head` "
            "and give the address it prints"
        ) from None


def _play_chunk(fn: Callable[[int], T], indexes: Sequence[int]) -> list[T]:
    """The body of one Ray task: a few deals in a row."""
    return [fn(i) for i in indexes]


def chunks(indexes: Sequence[int], cpus: int) -> list[Sequence[int]]:
    """Split ``indexes`` into consecutive chunks: about ``CHUNKS_PER_CPU`` per CPU, at most ``MAX_CHUNK``."""
    size = max(1, min(MAX_CHUNK, math.ceil(len(indexes) / (max(1, cpus) * CHUNKS_PER_CPU))))
    return [indexes[i : i + size] for i in range(0, len(indexes), size)]


class RayBackend:
    """Maps a function over indexes as Ray tasks; use it as a context manager.

    If this process is already connected to Ray (``ray.init`` was called) and
    no address is given, that connection is used and left open at the end.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: int | None = None,
        connect_timeout: float = 60.0,
        init_options: dict[str, Any] | None = None,
    ) -> None:
        if num_cpus is not None and num_cpus < 1:
            raise ValueError("num_cpus must be at least 1")
        self._given = address
        #: ``RAY_ADDRESS`` is where Ray itself would connect without an address
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.num_cpus = num_cpus
        self.connect_timeout = connect_timeout
        self.init_options = dict(init_options or {})
        self._ray: ModuleType | None = None
        self._owned = False
        self._task: Any = None
        #: CPUs of the instance or cluster, known once started
        self.cpus = 0
        #: whether the backend started its own local instance
        self.local = self.address is None

    # -- lifecycle

    def __enter__(self) -> RayBackend:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def start(self) -> None:
        """Connect to the cluster, or start a local instance; raises :class:`RayBackendError`."""
        ray = import_ray()
        if ray.is_initialized():
            if self._given is not None:
                raise RayBackendError("this process is already connected to Ray; do not give an address")
            self.local = False
        else:
            if self.address is not None:
                check_reachable(self.address, timeout=min(10.0, self.connect_timeout))
            self._init(ray)
            self._owned = True
        self._ray = ray
        self._task = ray.remote(_play_chunk)
        self.cpus = int(ray.cluster_resources().get("CPU", 0))
        if self.cpus < 1:
            self.close()
            raise RayBackendError(f"the Ray cluster at {self.address} has no CPUs to play on")

    def _init(self, ray: ModuleType) -> None:
        """``ray.init``; joining a cluster runs in a thread, so that a silent address fails in time.

        A local instance is started in this thread: Ray's processes die with the
        thread that started them.
        """
        options: dict[str, Any] = {
            "include_dashboard": False,
            "logging_level": logging.ERROR,
            "log_to_driver": False,
        }
        if self.address is None:
            options["num_cpus"] = self.num_cpus
        else:
            options["address"] = self.address
        options.update(self.init_options)
        where = "start a local Ray instance" if self.address is None else f"connect to Ray at {self.address}"
        failure: list[BaseException] = []

        def connect() -> None:
            try:
                ray.init(**options)
            except BaseException as exc:  # Ray raises SystemExit on some connection failures
                failure.append(exc)

        if self.address is None:
            connect()
        else:
            thread = threading.Thread(target=connect, name="pedro-ray-init", daemon=True)
            thread.start()
            thread.join(self.connect_timeout)
            if thread.is_alive():
                raise RayBackendError(f"could not {where}: no answer within {self.connect_timeout:g} s")
        if failure:
            exc = failure[0]
            reason = str(exc).strip() or type(exc).__name__
            if self.address not in (None, "auto") and "RAY_AUTH_MODE" not in os.environ:
                reason += (
                    "; if the cluster uses token authentication (Ray's default), set RAY_AUTH_MODE=token "
                    "and give its token (`ray get-auth-token` on the head node) in RAY_AUTH_TOKEN"
                )
            raise RayBackendError(f"could not {where}: {reason}") from None

    def close(self) -> None:
        """Shut down the local instance or leave the cluster (only if this backend connected)."""
        if self._ray is not None and self._owned:
            self._ray.shutdown()
        self._ray = None
        self._owned = False

    def describe(self) -> str:
        """Where the deals are played, for the report."""
        cpus = f"{self.cpus} CPU{'s' if self.cpus != 1 else ''}"
        if self.local:
            return f"a local Ray instance with {cpus}"
        where = f" at {self.address}" if self.address else ""
        return f"the Ray cluster{where} ({cpus})"

    # -- Backend

    def map_unordered(self, fn: Callable[[int], T], indexes: Sequence[int]) -> Iterator[T]:
        """Play the chunks as Ray tasks, yielding each result as its chunk comes back."""
        ray = self._ray
        if ray is None:
            raise RuntimeError("start the RayBackend (use it in a with block) before mapping over it")
        if not indexes:
            return
        shared = ray.put(fn)  # sent to the object store once, not with every task
        pending = [self._task.remote(shared, chunk) for chunk in chunks(indexes, self.cpus)]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield from self._get(ray, done[0])
        finally:
            for ref in pending:  # stopped early (an error, ^C): do not leave work on the cluster
                ray.cancel(ref)

    @staticmethod
    def _get(ray: ModuleType, ref: Any) -> list[Any]:
        """A chunk's results; a deal that fails raises its own :class:`TournamentError`.

        Any other error of a task (pedro missing on a node, a bug) becomes a
        :class:`RayBackendError` naming it, without Ray's remote traceback.
        """
        try:
            result: list[Any] = ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause
            if isinstance(cause, TournamentError):
                raise cause from None
            what = f"{type(cause).__name__}: {cause}" if isinstance(cause, BaseException) else str(exc)
            raise RayBackendError(f"a deal failed on Ray: {what}") from None
        except ray.exceptions.RayError as exc:
            raise RayBackendError(f"the Ray cluster failed while playing: {exc}") from None
        return result
