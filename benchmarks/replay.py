"""Replay benchmark of ``pedro serve``: a long finished game's replay and record, and /healthz meanwhile.

Plays one long game of computer players to the end: pidro to ``--target``
points, ``basic`` players against ``random`` ones (about 20 actions a hand,
and the basic side gains some 10 points a hand, so the default target of
6000 makes a game of some 12,000 actions). The game is stored twice, as two
finished tables, in a fresh SQLite file (``pedro.server.storage``), and a real
``pedro serve`` process is started on it (as ``server_load.py`` does). Then:

- table A: the first fetch of its replay (built in the server's worker
  process) and of its record, then ``--fetches`` later ones (from the cache);
  the replay's size as JSON and gzip-compressed as sent;
- table B: ``--concurrent`` clients fetch its replay at once, not yet built
  (they share one build), then again ``--rounds`` times from the cache,
  while a separate process asks ``/healthz`` every 10 ms; its latency p50,
  p99 and max, while building and while serving from the cache.

The server is first left to settle: it starts its worker process as it
starts, and that start-up is not the first request's. Beside the wall times,
the CPU time (user+system) of the server process, of its worker processes and
of the whole machine during the first fetch and the shared build: the wall
time depends on what else the machine runs, the CPU time much less.

Targets: the replay at most 5 MB, fetched in at most 1 s, and ``/healthz``
p99 at most 50 ms throughout. The figures only mean something on an
otherwise idle machine: the load average is printed before and after.

    python benchmarks/replay.py [--target 6000] [--seed 0] [--concurrent 5] [--rounds 10]
        [--fetches 5] [--keep]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import multiprocessing
import os
import secrets
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from multiprocessing.synchronize import Event
from pathlib import Path

import httpx
import orjson

from pedro.engine.actions import action_text
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.server.storage.tables_db import SeatRow, Store, TableRow
from pedro.variants.options import make_ruleset
from server_load import (
    code_version,
    free_port,
    machine_busy,
    percentile,
    proc_stats,
    start_server,
    stop_server,
)

VARIANT = "pidro"
PLAYERS = ("basic", "random")
#: pause between two /healthz requests of the prober
PROBE_INTERVAL = 0.01
#: targets from the issue this benchmark answers
MAX_MB, MAX_SECONDS, MAX_HEALTH_P99_MS = 5.0, 1.0, 50.0


def long_game(target: int, seed: str) -> list[str]:
    """The actions (record text) of a whole game of pidro to ``target``, basic against random players."""
    rules = make_ruleset(VARIANT, {"target": target})
    state = GameState(rules, seed=seed)
    actions: list[str] = []
    while not state.is_over:
        seat = state.current_player
        player = make_player(PLAYERS[seat % 2], seed=f"{seed}:{len(actions)}")
        action = player.act(state.observation(seat))
        actions.append(action_text(seat, action, rules.max_bid))
        state.apply(action)
    return actions


def store_finished(database: str, target: int, seed: str, actions: list[str]) -> str:
    """A finished table of that game in the database; its id."""
    store = Store(database)
    store.migrate()
    row = TableRow(
        id=secrets.token_urlsafe(16),
        title=f"replay benchmark ({len(actions)} actions)",
        variant=VARIANT,
        options={"target": target},
        seed=seed,
        listed=False,
        created_at=datetime.now(UTC),
        seats=[SeatRow(s, "computer", player=PLAYERS[s % 2]) for s in range(4)],
    )
    store.create_table(row)
    for seq, text in enumerate(actions):
        store.append_action(row.id, seq, text)
    store.set_finished(row.id)
    store.close()
    return row.id


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (its workers), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            pass  # gone meanwhile
    return found


class CpuMeter:
    """CPU seconds (user+system) of the server, of its worker processes and of the whole machine."""

    def __init__(self, server: int) -> None:
        self.server = server
        self.start = self.now()

    def now(self) -> tuple[float, float, float]:
        workers = 0.0
        for pid in children(self.server):
            with contextlib.suppress(OSError, KeyError):  # gone meanwhile
                workers += proc_stats(pid).cpu_seconds
        return proc_stats(self.server).cpu_seconds, workers, machine_busy()

    def since(self, start: tuple[float, float, float] | None = None) -> tuple[float, float, float]:
        begin = start if start is not None else self.start
        return tuple(b - a for a, b in zip(begin, self.now(), strict=True))  # type: ignore[return-value]


def settle(meter: CpuMeter, timeout: float = 30.0) -> float:
    """Wait until the server and its workers are idle (the workers start with the server); seconds waited."""
    start = time.monotonic()
    before = meter.now()
    while time.monotonic() - start < timeout:
        time.sleep(0.5)
        now = meter.now()
        if now[0] - before[0] + now[1] - before[1] < 0.02:
            break
        before = now
    return time.monotonic() - start


def cpu_line(cpu: tuple[float, float, float]) -> str:
    server, workers, machine = cpu
    return f"CPU: server {server:.2f} s, workers {workers:.2f} s, machine {machine:.2f} s"


def fetch(client: httpx.Client, path: str) -> tuple[float, bytes, httpx.Headers]:
    """Seconds to fetch ``path`` whole, and the bytes as sent (gzip, not decoded)."""
    start = time.perf_counter()
    with client.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as response:
        body = b"".join(response.iter_raw())
        if response.status_code != 200:
            raise RuntimeError(f"GET {path}: {response.status_code} {body[:300]!r}")
        return time.perf_counter() - start, body, response.headers


def probe(base_url: str, stop: Event, out: multiprocessing.Queue[list[tuple[float, float]]]) -> None:
    """In a process of its own: (start, seconds) of every /healthz until ``stop``."""
    times: list[tuple[float, float]] = []
    with httpx.Client(base_url=base_url, timeout=120.0) as client:
        while not stop.is_set():
            start = time.perf_counter()
            response = client.get("/healthz")
            if response.status_code != 200:
                raise RuntimeError(f"/healthz: {response.status_code}")
            times.append((time.time(), time.perf_counter() - start))
            time.sleep(PROBE_INTERVAL)
    out.put(times)


def concurrent_fetches(base_url: str, path: str, clients: int) -> list[float]:
    """``clients`` threads fetch ``path`` at once; the seconds each took."""
    seconds: list[float] = []
    barrier = threading.Barrier(clients)

    def one() -> None:
        with httpx.Client(base_url=base_url, timeout=120.0) as client:
            barrier.wait()
            seconds.append(fetch(client, path)[0])

    threads = [threading.Thread(target=one) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if len(seconds) != clients:
        raise RuntimeError(f"{clients - len(seconds)} of {clients} fetches failed")
    return seconds


def latency_line(times: list[tuple[float, float]], start: float, end: float) -> str:
    window = sorted(s for at, s in times if start <= at <= end)
    if not window:
        return "no /healthz answered in that time"
    p50, p99, top = (1000 * percentile(window, q) for q in (50, 99, 100))
    return f"p50 {p50:.1f} ms  p99 {p99:.1f} ms  max {top:.1f} ms  ({len(window)} requests)"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--target", type=int, default=6000, help="pidro target score (default 6000)")
    parser.add_argument("--seed", default="0", help="seed of the deals and the players (default 0)")
    parser.add_argument("--concurrent", type=int, default=5, help="clients fetching at once (default 5)")
    parser.add_argument("--rounds", type=int, default=10, help="cached rounds of concurrent fetches")
    parser.add_argument("--fetches", type=int, default=5, help="cached fetches of table A timed one by one")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (database, log)")
    args = parser.parse_args(argv)
    if args.target < 1 or args.concurrent < 1 or args.rounds < 0 or args.fetches < 1:
        parser.error("--target, --concurrent and --fetches must be at least 1, --rounds at least 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    actions = long_game(args.target, args.seed)
    played = time.perf_counter() - start
    print(f"played pidro to {args.target}: {len(actions)} actions in {played:.1f} s", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="pedro-replay-"))
    database = f"sqlite:///{workdir / 'replay.sqlite3'}"
    start = time.perf_counter()
    table_a = store_finished(database, args.target, args.seed, actions)
    table_b = store_finished(database, args.target, args.seed, actions)
    print(f"stored as two finished tables in {time.perf_counter() - start:.1f} s", flush=True)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    log_path = workdir / "server.log"
    server = start_server(database, port, log_path, "info")
    print(f"pedro serve (pid {server.pid}) on {base_url}, log {log_path}", flush=True)
    try:
        meter = CpuMeter(server.pid)
        waited = settle(meter)
        print(f"server settled in {waited:.1f} s (CPU: {cpu_line(meter.since())[5:]})", flush=True)
        return run(args, base_url, table_a, table_b, len(actions), load_before, meter)
    finally:
        stop_server(server)
        if not args.keep:
            for path in sorted(workdir.iterdir()):
                path.unlink()
            workdir.rmdir()


def run(
    args: argparse.Namespace,
    base_url: str,
    table_a: str,
    table_b: str,
    actions: int,
    load_before: float,
    meter: CpuMeter,
) -> int:
    with httpx.Client(base_url=base_url, timeout=120.0) as client:
        client.get("/healthz")  # the connection opened
        start = meter.now()
        first, sent, headers = fetch(client, f"/api/tables/{table_a}/replay")
        first_cpu = meter.since(start)
        raw = gzip.decompress(sent) if headers.get("content-encoding") == "gzip" else sent
        frames = orjson.loads(raw)["frames"]
        if len(frames) != actions + 1:
            raise RuntimeError(f"{len(frames)} frames for {actions} actions")
        later = sorted(fetch(client, f"/api/tables/{table_a}/replay")[0] for _ in range(args.fetches))
        record_first, record_sent, _ = fetch(client, f"/api/tables/{table_a}/record")
        record_later = sorted(fetch(client, f"/api/tables/{table_a}/record")[0] for _ in range(args.fetches))

    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    out: multiprocessing.Queue[list[tuple[float, float]]] = context.Queue()
    prober = context.Process(target=probe, args=(base_url, stop, out), daemon=True)
    prober.start()
    time.sleep(1.0)  # the prober's interpreter started and asking
    building_start = time.time()
    start = meter.now()
    building = concurrent_fetches(base_url, f"/api/tables/{table_b}/replay", args.concurrent)
    building_cpu = meter.since(start)  # the prober's requests included
    building_end = cached_start = time.time()
    cached: list[float] = []
    for _ in range(args.rounds):
        cached.extend(concurrent_fetches(base_url, f"/api/tables/{table_b}/replay", args.concurrent))
    cached_end = time.time()
    stop.set()
    health = out.get(timeout=60)
    prober.join(10)

    mb = len(sent) / 1e6
    print()
    print(f"server code        {code_version()}")
    print(f"game               pidro to {args.target}, {actions} actions, {len(frames)} frames")
    print(f"replay size        {len(raw) / 1e6:.2f} MB JSON, {mb:.2f} MB sent gzip-compressed")
    print(f"record size        {len(record_sent) / 1e3:.0f} kB sent gzip-compressed")
    print(f"replay, first      {first:.2f} s (table read, replay built); {cpu_line(first_cpu)}")
    print(f"replay, later      median {percentile(later, 50):.3f} s  max {later[-1]:.3f} s (from the cache)")
    print(f"record, first      {record_first:.2f} s; later median {percentile(record_later, 50):.3f} s")
    print(
        f"{args.concurrent} at once, building   each {min(building):.2f} to {max(building):.2f} s "
        f"(a second table: one build shared); {cpu_line(building_cpu)}"
    )
    if cached:
        print(
            f"{args.concurrent} at once, cached     median {percentile(sorted(cached), 50):.3f} s  "
            f"max {max(cached):.3f} s ({args.rounds} rounds)"
        )
    print(f"/healthz building  {latency_line(health, building_start, building_end)}")
    if cached:
        print(f"/healthz cached    {latency_line(health, cached_start, cached_end)}")
    print(f"/healthz overall   {latency_line(health, building_start, cached_end)}")
    all_health = sorted(s for at, s in health if building_start <= at <= cached_end)
    p99 = 1000 * percentile(all_health, 99)
    print(f"load average       {load_before:.2f} before, {os.getloadavg()[0]:.2f} after (1 min)")
    ok = mb <= MAX_MB and first <= MAX_SECONDS and p99 <= MAX_HEALTH_P99_MS
    verdict = "met" if ok else "NOT met"
    print(
        f"targets            {verdict}: size {mb:.2f} <= {MAX_MB:g} MB, first fetch {first:.2f} <= "
        f"{MAX_SECONDS:g} s, /healthz p99 {p99:.1f} <= {MAX_HEALTH_P99_MS:g} ms"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
