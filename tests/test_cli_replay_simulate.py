"""``pedro replay`` and ``pedro simulate`` through the typer app, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tests.helpers import played_record
from typer.testing import CliRunner

from pedro.cli import replay_cmd, simulate_cmd
from pedro.cli.main import app
from pedro.players.games import play_game
from pedro.records import record_from_game, record_line, replay, replay_json, write_record
from pedro.variants.catalog import VARIANTS

runner = CliRunner()
NAMES = ["Ann", "Bo", "Cy", "Di"]


def game_record(variant: str = "cinch", seed: int = 2, hands: int = 2) -> dict[str, Any]:
    return played_record(variant, seed, hands, player="random", names=NAMES)


def write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    write_record(record, path)
    return path


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ---------------------------------------------------------------------------
# replay


def test_replay_prints_an_account(tmp_path: Path) -> None:
    record = game_record()
    result = runner.invoke(app, ["replay", str(write(tmp_path, record))])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in (
        "Cinch",
        "Hand 1",
        "Hand 2",
        "Dealer:",
        "Auction:",
        "Contract:",
        "Trick 1:",
        "Points:",
        "Score:",
    ):
        assert text in out
    assert "Ann & Cy" in out and "Bo & Di" in out
    assert "Unfinished game" in out  # stopped after two hands
    assert "→" in out


def test_replay_account_speaks_to_you_in_the_second_person(tmp_path: Path) -> None:
    # pedro play records the human as "You"
    record = played_record("nicaragua", 4, 3, player="basic", names=["You", "Bo", "Cy", "Di"])
    result = runner.invoke(app, ["replay", str(write(tmp_path, record))])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "You pass" in out or "You bid" in out
    for wrong in ("You passes", "You bids", "You discards", "You takes", "You names", "You calls"):
        assert wrong not in out
    assert "Bo passes" in out or "Bo bids" in out


def test_replay_account_of_a_hand_stopped_part_way(tmp_path: Path) -> None:
    record = game_record(hands=1)
    record["hands"][1]["actions"] = replay(game_record(hands=2)).record["hands"][1]["actions"][:7]
    result = runner.invoke(app, ["replay", str(write(tmp_path, record))])
    assert result.exit_code == 0, result.output
    assert "Hand 2 (unfinished)" in result.stdout
    assert "stopped after 7 actions" in " ".join(result.stdout.split())


def test_replay_account_of_the_exchange_and_a_finished_game(tmp_path: Path) -> None:
    for seed in range(20):
        record = game_record("king_pedro", seed=seed, hands=40)
        if replay(record).finished:
            break
    result = runner.invoke(app, ["replay", str(write(tmp_path, record))])
    assert result.exit_code == 0, result.output
    assert "Exchange:" in result.stdout and "discards" in result.stdout
    assert " win[" not in result.stdout and " win" in result.stdout and "final score" in result.stdout


def test_replay_json(tmp_path: Path) -> None:
    record = game_record()
    result = runner.invoke(app, ["replay", str(write(tmp_path, record)), "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == replay_json(replay(record))


def test_replay_jsonl_prints_one_object_per_line(tmp_path: Path) -> None:
    records = [game_record(seed=s, hands=1) for s in range(3)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(record_line(r) + "\n" for r in records) + "\n")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert [json.loads(line) for line in lines] == [replay_json(replay(r)) for r in records]
    text = runner.invoke(app, ["replay", str(path)])
    assert text.exit_code == 0
    assert "games.jsonl, line 3" in text.stdout


def _illegal(record: dict[str, Any]) -> None:
    record["hands"][0]["actions"].insert(0, "3 bid 99")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "no such file"),
        ("this is not json", "not valid JSON"),
        ('{"format": "pedro-record/2"}', 'must be "pedro-record/1"'),
        (lambda r: r.update(variant="pedro_x"), "unknown variant 'pedro_x'"),
        (
            lambda r: r.update(options={"min_bid": "high"}),
            "field options: invalid value 'high' for option min_bid",
        ),
        (
            lambda r: r["hands"][0]["deal"][0].__setitem__(0, "QX"),
            "hand 1, deal of seat 0, card 1: 'QX' is not a card",
        ),
        (lambda r: r["hands"][1]["actions"].__setitem__(2, "1 pass pass"), 'hand 2, action 3 "1 pass pass"'),
        (_illegal, 'hand 1, action 1 "3 bid 99"'),
    ],
)
def test_replay_errors_exit_1(tmp_path: Path, content: Any, expected: str) -> None:
    path = tmp_path / "game.json"
    if isinstance(content, str):
        path.write_text(content)
    elif content is not None:
        record = game_record()
        content(record)
        write_record(record, path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    no_traceback(result)
    assert "error:" in result.stderr
    assert expected in " ".join(result.stderr.split())
    assert result.stdout == ""
    as_json = runner.invoke(app, ["replay", str(path), "--json"])
    assert as_json.exit_code == 1
    assert as_json.stdout == ""


def test_replay_jsonl_stops_at_the_first_bad_line(tmp_path: Path) -> None:
    good = record_line(game_record(hands=1))
    path = tmp_path / "games.jsonl"
    path.write_text(good + "\n" + good.replace('"cinch"', '"cinchy"') + "\n")
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    assert len(result.stdout.strip().splitlines()) == 1
    assert "games.jsonl, line 2: field variant: unknown variant 'cinchy'" in " ".join(result.stderr.split())


def test_replay_run_with_recording_consoles(tmp_path: Path) -> None:
    out = Console(record=True, width=120)
    err = Console(record=True, width=120)
    path = write(tmp_path, game_record())
    assert replay_cmd.run(out, path, as_json=False, err_console=err) == 0
    assert "Hand 1" in out.export_text()
    assert err.export_text() == ""
    assert replay_cmd.run(out, tmp_path / "nope.json", as_json=False, err_console=err) == 1
    assert "no such file" in err.export_text()


# ---------------------------------------------------------------------------
# simulate


def test_simulate_summary() -> None:
    result = runner.invoke(app, ["simulate", "--games", "3", "--seed", "5", "--max-hands", "3"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Cinch (cinch): 3 games, seeds 5–7" in out
    one = runner.invoke(app, ["simulate", "--games", "1", "--seed", "5", "--max-hands", "1"])
    assert "Cinch (cinch): 1 game, seed 5" in one.stdout
    assert "(stopped after 1 hand): 1." in one.stdout
    for column in ("side", "games won", "points/hand", "bids made", "bids set", "avg bid"):
        assert column in out
    assert "seats 0+2" in out and "seats 1+3" in out
    assert "Players: seat 1 basic, seat 2 basic" in out
    assert "Unfinished games (stopped after 3 hands): 3" in " ".join(out.split())


def test_simulate_defaults_to_basic_players_whose_pidro_games_end() -> None:
    # random players hardly ever end a Pidro game (some 440 hands a game); basic ones do in about ten
    result = runner.invoke(app, ["simulate", "-v", "pidro", "--games", "3", "--max-hands", "60"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Players: seat 1 basic, seat 2 basic, seat 3 basic, seat 4 basic" in out
    assert "Unfinished games (stopped after 60 hands): 0." in out
    help_text = " ".join(runner.invoke(app, ["simulate", "--help"]).output.replace("│", " ").split())
    assert "(default: basic)" in help_text


def test_simulate_records_replay_cleanly(tmp_path: Path) -> None:
    for variant in VARIANTS:
        path = tmp_path / f"{variant}.jsonl"
        args = [
            "simulate",
            "-v",
            variant,
            "-n",
            "3",
            "--seed",
            "11",
            "--max-hands",
            "4",
            "--record",
            str(path),
        ]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        lines = path.read_text().splitlines()
        assert len(lines) == 3
        for line in lines:
            replayed = replay(line)
            assert replayed.record["variant"] == variant
            assert len(replayed.results) <= 4
        check = runner.invoke(app, ["replay", str(path), "--json"])
        assert check.exit_code == 0, check.output
        assert len(check.stdout.strip().splitlines()) == 3


def test_simulate_is_reproducible_per_game(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    many = tmp_path / "many.jsonl"
    assert (
        runner.invoke(
            app, ["simulate", "-n", "1", "--seed", "9", "--max-hands", "2", "--record", str(one)]
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(
            app, ["simulate", "-n", "3", "--seed", "7", "--max-hands", "2", "--record", str(many)]
        ).exit_code
        == 0
    )
    assert one.read_text().splitlines()[0] == many.read_text().splitlines()[2]


def test_simulate_with_options_and_named_players(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    args = [
        "simulate",
        "-v",
        "cinch",
        "-o",
        "min_bid=6",
        "-n",
        "2",
        "--max-hands",
        "2",
        "--players",
        "random,random,random,random",
    ]
    result = runner.invoke(app, [*args, "--record", str(path)])
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text().splitlines()[0])
    assert record["options"] == {"min_bid": 6}
    assert record["names"] == ["random-0", "random-1", "random-2", "random-3"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-v", "cinchy"], "unknown variant 'cinchy'"),
        (["-o", "min_bid=99"], "min_bid"),
        (["-o", "nonsense"], "must be written NAME=VALUE"),
        (["--players", "random,random"], "--players needs 4 comma-separated names"),
        (["--players", "genius"], "unknown player 'genius'"),
    ],
)
def test_simulate_usage_errors_exit_2(args: list[str], expected: str) -> None:
    result = runner.invoke(app, ["simulate", "-n", "1", *args])
    assert result.exit_code == 2
    no_traceback(result)
    assert expected in " ".join(result.output.split())


def test_simulate_unwritable_record_file(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "-n", "1", "--record", str(tmp_path / "no" / "such" / "dir.jsonl")]
    )
    assert result.exit_code == 2
    assert "cannot write the record file" in " ".join(result.output.split())


def test_simulate_run_directly() -> None:
    console = Console(record=True, width=140)
    code = simulate_cmd.run(
        console, "pitch_fives", [], games=2, seed=0, players=None, record=None, max_hands=2
    )
    assert code == 0
    text = console.export_text()
    assert "Pitch with Fives" in text and "games won" in text

    individual = Console(record=True, width=100)
    assert (
        simulate_cmd.run(
            individual, "pedro_sancho", ["players=5"], games=1, seed=0, players=None, record=None, max_hands=1
        )
        == 0
    )
    assert "seat 4" in individual.export_text()


@pytest.mark.parametrize(("variant", "word"), [("pidro", "is cold"), ("king_pedro", "is up")])
def test_replay_account_says_who_dropped_out_of_the_play(tmp_path: Path, variant: str, word: str) -> None:
    rules = VARIANTS[variant]
    for seed in range(40):
        state = play_game(rules, ["basic"] * 4, seed, 3)
        short = [t for r in state.results for t in r.tricks if len(t.plays) < rules.players]
        if short:
            break
    else:
        pytest.fail(f"no {variant} game in 40 had a player drop out")
    path = tmp_path / "game.json"
    write_record(record_from_game(state), path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert word in result.output
