"""``pedro tournament``: duplicate deals, their statistics, the JSON and plot, and the command."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from tests.helpers import tournament_doc
from typer.testing import CliRunner

from pedro.cli.main import app
from pedro.engine.observation import Observation
from pedro.players import PLAYERS
from pedro.tournament import (
    DealResult,
    GameResult,
    LocalBackend,
    PlayRecord,
    TournamentResults,
    estimate,
    play_duplicate_deal,
    play_duplicate_game,
    run_tournament,
    running,
)
from pedro.tournament.report import MergeError, merge, summarise
from pedro.tournament.runner import play_hands, seating
from pedro.tournament.stats import Z95
from pedro.variants.options import make_ruleset

T = TypeVar("T")
runner = CliRunner()


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ---------------------------------------------------------------------------
# duplicate pairing


def test_the_two_plays_of_a_deal_have_the_same_cards_with_the_seats_swapped() -> None:
    rules = make_ruleset("cinch")
    players = ["basic", "random"]
    first = seating(players, 4, swapped=False)
    second = seating(players, 4, swapped=True)
    assert first == ["basic", "random", "basic", "random"]
    assert second == ["random", "basic", "random", "basic"]
    for seed in (0, 7, 123):
        a = play_hands(rules, first, seed, max_hands=1)
        b = play_hands(rules, second, seed, max_hands=1)
        assert a.first_dealer == b.first_dealer
        assert a.deal_records[0] == b.deal_records[0]  # every seat's cards, the kitty and the stock
        assert a.results[0].dealer == b.results[0].dealer
    deal = play_duplicate_deal("cinch", {}, players, 5, 2)
    assert deal.seed == 7 and deal.index == 2
    p1, p2 = deal.plays
    assert p1.seats == tuple(first) and p2.seats == tuple(second)
    # A (basic) holds side 0 in the first play and side 1 in the second
    assert p1.points == (p1.side_points[0], p1.side_points[1])
    assert p2.points == (p2.side_points[1], p2.side_points[0])
    assert p1.change == (p1.side_change[0], p1.side_change[1])
    assert p2.change == (p2.side_change[1], p2.side_change[0])
    for play in deal.plays:
        assert play.bidder is not None and play.bid_by == (play.bidder + play.swapped) % 2
    assert deal.points(0) == (p1.points[0] + p2.points[0]) / 2


def test_individual_variants_alternate_seats_and_swap_them() -> None:
    """Five players alone: A holds seats 0, 2, 4 then 1, 3; every seat is played by each player once."""
    rules = make_ruleset("pedro_sancho", {"players": 5})
    deal = play_duplicate_deal("pedro_sancho", {"players": 5}, ["basic", "random"], 3, 0)
    p1, p2 = deal.plays
    assert p1.seats == ("basic", "random", "basic", "random", "basic")
    assert p2.seats == ("random", "basic", "random", "basic", "random")
    assert p1.points[0] == sum(p1.side_points[s] for s in (0, 2, 4))
    assert p2.points[0] == sum(p2.side_points[s] for s in (1, 3))
    assert sum(p1.points) == sum(p1.side_points) and sum(p2.points) == sum(p2.side_points)
    a = play_hands(rules, list(p1.seats), 3, 1)
    b = play_hands(rules, list(p2.seats), 3, 1)
    assert a.deal_records[0] == b.deal_records[0]


def test_a_duplicate_game_is_played_to_the_end_twice() -> None:
    game = play_duplicate_game("cinch", {}, ["basic", "random"], 0, 500, 1)
    assert game.seed == 1
    assert all(w is not None for w in game.winners)
    assert all(h >= 1 for h in game.hands)
    assert max(game.scores[0]) >= 62 or max(game.scores[1]) >= 62


# ---------------------------------------------------------------------------
# reproducibility and backends


@pytest.mark.slow
def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    kwargs: dict[str, Any] = {"seed": 11, "deals": 24, "games": 2}
    one = run_tournament("cinch", {}, ["basic", "random"], backend=LocalBackend(1), **kwargs)
    two = run_tournament("cinch", {}, ["basic", "random"], backend=LocalBackend(2), **kwargs)
    assert one == two
    assert [d.index for d in two.deals] == list(range(24))


def _doc(players: list[str], seed: int, deals: int, games: int = 0) -> dict[str, Any]:
    return tournament_doc("cinch", players, seed=seed, deals=deals, games=games)


def test_a_match_played_in_parts_merges_into_the_whole_run() -> None:
    players = ["basic", "random"]
    whole = _doc(players, seed=5, deals=10, games=2)
    parts = [_doc(players, seed=9, deals=6, games=0), _doc(players, seed=5, deals=4, games=2)]
    assert merge(parts) == whole
    # the read-back rows are the played ones
    results = run_tournament("cinch", {}, players, seed=5, deals=3)
    assert [DealResult.from_json(d.to_json()) for d in results.deals] == results.deals


def test_documents_of_different_matches_or_overlapping_deals_do_not_merge() -> None:
    a = _doc(["basic", "random"], seed=1, deals=3)
    with pytest.raises(MergeError, match="players differs"):
        merge([a, _doc(["random", "basic"], seed=4, deals=3)])
    with pytest.raises(MergeError, match="deal seed appears in more than one"):
        merge([a, _doc(["basic", "random"], seed=3, deals=3)])
    with pytest.raises(MergeError, match="no tournament documents"):
        merge([])


class ReversedBackend:
    """A stand-in for a remote backend: plays in this process, returning results out of order."""

    def __init__(self) -> None:
        self.calls = 0

    def map_unordered(self, fn: Callable[[int], T], indexes: Sequence[int]) -> Iterator[T]:
        self.calls += 1
        return iter([fn(i) for i in reversed(indexes)])


def test_a_stop_iteration_escaping_a_deal_fails_loudly_instead_of_ending_the_run_short() -> None:
    """A StopIteration raised while a deal is played once ended the local run as if every deal
    were played: a part of 25 deals came out with 12, silently. Now it is an error."""

    def deal(index: int) -> int:
        if index == 2:
            raise StopIteration
        return index

    with pytest.raises(RuntimeError):
        list(LocalBackend(1).map_unordered(deal, [0, 1, 2, 3]))
    assert list(LocalBackend(1).map_unordered(lambda i: i * 10, [0, 1, 2, 3])) == [0, 10, 20, 30]


def test_a_backend_can_be_plugged_in() -> None:
    backend = ReversedBackend()
    ticks: list[int] = []
    got = run_tournament(
        "cinch",
        {},
        ["basic", "random"],
        seed=4,
        deals=6,
        games=1,
        backend=backend,
        advance=lambda: ticks.append(1),
    )
    assert backend.calls == 2 and len(ticks) == 7
    assert got == run_tournament("cinch", {}, ["basic", "random"], seed=4, deals=6, games=1)


# ---------------------------------------------------------------------------
# statistics


def test_estimate_against_hand_computed_values() -> None:
    values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    e = estimate(values)
    # mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample sd sqrt(32/7)
    sd = math.sqrt(32 / 7)
    half = 1.96 * sd / math.sqrt(8)
    assert e.n == 8 and e.mean == 5.0
    assert e.sd == pytest.approx(sd)
    assert e.low == pytest.approx(5 - half) and e.high == pytest.approx(5 + half)
    assert half == pytest.approx(1.4816, abs=1e-4)
    assert e.contains(5.0) and not e.contains(7.0)
    single = estimate([3.0])
    assert single.mean == 3.0 and single.low is None and not single.contains(3.0)
    with pytest.raises(ValueError):
        estimate([])
    run = running(values)
    assert run[0] == (2.0, None)
    assert run[-1][0] == pytest.approx(5.0)
    last_half = run[-1][1]
    assert last_half is not None and last_half == pytest.approx(half)
    for k in range(2, len(values) + 1):
        mean, h = running(values)[k - 1]
        ek = estimate(values[:k])
        assert mean == pytest.approx(ek.mean) and h == pytest.approx(Z95 * (ek.sd or 0) / math.sqrt(k))


def _play(
    swapped: bool, points: tuple[int, int], change: tuple[int, int], bid_by: int | None, bid: int, made: bool
) -> PlayRecord:
    bidder = None if bid_by is None else (bid_by + swapped) % 2
    return PlayRecord(
        swapped=swapped,
        seats=("x",) * 4,
        side_points=points if not swapped else points[::-1],
        side_change=change if not swapped else change[::-1],
        points=points,
        change=change,
        bidder=bidder,
        bid_by=bid_by,
        bid=None if bid_by is None else bid,
        made=None if bid_by is None else made,
    )


def test_summary_against_hand_computed_values() -> None:
    deals = [
        # A: points (10 + 8) / 2 = 9, change (10 + 8) / 2 = 9; B: (4 + 6) / 2 = 5, (-7 + 6) / 2 = -0.5
        DealResult(
            0, 0, 0, (_play(False, (10, 4), (10, -7), 1, 7, False), _play(True, (8, 6), (8, 6), 0, 6, True))
        ),
        # A: (5 + 9) / 2 = 7 points, (-6 + 9) / 2 = 1.5 change; B: (9 + 5) / 2 = 7, (9 + 5) / 2 = 7
        DealResult(
            1, 1, 1, (_play(False, (5, 9), (-6, 9), 0, 6, False), _play(True, (9, 5), (9, 5), 0, 8, True))
        ),
        # thrown in both times
        DealResult(
            2,
            2,
            2,
            (_play(False, (0, 0), (0, 0), None, 0, False), _play(True, (0, 0), (0, 0), None, 0, False)),
        ),
    ]
    games = [
        GameResult(0, 0, (0, None), (10, 500), ((62, 30), (40, 41))),
        GameResult(1, 1, (1, 0), (9, 8), ((0, 0), (0, 0))),
    ]
    s = summarise(["basic", "random"], TournamentResults(deals=deals, games=games))
    a, b = s.players
    assert (a.label, a.name, b.label, b.name) == ("A", "basic", "B", "random")
    assert a.points.mean == pytest.approx((9 + 7 + 0) / 3)
    assert b.points.mean == pytest.approx((5 + 7 + 0) / 3)
    assert a.change.mean == pytest.approx((9 + 1.5 + 0) / 3)
    assert b.change.mean == pytest.approx((-0.5 + 7 + 0) / 3)
    # paired differences: points 4, 0, 0; change 9.5, -5.5, 0
    assert s.points_diff.mean == pytest.approx(4 / 3)
    assert s.points_diff.sd == pytest.approx(math.sqrt(((4 - 4 / 3) ** 2 + 2 * (4 / 3) ** 2) / 2))
    assert s.change_diff.mean == pytest.approx(4 / 3)
    diffs = [9.5, -5.5, 0.0]
    sd = math.sqrt(sum((d - 4 / 3) ** 2 for d in diffs) / 2)
    assert s.change_diff.low == pytest.approx(4 / 3 - 1.96 * sd / math.sqrt(3))
    assert (a.bids_won, a.made, a.set) == (3, 2, 1) and a.avg_bid == pytest.approx((6 + 6 + 8) / 3)
    assert (b.bids_won, b.made, b.set, b.avg_bid) == (1, 0, 1, 7.0)
    assert (a.games_won, b.games_won, s.games, s.unfinished) == (2, 1, 2, 1)
    assert (s.deals, s.thrown_in) == (3, 2)


def test_a_player_against_itself_has_an_interval_containing_zero() -> None:
    """Same player, same seat seeds: both plays of a deal are the same game, so A − B is exactly 0."""
    results = run_tournament("cinch", {}, ["random", "random"], seed=1, deals=30)
    s = summarise(["random", "random"], results)
    assert s.points_diff.contains(0.0) and s.change_diff.contains(0.0)
    assert s.players[0].change.mean == s.players[1].change.mean


@pytest.mark.slow
def test_basic_beats_random_in_cinch() -> None:
    results = run_tournament("cinch", {}, ["basic", "random"], seed=0, deals=100, backend=LocalBackend(2))
    s = summarise(["basic", "random"], results)
    assert s.points_diff.low is not None and s.points_diff.low > 0
    assert s.change_diff.low is not None and s.change_diff.low > 0
    assert s.players[0].points.mean + s.players[1].points.mean == pytest.approx(14.0)


# ---------------------------------------------------------------------------
# the command


@pytest.mark.slow
def test_the_command_writes_json_and_a_png(tmp_path: Path) -> None:
    out, plot = tmp_path / "results.json", tmp_path / "curve.png"
    args = ["tournament", "--variant", "cinch", "--players", "basic,random", "--deals", "12", "--seed", "3"]
    result = runner.invoke(
        app, [*args, "--games", "1", "--jobs", "2", "--out", str(out), "--plot", str(plot)]
    )
    assert result.exit_code == 0, result.output
    assert "A basic" in result.output and "B random" in result.output and "A − B per deal" in result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["format"] == "pedro-tournament/1"
    settings = doc["settings"]
    assert settings["variant"] == "cinch" and settings["seed"] == 3 and settings["deals"] == 12
    assert settings["players"] == {"A": "basic", "B": "random"} and settings["options"] == {}
    assert settings["games"] == 1 and isinstance(settings["version"], str)
    assert [p["name"] for p in doc["summary"]["players"]] == ["basic", "random"]
    assert len(doc["deals"]) == 12 and [d["index"] for d in doc["deals"]] == list(range(12))
    row = doc["deals"][0]
    assert row["seed"] == 3 and len(row["plays"]) == 2
    assert set(row["plays"][0]) >= {"side_points", "side_change", "bidder", "bid", "made", "seats"}
    assert len(doc["games"]) == 1
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    # the same run on one process writes the same results
    out1 = tmp_path / "one.json"
    result = runner.invoke(app, [*args, "--games", "1", "--jobs", "1", "--out", str(out1)])
    assert result.exit_code == 0, result.output
    doc1 = json.loads(out1.read_text(encoding="utf-8"))
    assert (
        doc1["deals"] == doc["deals"] and doc1["summary"] == doc["summary"] and doc1["games"] == doc["games"]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--variant", "nope", "--players", "basic,random"], "nope"),
        (["--players", "basic,nobody"], "unknown player 'nobody'"),
        (["--players", "basic"], "two comma-separated names"),
        (["--players", "basic,random,basic"], "two comma-separated names"),
        ([], "--players A,B"),
        (["--players", "basic,random", "-o", "nonsense=1"], "nonsense"),
        (["--players", "basic,random", "-o", "min_bid"], "NAME=VALUE"),
        (["--players", "basic,random", "--deals", "0"], "--deals must be at least 1"),
        (["--players", "basic,random", "--jobs", "0"], "--jobs must be at least 1"),
        (["--players", "basic,random", "--games", "-1"], "--games must be at least 0"),
        (["--players", "basic,random", "--max-hands", "0"], "--max-hands must be at least 1"),
        (["--players", "basic,random", "--out", "/no/such/folder/r.json"], "does not exist"),
        (["--players", "basic,random", "--plot", "/no/such/folder/c.png"], "does not exist"),
    ],
)
def test_usage_errors_are_clean(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "--deals", "2", *args])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and message in " ".join(result.output.split())
    no_traceback(result)


def test_plot_suffix_chooses_the_format_and_any_other_is_refused_before_playing(tmp_path: Path) -> None:
    args = ["tournament", "--players", "basic,random", "--deals", "2"]
    text = tmp_path / "t.txt"
    refused = runner.invoke(app, [*args, "--plot", str(text)])
    assert refused.exit_code == 2, refused.output
    said = " ".join(refused.output.split())
    assert "error:" in said and "PNG, SVG or PDF" in said and ".png, .svg, .pdf" in said
    assert "A − B per deal" not in said  # refused before any deal was played
    assert not text.exists()
    no_traceback(refused)
    svg = tmp_path / "curve.SVG"
    written = runner.invoke(app, [*args, "--plot", str(svg)])
    assert written.exit_code == 0, written.output
    assert b"<svg" in svg.read_bytes()[:500]


def test_non_numbers_are_usage_errors() -> None:
    result = runner.invoke(app, ["tournament", "--players", "basic,random", "--deals", "many"])
    assert result.exit_code == 2
    no_traceback(result)


class IllegalPlayer:
    name = "illegal"

    def __init__(self, seed: int | str | None = None) -> None:
        pass

    def act(self, obs: Observation) -> int:
        return -1


def test_a_player_fault_is_reported_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "illegal", IllegalPlayer)
    result = runner.invoke(app, ["tournament", "--players", "illegal,random", "--deals", "2"])
    assert result.exit_code == 1, result.output
    assert "illegal action" in result.output
    no_traceback(result)


# ---------------------------------------------------------------------------
# bot faults in the results


def test_bot_faults_read_back_sum_per_player_and_old_documents_have_none() -> None:
    first = dataclasses.replace(
        _play(False, (10, 4), (10, -7), 1, 7, False), faults=((("timeout", 1),), (("illegal", 2),))
    )
    second = dataclasses.replace(
        _play(True, (8, 6), (8, 6), 0, 6, True), faults=((), (("illegal", 1), ("unreadable", 3)))
    )
    deal = DealResult(0, 0, 0, (first, second))
    doc = deal.to_json()
    assert doc["plays"][0]["faults"] == {"A": {"timeout": 1}, "B": {"illegal": 2}}
    assert DealResult.from_json(doc) == deal
    game = GameResult(0, 0, (0, 1), (5, 6), ((62, 3), (1, 62)), faults=((), (("exited", 9),)))
    assert GameResult.from_json(game.to_json()) == game
    # rows written before bots had faults (and rows without any) read back without faults
    plain = _play(False, (5, 9), (-6, 9), 0, 6, False)
    old = plain.to_json()
    assert "faults" not in old and PlayRecord.from_json(old, False).faults == ((), ())
    s = summarise(["cmd:bot", "basic"], TournamentResults(deals=[deal], games=[game]))
    a, b = s.players
    assert a.faults == (("timeout", 1),) and a.fault_count == 1
    assert b.faults == (("exited", 9), ("illegal", 3), ("unreadable", 3)) and b.fault_count == 15
    assert s.to_json()["players"][1]["faults"] == {"exited": 9, "illegal": 3, "unreadable": 3}
    without = summarise(["basic", "random"], TournamentResults([DealResult(0, 0, 0, (plain, plain))], []))
    assert [p.faults for p in without.players] == [(), ()]
    assert [p["faults"] for p in without.to_json()["players"]] == [{}, {}]
