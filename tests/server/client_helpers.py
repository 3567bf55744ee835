"""In-process clients for the server tests: the app under ``TestClient``, tables, seats and sockets.

``TestClient`` used as a context manager runs the app's lifespan and one event
loop for every request and WebSocket session, as ``pedro serve`` would. Its
WebSocket sessions have no receive timeout, so :func:`recv` adds one: a test
that waits for a message the server never sends fails instead of hanging.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from pedro.cards import cards_of, format_card
from pedro.display import Took, breakdown
from pedro.engine.actions import play_cards, play_mask
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Status
from pedro.engine.state import GameState
from pedro.server.app import PedroApp, create_app
from pedro.server.services import Services
from pedro.server.settings import ServerSettings
from pedro.server.tables import websocket
from pedro.server.tables.room import Room
from pedro.server.tables.views import words

#: How long a test waits for a message the server should send. Generous, as a wait that is met
#: returns at once: 5 s timed out once in CI on a loaded machine (two test runs side by side with
#: Chromium and PostgreSQL), in a test that passes in about a second alone.
WAIT = 20.0

#: A card as the server writes it: rank and suit letters, or a joker's name, standing alone: not a
#: piece of a table id or secret, whose URL-safe characters ("5C-iRQG...") would read as one.
CARD_RE = re.compile(r"(?<![\w-])([2-9TJQKA][SHDC]|JK|BJ|SJ)(?![\w-])")


@contextmanager
def running_server(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    """The app on a fresh SQLite file, lifespan running; computer players act at once by default.

    Its worker process is started by the first request that needs it, not with the app (tests
    start many apps, most of which never need one).
    """
    settings.setdefault("bot_delay", 0)
    settings.setdefault("start_workers", False)
    app = create_app(ServerSettings(database=f"sqlite:///{tmp_path}/db.sqlite3", **settings))
    with TestClient(app) as client:
        yield client


def new_profile(client: TestClient, name: str) -> dict[str, Any]:
    """A profile made over the API: its id, name and secret."""
    response = client.post("/api/profiles", json={"name": name})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def services_of(client: TestClient) -> Services:
    """The services the app under test was made on (tests may look behind the API)."""
    app = client.app
    assert isinstance(app, PedroApp)
    return app.services


def room_of(client: TestClient, table: str) -> Room:
    """The server's room for a table (tests may look behind the API)."""
    return services_of(client).registry.rooms[table]


def seats_spec(*kinds: str) -> list[dict[str, Any]]:
    """``"human"``, ``"basic"``, ``"random"``: one seat description each."""
    return [{"kind": "human"} if k == "human" else {"kind": "computer", "player": k} for k in kinds]


def create_table(
    client: TestClient,
    variant: str = "cinch",
    *,
    seats: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    seat: int | None = 0,
    name: str | None = "Ann",
    listed: bool = True,
    title: str = "",
) -> dict[str, Any]:
    """Create a table (four human seats by default) and return the API's answer."""
    body: dict[str, Any] = {
        "variant": variant,
        "options": options or {},
        "title": title,
        "listed": listed,
        "seats": seats if seats is not None else seats_spec("human", "human", "human", "human"),
        "seat": seat,
        "name": name,
    }
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def claim(client: TestClient, table: str, seat: int, name: str | None = None) -> str:
    response = client.post(f"/api/tables/{table}/seats", json={"seat": seat, "name": name or f"P{seat}"})
    assert response.status_code == 200, response.text
    secret: str = response.json()["secret"]
    return secret


def full_table(
    client: TestClient, variant: str = "cinch", options: dict[str, Any] | None = None, **kwargs: Any
) -> tuple[str, list[str]]:
    """A table with every seat human and claimed: its id and the four secrets, seat by seat."""
    made = create_table(client, variant, options=options, **kwargs)
    table = made["table"]
    secrets = [made["secret"]] + [claim(client, table, s) for s in range(1, 4)]
    return table, secrets


# ---------------------------------------------------------------------------- sockets


def recv_raw(ws: WebSocketTestSession, timeout: float = WAIT) -> dict[str, Any]:
    """The next ASGI message the server sent (``websocket.send`` or ``websocket.close``)."""

    async def _receive() -> dict[str, Any]:
        with anyio.fail_after(timeout):
            message: dict[str, Any] = await ws._send_rx.receive()
            return message

    return ws.portal.call(_receive)


def send_burst(ws: WebSocketTestSession, texts: list[str]) -> None:
    """Hand the server many messages at once, as a flooding client's network would."""

    async def _send() -> None:
        for text in texts:
            ws._receive_tx.send_nowait({"type": "websocket.receive", "text": text})

    ws.portal.call(_send)


def recv_each(sockets: list[WebSocketTestSession], timeout: float = WAIT) -> list[dict[str, Any]]:
    """The next ASGI message of each socket, in one trip to the server's thread."""

    async def _receive() -> list[dict[str, Any]]:
        with anyio.fail_after(timeout):
            return [await ws._send_rx.receive() for ws in sockets]

    got: list[dict[str, Any]] = sockets[0].portal.call(_receive)
    return got


def recv_text(ws: WebSocketTestSession, timeout: float = WAIT) -> str:
    message = recv_raw(ws, timeout)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000))
    text: str = message["text"]
    return text


def recv(ws: WebSocketTestSession, timeout: float = WAIT) -> dict[str, Any]:
    """The next JSON message; WebSocketDisconnect if the server closed the socket."""
    message: dict[str, Any] = json.loads(recv_text(ws, timeout))
    return message


def pending(ws: WebSocketTestSession, wait: float = 0.05) -> list[dict[str, Any]]:
    """Every message (ASGI form) that arrives within ``wait`` seconds, without risking losing one."""

    async def _collect() -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + wait
        while True:
            try:
                got.append(ws._send_rx.receive_nowait())
                continue
            except anyio.WouldBlock:
                pass
            if time.monotonic() >= deadline:
                return got
            await anyio.sleep(0.005)

    return ws.portal.call(_collect)


def pending_json(ws: WebSocketTestSession, wait: float = 0.05) -> list[dict[str, Any]]:
    return [json.loads(m["text"]) for m in pending(ws, wait) if m["type"] == "websocket.send"]


def recv_until(
    ws: WebSocketTestSession, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
) -> dict[str, Any]:
    """Skip messages until one satisfies ``pred``; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        message = recv(ws, max(0.01, deadline - time.monotonic()))
        if pred(message):
            return message


def join(ws: WebSocketTestSession, secret: str) -> dict[str, Any]:
    """Join a seat: checks the welcome and returns the first state."""
    ws.send_json({"type": "join", "secret": secret})
    welcome = recv(ws)
    assert welcome["type"] == "welcome", welcome
    state = recv(ws)
    assert state["type"] == "state", state
    return state


def watch(ws: WebSocketTestSession) -> dict[str, Any]:
    ws.send_json({"type": "watch"})
    welcome = recv(ws)
    assert welcome == {"type": "welcome", "seat": None}, welcome
    state = recv(ws)
    assert state["type"] == "state", state
    return state


def act(ws: WebSocketTestSession, action: str, seq: int) -> None:
    ws.send_json({"type": "act", "action": action, "seq": seq})


def choose(state: dict[str, Any], rng: random.Random, room: Room | None = None) -> str:
    """A random legal action from a state message's ``legal`` (the room helps with unlisted sets)."""
    legal = state["game"]["legal"]
    assert legal is not None, "not this seat's turn"
    if legal["kind"] == "list":
        return str(rng.choice(legal["actions"])["action"])
    options = [a["action"] for a in legal["alternatives"]]
    if legal["sets"] is not None:
        options += [f"{legal['verb']} {cards}" for cards in legal["sets"]]
        return str(rng.choice(options))
    assert room is not None, "too many sets to list: the room must sample one"
    choice = room.state.legal()
    assert isinstance(choice, CardChoice)
    return words(choice.sample(rng), room.rules)


# ---------------------------------------------------------------------------- what a seat may see

#: A card as labels write it: ``10♥``, ``A♠``.
PRETTY_RE = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
_SUIT_OF_SYMBOL = dict(zip("♠♥♦♣", "SHDC", strict=True))


def card_tokens(text: str) -> set[str]:
    """Card codes named in a text, in either the code (``TH``) or the label (``10♥``) form."""
    found = set(CARD_RE.findall(text))
    found.update(
        ("T" if rank == "10" else rank) + _SUIT_OF_SYMBOL[suit] for rank, suit in PRETTY_RE.findall(text)
    )
    return found


def public_cards(state: GameState) -> set[int]:
    """Cards everyone at the table may see now, read from the engine's state.

    Discards and kills laid face up, cards shown by a player who went up or
    out (or cold, where cold cards are shown), and this hand's plays.
    """
    mask = 0
    for seat in range(state.players):
        mask |= (state._discards[seat] & state._face_up) | state._killed[seat]
        status = state._status[seat]
        if status in (Status.UP, Status.OUT) or (status == Status.COLD and state.rules.cold_cards_face_up):
            mask |= state._shown[seat]
    tricks = [*state._tricks, *([state._trick] if state._trick is not None else [])]
    for trick in tricks:
        for _, action in trick.plays:
            mask |= play_mask(action)
    return set(cards_of(mask))


def visible_cards(state: GameState, seat: int | None) -> set[int]:
    """Cards ``seat`` may see now (None: a spectator): the public ones, and a seat's own hand,
    own discards, the cards it has looked at (``known``) and those it gave its partner."""
    cards = public_cards(state)
    if seat is not None:
        mask = state.hands[seat] | state._discards[seat] | state._seen[seat]
        for giver, given in (m for r in state._received for m in r):
            if giver == seat:
                mask |= given
        cards.update(cards_of(mask))
    return cards


def _took(took: Took) -> dict[str, Any]:
    card = None if took.card is None else format_card(took.card)
    return {"name": took.name, "card": card, "points": took.points}


def _last_trick(state: GameState) -> list[tuple[int, set[str]]] | None:
    if state._tricks:
        trick = state._tricks[-1]
    elif state.results and state.results[-1].tricks:
        trick = state.results[-1].tricks[-1]
    else:
        return None
    return [(seat, {format_card(c) for c in play_cards(a)}) for seat, a in trick.plays]


class LeakChecker:
    """Checks every message the server sends, when it is sent, against what its receiver may see.

    Installed over ``WsClient.send``: a room sends from inside the change it
    announces, so the room's state at that moment is the one the message
    describes. Problems are collected (the check runs in the server's thread)
    for the test to assert on.
    """

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.sent: Counter[str] = Counter()
        self.messages = 0
        self.cards_seen = 0
        self._cache: dict[tuple[str, int, int | None], tuple[frozenset[str], frozenset[str]]] = {}

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = websocket.WsClient.send
        checker = self

        def send(client: websocket.WsClient, text: str | bytes) -> None:
            shown = text.decode() if isinstance(text, bytes) else text  # state messages come encoded
            try:
                checker.check_ws(client, shown)
            except Exception as exc:  # a bug in the check must fail the test, not the server
                checker.problems.append(f"the check itself failed: {exc!r} on {shown[:300]}")
            original(client, text)

        monkeypatch.setattr(websocket.WsClient, "send", send)

    def check_ws(self, client: websocket.WsClient, text: str) -> None:
        self.sent[text] += 1
        room = client.room
        if room is None:
            app = client.websocket.app
            assert isinstance(app, PedroApp)
            registry = app.services.registry
            room = registry.rooms.get(client.websocket.path_params.get("table", ""))
        self.check(room, client.seat, text, "websocket")

    def check(self, room: Room | None, seat: int | None, text: str, where: str) -> None:
        """``text`` may name only cards ``seat`` (None: anyone) may see at ``room`` now."""
        self.messages += 1
        if room is not None:
            text = text.replace(room.id, "<table>")  # an id is random letters: it may contain "AH"
        message = json.loads(text)
        allowed: frozenset[str] = frozenset()
        deck: frozenset[str] = frozenset()
        if room is not None:
            allowed, deck = self._cards(room, seat)
            if isinstance(message, dict) and message.get("type") == "state":
                message = self._vet_state(room, seat, message)
        named = card_tokens(json.dumps(message, ensure_ascii=False))
        self.cards_seen += len(named)
        leaked = named - allowed if room is None else (named & deck) - allowed
        if leaked:
            who = "a spectator" if seat is None else f"seat {seat}"
            seed = room.row.seed if room is not None else "?"
            self.problems.append(
                f"{where}: {who} was sent {sorted(leaked)} it may not see (table seed {seed}, "
                f"seq {room.seq if room else '?'}): {text[:2000]}"
            )

    def _cards(self, room: Room, seat: int | None) -> tuple[frozenset[str], frozenset[str]]:
        """What ``seat`` may see, and the pack; the game changes only with an action (``seq``)."""
        key = (room.id, room.seq, seat)
        if key not in self._cache:
            visible = frozenset(format_card(c) for c in visible_cards(room.state, seat))
            deck = frozenset(format_card(c) for c in cards_of(room.rules.deck_mask))
            self._cache[key] = (visible, deck)
        return self._cache[key]

    def _vet_state(self, room: Room, seat: int | None, message: dict[str, Any]) -> dict[str, Any]:
        """Check a state message's public history against the game, then leave it out of the scan.

        ``trumps`` names every trump of the hand (a rule, not a location), and
        ``last_trick`` and a played ``last`` action are cards played face up,
        possibly in the hand before the one now dealt.
        """
        state = room.state
        game = dict(message["game"])
        message = dict(message, game=game)
        problem = self.problems.append
        if message["you"] != seat:
            problem(f"a state for seat {message['you']} was sent to seat {seat}")
        trumps = set(game.pop("trumps"))
        expected = set()
        if state.trump is not None:
            expected = {format_card(c) for c in cards_of(room.rules.tables(state.trump).trump_mask)}
        if trumps != expected:
            problem(f"trumps {sorted(trumps)} are not the trump suit's cards {sorted(expected)}")
        if "last_trick" in game:
            told = game.pop("last_trick")
            truth = _last_trick(state)
            if (None if told is None else [(p["seat"], set(p["cards"])) for p in told["plays"]]) != truth:
                problem(f"last_trick {told} is not the last trick played {truth}")
        last = message.get("last")
        if last is not None and last.get("action") is not None:
            assert room.last is not None
            if (last["seat"], last["action"]) != (room.last[0], words(room.last[1], room.rules)):
                problem(f"last {last} is not the last action {room.last}")
            if card_tokens(last["label"]) != card_tokens(last["action"]):
                problem(f"last {last}: the label names other cards than the action")
            if last["action"].split()[0] in ("play", "claim"):  # cards laid face up for all
                message.pop("last")
        # the sheet's breakdown names the scoring cards of finished hands: as counting found them
        # (every card of a played hand was played face up), then out of the scan of this hand
        if "sheet" in game:
            sheet = [dict(row) for row in game["sheet"]]
            for i, row in enumerate(sheet):
                result = state.results[i]
                truth = [[_took(t) for t in side] for side in breakdown(room.rules, result.seen)]
                if row.pop("taken", None) != truth:
                    problem(f"sheet row {i}: the breakdown is not counting's {truth}")
            game["sheet"] = sheet
        if seat is None:
            if (game["hand"], game["own_discards"], game["seen"], game["legal"]) != ([], [], [], None):
                problem(f"a spectator was sent a seat's own fields: {game}")
        else:
            own = {format_card(c) for c in cards_of(state.hands[seat])}
            if set(game["hand"]) != own:
                problem(f"seat {seat} was sent the hand {game['hand']}, but holds {sorted(own)}")
        return message

    def assert_clean(self) -> None:
        assert not self.problems, "\n".join(self.problems[:5])
