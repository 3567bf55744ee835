"""A computer player that is another program, spoken to in JSON lines (the bot protocol, docs/bots.md).

``cmd:python my_bot.py`` names such a player wherever a player is named. The
program is started once per seat and game, told the rules and its seat
(``hello``), every action it may see (``update``), each hand's and the game's
result (``hand_over``, ``game_over``), and, at each of its decisions, the
seat's view of the game and the legal actions (``request``); it answers with
one action in record words (``{"action": "play AH"}``).

Everything a bot is told is built from its seat's ``Observation`` by
``pedro.observation_json``, the builders that tell the browser: a bot cannot
learn a hidden card through the protocol.

A bot that answers something unreadable, an illegal action, nothing within
the time limit, or that has ended is told why (``error``, while it can still
read), and the fallback player (``basic``) makes that decision instead: the
game goes on, and the fault is counted by kind. A bot that ended stays
replaced by the fallback for the rest of the game; the next game starts it
afresh. The program is closed at the end of each game (its input closed,
then terminated, then killed) and, at the latest, when pedro exits. Its
error output is kept, the last lines of it, for the fault messages.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import queue
import shlex
import subprocess
import threading
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import fields
from enum import Enum
from typing import IO, Any

from pedro.engine.actions import ActionError, action_words, parse_action_words
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.observation_json import LIST_LIMIT, last_json, observation_json, rules_json
from pedro.players.basic import BasicPlayer
from pedro.variants.model import Ruleset
from pedro.variants.options import options_dict
from pedro.variants.sheet import rule_sheet

#: The protocol's version, sent in ``hello``.
PROTOCOL = 1
#: Seconds a bot has for each decision unless its spec says otherwise (``cmd@SECONDS:...``).
DEFAULT_TIMEOUT = 5.0
#: Extra seconds for a bot's first decision of a game: the program may still be starting.
STARTUP_GRACE = 10.0
#: The player that decides when a bot does not.
FALLBACK = "basic"
#: Seconds a bot has to exit by itself once its input is closed, before it is terminated.
CLOSE_GRACE = 1.0
#: Lines of a bot's error output kept for the fault messages.
STDERR_LINES = 20
#: Fault messages kept per bot (the counts are kept in full).
MAX_MESSAGES = 20

_PREFIX = "cmd"
_ENDED_EARLIER = "the bot had ended earlier in the game"


class BotSpecError(ValueError):
    """A ``cmd:`` player spec that cannot be read."""


class BotStartError(RuntimeError):
    """The bot program could not be started (no such program, not executable, ...)."""


def is_command(spec: str) -> bool:
    """Whether ``spec`` names a bot program (``cmd:...`` or ``cmd@SECONDS:...``) rather than a built-in."""
    head, colon, _ = spec.partition(":")
    return bool(colon) and (head == _PREFIX or head.startswith(_PREFIX + "@"))


def parse_spec(spec: str) -> tuple[list[str], float]:
    """The command line (split like a shell does) and the time limit of ``cmd[@SECONDS]:COMMAND``."""
    head, colon, command = spec.partition(":")
    if not colon or not is_command(spec):
        raise BotSpecError(f"{spec!r} is not a bot spec; write cmd:COMMAND or cmd@SECONDS:COMMAND")
    timeout = DEFAULT_TIMEOUT
    if head != _PREFIX:
        text = head[len(_PREFIX) + 1 :]
        try:
            timeout = float(text)
        except ValueError:
            timeout = -1.0
        if not 0 < timeout <= 3600:
            raise BotSpecError(
                f"bad time limit {text!r} in {spec!r}: cmd@SECONDS:COMMAND takes seconds per decision, "
                "more than 0 and at most 3600 (e.g. cmd@2.5:python bot.py)"
            )
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BotSpecError(f"cannot read the command of {spec!r}: {exc}") from None
    if not argv:
        raise BotSpecError(f"{spec!r} names no command; write e.g. cmd:python examples/bots/simple_bot.py")
    return argv, timeout


# ---------------------------------------------------------------------------
# the program


_RUNNING: set[BotProcess] = set()
_RUNNING_LOCK = threading.Lock()


def close_all() -> None:
    """Close every bot program still running (at exit: none may outlive pedro)."""
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for process in running:
        process.close(grace=0.0)


atexit.register(close_all)


class BotProcess:
    """A running bot program: JSON lines in and out through pipes, error output kept.

    Threads read its output and error output and write its input, so that the
    game never blocks on a program that does not read or write: waiting for an
    answer has a deadline, and writing goes through a queue.
    """

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = list(argv)
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            command = shlex.join(self.argv)
            raise BotStartError(f"cannot start bot {command!r}: {exc.strerror or exc}") from None
        with _RUNNING_LOCK:
            _RUNNING.add(self)
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self.eof = False
        self._closed = False
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self._threads = [
            threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True),
            threading.Thread(target=self._read_errors, args=(self.proc.stderr,), daemon=True),
            threading.Thread(target=self._write, args=(self.proc.stdin,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                self.lines.put(line)
        self.lines.put(None)

    def _read_errors(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                self.stderr.append(line.decode("utf-8", "replace").rstrip("\r\n"))

    def _write(self, stream: IO[bytes]) -> None:
        try:
            while (data := self._outbox.get()) is not None:
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            pass  # the program has ended: what it was not told no longer matters
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    @property
    def alive(self) -> bool:
        return not self.eof and not self._closed and self.proc.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message (a JSON line) for the program."""
        if not self._closed:
            self._outbox.put(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")

    def receive(self, deadline: float) -> bytes | None:
        """The next line the program wrote, ``None`` at its end; ``TimeoutError`` after ``deadline``."""
        if self.eof:
            return None
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            self.eof = True
        return line

    def error_tail(self, lines: int = 5) -> str:
        """The last lines the program wrote to its error output, for a fault message."""
        if self.proc.poll() is not None:
            self._threads[1].join(timeout=1.0)  # an ended program's last lines may still be in the pipe
        tail = list(self.stderr)[-lines:]
        return "" if not tail else "; its last error output: " + " | ".join(tail)

    def exit_text(self) -> str:
        """How the program ended (its output closes a moment before its exit status is known)."""
        try:
            code: int | None = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            return "closed its output"
        return f"exited with status {code}" if code >= 0 else f"was killed by signal {-code}"

    def close(self, grace: float = CLOSE_GRACE) -> None:
        """Close its input, give it ``grace`` seconds to exit, then terminate it, then kill it."""
        if self._closed:
            return
        self._closed = True
        self._outbox.put(None)
        proc = self.proc
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for thread in self._threads:
            thread.join(timeout=1.0)
        with _RUNNING_LOCK:
            _RUNNING.discard(self)


# ---------------------------------------------------------------------------
# what a bot is told


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def ruleset_json(rules: Ruleset) -> dict[str, Any]:
    """Every rule in force (they are public at the table), as plain JSON values."""
    out = {f.name: _plain(getattr(rules, f.name)) for f in fields(rules) if f.name != "options"}
    return rules_json(rules) | out


def hello_json(
    obs: Observation, names: Sequence[str], seed: int | str | None, timeout: float
) -> dict[str, Any]:
    """The first message: the rules, the seat, who sits where, the time limit."""
    rules = obs.rules
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "variant": rules.id,
        "options": options_dict(rules),
        "rules": ruleset_json(rules),
        "rule_sheet": rule_sheet(rules),
        "seat": obs.seat,
        "players": rules.players,
        "names": list(names),
        "time_limit": timeout,
        "seed": bot_seed(seed),
    }


def bot_seed(seed: int | str | None) -> int | None:
    """A seed for the bot's own random numbers that does not give away the deal.

    A seat's player seed is the game's seed times 16 plus the seat, and the
    game's seed fixes every shuffle: sent as it is, it would tell a bot every
    hidden card. A hash keeps runs repeatable without that.
    """
    if seed is None:
        return None
    digest = hashlib.sha256(f"pedro-bot:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def legal_words(legal: tuple[int, ...] | CardChoice, rules: Ruleset) -> list[str] | None:
    """Every legal action in record words, or ``None`` for a card choice with too many sets to list."""
    if isinstance(legal, CardChoice):
        if legal.upper_bound() > LIST_LIMIT:
            return None
        return [action_words(a, rules.max_bid) for a in legal]
    return [action_words(a, rules.max_bid) for a in legal]


def request_json(obs: Observation, request_id: int, timeout: float) -> dict[str, Any]:
    """A decision: the seat's view, the legal actions, and for a card choice its rule."""
    assert obs.legal is not None
    view = observation_json(obs, private=True)
    legal_view = view.pop("legal")
    choice = legal_view if isinstance(obs.legal, CardChoice) else None
    return {
        "type": "request",
        "id": request_id,
        "seat": obs.seat,
        "observation": view,
        "legal": legal_words(obs.legal, obs.rules),
        "choice": choice,
        "time_limit": timeout,
    }


# ---------------------------------------------------------------------------
# the player


class _Fault(Exception):
    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class ExternalPlayer:
    """A seat played by a bot program; the fallback player decides whenever the bot does not.

    ``begin``, ``observe`` and ``finish`` tell the program about the game
    (``pedro.players.games.Bots`` calls them); ``act`` alone also works, and
    starts the program on first use.
    """

    def __init__(self, spec: str, seed: int | str | None = None) -> None:
        self.name = spec
        self.argv, self.timeout = parse_spec(spec)
        self.seed = seed
        self.faults: Counter[str] = Counter()
        self.messages: list[str] = []
        self.process: BotProcess | None = None
        self._fallback: BasicPlayer | None = None
        self._requests = 0
        self._late = 0  # requests that timed out and whose answers have not come yet
        self._hands_told = 0
        self._end: str | None = None

    # -- the game's course

    def begin(self, obs: Observation, names: Sequence[str] | None = None) -> None:
        """Start the program and say hello (raises ``BotStartError`` if it cannot start)."""
        if self.process is not None:
            return
        self._hands_told = len(obs.history)
        self.process = BotProcess(self.argv)
        seats = list(names) if names is not None else [f"seat {s}" for s in range(obs.rules.players)]
        self.process.send(hello_json(obs, seats, self.seed, self.timeout))

    def observe(self, seat: int, action: int, obs: Observation) -> None:
        """``seat`` did ``action``; ``obs`` is this bot's seat's view just after."""
        process = self.process
        if process is None or not process.alive:
            return
        told = last_json((seat, action), obs, obs.secrets)
        assert told is not None
        process.send({"type": "update", "hand_index": self._hands_told} | told)
        self._tell_hands(obs)

    def _tell_hands(self, obs: Observation) -> None:
        assert self.process is not None
        if self._hands_told >= len(obs.history):
            return
        sheet = observation_json(obs, private=False)["sheet"]
        while self._hands_told < len(obs.history):
            k = self._hands_told
            self.process.send({"type": "hand_over", "hand_index": k, "result": sheet[k]})
            self._hands_told += 1

    def finish(self, obs: Observation) -> None:
        """The game is over (or stopped): tell the program, then close it."""
        process = self.process
        if process is not None and process.alive:
            self._tell_hands(obs)
            view = observation_json(obs, private=False)
            process.send(
                {
                    "type": "game_over",
                    "finished": obs.winner is not None,
                    "winner": obs.winner,
                    "scores": view["scores"],
                    "sheet": view["sheet"],
                }
            )
        self.close()

    def close(self) -> None:
        if self.process is not None:
            self.process.close()

    # -- decisions

    def act(self, obs: Observation) -> int:
        if obs.legal is None:
            raise ValueError("it is not this seat's turn")
        if self.process is None:
            self.begin(obs)
        assert self.process is not None
        self._requests += 1
        request_id = self._requests
        try:
            return self._ask(obs, request_id)
        except _Fault as fault:
            return self._fall_back(obs, request_id, fault)

    def _ask(self, obs: Observation, request_id: int) -> int:
        process = self.process
        assert process is not None and obs.legal is not None
        if not process.alive:
            raise _Fault("exited", self._ended())
        limit = self.timeout + (STARTUP_GRACE if request_id == 1 else 0.0)
        deadline = time.monotonic() + limit
        process.send(request_json(obs, request_id, self.timeout))
        while True:
            try:
                line = process.receive(deadline)
            except TimeoutError:
                self._late += 1
                raise _Fault("timeout", f"no answer within {limit:g} s") from None
            if line is None:
                raise _Fault("exited", self._ended())
            answer = self._read_answer(line, request_id)
            if answer is not None:
                return self._check(answer, obs)

    def _ended(self) -> str:
        """Why the bot no longer answers: told once in the messages, counted at every decision after."""
        assert self.process is not None
        if self._end is None:
            self._end = f"the bot {self.process.exit_text()}{self.process.error_tail()}"
            return self._end
        return _ENDED_EARLIER

    def _read_answer(self, line: bytes, request_id: int) -> str | None:
        """The action text of an answer to ``request_id``; ``None`` for a late answer to an earlier one."""
        try:
            message = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            message = None
        answer_id = message.get("id") if isinstance(message, dict) else None
        if answer_id == request_id:
            self._late = 0
        elif type(answer_id) is int and answer_id < request_id:
            self._late = max(0, self._late - 1)
            return None  # the late answer to an earlier request
        elif self._late > 0:
            self._late -= 1
            return None  # without an id: the answer to the request that timed out
        if not isinstance(message, dict):
            shown = line.decode("utf-8", "replace").strip()
            raise _Fault("unreadable", f"not a JSON object: {_clip(shown)!r}")
        action = message.get("action")
        if not isinstance(action, str):
            raise _Fault("unreadable", f'no "action" text in {_clip(json.dumps(message))}')
        return action

    def _check(self, text: str, obs: Observation) -> int:
        legal = obs.legal
        assert legal is not None
        try:
            action = parse_action_words(text, obs.rules.max_bid)
        except ActionError as exc:
            raise _Fault("unreadable", f"cannot read the action {_clip(text)!r}: {exc}") from None
        if isinstance(legal, CardChoice):
            reason = legal.reason_illegal(action)
            if reason is not None:
                raise _Fault("illegal", f"{_clip(text)!r} is not legal now: {reason}")
        elif action not in legal:
            allowed = ", ".join(action_words(a, obs.rules.max_bid) for a in legal[:20])
            more = ", ..." if len(legal) > 20 else ""
            raise _Fault("illegal", f"{_clip(text)!r} is not legal now; legal: {allowed}{more}")
        return action

    def _fall_back(self, obs: Observation, request_id: int, fault: _Fault) -> int:
        if self._fallback is None:
            self._fallback = BasicPlayer(self.seed)
        action = self._fallback.act(obs)
        decided = action_words(action, obs.rules.max_bid)
        self.faults[fault.kind] += 1
        if fault.reason != _ENDED_EARLIER and len(self.messages) < MAX_MESSAGES:
            where = f"hand {obs.hand_index + 1}, seat {obs.seat}"
            self.messages.append(f"{where}: {fault.kind}: {fault.reason}; {FALLBACK} played {decided!r}")
        process = self.process
        if process is not None and process.alive:
            process.send(
                {
                    "type": "error",
                    "id": request_id,
                    "kind": fault.kind,
                    "reason": fault.reason,
                    "fallback": FALLBACK,
                    "action": decided,
                }
            )
        return action


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
