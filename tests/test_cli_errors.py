"""Every ``pedro`` user error is one style: a plain ``error:`` line (and a hint), status 2 or 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pedro.analysis import Decision, Review
from pedro.cli.analyze_cmd import counts_line
from pedro.cli.errors import BAD_DATA, USAGE_ERROR
from pedro.cli.main import app
from pedro.engine.phases import Phase
from pedro.players.estimates import Estimates

runner = CliRunner()


def plain_error(result: Any) -> list[str]:
    """The error's lines, checked to be short and plain: no traceback, no boxes."""
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not any(box in result.output for box in "╭│╰")
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and lines[0].startswith("error: "), result.output
    assert len(lines) <= 2, result.output
    return lines


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["simulate", "--games", "0"], "'--games'"),
        (["simulate", "--games", "many"], "'--games'"),
        (["simulate", "--bogus"], "no such option: --bogus"),
        (["bogus"], "no such command 'bogus'"),
        (["replay"], "missing argument 'file'"),
        (["analyze", "x.json", "--top", "-1"], "'--top'"),
    ],
)
def test_click_usage_errors_are_plain_lines_with_status_2(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == USAGE_ERROR
    lines = plain_error(result)
    assert expected in lines[0]
    assert lines[1].strip() == f"see: pedro {args[0] if args[0] != 'bogus' else ''} --help".replace("  ", " ")


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-n", "1", "--players", "genius"],
        ["play", "--players", "genius"],
        ["tournament", "--players", "genius,basic", "--deals", "1"],
    ],
)
def test_an_unknown_player_is_named_in_one_short_line(args: list[str]) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == USAGE_ERROR
    (line,) = plain_error(result)
    assert "unknown player 'genius'" in line and "players: random, basic" in line
    assert "docs/players.md" in line and "sampled per card play" not in line
    assert len(line) < 240


def test_a_bad_record_is_bad_data_with_status_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{oops", encoding="utf-8")
    for args in (["replay", str(path)], ["analyze", str(path)], ["play", "--resume", str(path)]):
        result = runner.invoke(app, args, input="quit\n")
        assert result.exit_code == BAD_DATA, args
        plain_error(result)


def _review(values: dict[int, float], legal: int) -> Review:
    decision = Decision(1, 1, 0, 0, Phase.PLAY, 0, None)  # type: ignore[arg-type]
    return Review(decision, Estimates("points", values, legal=legal) if values else None)


def test_the_analysis_counts_say_what_they_count_and_leave_out_zeros() -> None:
    every = [_review({1: 1.0, 2: 0.5}, 2)] * 3
    some = [_review({1: 1.0}, 3)]
    none = [_review({}, 2)]
    assert counts_line(every, "expert") == (
        "[bold]3[/] decisions with a choice: [bold]3[/] with every choice valued by expert"
    )
    line = counts_line(every + some + none, "expert:8")
    assert line == (
        "[bold]5[/] decisions with a choice: [bold]3[/] with every choice valued by expert:8, "
        "[bold]1[/] with some choices valued, [bold]1[/] not valued"
    )
    assert " in 0" not in line and "none in" not in line


def test_seats_are_counted_from_1_where_people_read_them() -> None:
    sheet = runner.invoke(app, ["rules", "cinch", "--plain"])
    assert "seats 1 and 3 against seats 2 and 4" in " ".join(sheet.output.split())
    for lang, words in (
        ("fi", "paikat 1 ja 3 paikkoja 2 ja 4 vastaan"),
        ("sv", "platserna 1 och 3 mot platserna 2"),
    ):
        sheet = runner.invoke(app, ["rules", "cinch", "--plain", "--lang", lang])
        assert words in " ".join(sheet.output.split())
    players = runner.invoke(app, ["play", "--players", "basic,basic"], input="quit\n")
    assert players.exit_code == USAGE_ERROR
    assert "3 computer players for seats 2 to 4" in " ".join(plain_error(players)[0].split())
    assert "counted from 1" in " ".join(runner.invoke(app, ["analyze", "--help"]).output.split())
