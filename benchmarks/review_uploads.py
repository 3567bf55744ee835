"""What a burst of review uploads costs ``pedro serve``: how soon each is answered, how many are
taken, how long the taken ones take, and the server's CPU (its worker processes included).

Starts a real ``pedro serve`` (one review worker, the ``expert`` as reviewer) on a fresh SQLite
file, makes ``--uploads`` different records of ``--hands``-hand cinch games between ``basic``
players, and sends them all at once to ``POST /api/review`` (seat 0), from ``--addresses``
client addresses (given in ``X-Forwarded-For``, which the server believes from 127.0.0.1).
Each upload that is taken (``202``) is asked about again, every 0.5 s, until its review is
made (by its ``id`` where the answer has one, else by sending the record again).

    python benchmarks/review_uploads.py [--uploads 40] [--hands 3] [--addresses 1] [--seed 0]
        [--patience SECONDS] [--serve-flag=--reviews-queued=40 ...]

``PYTHONPATH=OTHER/src`` runs another checkout's server (the client here only speaks HTTP).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from pedro.players.games import play_game
from pedro.records import record_from_game
from pedro.variants.options import make_ruleset
from server_load import code_version, free_port, machine_busy, percentile, start_server, stop_server

POLL_SECONDS = 0.5


def records(uploads: int, hands: int, seed: int) -> list[dict[str, Any]]:
    rules = make_ruleset("cinch", {"target": 1000})  # no game ends before its hands are played
    return [
        record_from_game(play_game(rules, ["basic"] * 4, seed + k, hands), ["Ann", "Bo", "Cy", "Di"])
        for k in range(uploads)
    ]


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of a process and every process under it, from /proc."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        grew = bool(more)
        tree |= more
    return sum(times.get(pid, 0.0) for pid in tree)


async def upload(
    client: httpx.AsyncClient, record: dict[str, Any], address: str, patience: float
) -> tuple[int, str, float, float | None]:
    """One upload: its first status and code, seconds to that answer, and to the review made."""
    headers = {"X-Forwarded-For": address}
    start = time.perf_counter()
    first = await client.post("/api/review", json={"record": record, "seat": 0}, headers=headers)
    answered = time.perf_counter() - start
    body = first.json()
    if first.status_code != 202:
        return first.status_code, str(body.get("code", body.get("status", ""))), answered, None
    deadline = time.monotonic() + patience
    response = first
    while response.status_code == 202 and time.monotonic() < deadline:
        await asyncio.sleep(POLL_SECONDS)
        if "id" in body:
            response = await client.get(f"/api/review/{body['id']}/0", headers=headers)
        else:
            response = await client.post("/api/review", json={"record": record, "seat": 0}, headers=headers)
    made = time.perf_counter() - start if response.status_code == 200 else None
    return 202, str(body.get("status", "")), answered, made


async def burst(url: str, uploads: list[dict[str, Any]], addresses: int, patience: float) -> list[Any]:
    limits = httpx.Limits(max_connections=len(uploads))
    async with httpx.AsyncClient(base_url=url, timeout=patience, limits=limits) as client:
        return await asyncio.gather(
            *(upload(client, r, f"10.1.0.{k % addresses + 1}", patience) for k, r in enumerate(uploads))
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=40)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--addresses", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--patience", type=float, default=1800.0)
    parser.add_argument("--serve-flag", action="append", default=[], help="a flag for pedro serve")
    args = parser.parse_args()
    uploads = records(args.uploads, args.hands, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        log_path = Path(folder) / "server.log"
        server = start_server(f"sqlite:///{folder}/db.sqlite3", port, log_path, "warning", args.serve_flag)
        try:
            time.sleep(5.0)  # the worker processes start and warm up
            cpu0, busy0, wall0 = tree_cpu(server.pid), machine_busy(), time.perf_counter()
            results = asyncio.run(burst(f"http://127.0.0.1:{port}", uploads, args.addresses, args.patience))
            wall = time.perf_counter() - wall0
            cpu, busy = tree_cpu(server.pid) - cpu0, machine_busy() - busy0
        finally:
            stop_server(server)
    answered = sorted(r[2] for r in results)
    made = sorted(r[3] for r in results if r[3] is not None)
    server_code = os.environ.get("PYTHONPATH") or code_version()
    print(f"server code {server_code}; {args.uploads} uploads of {args.hands}-hand cinch games, "
          f"from {args.addresses} address(es), seat 0 each")  # fmt: skip
    print("first answers:", dict(Counter(f"{r[0]} {r[1]}" for r in results)))
    print(f"answered in: median {percentile(answered, 50):.2f} s, max {answered[-1]:.2f} s")
    if made:
        print(f"reviews made: {len(made)}, the first after {made[0]:.1f} s, the last after {made[-1]:.1f} s")
    print(f"wall {wall:.1f} s; server and its workers' CPU {cpu:.1f} s "
          f"(machine, all processes: {busy:.1f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
