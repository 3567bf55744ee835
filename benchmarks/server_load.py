"""Load benchmark of ``pedro serve``: N tables, 4 WebSocket clients each, random legal play, flat out.

Starts a real ``pedro serve`` process (``--bot-delay 0``) on a free local port
with a fresh SQLite file (or ``--database URL``). Client processes (by default
one, an asyncio loop with every connection) create the tables over HTTP (the
creator sits at seat 0, the others claim seats 1-3), connect four clients per
table and wait until every client has joined; then all start at once. A
client whose turn it is sends a random legal action on the state it was shown
and times it until a state with a higher ``seq`` arrives (the confirmation).
When a game ends, its four clients move to a new table, so the load stays at
N tables until the time (or ``--games`` per table) runs out.

Clients keep to the server's message rate (``RATE_PER_SECOND``/``RATE_BURST``
in ``pedro.server.tables.websocket``) with a bucket of their own, slightly under it; the
times they waited for it are reported. At the end every finished game's
record is fetched from ``GET /api/tables/{id}/record`` and replayed with
``pedro.records.replay``.

    python benchmarks/server_load.py [--tables 100] [--seconds 60] [--games G]
        [--variant cinch] [--options '{"target": 21, "lose_at": -21}'] [--database URL]
        [--seed 0] [--client-processes 1] [--think SECONDS] [--no-compression] [--keep]
        [--servers 1] [--spread seats|tables]

Acting at once, every table always has one action in flight, so this is a
closed loop: the mean latency is about tables / actions per second (Little's
law), and the latency target is a throughput target in disguise. ``--think``
gives the clients a person's pause instead, for latency at a given load.

``--servers 2`` (PostgreSQL only) measures twice, each time on a new database
made beside the one given (its user needs CREATEDB): one server process, then
two on the one database, and prints the two side by side with their ratio.
Each table's four clients are spread over the processes (``--spread tables``
puts a whole table on one process instead); tables are created through the
first.

Random bidding seldom reaches a target (scores drift below zero), so the
default options end a game when a side reaches 21 or falls to -21.
The figures only mean something on an otherwise idle machine: the
``machine`` line says how much CPU other processes took during the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path
from typing import Any

import httpx
import orjson
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK

from pedro.records import ReplayError, replay
from pedro.server.tables.websocket import RATE_BURST, RATE_PER_SECOND
from pedro.variants.options import OptionError, make_ruleset

DEFAULT_OPTIONS = '{"target": 21, "lose_at": -21}'
#: Clients stay this far under the server's rate limit (bursts and jitter on the way).
RATE_MARGIN = 0.95
#: After the time is up: how long to wait for actions already sent to be confirmed.
DRAIN_SECONDS = 5.0
#: Tables each client process sets up at once before the start.
SETUP_CONCURRENCY = 10
#: Idle HTTP connections are dropped by the clients after this long, before the server's own
#: limit (uvicorn closes them after 5 s): reusing one the server is closing was a ReadError.
KEEPALIVE_SECONDS = 2.0
#: Longest wait for an answer over HTTP.
HTTP_TIMEOUT = 60.0
#: Error messages kept per code, to show what went wrong.
SAMPLES_PER_CODE = 3
#: How the server writes a ``state`` message: its start, up to the ``seq``; the ``finished`` flag
#: when the game is over (the flag, a key, cannot be spelt so inside a JSON string: quotes there
#: are escaped); and its end when it asks nothing of the seat (its own fields come last, ``legal``
#: the last of them). Such a message is not decoded whole: only its ``seq`` and ``finished`` count.
STATE_HEAD = re.compile(rb'\{"type":"state","seq":(\d+),')
FINISHED = b',"finished":true,"started":'
NOTHING_TO_DO = b'"legal":null}}'


# ---------------------------------------------------------------------------- client side


@dataclass
class WorkerConfig:
    index: int
    base_url: str
    #: every server process's URL (``--servers``)
    server_urls: list[str]
    #: "seats": a table's seats over all servers; "tables": each table's seats on one server
    spread: str
    slots: list[int]
    variant: str
    options: dict[str, Any]
    seconds: float
    games: int
    seed: int
    compression: bool
    think: float


@dataclass
class WorkerResult:
    index: int
    latencies: list[float] = field(default_factory=list)  # seconds, one per confirmed action
    #: (table id, seq at the end) of every game played to the end
    finished: list[tuple[str, int]] = field(default_factory=list)
    tables_created: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: dict[str, list[str]] = field(default_factory=dict)
    illegal_guesses: int = 0  # card sets guessed from the pool and refused (retried; not errors)
    throttled: int = 0  # sends that waited for the client's rate bucket
    throttled_seconds: float = 0.0
    unconfirmed: int = 0  # actions still unconfirmed when the clients stopped
    elapsed: float = 0.0  # from the common start to the last client stopping
    cpu_seconds: float = 0.0  # this process's user+system time during the run
    setup_seconds: float = 0.0
    fatal: str | None = None

    def error(self, code: str, message: str) -> None:
        self.errors[code] += 1
        samples = self.error_samples.setdefault(code, [])
        if len(samples) < SAMPLES_PER_CODE:
            samples.append(message[:300])


class JsonHttp:
    """The clients' HTTP: JSON POSTs over kept-alive HTTP/1.1 connections, and nothing else.

    Opening a table takes four requests (create it, claim three seats); through
    httpx they took a fifth of the clients' CPU. Idle connections are kept for
    ``KEEPALIVE_SECONDS`` and shared by the tables; a request is never sent twice.
    """

    def __init__(self, base_url: str) -> None:
        self.host, _, port = base_url.removeprefix("http://").partition(":")
        self.port = int(port)
        self.idle: list[tuple[float, asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def post(self, path: str, body: Any) -> tuple[int, Any]:
        """(status, decoded JSON answer); OSError, EOFError or TimeoutError if there was none."""
        data = orjson.dumps(body)
        request = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        ).encode() + data
        async with asyncio.timeout(HTTP_TIMEOUT):
            reader, writer = await self._connection()
            try:
                writer.write(request)
                status = int((await reader.readuntil(b"\r\n")).split()[1])
                length, close = 0, False
                while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
                    name, _, value = line.partition(b":")
                    name = name.strip().lower()
                    if name == b"content-length":
                        length = int(value)
                    elif name == b"connection":
                        close = value.strip().lower() == b"close"
                answer = await reader.readexactly(length)
            except BaseException:
                writer.close()
                raise
        if close:
            writer.close()
        else:
            self.idle.append((time.monotonic(), reader, writer))
        return status, orjson.loads(answer) if answer else None

    async def _connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        now = time.monotonic()
        while self.idle:
            since, reader, writer = self.idle.pop()
            if now - since < KEEPALIVE_SECONDS and not reader.at_eof():
                return reader, writer
            writer.close()
        return await asyncio.open_connection(self.host, self.port)

    def close(self) -> None:
        for _, _, writer in self.idle:
            writer.close()
        self.idle.clear()


class RateBucket:
    """The server's token bucket, a little slower: a client never gets a ``rate`` refusal."""

    def __init__(self, result: WorkerResult) -> None:
        self.rate = RATE_PER_SECOND * RATE_MARGIN
        self.burst = RATE_BURST - 2.0
        self.tokens = self.burst
        self.stamp = time.monotonic()
        self.result = result

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1.0:
                self.tokens -= 1.0
                return
            wait = (1.0 - self.tokens) / self.rate
            self.result.throttled += 1
            self.result.throttled_seconds += wait
            await asyncio.sleep(wait)


@dataclass
class Pending:
    seq: int
    sent: float
    guessed: bool  # a card set guessed from the pool, which the rules may refuse


def random_action(legal: dict[str, Any], rng: random.Random) -> tuple[str, bool]:
    """A random legal action for a state's ``legal``; True when it is a guess the server may refuse."""
    if legal["kind"] == "list":
        return rng.choice(legal["actions"])["action"], False
    alternatives = [a["action"] for a in legal["alternatives"]]
    verb = legal["verb"]
    if legal["sets"] is not None:
        return rng.choice([f"{verb} {s}" for s in legal["sets"]] + alternatives), False
    required: list[str] = legal["required"]
    pool: list[str] = legal["pool"]
    others = [c for c in pool if c not in required]
    sizes = [n for n in legal["sizes"] if max(1, len(required)) <= n <= len(pool)]
    if not sizes or (alternatives and rng.random() < 0.1):
        return rng.choice(alternatives), False
    n = rng.choice(sizes)
    return f"{verb} {' '.join(required + rng.sample(others, n - len(required)))}", True


class SeatClient:
    """One player's WebSocket: acts on every state that gives it a turn, and times the confirmation."""

    def __init__(
        self,
        ws: ClientConnection,
        seat: int,
        rng: random.Random,
        result: WorkerResult,
        run: RunState,
    ) -> None:
        self.ws = ws
        self.seat = seat
        self.rng = rng
        self.result = result
        self.run = run
        self.bucket = RateBucket(result)
        self.seq: int | None = None  # of the last state shown (None: none yet)
        self.legal: dict[str, Any] | None = None  # what that state lets this seat do
        self.finished = False
        self.pending: Pending | None = None
        self.blocked_seq = -1  # a refusal on this state: wait for the next one
        self.finished_seq: int | None = None
        self.expect_close = False

    async def send(self, message: dict[str, Any]) -> float:
        await self.bucket.take()
        sent = time.perf_counter()
        await self.ws.send(orjson.dumps(message), text=True)
        return sent

    async def maybe_act(self) -> None:
        seq = self.seq
        legal = self.legal
        if seq is None or self.pending is not None or not self.run.acting():
            return
        if legal is None or self.finished or seq == self.blocked_seq:
            return
        action, guessed = random_action(legal, self.rng)
        self.pending = Pending(seq, 0.0, guessed)
        if self.run.think > 0:  # a person's pause, 0.5 to 1.5 times --think; not part of the latency
            await asyncio.sleep(self.run.think * (0.5 + self.rng.random()))
            if not self.run.acting():
                self.pending = None
                return
        self.pending.sent = await self.send({"type": "act", "action": action, "seq": seq})

    async def read(self, done: asyncio.Event) -> None:
        """Read until the game is over (or the connection closes)."""
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.perf_counter()
                head = STATE_HEAD.match(raw)
                if head is not None and raw.endswith(NOTHING_TO_DO):
                    seq, finished, legal = int(head[1]), FINISHED in raw, None
                    kind = "state"
                else:
                    message = orjson.loads(raw)
                    kind = message.get("type")
                    if kind == "state":
                        seq, finished, legal = message["seq"], message["finished"], message["game"]["legal"]
                if kind == "state":
                    if self.pending is not None and seq > self.pending.seq:
                        self.result.latencies.append(now - self.pending.sent)
                        self.pending = None
                    self.seq, self.legal, self.finished = seq, legal, finished
                    if finished:
                        self.finished_seq = seq
                        done.set()
                        return
                    await self.maybe_act()
                elif kind == "error":
                    code = message.get("code", "?")
                    pending = self.pending
                    self.pending = None
                    if code == "illegal" and pending is not None and pending.guessed:
                        self.result.illegal_guesses += 1
                    else:
                        self.result.error(code, f"seat {self.seat}: {message.get('message')}")
                        self.blocked_seq = pending.seq if pending is not None else -1
                    await self.maybe_act()
                elif kind != "welcome":
                    self.result.error("unexpected", f"seat {self.seat}: {raw!s:.200}")
        except ConnectionClosedOK:
            return  # a clean close ends the messages
        except ConnectionClosed as exc:
            if not self.expect_close:
                self.result.error("disconnect", f"seat {self.seat}: connection closed: {exc}")
            done.set()
        except Exception:
            self.result.error("client_bug", traceback.format_exc())
            done.set()


class RunState:
    """Shared by a worker's tables: has the common start come, has the time run out."""

    def __init__(self, think: float) -> None:
        self.think = think
        self.started = asyncio.Event()
        self.deadline = float("inf")
        self.ready = 0  # tables whose clients have all joined

    def acting(self) -> bool:
        return self.started.is_set() and time.monotonic() < self.deadline


async def create_table(http: JsonHttp, config: WorkerConfig, slot: int, game: int) -> tuple[str, list[str]]:
    body = {
        "variant": config.variant,
        "options": config.options,
        "title": f"load {slot}.{game}",
        "listed": False,
        "seats": [{"kind": "human"}] * 4,
        "seat": 0,
        "name": f"p{slot}-0",
    }
    status, created = await http.post("/api/tables", body)
    if status != 201:
        raise RuntimeError(f"create table: {status} {created}")
    table: str = created["table"]
    secrets = [created["secret"]]
    for seat in (1, 2, 3):
        status, claimed = await http.post(
            f"/api/tables/{table}/seats", {"seat": seat, "name": f"p{slot}-{seat}"}
        )
        if status != 200:
            raise RuntimeError(f"claim seat {seat}: {status} {claimed}")
        secrets.append(claimed["secret"])
    return table, secrets


async def open_table(
    http: JsonHttp,
    config: WorkerConfig,
    slot: int,
    game: int,
    rng: random.Random,
    result: WorkerResult,
    run: RunState,
) -> tuple[str, list[SeatClient]]:
    table, secrets = await create_table(http, config, slot, game)
    result.tables_created += 1
    # "seats", as a load balancer without sticky sessions would: seat i of table slot s on server
    # (s + i) mod n; "tables", as one routing by the table's address would: all on server s mod n
    servers = config.server_urls
    ws_urls = [
        servers[(slot + (seat if config.spread == "seats" else 0)) % len(servers)].replace("http://", "ws://")
        + f"/ws/{table}"
        for seat in range(len(secrets))
    ]
    compression = "deflate" if config.compression else None
    opened = await asyncio.gather(
        *(connect(url, compression=compression, max_size=2**22, proxy=None) for url in ws_urls),
        return_exceptions=True,
    )
    sockets = [ws for ws in opened if isinstance(ws, ClientConnection)]
    if len(sockets) < len(opened):
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        raise next(exc for exc in opened if isinstance(exc, BaseException))
    clients = [
        SeatClient(ws, seat, random.Random(rng.random()), result, run) for seat, ws in enumerate(sockets)
    ]
    for client, secret in zip(clients, secrets, strict=True):
        await client.send({"type": "join", "secret": secret})
    return table, clients


async def slot_loop(
    http: JsonHttp,
    config: WorkerConfig,
    slot: int,
    result: WorkerResult,
    run: RunState,
    setup: asyncio.Semaphore,
) -> None:
    rng = random.Random(f"{config.seed}:{slot}")
    game = 0
    while True:
        if game == 0:
            async with setup:
                table, clients = await open_table(http, config, slot, game, rng, result, run)
                done = asyncio.Event()
                readers = [asyncio.create_task(c.read(done)) for c in clients]
                while any(c.seq is None for c in clients) and not done.is_set():
                    await asyncio.sleep(0.01)  # joined, and shown the table
            run.ready += 1
            await run.started.wait()
            for c in clients:
                await c.maybe_act()
        else:
            try:
                table, clients = await open_table(http, config, slot, game, rng, result, run)
            except (OSError, EOFError, ValueError, RuntimeError, ConnectionClosed, TimeoutError) as exc:
                result.error("new_table", f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(1.0)
                if time.monotonic() >= run.deadline:
                    return
                continue
            done = asyncio.Event()
            readers = [asyncio.create_task(c.read(done)) for c in clients]
        try:
            remaining = run.deadline - time.monotonic()
            if remaining > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), timeout=remaining)
            # the game is over, or the time is: let actions already sent be confirmed
            drain_until = time.monotonic() + DRAIN_SECONDS
            while any(c.pending is not None for c in clients) and time.monotonic() < drain_until:
                if all(r.done() for r in readers):
                    break
                await asyncio.sleep(0.01)
        finally:
            finished = next((c.finished_seq for c in clients if c.finished_seq is not None), None)
            for c in clients:
                c.expect_close = True
                if c.pending is not None and finished is None:
                    result.unconfirmed += 1
            await asyncio.gather(*(c.ws.close() for c in clients), return_exceptions=True)
            for r in readers:
                r.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
        if finished is not None:
            result.finished.append((table, finished))
        game += 1
        if time.monotonic() >= run.deadline or (config.games and game >= config.games):
            return


async def worker_main(config: WorkerConfig, ready: Barrier, go: Event) -> WorkerResult:
    run = RunState(config.think)
    result = WorkerResult(config.index)
    http = JsonHttp(config.base_url)
    try:
        setup = asyncio.Semaphore(SETUP_CONCURRENCY)
        setup_start = time.monotonic()
        tasks = [
            asyncio.create_task(slot_loop(http, config, slot, result, run, setup)) for slot in config.slots
        ]
        while run.ready < len(config.slots):  # every first table set up, its clients joined
            await asyncio.sleep(0.05)
            for t in tasks:
                if t.done():
                    t.result()  # raises what went wrong
        result.setup_seconds = time.monotonic() - setup_start
        await asyncio.to_thread(ready.wait)
        await asyncio.to_thread(go.wait)
        start = time.monotonic()
        cpu0 = _cpu_self()
        run.deadline = start + config.seconds
        run.started.set()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        result.elapsed = time.monotonic() - start
        result.cpu_seconds = _cpu_self() - cpu0
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                result.error("client_crash", f"{type(outcome).__name__}: {outcome}")
                traceback.print_exception(outcome)
    finally:
        http.close()
    return result


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_loop(main: Coroutine[Any, Any, WorkerResult]) -> WorkerResult:
    """Run on uvloop when installed (``uvicorn[standard]`` brings it): less overhead in the clients."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def worker_entry(config: WorkerConfig, ready: Barrier, go: Event, out: Any) -> None:
    try:
        result = run_loop(worker_main(config, ready, go))
    except BaseException:
        result = WorkerResult(config.index, fatal=traceback.format_exc())
        ready.abort()
    out.put(result)


# ---------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    database: str, port: int, log_path: Path, log_level: str, extra: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """``pedro serve`` with the load's flags, and ``extra`` ones."""
    command = [
        sys.executable, "-m", "pedro.cli.main", "serve", "--port", str(port), "--database", database,
        "--bot-delay", "0", "--away", "3600", "--log-level", log_level,
        # every table and client comes from this one address, and a finished game's clients make a
        # new table
        "--tables-per-minute", "1000000", "--open-tables-per-client", "1000000",
        "--websockets-per-client", "1000000", *extra,
    ]  # fmt: skip
    log = log_path.open("ab")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"pedro serve exited early:\n{log_path.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1.0).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"pedro serve did not answer within 60 s:\n{log_path.read_text()}")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@dataclass
class ProcStats:
    cpu_seconds: float
    peak_rss_mb: float
    rss_mb: float


def proc_stats(pid: int) -> ProcStats:
    """CPU time (user+system, all threads) and memory of a running process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15)
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )

    def mb(key: str) -> float:
        return int(status[key].split()[0]) / 1024  # kB

    return ProcStats(cpu, mb("VmHWM"), mb("VmRSS"))


def machine_busy() -> float:
    """CPU seconds every core of the machine has spent busy since boot (from /proc/stat)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")  # guest time is already in user


# ---------------------------------------------------------------------------- checks and report


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def check_records(base_url: str, finished: list[tuple[str, int]]) -> tuple[int, list[str]]:
    """Fetch and replay every finished game's record; (clean replays, problems)."""
    clean = 0
    problems: list[str] = []
    with httpx.Client(base_url=base_url, timeout=60.0) as http:
        for table, seq in finished:
            response = http.get(f"/api/tables/{table}/record")
            if response.status_code != 200:
                problems.append(f"{table}: GET record: {response.status_code} {response.text[:200]}")
                continue
            record = response.json()
            try:
                result = replay(record)
            except ReplayError as exc:
                problems.append(f"{table}: does not replay: {exc}")
                continue
            actions = sum(len(hand["actions"]) for hand in record["hands"])
            if not result.finished:
                problems.append(f"{table}: the record replays to an unfinished game")
            elif actions != seq:
                problems.append(f"{table}: the record has {actions} actions, the clients saw {seq}")
            else:
                clean += 1
    return clean, problems


def code_version() -> str:
    """The checkout's commit (and whether src/ has changes), when run from a git checkout."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"git {commit}" + (" with uncommitted changes in src/" if dirty else "")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100, help="tables played at once (4 clients each)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play (default 60)")
    parser.add_argument(
        "--games", type=int, default=0, help="stop each table after this many games (0: no limit)"
    )
    parser.add_argument("--variant", default="cinch", help="a 4-player variant (default cinch)")
    parser.add_argument(
        "--options", default=DEFAULT_OPTIONS, help=f"JSON rule options (default {DEFAULT_OPTIONS})"
    )
    parser.add_argument(
        "--database", help="SQLAlchemy URL (default: a fresh SQLite file in a temporary folder)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' random choices")
    parser.add_argument("--client-processes", type=int, default=1, help="client processes (tables split)")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="pedro serve processes on the one database (PostgreSQL for more than 1); each table's "
        "seats are spread over them, as behind a load balancer without sticky sessions",
    )
    parser.add_argument(
        "--spread",
        choices=["seats", "tables"],
        default="seats",
        help="with --servers: each table's seats over all processes (default), or each table on one",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="clients pause about this long (s) before acting (default 0)"
    )
    parser.add_argument("--no-compression", action="store_true", help="clients refuse permessage-deflate")
    parser.add_argument("--server-log-level", default="info", help="pedro serve --log-level (default info)")
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary folder (database, server log)"
    )
    args = parser.parse_args(argv)
    try:
        args.options = json.loads(args.options)
        rules = make_ruleset(args.variant, args.options)
    except (ValueError, OptionError, KeyError) as exc:
        parser.error(f"--variant/--options: {exc}")
    if rules.players != 4:
        parser.error(f"{args.variant} is played by {rules.players}; the benchmark seats 4 clients per table")
    if args.tables < 1 or args.client_processes < 1 or args.servers < 1:
        parser.error("--tables, --client-processes and --servers must be at least 1")
    if args.servers > 1 and not (args.database or "").startswith("postgres"):
        parser.error("--servers above 1 needs --database postgresql://...: processes share PostgreSQL only")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.servers == 1:
        return measure(args, 1, args.database).code
    # two runs, each on a database of its own made beside the one given: one process, then N
    runs = []
    for n in (1, args.servers):
        with scratch_database(args.database, keep=args.keep) as database:
            print(f"\n=== {n} server process(es)", flush=True)
            runs.append(measure(args, n, database))
    one, many = runs
    print(f"\n=== {args.servers} processes beside 1 ({SPREADS[args.spread]})")
    for n, r in zip((1, args.servers), runs, strict=True):
        print(
            f"{n} process(es)       {r.actions_per_second:6.0f} actions/s, p99 {r.p99_ms:.1f} ms, "
            f"CPU per action: servers {r.server_ms_per_action:.2f} ms, "
            f"clients {r.client_ms_per_action:.2f} ms, the rest (the database) {r.other_ms_per_action:.2f} ms"
        )
    print(f"throughput ratio   {many.actions_per_second / one.actions_per_second:.2f}x")
    # what every core of the machine, busy all the time, would give at the CPU per action measured
    cores = os.cpu_count() or 1
    most = 1000 * cores / (many.server_ms_per_action + many.client_ms_per_action + many.other_ms_per_action)
    print(
        f"machine ceiling    {most:.0f} actions/s = {most / one.actions_per_second:.2f}x: all {cores} cores "
        f"busy at the {args.servers}-process run's CPU per action (servers, clients and database together)"
    )
    return max(one.code, many.code)


SPREADS = {"seats": "each table's seats spread over them", "tables": "each table's seats on one of them"}


@contextlib.contextmanager
def scratch_database(url: str, *, keep: bool) -> Iterator[str]:
    """A new PostgreSQL database beside ``url``'s (its user must be allowed to create databases)."""
    base = make_url(url).set(drivername="postgresql+psycopg")
    name = f"{base.database}_load_{os.getpid()}_{int(time.time() * 1000) % 10**8}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        if not keep:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@dataclass
class Figures:
    code: int
    actions_per_second: float = 0.0
    p99_ms: float = 0.0
    server_ms_per_action: float = 0.0
    client_ms_per_action: float = 0.0
    #: CPU of everything else on the machine during the run (the database, mostly), per action
    other_ms_per_action: float = 0.0


def measure(args: argparse.Namespace, count: int, database: str | None) -> Figures:
    """Start ``count`` server processes on ``database`` (None: a fresh SQLite file), load them, report."""
    workdir = Path(tempfile.mkdtemp(prefix="pedro-load-"))
    database = database or f"sqlite:///{workdir / 'load.sqlite3'}"
    servers: list[Server] = []
    try:
        for i in range(count):
            port = free_port()
            log_path = workdir / f"server{i}.log"
            process = start_server(database, port, log_path, args.server_log_level)
            servers.append(Server(process, f"http://127.0.0.1:{port}", log_path))
            print(
                f"pedro serve (pid {process.pid}) on {servers[-1].url}, database {database}, log {log_path}"
            )
        return run(args, servers)
    finally:
        for server in servers:
            stop_server(server.process)
        if not args.keep and args.database is None:
            for path in sorted(workdir.iterdir()):
                path.unlink()
            workdir.rmdir()


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    log_path: Path


def run(args: argparse.Namespace, servers: list[Server]) -> Figures:
    base_url = servers[0].url  # tables are created there; their seats are spread over all
    k = min(args.client_processes, args.tables)
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(k + 1)
    go = context.Event()
    out = context.Queue()
    processes = []
    for i in range(k):
        config = WorkerConfig(
            index=i,
            base_url=base_url,
            server_urls=[server.url for server in servers],
            spread=args.spread,
            slots=list(range(i, args.tables, k)),
            variant=args.variant,
            options=args.options,
            seconds=args.seconds,
            games=args.games,
            seed=args.seed,
            compression=not args.no_compression,
            think=args.think,
        )
        p = context.Process(target=worker_entry, args=(config, ready, go, out), daemon=True)
        p.start()
        processes.append(p)
    setup_start = time.monotonic()
    try:
        ready.wait(timeout=600)
    except threading.BrokenBarrierError:
        failed = [out.get() for _ in processes]
        print("client process failed:\n" + "\n".join(r.fatal or "" for r in failed), file=sys.stderr)
        return Figures(1)
    setup = time.monotonic() - setup_start
    print(f"set up {args.tables} tables and {4 * args.tables} clients in {setup:.1f} s; playing", flush=True)
    before = [proc_stats(server.process.pid) for server in servers]
    busy_before = machine_busy()
    start = time.monotonic()
    go.set()
    results: list[WorkerResult] = sorted((out.get() for _ in processes), key=lambda r: r.index)
    wall = time.monotonic() - start
    after = [proc_stats(server.process.pid) for server in servers]
    busy = machine_busy() - busy_before
    for p in processes:
        p.join(30)
    fatal = [r.fatal for r in results if r.fatal]
    if fatal:
        print("client process failed:\n" + "\n".join(f for f in fatal if f), file=sys.stderr)
        return Figures(1)

    latencies = sorted(x for r in results for x in r.latencies)
    finished = [f for r in results for f in r.finished]
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r.errors)
    elapsed = max(r.elapsed for r in results)
    actions = len(latencies)
    server_cpus = [a.cpu_seconds - b.cpu_seconds for a, b in zip(after, before, strict=True)]
    server_cpu = sum(server_cpus)
    print()
    print(f"server code        {code_version()}")
    print(f"variant            {args.variant} {json.dumps(args.options)}")
    print(f"tables at once     {args.tables}")
    think = f", thinking {args.think:g} s a move" if args.think else ", acting at once"
    print(f"clients            {4 * args.tables} in {k} client process(es){think}")
    if len(servers) > 1:
        print(f"servers            {len(servers)} processes, {SPREADS[args.spread]}")
    print(f"tables created     {sum(r.tables_created for r in results)}")
    print(f"games finished     {len(finished)}")
    print(f"elapsed            {elapsed:.1f} s (setup before it {setup:.1f} s)")
    print(f"actions confirmed  {actions}")
    print(f"actions/s          {actions / elapsed:.0f}")
    p50, p90, p99, top = (1000 * percentile(latencies, q) for q in (50, 90, 99, 100))
    print(f"latency ms         p50 {p50:.1f}  p90 {p90:.1f}  p99 {p99:.1f}  max {top:.1f}")
    print(f"errors             {sum(errors.values())} {dict(errors) if errors else ''}")
    for r in results:
        for code, samples in r.error_samples.items():
            for sample in samples:
                print(f"  {code}: {sample}")
    print(f"unconfirmed at end {sum(r.unconfirmed for r in results)}")
    print(f"guessed card sets refused (retried) {sum(r.illegal_guesses for r in results)}")
    throttled = sum(r.throttled for r in results)
    waited = sum(r.throttled_seconds for r in results)
    print(f"client rate waits  {throttled} sends, {waited:.1f} s in all (server limit {RATE_PER_SECOND:g}/s)")
    for i, (cpu, stats) in enumerate(zip(server_cpus, after, strict=True)):
        print(
            f"server process {i}   CPU {cpu:.1f} s = {100 * cpu / wall:.0f}% of a core; "
            f"RSS {stats.rss_mb:.0f} MB, peak {stats.peak_rss_mb:.0f} MB"
        )
    for r in results:
        share = 100 * r.cpu_seconds / r.elapsed
        print(f"client process {r.index}   CPU {r.cpu_seconds:.1f} s = {share:.0f}% of a core")
    if actions:
        per_action = 1000 * server_cpu / actions
        ceiling = 1000 / per_action
        print(
            f"CPU per action     server(s) {per_action:.2f} ms (a core: {ceiling:.0f} actions/s at most); "
            f"clients {1000 * sum(r.cpu_seconds for r in results) / actions:.2f} ms"
        )
    clients_cpu = sum(r.cpu_seconds for r in results)
    other_cpu = max(0.0, busy - server_cpu - clients_cpu)
    cores = os.cpu_count() or 1
    print(
        f"machine            {cores} cores busy {busy:.1f} CPU s = {100 * busy / wall / cores:.0f}% of them; "
        f"other processes {other_cpu:.1f} CPU s"
    )
    check_start = time.monotonic()
    clean, problems = check_records(base_url, finished)
    print(f"records replayed   {clean} of {len(finished)} cleanly ({time.monotonic() - check_start:.1f} s)")
    for problem in problems[:10]:
        print(f"  {problem}")
    bad = []
    for server in servers:
        with server.log_path.open() as log:
            bad += [
                line.rstrip()
                for line in log
                if " ERROR " in line or "Traceback" in line or " WARNING " in line
            ]
    print(f"server log         {len(bad)} warnings/errors")
    for line in bad[:10]:
        print(f"  {line}")
    ok = not errors and not problems and clean == len(finished) and not bad
    per = 1000 / actions if actions else 0.0
    return Figures(
        0 if ok else 1, actions / elapsed, p99, server_cpu * per, clients_cpu * per, other_cpu * per
    )


if __name__ == "__main__":
    sys.exit(main())
