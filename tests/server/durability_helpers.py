"""Players and references for the persistence tests: humans over WebSockets, the same game in-process.

The humans follow a deterministic policy: at state ``seq`` a seat draws its
decision from ``random.Random(f"{seed}:{seq}")`` and the legal actions the
server sent (the ``legal`` object of ``docs/server.md``). So a decision does
not depend on how the game reached that state, on restarts, or on which
connection sent it, and an uninterrupted reference game played in-process
with the same policy (and the computer players kept and seeded as
``tables.computers`` keeps them: one per seat and hand) must produce exactly
the record the server produces, however often it was killed on the way.
"""

from __future__ import annotations

import json
import queue
import random
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from tests.serving import ServerProcess, postgres_database
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from pedro.engine.actions import action_cards, parse_action_text, parse_action_words
from pedro.engine.state import GameState
from pedro.players import Player, choose, make_player
from pedro.records import record_from_game
from pedro.server.storage.tables_db import Store, TableRow
from pedro.server.tables.computers import player_seed
from pedro.server.tables.views import observation_json
from pedro.variants.options import make_ruleset

#: Seed of the human policy (the table's own seed comes from the server).
HUMAN_SEED = "durability"
#: Card sets tried before giving up when the server does not list the legal sets.
MAX_TRIES = 300
#: Longest wait for any one message; generous, for a loaded machine.
MESSAGE_TIMEOUT = 60.0
#: Client-side pacing, below the server's limit (20 messages a second, bursts of 40).
PACE_RATE = 15.0
PACE_BURST = 30.0

State = dict[str, Any]


# ---------------------------------------------------------------------------- databases


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL of ``kind`` ("sqlite": a file under ``tmp_path``; "postgres": a new database)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'pedro.sqlite3'}"
    else:
        with postgres_database() as url:
            yield url


def stored_table(url: str, table_id: str) -> TableRow:
    """The table as the database holds it (read with a store of our own, server running or not)."""
    store = Store(url)
    try:
        row = store.load_table(table_id)
    finally:
        store.close()
    assert row is not None, f"table {table_id} is not in the database"
    return row


def wait_stored(url: str, table_id: str, count: int, timeout: float = 30.0) -> None:
    """Wait until the database holds at least ``count`` actions of the table."""
    store = Store(url)
    try:
        deadline = time.monotonic() + timeout
        while True:
            row = store.load_table(table_id)
            if row is not None and len(row.actions) >= count:
                return
            assert time.monotonic() < deadline, f"table {table_id}: action {count} not stored in {timeout} s"
            time.sleep(0.01)
    finally:
        store.close()


# ---------------------------------------------------------------------------- the human policy


def candidates(legal: dict[str, Any], rng: random.Random) -> Iterator[str]:
    """Actions to try, in order, for the ``legal`` object of a state; the first legal one is played.

    Auctions favour passing and the lowest bid, so that games with a short
    target end in a few hands. Card sets come from ``sets`` when the server
    lists them; otherwise random sets of an allowed size are drawn, and the
    server's ``illegal`` answer moves on to the next one.
    """
    if legal["kind"] == "list":
        actions = [a["action"] for a in legal["actions"]]
        bids = sorted((int(a.split()[1]), a) for a in actions if re.fullmatch(r"bid \d+", a))
        if bids and "pass" in actions:
            yield "pass" if rng.random() < 0.6 else bids[0][1]
        elif bids:
            yield bids[0][1]
        else:
            yield rng.choice(actions)
        return
    verb = legal["verb"]
    alternatives = [a["action"] for a in legal["alternatives"]]
    if legal["sets"] is not None:
        # an empty entry is not a set of cards (see the report on ``views._choice_json``)
        yield rng.choice(alternatives + [f"{verb} {s}" for s in legal["sets"] if s])
        return
    required = list(legal["required"])
    free = [c for c in legal["pool"] if c not in required]
    sizes = [k for k in legal["sizes"] if len(required) <= k <= len(required) + len(free) and k > 0]
    for _ in range(MAX_TRIES):
        pick = rng.randrange(len(alternatives) + len(sizes))
        if pick < len(alternatives):
            yield alternatives[pick]
        else:
            k = sizes[pick - len(alternatives)]
            yield f"{verb} " + " ".join(required + rng.sample(free, k - len(required)))


def choice(legal: dict[str, Any], seed: str, seq: int, attempt: int) -> str:
    """The ``attempt``-th candidate (from 0) at state ``seq``."""
    for i, action in enumerate(candidates(legal, random.Random(f"{seed}:{seq}"))):
        if i == attempt:
            return action
    raise AssertionError(f"no legal action among {attempt} tries at state {seq}: {legal}")


def same_action(text: str, seat: int, words: str, max_bid: int) -> bool:
    """Stored record text ``text`` is ``words`` played by ``seat`` (card order aside)."""
    return parse_action_text(text, max_bid) == (seat, parse_action_words(words, max_bid))


def last_is(text: str | None, last: dict[str, Any] | None, max_bid: int) -> bool:
    """A state's ``last`` tells the stored action ``text`` (a card set hidden from the seat as a count)."""
    if text is None or last is None:
        return text is None and last is None
    seat, action = parse_action_text(text, max_bid)
    if last["action"] is None:
        return bool(last["seat"] == seat and last["count"] == len(action_cards(action)))
    return same_action(text, last["seat"], last["action"], max_bid)


# ---------------------------------------------------------------------------- the reference


def reference_game(
    variant: str,
    options: dict[str, Any],
    table_seed: str,
    seats: list[dict[str, Any]],
    human_seed: str = HUMAN_SEED,
) -> GameState:
    """The game played without a server: humans by the policy, computers as ``tables.computers`` keeps
    them (a player per seat and hand, asked each of its seat's decisions of the hand)."""
    rules = make_ruleset(variant, options)
    state = GameState(rules, seed=table_seed)
    players: dict[tuple[int, int], Player] = {}
    seq = 0
    while not state.is_over:
        seat = state.current_player
        spec = seats[seat]
        if spec["kind"] == "computer":
            key = (seat, state.hand_index)
            if key not in players:
                name = spec.get("player") or "basic"
                players[key] = make_player(name, player_seed(table_seed, seat, state.hand_index))
            action = choose(players[key], state)
        else:
            legal = observation_json(state.observation(seat), private=True)["legal"]
            for words in candidates(legal, random.Random(f"{human_seed}:{seq}")):
                action = parse_action_words(words, rules.max_bid)
                if state.why_illegal(action) is None:
                    break
            else:
                raise AssertionError(f"the policy found no legal action at state {seq}: {legal}")
        state.apply(action)
        seq += 1
        assert seq < 5000, "the reference game does not end"
    return state


def reference_record(table: CreatedTable, table_seed: str, human_seed: str = HUMAN_SEED) -> dict[str, Any]:
    state = reference_game(table.variant, table.options, table_seed, table.seats, human_seed)
    return record_from_game(state)


def without_names(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "names"}


def record_actions(record: dict[str, Any]) -> list[str]:
    return [text for hand in record["hands"] for text in hand["actions"]]


# ---------------------------------------------------------------------------- HTTP


@dataclass
class CreatedTable:
    id: str
    variant: str
    options: dict[str, Any]
    #: one entry per seat, as sent to ``POST /api/tables``
    seats: list[dict[str, Any]]
    #: the secrets of the claimed human seats
    secrets: dict[int, str] = field(default_factory=dict)

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s["kind"] == "human"]

    @property
    def computers(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s["kind"] == "computer"]


def api(server: ServerProcess, method: str, path: str, body: Any = None, status: int = 200) -> Any:
    response = httpx.request(method, f"{server.url}{path}", json=body, timeout=60.0)
    assert response.status_code == status, f"{method} {path}: {response.status_code} {response.text}"
    return response.json()


def create_table(
    server: ServerProcess,
    variant: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    *,
    claim: list[int] | None = None,
) -> CreatedTable:
    """A table whose human seats in ``claim`` (default: all) are taken, the first by its creator."""
    humans = [i for i, s in enumerate(seats) if s["kind"] == "human"]
    claim = humans if claim is None else claim
    body = {"variant": variant, "options": options, "title": f"durability {variant}", "seats": seats}
    body |= {"seat": claim[0], "name": f"P{claim[0]}"} if claim else {"seat": None}
    created = api(server, "POST", "/api/tables", body, status=201)
    table = CreatedTable(created["table"], variant, options, seats)
    if claim:
        table.secrets[claim[0]] = created["secret"]
    for seat in claim[1:]:
        table.secrets[seat] = claim_seat(server, table, seat)
    return table


def claim_seat(server: ServerProcess, table: CreatedTable, seat: int) -> str:
    answer = api(server, "POST", f"/api/tables/{table.id}/seats", {"seat": seat, "name": f"P{seat}"})
    secret: str = answer["secret"]
    table.secrets[seat] = secret
    return secret


def server_log(server: ServerProcess, lines: int = 40) -> str:
    try:
        return "\n".join(server.log_path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no server log)"


# ---------------------------------------------------------------------------- human players


@dataclass
class Outcome:
    """Why ``Humans.play`` returned: ``finished``, ``stopped`` (at ``state``, not acted on) or
    ``sent`` (an action was sent on ``state``; ``sent`` is (seat, seq, words), not yet confirmed)."""

    kind: str
    state: State
    sent: tuple[int, int, str] | None = None


class _Pacer:
    """Keeps one connection under the server's message rate."""

    def __init__(self) -> None:
        self.tokens = PACE_BURST
        self.stamp = time.monotonic()

    def wait(self) -> None:
        now = time.monotonic()
        self.tokens = min(PACE_BURST, self.tokens + (now - self.stamp) * PACE_RATE)
        self.stamp = now
        if self.tokens < 1.0:
            time.sleep((1.0 - self.tokens) / PACE_RATE)
            self.tokens = 1.0
            self.stamp = time.monotonic()
        self.tokens -= 1.0


class Humans:
    """The claimed human seats of one table, each on its own WebSocket, playing the policy.

    Every connection's reader thread puts ``(generation, seat, message)`` on one
    queue; a restart starts a new generation, so nothing from a dead
    connection is mistaken for news.
    """

    def __init__(self, server: ServerProcess, table: CreatedTable, human_seed: str = HUMAN_SEED) -> None:
        self.server = server
        self.table = table
        self.seed = human_seed
        self.inbox: queue.Queue[tuple[int, int, State | None]] = queue.Queue()
        self.generation = 0
        self.stack = ExitStack()
        self.connections: dict[int, ClientConnection] = {}
        self.threads: list[threading.Thread] = []
        self.pacers: dict[int, _Pacer] = {}
        self.backlog: deque[tuple[int, State]] = deque()
        #: the newest state each seat received on its current connection
        self.latest: dict[int, State] = {}
        #: the highest ``seq`` announced to any seat: every action up to it was confirmed
        self.confirmed = 0
        #: the ``seq`` of the state the last action was sent on, and which candidate it was
        self.acted: tuple[int, int, int] | None = None  # (seat, seq, attempt)
        self.sent_count = 0

    # -------------------------------------------------------------- connections

    def connect(self, seats: list[int] | None = None) -> dict[int, State]:
        """Open a connection per seat, join with its secret; return each seat's first state."""
        self.generation += 1
        self.latest = {}
        self.backlog.clear()
        self.acted = None
        seats = sorted(self.table.secrets) if seats is None else seats
        for seat in seats:
            ws = self.stack.enter_context(
                connect(
                    f"{self.server_of(seat).ws_url}/ws/{self.table.id}",
                    open_timeout=30,
                    close_timeout=2,
                    proxy=None,
                    max_size=None,
                )
            )
            self.connections[seat] = ws
            self.pacers[seat] = _Pacer()
            thread = threading.Thread(
                target=self._read, args=(self.generation, seat, ws), daemon=True, name=f"ws-{seat}"
            )
            thread.start()
            self.threads.append(thread)
            self._send(seat, {"type": "join", "secret": self.table.secrets[seat]})
        first: dict[int, State] = {}
        while len(first) < len(seats):
            seat, message = self._receive()
            self.backlog.append((seat, message))
            if message["type"] == "error":
                raise AssertionError(f"seat {seat} could not join: {message}")
            if message["type"] == "state" and seat not in first:
                first[seat] = message
        return first

    def server_of(self, seat: int) -> ServerProcess:
        """The server process a seat connects to (one for all, unless a subclass spreads them)."""
        return self.server

    def close(self) -> None:
        self.stack.close()  # closes every connection
        for thread in self.threads:
            thread.join(10)
        assert not any(t.is_alive() for t in self.threads), "a WebSocket reader did not stop"
        self.connections.clear()
        self.threads.clear()
        self.generation += 1

    def _read(self, generation: int, seat: int, ws: ClientConnection) -> None:
        try:
            while True:
                self.inbox.put((generation, seat, json.loads(ws.recv())))
        except ConnectionClosed:
            pass
        finally:
            self.inbox.put((generation, seat, None))

    def _send(self, seat: int, message: dict[str, Any]) -> None:
        self.pacers[seat].wait()
        self.connections[seat].send(json.dumps(message))

    def _receive(self, timeout: float = MESSAGE_TIMEOUT) -> tuple[int, State]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                generation, seat, message = self.inbox.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise AssertionError(
                    f"table {self.table.id}: no message for {timeout} s (confirmed seq {self.confirmed})\n"
                    + server_log(self.server)
                ) from None
            if generation != self.generation:
                continue
            if message is None:
                raise AssertionError(
                    f"table {self.table.id}: seat {seat}'s connection closed\n" + server_log(self.server)
                )
            return seat, message

    def _next(self) -> tuple[int, State]:
        if self.backlog:
            return self.backlog.popleft()
        return self._receive()

    # -------------------------------------------------------------- play

    def play(
        self,
        *,
        stop: Callable[[State], bool] | None = None,
        kill_after_send: Callable[[State], bool] | None = None,
    ) -> Outcome:
        """Play the human seats until the game is over, or a state matches ``stop`` (returned before
        acting on it), or an action was sent on a state that matches ``kill_after_send``."""
        for seat in sorted(self.latest):  # a state received earlier may still wait for its action
            outcome = self._consider(seat, self.latest[seat], stop, kill_after_send)
            if outcome is not None:
                return outcome
        while True:
            seat, message = self._next()
            kind = message["type"]
            if kind == "error":
                self._refused(seat, message)
            elif kind == "state":
                self.latest[seat] = message
                self.confirmed = max(self.confirmed, message["seq"])
                outcome = self._consider(seat, message, stop, kill_after_send)
                if outcome is not None:
                    return outcome

    def _consider(
        self,
        seat: int,
        state: State,
        stop: Callable[[State], bool] | None,
        kill_after_send: Callable[[State], bool] | None,
    ) -> Outcome | None:
        seq = state["seq"]
        if seq < self.confirmed:
            return None  # an old state, already overtaken
        if state["finished"]:
            return Outcome("finished", state)
        if stop is not None and stop(state):
            return Outcome("stopped", state)
        legal = state["game"]["legal"]
        if legal is None or (self.acted is not None and self.acted[1] == seq):
            return None
        words = self._act(seat, seq, legal, 0)
        if kill_after_send is not None and kill_after_send(state):
            return Outcome("sent", state, (seat, seq, words))
        return None

    def _act(self, seat: int, seq: int, legal: dict[str, Any], attempt: int) -> str:
        words = choice(legal, self.seed, seq, attempt)
        self.acted = (seat, seq, attempt)
        self.sent_count += 1
        assert self.sent_count < 5000, "the game does not end"
        self._send(seat, {"type": "act", "action": words, "seq": seq})
        return words

    def _refused(self, seat: int, error: State) -> None:
        acted = self.acted
        state = self.latest.get(seat)
        if acted is None or acted[0] != seat or state is None or state["seq"] != acted[1]:
            raise AssertionError(f"seat {seat} was refused without acting: {error}")
        if error["code"] == "illegal":  # a drawn card set the rules do not allow: the next candidate
            self._act(seat, acted[1], state["game"]["legal"], acted[2] + 1)
        elif error["code"] == "rate":  # the message was ignored: send it again a little later
            time.sleep(0.5)
            self._act(seat, acted[1], state["game"]["legal"], acted[2])
        else:
            raise AssertionError(f"seat {seat}: the server refused an action: {error}")

    def settle(self) -> dict[int, State]:
        """Read until every seat has the newest announced state (call while a human is to act)."""
        while any(self.latest.get(s, {"seq": -1})["seq"] < self.confirmed for s in self.connections):
            seat, message = self._next()
            if message["type"] == "state":
                self.latest[seat] = message
                self.confirmed = max(self.confirmed, message["seq"])
            elif message["type"] == "error":
                self._refused(seat, message)
        return dict(self.latest)


# ---------------------------------------------------------------------------- state predicates


def in_play(state: State, hand: int, tricks: int) -> bool:
    """Hand ``hand`` is in its card play with at least ``tricks`` tricks done."""
    game = state["game"]
    return game["hand_index"] == hand and game["phase"] == "play" and len(game["tricks"]) >= tricks


def my_turn(state: State) -> bool:
    return state["game"]["legal"] is not None


def same_view(state: State) -> dict[str, Any]:
    """What must survive a restart unchanged: everything but who is connected."""
    return {key: state[key] for key in ("seq", "you", "table", "last", "finished", "started", "game")}
