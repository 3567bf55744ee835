"""CPU of one action in a server room, without the network or the database, on one core.

What ``pedro serve`` does for every action besides moving bytes: check it
against the rules, apply it and build the ``state`` message of each of the
four seats (``Room.act`` up to ``Room.broadcast``). The store answers at
once, so this is the room's own share of the per-action CPU that
``benchmarks/server_load.py`` reports; random legal play, the load
benchmark's options.

    python benchmarks/room_cpu.py [--variant cinch] [--actions 20000] [--seed 0] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import time
from datetime import UTC, datetime
from typing import Any

from pedro.engine.choices import CardChoice
from pedro.server.storage.tables_db import SeatRow, TableRow
from pedro.server.tables.room import Room, RoomSettings
from pedro.server.tables.views import words

DEFAULT_OPTIONS = '{"target": 21, "lose_at": -21}'


class InstantStore:
    """Commits everything at once (the room awaits an already-resolved future)."""

    def append_action(
        self, table_id: str, seq: int, text: str, stand_in: bool = False, timed_out: bool = False
    ) -> asyncio.Future[None]:
        future = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future

    def mark_finished(self, table_id: str) -> None:
        pass


class Seat:
    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat
        self.received = 0

    def send(self, text: str | bytes) -> None:
        self.received += len(text)

    def replaced(self) -> None:
        pass


def new_room(variant: str, options: dict[str, Any], seed: int, game: int) -> tuple[Room, list[Seat]]:
    seats = [SeatRow(s, "human", name=f"p{s}", secret_hash=f"{s:064d}") for s in range(4)]
    row = TableRow(
        f"{game:022d}", f"load {game}", variant, options, f"{seed}:{game}", False, datetime.now(UTC), seats
    )
    room = Room(row, InstantStore(), RoomSettings())  # type: ignore[arg-type]
    clients = [Seat(s) for s in range(4)]
    for client in clients:
        room.attach(client, client.seat)
    return room, clients


async def play(variant: str, options: dict[str, Any], actions: int, seed: int) -> tuple[int, float, int]:
    """Play random games until ``actions`` were accepted; (actions, CPU seconds, bytes handed over)."""
    rng = random.Random(seed)
    done = 0
    cpu = 0.0
    sent = 0
    game = 0
    while done < actions:
        room, clients = new_room(variant, options, seed, game)
        game += 1
        while not room.finished and done < actions:
            legal = room.state.legal()
            action = legal.sample(rng) if isinstance(legal, CardChoice) else rng.choice(legal)
            text = words(action, room.rules)
            seat = clients[room.state.current_player]
            start = time.process_time()
            await room.act(seat, text, room.seq)
            cpu += time.process_time() - start
            done += 1
        sent += sum(c.received for c in clients)
    return done, cpu, sent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="cinch")
    parser.add_argument("--options", default=DEFAULT_OPTIONS)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print the functions that took the most time")
    args = parser.parse_args()
    options = json.loads(args.options)
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    done, cpu, sent = asyncio.run(play(args.variant, options, args.actions, args.seed))
    if profiler is not None:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    print(f"{args.variant} {json.dumps(options)}: {done} actions, 4 seats told of each")
    print(f"room CPU per action  {1e6 * cpu / done:.1f} us (check, apply, four state messages)")
    print(f"state text per action {sent / done / 4:.0f} bytes per seat")


if __name__ == "__main__":
    main()
