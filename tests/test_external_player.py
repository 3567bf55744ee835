"""Bot programs as players (``cmd:...``, docs/bots.md): full games, faults, closing, refusals."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from rich.console import Console
from tests.helpers import tournament_doc
from typer.testing import CliRunner

from pedro.cli.main import app
from pedro.cli.play.game import TerminalGame
from pedro.cli.play.seats import seat_players
from pedro.engine.actions import action_words
from pedro.engine.state import GameState
from pedro.players import UnknownPlayerError, check_player, external, make_player
from pedro.players.external import DEFAULT_TIMEOUT, ExternalPlayer, parse_spec, request_json
from pedro.players.games import GameFailure, run_game
from pedro.tournament.report import merge
from pedro.variants.options import make_ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

ROOT = Path(__file__).resolve().parents[1]
SIMPLE_BOT = ROOT / "examples" / "bots" / "simple_bot.py"
runner = CliRunner()


def cmd(script: Path, timeout: float | None = None) -> str:
    """The player spec that runs ``script`` with this Python."""
    head = "cmd" if timeout is None else f"cmd@{timeout:g}"
    return f"{head}:{shlex.join([sys.executable, str(script)])}"


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.fixture
def processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[external.BotProcess]]:
    """Every bot process started in the test; each must have ended when the test's games are over."""
    started: list[external.BotProcess] = []

    class Recorded(external.BotProcess):
        def __init__(self, argv: list[str]) -> None:
            super().__init__(argv)
            started.append(self)

    monkeypatch.setattr(external, "BotProcess", Recorded)
    yield started
    assert all(p.proc.poll() is not None for p in started), "a bot process outlived its game"
    assert not external._RUNNING


# ---------------------------------------------------------------------------
# misbehaving bots, written for each test

TEST_BOT = r"""
import json, signal, sys, time

MODE, LOG, SLEEP = sys.argv[1], sys.argv[2], float(sys.argv[3])


def first_legal(request):
    if request["legal"] is not None:
        return request["legal"][0]
    choice = request["choice"]
    cards = choice["required"] + [c for c in choice["pool"] if c not in choice["required"]]
    return choice["verb"] + " " + " ".join(cards[: min(choice["sizes"])])


if MODE == "exit":
    print("boom: this bot gives up", file=sys.stderr, flush=True)
    sys.exit(3)
requests = 0
with open(LOG, "a", encoding="utf-8") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        message = json.loads(line)
        if message["type"] != "request":
            continue
        requests += 1
        if MODE == "garbage":
            print("hello there", flush=True)
            continue
        if MODE == "illegal":
            answer = {"id": message["id"], "action": "bid 99"}
        elif MODE.startswith("slow"):  # "slow": no ids, a late answer is told apart by counting
            if requests == 2:
                time.sleep(SLEEP)
            answer = {"action": first_legal(message)}
            if MODE == "slow_ids":
                answer["id"] = message["id"]
        else:
            answer = {"id": message["id"], "action": first_legal(message)}
        print(json.dumps(answer), flush=True)
if MODE == "stubborn":  # ignores the end of its input and being asked to terminate
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(60)
"""


def misbehaving_bot(
    tmp_path: Path, mode: str, sleep: float = 0.0, timeout: float | None = None
) -> tuple[str, Path]:
    """The spec of a test bot behaving as ``mode``, and the file where it logs what it is sent."""
    script = tmp_path / "test_bot.py"
    script.write_text(TEST_BOT, encoding="utf-8")
    log = tmp_path / f"{mode}.log"
    head = "cmd" if timeout is None else f"cmd@{timeout:g}"
    spec = f"{head}:{shlex.join([sys.executable, str(script), mode, str(log), str(sleep)])}"
    return spec, log


def received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------------------
# the example bot plays whole games


def load_simple_bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("simple_bot", SIMPLE_BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variant", ["cinch", "pidro", "nicaragua"])
def test_the_example_bot_plays_whole_games_and_makes_every_decision_of_its_seats(
    variant: str, processes: list[external.BotProcess]
) -> None:
    rules = make_ruleset(variant)
    names = [cmd(SIMPLE_BOT), "basic", cmd(SIMPLE_BOT), "basic"]
    run = run_game(rules, names, 5, max_hands=500)
    state = run.state
    assert state.is_over and state.winner is not None
    assert run.faults == {0: {}, 2: {}} and run.messages == []
    assert len(processes) == 2
    # replayed, every decision of seats 0 and 2 is the one the bot's own code makes from the request
    bot = load_simple_bot()
    replay = GameState(rules, seed=5)
    decided = 0
    card_sets = 0
    for hand in state.hand_actions:
        for seat, action in hand:
            assert replay.current_player == seat
            if seat in (0, 2):
                request = json.loads(json.dumps(request_json(replay.observation(seat), 1, DEFAULT_TIMEOUT)))
                card_sets += request["choice"] is not None
                assert bot.decide(request) == action_words(action, rules.max_bid) or _same_set(
                    bot.decide(request), action_words(action, rules.max_bid)
                )
                decided += 1
            replay.apply(action)
    assert decided > 40
    if variant == "nicaragua":
        assert card_sets > 0, "nicaragua's exchange asks for card sets by their rule"


def _same_set(a: str, b: str) -> bool:
    """Card-set actions name their cards in any order."""
    return a.split()[0] == b.split()[0] and sorted(a.split()[1:]) == sorted(b.split()[1:])


def test_the_example_bot_works_copied_out_of_the_repository_in_a_tournament_on_two_jobs(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "my_bot.py"
    shutil.copy(SIMPLE_BOT, copy)
    out = tmp_path / "results.json"
    spec = cmd(copy)
    args = ["tournament", "--variant", "cinch", "--players", f"{spec},basic", "--deals", "4", "--seed", "2"]
    result = runner.invoke(app, [*args, "--games", "1", "--jobs", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    no_traceback(result)
    assert "my_bot.py" in result.output and "Bot faults" not in result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["settings"]["players"]["A"] == spec
    assert [p["faults"] for p in doc["summary"]["players"]] == [{}, {}]
    assert all("faults" not in play for deal in doc["deals"] for play in deal["plays"])
    assert len(doc["deals"]) == 4 and len(doc["games"]) == 1
    # the workers closed every bot they started
    assert not [pid for pid in _pids_running(str(copy))]


def _pids_running(text: str) -> list[int]:
    """Processes whose command line contains ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(int(entry.name))
    return found


# ---------------------------------------------------------------------------
# what a bot is told


def test_a_bot_is_told_the_game_and_never_a_hidden_card(
    tmp_path: Path, processes: list[external.BotProcess]
) -> None:
    # king_pedro: discards are laid face down, so another seat's discard is told as a count only
    spec, log = misbehaving_bot(tmp_path, "first")
    rules = make_ruleset("king_pedro", {"target": 21})
    run = run_game(rules, [spec, "basic", "basic", "basic"], 3, max_hands=500)
    assert run.faults == {0: {}}
    messages = received(log)
    hello = messages[0]
    assert hello["type"] == "hello" and hello["protocol"] == 1 and hello["seat"] == 0
    assert hello["variant"] == "king_pedro" and hello["players"] == 4 and hello["rules"]["target"] == 21
    assert hello["names"] == [spec, "basic", "basic", "basic"] and hello["time_limit"] == DEFAULT_TIMEOUT
    assert hello["options"] == {"target": 21} and "King Pedro" in hello["rule_sheet"]
    # the seat's seed is 3 * 16 + 0 and would give away the shuffles: the bot gets a hash of it
    assert hello["seed"] == external.bot_seed(3 * 16) and hello["seed"] not in (3, 48)
    assert hello["seed"] != external.bot_seed(3 * 16 + 1)
    kinds = [m["type"] for m in messages]
    assert kinds[-1] == "game_over" and messages[-1]["finished"] is True
    assert messages[-1]["winner"] == run.state.winner and messages[-1]["scores"] == list(run.state.scores)
    # every written action of the game is told to the bot, in order, and each hand's end
    updates = [m for m in messages if m["type"] == "update"]
    actions = [(k, seat, a) for k, hand in enumerate(run.state.hand_actions) for seat, a in hand]
    assert len(updates) == len(actions)
    for update, (k, seat, action) in zip(updates, actions, strict=True):
        assert (update["hand_index"], update["seat"]) == (k, seat)
        if update["action"] is not None:
            assert update["action"] == action_words(action, rules.max_bid)
    hidden = [(u, a) for u, (_k, _seat, a) in zip(updates, actions, strict=True) if u["action"] is None]
    assert hidden, "another seat's face-down discard is told as a count"
    for update, action in hidden:
        assert update["seat"] != 0 and update["label"] == f"Discard {update['count']} cards"
        assert action_words(action, rules.max_bid).startswith("discard ")
        assert update["count"] == len(action_words(action, rules.max_bid).split()) - 1
    assert kinds.count("hand_over") == len(run.state.results)
    # a request carries the seat's view (its hand, no one else's) and the legal actions
    requests = [m for m in messages if m["type"] == "request"]
    assert [r["id"] for r in requests] == list(range(1, len(requests) + 1))
    for r in requests:
        view = r["observation"]
        assert r["seat"] == 0 and "legal" not in view and view["hand"]
        assert r["legal"] is not None or r["choice"]["rule"]


# ---------------------------------------------------------------------------
# faults


def test_a_bot_answering_garbage_is_told_why_and_the_fallback_plays(
    tmp_path: Path, processes: list[external.BotProcess]
) -> None:
    spec, log = misbehaving_bot(tmp_path, "garbage")
    run = run_game(make_ruleset("cinch"), [spec, "basic", "basic", "basic"], 1, max_hands=2)
    assert len(run.state.results) == 2
    requests = [m for m in received(log) if m["type"] == "request"]
    errors = [m for m in received(log) if m["type"] == "error"]
    assert run.faults == {0: {"unreadable": len(requests)}}
    assert len(errors) == len(requests)
    assert errors[0]["kind"] == "unreadable" and "not a JSON object: 'hello there'" in errors[0]["reason"]
    assert errors[0]["fallback"] == "basic" and errors[0]["id"] == requests[0]["id"]
    assert errors[0]["action"] in requests[0]["legal"]
    assert "unreadable" in run.messages[0] and "basic played" in run.messages[0]


def test_a_bot_answering_an_illegal_action_is_told_why(
    tmp_path: Path, processes: list[external.BotProcess]
) -> None:
    spec, log = misbehaving_bot(tmp_path, "illegal")
    run = run_game(make_ruleset("pidro"), ["basic", spec, "basic", "basic"], 2, max_hands=1)
    errors = [m for m in received(log) if m["type"] == "error"]
    assert run.faults == {1: {"illegal": len(errors)}} and errors
    assert "'bid 99' is not legal now; legal:" in errors[0]["reason"]


@pytest.mark.parametrize("mode", ["slow", "slow_ids"])
@pytest.mark.slow
def test_a_bot_too_slow_once_is_replaced_for_that_decision_and_its_late_answer_ignored(
    tmp_path: Path, mode: str, processes: list[external.BotProcess]
) -> None:
    spec, log = misbehaving_bot(tmp_path, mode, sleep=1.5, timeout=1.0)
    run = run_game(make_ruleset("cinch"), [spec, "basic", "basic", "basic"], 4, max_hands=1)
    assert run.faults == {0: {"timeout": 1}}, run.messages
    errors = [m for m in received(log) if m["type"] == "error"]
    assert [e["kind"] for e in errors] == ["timeout"] and errors[0]["id"] == 2
    assert "no answer within 1 s" in errors[0]["reason"]
    # every other decision is the bot's answer to that very request, not a late one
    requests = [m for m in received(log) if m["type"] == "request"]
    played = [action_words(a, 14) for seat, a in run.state.hand_actions[0] if seat == 0]
    assert len(played) == len(requests) > 3
    for request, action in zip(requests, played, strict=True):
        if request["id"] == 2:
            assert action == errors[0]["action"]
        elif request["legal"] is not None:
            assert action == request["legal"][0]


def test_a_bot_that_exits_is_replaced_for_the_rest_of_the_game_and_its_error_output_shown(
    tmp_path: Path, processes: list[external.BotProcess]
) -> None:
    spec, _log = misbehaving_bot(tmp_path, "exit")
    run = run_game(make_ruleset("cinch"), [spec, "basic", "basic", "basic"], 1, max_hands=1)
    decisions = sum(1 for seat, _ in run.state.hand_actions[0] if seat == 0)
    assert run.faults == {0: {"exited": decisions}} and decisions > 1
    assert "exited with status 3" in run.messages[0] and "boom: this bot gives up" in run.messages[0]
    assert len(processes) == 1


@pytest.mark.slow
def test_a_bot_that_ignores_the_end_of_its_input_and_terminate_is_killed(
    tmp_path: Path, processes: list[external.BotProcess]
) -> None:
    spec, _log = misbehaving_bot(tmp_path, "stubborn")
    run = run_game(make_ruleset("cinch"), [spec, "basic", "basic", "basic"], 1, max_hands=1)
    assert run.faults == {0: {}}
    assert processes[0].proc.returncode == -9  # SIGKILL, after the input was closed and SIGTERM ignored


def test_a_bot_asked_outside_a_game_starts_on_its_first_decision_and_is_closed_at_exit(
    processes: list[external.BotProcess],
) -> None:
    state = GameState(make_ruleset("cinch"), seed=2)
    seat = state.current_player
    player = make_player(cmd(SIMPLE_BOT), 1)
    assert isinstance(player, ExternalPlayer) and player.process is None
    action = player.act(state.observation(seat))
    assert state.why_illegal(action) is None and not player.faults
    assert len(processes) == 1 and processes[0].alive
    external.close_all()  # what pedro runs at exit
    assert processes[0].proc.poll() is not None


def test_a_tournament_reports_each_players_bot_faults(tmp_path: Path) -> None:
    spec, _log = misbehaving_bot(tmp_path, "garbage")
    out = tmp_path / "r.json"
    args = ["tournament", "--players", f"basic,{spec}", "--deals", "2", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    no_traceback(result)
    text = " ".join(result.output.split())
    assert "Bot faults of B" in text and "decisions made by the fallback player basic" in text
    assert "unreadable" in text and "Bot faults of A" not in text
    doc = json.loads(out.read_text(encoding="utf-8"))
    a, b = doc["summary"]["players"]
    assert a["faults"] == {} and b["faults"]["unreadable"] > 0
    rows = [play["faults"] for deal in doc["deals"] for play in deal["plays"]]
    assert sum(r["B"]["unreadable"] for r in rows) == b["faults"]["unreadable"]
    assert all(r["A"] == {} for r in rows)


def test_a_match_with_bot_faults_played_in_parts_merges_into_the_whole_run(tmp_path: Path) -> None:
    spec, _log = misbehaving_bot(tmp_path, "garbage")
    players = [spec, "basic"]

    def doc(seed: int, deals: int) -> dict[str, Any]:
        return tournament_doc("cinch", players, seed=seed, deals=deals)

    whole = doc(3, 2)
    assert whole["summary"]["players"][0]["faults"]["unreadable"] > 0
    assert merge([doc(4, 1), doc(3, 1)]) == whole


def test_simulate_shows_the_first_faults_and_why(tmp_path: Path) -> None:
    spec, _log = misbehaving_bot(tmp_path, "illegal")
    result = runner.invoke(
        app, ["simulate", "--players", f"{spec},basic,basic,basic", "--games", "3", "--max-hands", "1"]
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Bot faults at seat 1" in text and "illegal" in text and "'bid 99' is not legal now" in text


# ---------------------------------------------------------------------------
# bad specs and bots that cannot start


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cmd:", "names no command"),
        ("cmd:   ", "names no command"),
        ("cmd:python 'unclosed", "cannot read the command"),
        ("cmd@0:python bot.py", "bad time limit '0'"),
        ("cmd@soon:python bot.py", "bad time limit 'soon'"),
    ],
)
def test_a_bad_bot_spec_is_refused_saying_why(spec: str, message: str) -> None:
    with pytest.raises(UnknownPlayerError, match=message):
        check_player(spec)


def test_a_bot_spec_is_split_like_a_shell_command_and_takes_a_time_limit() -> None:
    assert parse_spec("cmd:python 'my bots/bot.py' --fast") == (["python", "my bots/bot.py", "--fast"], 5.0)
    assert parse_spec("cmd@2.5:./bot") == (["./bot"], 2.5)
    player = make_player("cmd:./bot", 7)
    assert isinstance(player, ExternalPlayer) and player.process is None  # started only by its game


def test_a_bot_that_cannot_start_is_a_clean_error(tmp_path: Path) -> None:
    missing = tmp_path / "no_such_bot"
    with pytest.raises(GameFailure, match="cannot start bot"):
        run_game(make_ruleset("cinch"), [f"cmd:{missing}", "basic", "basic", "basic"], 1, 1)
    for args in (
        ["simulate", "--players", f"cmd:{missing},basic,basic,basic"],
        ["tournament", "--players", f"cmd:{missing},basic", "--deals", "1"],
        ["play", "--players", f"cmd:{missing},basic,basic", "--seed", "1"],
    ):
        result = runner.invoke(app, args, input="quit\n")
        assert result.exit_code == 1, result.output
        assert "cannot start bot" in result.output and "No such file or directory" in result.output
        no_traceback(result)
    assert not external._RUNNING


def test_the_terminal_game_keeps_a_bot_commands_case_and_closes_the_bot(
    tmp_path: Path, processes: list[external.BotProcess]
) -> None:
    copy = tmp_path / "Simple_Bot.py"
    shutil.copy(SIMPLE_BOT, copy)
    kinds = seat_players(f"{cmd(copy)},basic,BASIC", 4)
    assert kinds == ["human", cmd(copy), "basic", "basic"]
    answers = iter(["quit"])
    game = TerminalGame(
        Console(file=open(os.devnull, "w"), width=120),  # noqa: SIM115 - closed with the test process
        make_ruleset("cinch"),
        kinds,
        seed=3,
        save=tmp_path / "game.json",
        ask=lambda prompt: next(answers),
    )
    assert game.run() == 0
    assert len(processes) == 1


# ---------------------------------------------------------------------------
# the server never runs a program


def test_the_server_refuses_bot_programs(tmp_path: Path) -> None:
    from tests.server.client_helpers import running_server, seats_spec

    with running_server(tmp_path) as client:
        body = {
            "variant": "cinch",
            "seats": seats_spec("human", "cmd:touch /tmp/x", "basic", "basic"),
            "seat": 0,
            "name": "Ann",
        }
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400
        error = response.json()["error"]
        assert "seat 1" in error and "does not run bot programs" in error and "basic" in error
        assert client.get("/api/tables").json() == {"tables": []}
