"""A client never receives a card it may not see.

Four test clients play whole games (one per seat, choosing random legal
actions) while a fifth watches. Every message the server sends is checked at
the moment it is sent against the room's game state: the cards it names must
be ones its receiver may see then (its hand, what it has seen, its own
discards, face-up discards and kills, shown cards, played cards). Errors
(out of turn, illegal, stale), the lobby, the table summary and the refused
record and replay of the unfinished game are checked the same way, and so
are the server's logs, as text and as the JSON lines of --log-format json.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import types
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from tests.server.client_helpers import (
    LeakChecker,
    act,
    card_tokens,
    choose,
    full_table,
    join,
    recv_each,
    recv_raw,
    room_of,
    running_server,
    watch,
)

from pedro.players import make_player
from pedro.server.http.logs import JsonFormatter
from pedro.server.tables import address_limits, websocket
from pedro.server.tables import routes as table_routes
from pedro.server.tables.views import words

#: (variant, options): every catalog variant, with hidden discards where the default shows them,
#: and a few visibility house rules; targets are lowered so that games are short.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("cinch", {}),
    ("pidro", {"discards_face": "down", "cold_cards_face": "down"}),
    ("pidro", {"trump_discard_claim": "anyone"}),
    ("nicaragua", {"target": 11}),
    ("pitch_fives", {}),
    ("pedro_sancho", {}),
    ("dom_pedro", {}),
    ("king_pedro", {"target": 80}),
    ("king_pedro_canadian", {"target": 80}),
    ("sixty_three", {"target": 63}),
    ("sixty_three", {"trump_discards_face": "down", "target": 63}),
    ("eighty_three", {"target": 83}),
    ("piedro_jokers", {}),
    ("petro_russian", {"discards_face": "down", "target": 11}),
]
GAMES = 3
TARGET = 21
#: after this many actions in a game every seat plays like the basic player, so the game ends
RANDOM_ACTIONS = 500


@pytest.fixture
def checker(monkeypatch: pytest.MonkeyPatch) -> LeakChecker:
    checker = LeakChecker()
    checker.install(monkeypatch)
    # the test clients act far faster than people: lift the rate limit for them
    monkeypatch.setattr(websocket, "RATE_PER_SECOND", 1e6)
    monkeypatch.setattr(websocket, "RATE_BURST", 1e6)
    # and their address's budget of refusals: they misbehave on purpose, all from one address
    monkeypatch.setattr(address_limits, "REFUSAL_BURST", 1e6)
    return checker


@pytest.fixture
def fixed_deals(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Table seeds from the test's name, so every run plays the same deals (ids stay random)."""
    count = iter(range(1000))
    shim = types.SimpleNamespace(
        token_urlsafe=secrets.token_urlsafe,
        token_hex=lambda n=16: f"{request.node.name}:{next(count)}",
    )
    monkeypatch.setattr(table_routes, "secrets", shim)


class Game:
    """Four seat clients and a spectator at one table, each with its latest state."""

    def __init__(
        self, client: TestClient, checker: LeakChecker, stack: ExitStack, table: str, secrets: list[str]
    ):
        self.client = client
        self.checker = checker
        self.table = table
        self.room = room_of(client, table)
        self.sockets: list[WebSocketTestSession] = [
            stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in range(5)
        ]
        self.states: list[dict[str, Any]] = []
        for seat, secret in enumerate(secrets):
            self.states.append(join(self.sockets[seat], secret))
        for seat in range(4):  # each later join is announced to the seats already there
            for _ in range(3 - seat):
                self.states[seat] = self.receive(seat)
        self.states.append(watch(self.sockets[4]))  # a spectator's arrival is told to it alone
        for seat, state in enumerate(self.states):
            assert state["you"] == (seat if seat < 4 else None)
            assert all(s["connected"] for s in state["seats"]) and state["started"]
        self.sent: list[list[dict[str, Any]]] = [[] for _ in range(4)]

    def receive(self, index: int) -> dict[str, Any]:
        """The next message on a socket."""
        return self.seen(recv_raw(self.sockets[index]))

    def receive_all(self) -> list[dict[str, Any]]:
        """The next message on every socket."""
        return [self.seen(raw) for raw in recv_each(self.sockets)]

    def seen(self, raw: dict[str, Any]) -> dict[str, Any]:
        """A message received: it must be one the check saw being sent."""
        assert raw["type"] == "websocket.send", raw
        text = raw["text"]
        assert self.checker.sent[text] > 0, f"a message was received that the check never saw: {text}"
        message: dict[str, Any] = json.loads(text)
        return message

    @property
    def seq(self) -> int:
        return int(self.states[4]["seq"])

    def send(self, seat: int, action: str, seq: int) -> None:
        message = {"type": "act", "action": action, "seq": seq}
        self.sent[seat].append(message)
        act(self.sockets[seat], action, seq)

    def expect_error(self, seat: int, code: str) -> dict[str, Any]:
        error = self.receive(seat)
        assert error["type"] == "error" and error["code"] == code, error
        assert self.room.seq == self.seq, "a refused message changed the game"
        return error

    def misbehave(self, rng: random.Random, turn: int) -> None:
        """Requests refused (naming only the sender's own cards): each gets an error, nothing changes."""
        seq = self.seq
        other = rng.choice([s for s in range(4) if s != turn])
        own = self.states[other]["game"]["hand"]
        self.send(other, f"play {rng.choice(own)}" if own else "pass", seq)
        self.expect_error(other, "turn")
        state = self.states[turn]
        legal = state["game"]["legal"]
        offered = {a["action"] for a in legal.get("actions", [])} if legal["kind"] == "list" else set()
        wrong = [f"play {c}" for c in state["game"]["hand"]] + ["pass", "trump H", "bid 999", "fold"]
        wrong = [w for w in wrong if w not in offered and not (legal["kind"] == "cards" and w == "pass")]
        self.send(turn, rng.choice(wrong), seq)
        error = self.expect_error(turn, "illegal")
        assert "legal:" in error["message"], error
        if self.sent[turn][:-2]:
            old = rng.choice(self.sent[turn][:-2])  # a message of this seat replayed
            if old["seq"] != seq:
                act(self.sockets[turn], old["action"], old["seq"])
                self.expect_error(turn, "stale")

    def check_http(self) -> None:
        for path in ("", "/record", "/replay"):
            response = self.client.get(f"/api/tables/{self.table}{path}")
            assert response.status_code == (200 if not path else 409), response.text
            self.checker.check(self.room, None, response.text, f"GET {path or 'summary'}")
        self.checker.check(self.room, None, self.client.get("/api/tables").text, "lobby")


def play_game(
    client: TestClient, checker: LeakChecker, variant: str, options: dict[str, Any], game: int
) -> int:
    """One whole game; returns how many actions it took."""
    table, secrets = full_table(client, variant, options={"target": TARGET} | options)
    rng = random.Random(f"{variant}:{options}:{game}")
    with ExitStack() as stack:
        g = Game(client, checker, stack, table, secrets)
        room = g.room
        g.check_http()
        actions = 0
        while not g.states[4]["finished"]:
            checker.assert_clean()
            seq = g.seq
            turn = g.states[4]["game"]["turn"]
            state = g.states[turn]
            assert state["seq"] == seq and state["game"]["legal"] is not None, state
            assert all(g.states[s]["game"]["legal"] is None for s in range(5) if s != turn)
            if rng.random() < 0.04:
                g.misbehave(rng, turn)
            if rng.random() < 0.01:
                g.check_http()
            if state["game"]["phase"] in ("auction", "trump") or actions > RANDOM_ACTIONS:
                # sensible bids end games sooner; every card choice stays random
                player = make_player("basic", seed=f"{table}:{seq}")
                action = words(player.act(room.state.observation(turn)), room.rules)
            else:
                action = choose(state, rng, room)
            g.send(turn, action, seq)
            actions += 1
            news = g.receive_all()
            for message in news:  # everyone is told, with the same seq and last action
                assert message["type"] == "state" and message["seq"] == seq + 1, message
                assert message["last"]["seat"] == turn
            told = news[turn]["last"]
            if told["action"] is None:  # a card of it went where the actor may not see it (a claim)
                assert told["count"] == len(action.split()) - 1, (action, told)
            else:
                assert sorted(told["action"].split()) == sorted(action.split()), (action, told)
            g.states = news
        checker.assert_clean()
        assert room.finished and room.seq == actions
    return actions


@pytest.mark.parametrize(
    ("variant", "options"),
    CASES,
    ids=[f"{v}-{'-'.join(k for k in o if k != 'target') or 'default'}" for v, o in CASES],
)
@pytest.mark.slow
def test_no_client_receives_a_card_it_may_not_see(
    tmp_path: Path,
    checker: LeakChecker,
    fixed_deals: None,
    caplog: pytest.LogCaptureFixture,
    variant: str,
    options: dict[str, Any],
) -> None:
    caplog.set_level(logging.INFO, logger="pedro")
    with running_server(tmp_path) as client:
        actions = [play_game(client, checker, variant, options, game) for game in range(GAMES)]
    checker.assert_clean()
    # the check looked at real traffic: every action told to five clients, many cards named
    assert checker.messages > 5 * sum(actions)
    assert checker.cards_seen > 20 * sum(actions)
    json_lines = JsonFormatter()
    for record in caplog.records:
        assert not card_tokens(record.getMessage()), f"a log line names a card: {record.getMessage()}"
        line = json_lines.format(record)  # as --log-format json writes it, fields and all
        assert not card_tokens(line), f"a JSON log line names a card: {line}"


# ---------------------------------------------------------------------------- the check itself


def _leaky(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """Break the server on purpose, in one of the ways a card could reach the wrong client."""
    from pedro.server.tables import table_view as view_module

    if how == "another seat's hand":
        real_secrets = view_module.seat_secrets
        monkeypatch.setattr(
            view_module, "seat_secrets", lambda state, seat: real_secrets(state, (seat + 1) % 4)
        )
    elif how == "a hand to spectators":
        real_private = view_module.private_json
        monkeypatch.setattr(
            view_module,
            "private_json",
            lambda secrets, obs, **memo: real_private(secrets or obs.secrets, obs, **memo),
        )
    elif how == "face-down discards in last":

        def last_json(last: tuple[int, int] | None, obs: Any, secrets: Any) -> dict[str, Any] | None:
            return (
                None if last is None else {"seat": last[0], "action": words(last[1], obs.rules), "label": ""}
            )

        monkeypatch.setattr(view_module, "last_json", last_json)


@pytest.mark.parametrize("how", ["another seat's hand", "a hand to spectators", "face-down discards in last"])
def test_the_check_catches_a_leaking_server(
    tmp_path: Path, checker: LeakChecker, fixed_deals: None, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    _leaky(monkeypatch, how)
    with running_server(tmp_path) as client, pytest.raises(AssertionError, match="it may not see"):
        for game in range(GAMES):
            play_game(client, checker, "king_pedro", {"target": 80}, game)
    assert any("it may not see" in p for p in checker.problems)
