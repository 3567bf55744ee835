"""``pedro analyze``: decisions walked from a record, costs, ordering, and the command's errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.console import Console
from tests.helpers import played_record
from typer.testing import CliRunner

from pedro.analysis import Estimates, Review, biggest_mistakes, decisions, needs_choice, review
from pedro.cli import analyze_cmd
from pedro.cli.main import app
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.records import record_line, write_record

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

NAMES = ["Ann", "Bo", "Cy", "Di"]


def game_record(variant: str = "cinch", seed: int = 3, hands: int = 2) -> dict[str, Any]:
    return played_record(variant, seed, hands, player="basic", names=NAMES)


class ByOrder:
    """Values the k-th legal play at k points: the last listed play is always best."""

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        if obs.phase != Phase.PLAY or not isinstance(obs.legal, tuple):
            return None
        return Estimates("points", {a: float(k) for k, a in enumerate(obs.legal)})


def test_decisions_are_every_action_of_the_record_with_the_deciders_view() -> None:
    record = game_record()
    found = decisions(record)
    assert len(found) == sum(len(h["actions"]) for h in record["hands"])
    for d in found:
        assert d.obs.seat == d.seat == d.obs.current_player
        legal = d.obs.legal
        assert legal is not None
        assert d.action in legal
    # numbered from 1 within each hand
    first = [d for d in found if d.hand == 1]
    assert [d.number for d in first] == list(range(1, len(first) + 1))


def test_hand_filter_keeps_only_that_hand() -> None:
    record = game_record(hands=3)
    found = decisions(record, [2])
    assert found and {d.hand for d in found} == {2}
    assert len(found) == len(record["hands"][1]["actions"])


def test_costs_are_best_less_chosen_and_mistakes_sort_by_cost() -> None:
    reviews = review(decisions(game_record()), ByOrder())
    plays = [r for r in reviews if r.decision.phase == Phase.PLAY]
    assert plays, "a hand has card plays with a choice"
    assert all(needs_choice(r.decision) for r in reviews)
    for r in plays:
        legal = r.decision.obs.legal
        assert isinstance(legal, tuple)
        assert r.cost == len(legal) - 1 - legal.index(r.decision.action)
    assert all(r.cost is None for r in reviews if r.decision.phase != Phase.PLAY)
    ranked = biggest_mistakes(reviews)
    costs = [r.cost for r in ranked]
    assert costs == sorted(costs, reverse=True) and all(c and c > 0 for c in costs)
    assert len(biggest_mistakes(reviews, 3)) == min(3, len(ranked))


def test_forced_decisions_are_not_reviewed() -> None:
    found = decisions(game_record())
    forced = [d for d in found if isinstance(d.obs.legal, tuple) and len(d.obs.legal) == 1]
    reviewed = {(r.decision.hand, r.decision.number) for r in review(found, ByOrder())}
    assert forced and not reviewed & {(d.hand, d.number) for d in forced}


def test_a_best_choice_costs_nothing() -> None:
    d = next(d for d in decisions(game_record()) if d.phase == Phase.PLAY and needs_choice(d))
    assert isinstance(d.obs.legal, tuple)
    values = {a: 1.0 for a in d.obs.legal}
    assert Review(d, Estimates("points", values)).cost == 0.0


# ---------------------------------------------------------------------------- the command


def run(tmp_path: Path, *args: Any, **kw: Any) -> tuple[int, str, str]:
    out = Console(file=(tmp_path / "out.txt").open("w"), width=200)
    err = Console(file=(tmp_path / "err.txt").open("w"), width=200)
    code = analyze_cmd.run(out, *args, err_console=err, **kw)
    out.file.close()
    err.file.close()
    return code, (tmp_path / "out.txt").read_text(), (tmp_path / "err.txt").read_text()


def test_missing_file_is_one_message(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, tmp_path / "nope.json")
    assert code == analyze_cmd.BAD_DATA
    assert "no such file" in err and "Traceback" not in err + out


def test_a_broken_record_is_reported_not_analysed(tmp_path: Path) -> None:
    record = game_record()
    record["hands"][0]["actions"][0] = "3 bid 99"
    path = tmp_path / "bad.json"
    write_record(record, path)
    code, _, err = run(tmp_path, path)
    assert code == analyze_cmd.BAD_DATA and "hand 1, action 1" in err


def test_a_player_without_estimates_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_record(game_record(), path)
    code, _, err = run(tmp_path, path, player="basic")
    assert code == analyze_cmd.USAGE_ERROR and "gives no estimates" in err
    code, _, err = run(tmp_path, path, player="nobody")
    assert code == analyze_cmd.USAGE_ERROR and "unknown player" in err


def test_jsonl_needs_a_line_when_it_holds_several(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(game_record(seed=1)) + "\n" + record_line(game_record(seed=2)) + "\n")
    code, _, err = run(tmp_path, path)
    assert code == analyze_cmd.USAGE_ERROR and "holds 2 records" in err and "--line" in err
    code, _, err = run(tmp_path, path, line=5)
    assert code == analyze_cmd.USAGE_ERROR and "1..2" in err


def test_unknown_hand_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_record(game_record(hands=1), path)
    code, _, err = run(tmp_path, path, hands=[9])
    assert code == analyze_cmd.USAGE_ERROR and "no hand 9" in err


def test_json_output_lists_each_decision_with_costs(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(analyze_cmd, "_estimator", lambda player, seed: ByOrder())
    path = tmp_path / "g.json"
    write_record(game_record(), path)
    code, out, _ = run(tmp_path, path, hands=[1], as_json=True)
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "pedro-analysis/1"
    rows = doc["decisions"]
    assert rows and all(row["hand"] == 1 for row in rows)
    plays = [row for row in rows if row["phase"] == "play"]
    for row in plays:
        values = [c["value"] for c in row["choices"]]
        assert values == sorted(values, reverse=True)
        chosen = next(c["value"] for c in row["choices"] if c["action"] == row["action"])
        assert row["cost"] == values[0] - chosen


@pytest.mark.slow
def test_the_expert_values_every_call_and_play_of_a_hand(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_record(game_record(seed=5, hands=1), path)
    code, out, err = run(tmp_path, path, hands=[1], player="expert:8", as_json=True)
    assert code == 0, err
    rows = json.loads(out)["decisions"]
    by_phase = {phase: [r for r in rows if r["phase"] == phase] for phase in ("call", "play")}
    assert by_phase["call"] and by_phase["play"]
    for row in by_phase["call"] + by_phase["play"]:
        assert row["unit"] == ("score" if row["phase"] == "call" else "points")
        assert row["cost"] is not None and row["cost"] >= 0
        assert row["action"] in [c["action"] for c in row["choices"]]
    for row in by_phase["play"]:
        assert all(0 <= c["value"] <= 14 for c in row["choices"])


@pytest.mark.slow
def test_exchange_choices_are_valued_in_points_where_the_simulation_reaches_them(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_record(played_record("eighty_three", 3, 1, player="heuristic", names=NAMES), path)
    # calls by rule: valuing them (half the work) has a test of its own above
    code, out, err = run(tmp_path, path, hands=[1], player="expert:8:bid=heuristic", as_json=True)
    assert code == 0, err
    rows = [r for r in json.loads(out)["decisions"] if r["phase"] == "exchange" and r["choices"]]
    assert rows
    for row in rows:
        assert row["unit"] == "points" and row["cost"] is not None and row["cost"] >= 0
        assert row["action"] in [c["action"] for c in row["choices"]]
        assert all(0 <= c["value"] <= 83 for c in row["choices"])


@pytest.mark.slow
def test_the_command_prints_mistakes_first_then_every_decision(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    write_record(game_record(seed=5, hands=1), path)
    # one seat: the layout of the text is checked here, the values of every seat by the test above
    command = ["analyze", str(path), "--hand", "1", "--seat", "2", "--player", "expert:8"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "decisions with a choice" in text and "Hand 1" in text
    assert ("Biggest mistakes" in text) or ("No decision cost anything" in text)
    assert text.index("Hand 1") > text.index("decisions with a choice")


# ---------------------------------------------------------------------------- choices left without a value


class OnlyFirst:
    """Values only the first legal play, as an estimator that cannot value the others must say."""

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        if obs.phase != Phase.PLAY or not isinstance(obs.legal, tuple):
            return None
        return Estimates("points", {obs.legal[0]: 5.0}, len(obs.legal), "a reason given by the estimator")


class AllButLast:
    """Values every legal play but the last, the first best."""

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        if obs.phase != Phase.PLAY or not isinstance(obs.legal, tuple):
            return None
        values = {a: -float(k) for k, a in enumerate(obs.legal[:-1])}
        return Estimates("points", values, len(obs.legal), "the last is left out")


def test_a_lone_valued_choice_is_neither_best_nor_a_mistake() -> None:
    reviews = review(decisions(game_record()), OnlyFirst())
    lone = [r for r in reviews if r.estimates is not None and r.estimates.values]
    assert lone
    for r in lone:
        assert r.cost is None and not r.estimates.comparable  # type: ignore[union-attr]
        made = r.decision.action in r.estimates.values  # type: ignore[union-attr]
        assert r.verdict == ("only this choice valued" if made else "this choice not valued")
    assert biggest_mistakes(reviews) == []


def test_a_best_of_some_valued_choices_is_called_so() -> None:
    reviews = review(decisions(game_record()), AllButLast())
    verdicts = {r.verdict for r in reviews if r.estimates is not None}
    assert "best of those valued" in verdicts and "best" not in verdicts
    r = next(r for r in reviews if r.verdict == "best of those valued")
    assert r.estimates is not None and r.estimates.note() == (
        f"{r.estimates.legal - 1} of {r.estimates.legal} choices valued: the last is left out"
    )


def test_analyze_says_which_choices_were_not_valued_and_why(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "g.json"
    write_record(game_record(hands=1), path)
    monkeypatch.setattr(analyze_cmd, "_estimator", lambda player, seed: OnlyFirst())
    code, out, _ = run(tmp_path, path)
    assert code == 0
    assert "only this choice valued" in out and "a reason given by the estimator" in out
    assert " best " not in out
    assert "No decision cost anything" in out
    code, out, _ = run(tmp_path, path, as_json=True)
    rows = json.loads(out)["decisions"]
    plays = [row for row in rows if row["phase"] == "play"]
    assert plays and all(row["cost"] is None for row in plays)
    assert all(row["not_valued"].endswith("a reason given by the estimator") for row in plays)


def test_seat_keeps_only_that_seats_decisions_and_a_bad_seat_is_refused(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setattr(analyze_cmd, "_estimator", lambda player, seed: ByOrder())
    path = tmp_path / "g.json"
    write_record(game_record(), path)
    code, out, _ = run(tmp_path, path, seats=[1], as_json=True)
    rows = json.loads(out)["decisions"]
    assert code == 0 and rows and {row["seat"] for row in rows} == {1}
    # run takes the record's seats, from 0; the error says them as --seat takes them, from 1
    for wrong in (-1, 4):
        code, _, err = run(tmp_path, path, seats=[wrong])
        said = " ".join(err.split())
        assert code == analyze_cmd.USAGE_ERROR and f"--seat {wrong + 1}: the game has seats 1 to 4" in said


def test_the_seat_option_counts_from_1(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(analyze_cmd, "_estimator", lambda player, seed: ByOrder())
    path = tmp_path / "g.json"
    write_record(game_record(), path)
    result = CliRunner().invoke(app, ["analyze", str(path), "--seat", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert {row["seat"] for row in json.loads(result.stdout)["decisions"]} == {1}
    for wrong in ("0", "5"):
        refused = CliRunner().invoke(app, ["analyze", str(path), "--seat", wrong])
        assert refused.exit_code == 2
        assert f"--seat {wrong}: the game has seats 1 to 4" in " ".join(refused.output.split())


def test_decisions_know_their_place_in_the_whole_game() -> None:
    record = game_record(hands=2)
    found = decisions(record)
    assert [d.index for d in found] == list(range(len(found)))
    actions = [a for h in record["hands"] for a in h["actions"]]
    assert found[-1].index == len(actions) - 1
    assert {d.seat for d in decisions(record, seats=[2])} == {2}


class Counting:
    """Counts the estimators made and the decisions each was asked about."""

    made: ClassVar[list[list[tuple[int, int]]]] = []

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []
        Counting.made.append(self.asked)

    def estimates(self, obs: Observation, include: Sequence[int] = ()) -> Estimates | None:
        self.asked.append((obs.hand_index, obs.seat))
        return None


def test_a_factory_gives_each_hand_and_seat_a_fresh_estimator() -> None:
    Counting.made = []
    found = decisions(game_record(hands=2))
    review(found, Counting)
    asked = {(d.hand - 1, d.seat) for d in found if needs_choice(d)}
    assert len(Counting.made) == len(asked)
    assert all(len(set(each)) == 1 for each in Counting.made)
