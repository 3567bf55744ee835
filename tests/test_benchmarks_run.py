"""The quick benchmarks still run against the code as it is now (a merge once left one calling
the store with an old signature, and nothing noticed until its figures were wanted)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(
    ("script", "args", "prints"),
    [
        ("engine.py", ["--variant", "cinch", "--seconds", "0.2"], "decisions/s"),
        ("room_cpu.py", ["--actions", "200"], "room CPU per action"),
        ("observation.py", ["--hands", "4", "--block", "2"], ""),
        ("envs.py", ["--variants", "cinch", "--steps", "50"], ""),
        ("solver.py", ["--deals", "3", "--variants", "cinch"], ""),
        (
            "call_time.py",
            ["--exchange", "--hands", "1", "--seed", "3", "--variants", "nicaragua"],
            "nicaragua",
        ),
        (
            "one_against_field.py",
            ["--variant", "pedro_sancho", "--players", "heuristic,basic", "--also", "random", "--deals", "3"],
            "| random − heuristic, deal by deal |",
        ),
        (
            "overcalls.py",
            [
                "--auctions",
                "2",
                "--variants",
                "pidro",
                "--player",
                "heuristic",
                "--analysis-deals",
                "30",
                "--screen-z",
                "2",
            ],
            "valued on 30 deals",
        ),
        (
            "card_play_loss.py",
            [
                "--variant",
                "pidro",
                "--deals",
                "3",
                "--measure",
                "score",
                "--players",
                "heuristic",
                "expert:4",
                "expert:4/nodes0/noread",
            ],
            "Loss per deal by the tricks finished",
        ),
        (
            "card_play_loss.py",
            [
                "--deals",
                "3",
                "--table",
                "expert:4,heuristic",
                "--players",
                "heuristic",
                "expert:4/worlds3/solves0",
            ],
            "from 3 deals of expert:4 against heuristic",
        ),
        (
            "card_play_loss.py",
            ["--deals", "2", "--players", "heuristic", "expert:4", "--ceiling", "6"],
            "| the best choice on those worlds |",
        ),
        ("clear_bound.py", ["--calls", "50", "--deals", "60"], "| clear_bound |"),
        (
            "bid_calibration.py",
            ["--variant", "pidro", "--deals", "2", "--player", "expert:8", "--opponent", "heuristic"],
            "expert:8's contracts against heuristic, 2 deals (seeds 0 on)",
        ),
    ],
)
@pytest.mark.slow
def test_a_quick_benchmark_runs_and_prints_its_figures(script: str, args: list[str], prints: str) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() and prints in result.stdout, result.stdout[-2000:]


@pytest.mark.slow
def test_paired_comparison_finds_no_change_in_a_run_against_itself_and_the_change_of_a_player(
    tmp_path: Path,
) -> None:
    runs = {}
    for label, players in (("same", "basic,random"), ("other", "basic,basic")):
        runs[label] = tmp_path / f"{label}.json"
        command = [sys.executable, "-m", "pedro.cli.main", "tournament", "--variant", "cinch"]
        command += ["--players", players, "--deals", "6", "--seed", "5", "--out", str(runs[label])]
        subprocess.run(command, check=True, capture_output=True, timeout=300)

    def paired(old: Path, new: Path) -> str:
        command = [sys.executable, str(BENCHMARKS / "paired.py"), str(old), str(new)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-2000:]
        return result.stdout

    itself = paired(runs["same"], runs["same"])
    assert "6 deals in both runs (seeds 5 to 10), 0 changed" in itself
    # the same plays under another name (a setting that changes no decision) change no deal
    renamed = json.loads(runs["same"].read_text().replace('"basic"', '"basic:renamed"'))
    assert "basic:renamed" in json.dumps(renamed["deals"][0]["plays"][0]["seats"])
    runs["renamed"] = tmp_path / "renamed.json"
    runs["renamed"].write_text(json.dumps(renamed))
    assert "6 deals in both runs (seeds 5 to 10), 0 changed" in paired(runs["same"], runs["renamed"])
    assert "score change per deal, new lead less old: +0.000 (+0.000 to +0.000)" in itself
    # random's seats become basic's: the deals change, and basic against itself leads by nothing
    changed = paired(runs["same"], runs["other"])
    assert "6 deals in both runs" in changed and ", 0 changed" not in changed
    missing = subprocess.run(
        [sys.executable, str(BENCHMARKS / "paired.py"), str(tmp_path / "none-*.json"), str(runs["same"])],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert missing.returncode == 2 and "no result file matches" in missing.stderr


@pytest.mark.slow
def test_two_strength_processes_share_a_run_part_by_part_and_take_over_a_dead_claim(tmp_path: Path) -> None:
    command = [sys.executable, str(BENCHMARKS / "strength.py"), "--pairs", "basic,random", "--variants"]
    command += ["cinch", "--deals", "8", "--part", "2", "--jobs", "1", "--out", str(tmp_path)]
    parts = tmp_path / "parts"
    parts.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    (parts / "cinch-basic-vs-random-2-s3.playing").write_bytes(dead.stdout.strip())  # a killed run's claim
    both = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    printed = "".join(process.communicate(timeout=300)[0] for process in both)
    assert [process.returncode for process in both] == [0, 0]
    assert printed.count("$ pedro tournament") == 4, printed  # each part played once, by one of them
    assert sorted(path.name for path in parts.iterdir()) == [
        f"cinch-basic-vs-random-2-s{seed}.json" for seed in (1, 3, 5, 7)
    ]
    joined = json.loads((tmp_path / "cinch-basic-vs-random-8-s1.json").read_text())
    assert [deal["seed"] for deal in joined["deals"]] == list(range(1, 9))


@pytest.mark.slow
def test_the_wild_call_count_keeps_each_auction_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    def count(auctions: int) -> str:
        command = [sys.executable, str(BENCHMARKS / "overcalls.py"), "--variants", "pidro", "--player"]
        command += ["heuristic", "--auctions", str(auctions), "--out", str(tmp_path)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-2000:]
        return result.stdout

    count(2)
    (kept,) = tmp_path.iterdir()
    with kept.open("a") as file:
        file.write('{"seed": 70002, "bi')  # a line cut short by a stop
    again = count(3)
    assert "pidro: 2 auctions already in" in again and "pidro: 3 auctions," in again
    lines = kept.read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines if line.endswith("}")] == [70000, 70001, 70002]


@pytest.mark.slow
def test_a_call_found_wild_is_valued_again_on_the_confirming_deals_before_it_counts(tmp_path: Path) -> None:
    # a margin every call clears: each bid is found wild, valued again on more deals, and stays wild
    command = [sys.executable, str(BENCHMARKS / "overcalls.py"), "--variants", "pidro"]
    command += ["--player", "heuristic", "--auctions", "1", "--margin", "-1000"]
    command += ["--analysis-deals", "20", "--confirm-deals", "40", "--out", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    (kept,) = tmp_path.iterdir()
    assert kept.name.endswith("-c40.jsonl")  # a count with a second look is kept apart from one without
    (auction,) = [json.loads(line) for line in kept.read_text().splitlines()]
    assert auction["bids"] > 0 and auction["cleared"] == 0
    assert len(auction["wild"]) == auction["bids"]
    assert all("passing's lead ±" in text for _, text in auction["wild"])
    assert "0 found wild and cleared on 40" in result.stdout


@pytest.mark.slow
def test_card_play_positions_from_a_table_of_two_players_are_the_first_players_side_only() -> None:
    spec = importlib.util.spec_from_file_location("card_play_loss", BENCHMARKS / "card_play_loss.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mixed = module.positions("pidro", 4, 11, table=("heuristic", "basic"))
    every = module.positions("pidro", 4, 11)
    assert mixed and {obs.seat % 2 for obs, _loss in mixed} == {0}  # seats 0 and 2: seat 0's side
    assert {obs.seat % 2 for obs, _loss in every} == {0, 1}


@pytest.mark.slow
def test_the_ceiling_keeps_every_choice_and_values_every_legal_play_on_the_picture() -> None:
    spec = importlib.util.spec_from_file_location("card_play_loss", BENCHMARKS / "card_play_loss.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mattering = module.positions("pidro", 3, 21)
    every = module.positions("pidro", 3, 21, every=True)
    assert len(every) > len(mattering)  # some choices lose nothing in the true deal
    assert any(not any(loss.values()) for _obs, loss in every)
    pictures = [(module.expected_losses(obs, 8, False), loss, obs) for obs, loss in every[:8]]
    for picture, loss, obs in pictures:
        assert set(picture) == set(loss) == set(obs.legal)
        assert min(picture.values()) >= 0
    assert any(max(picture.values()) > 0 for picture, _loss, _obs in pictures)  # its worlds differ


def test_the_bidding_runs_contracts_are_told_by_band_of_bids() -> None:
    spec = importlib.util.spec_from_file_location("strength", BENCHMARKS / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.bid_bands(6, 9, 14) == [(6, 6), (7, 7), (8, 8), (9, 9)]
    assert module.bid_bands(30, 84, 83)[:2] == [(30, 37), (38, 45)] and module.bid_bands(30, 84, 83)[-1] == (
        78,
        85,
    )

    def play(by: str, bidder: int, bid: int, made: bool, change: int) -> dict[str, object]:
        side_change = [0, 0]
        side_change[bidder % 2] = change
        return {"bidder": bidder, "bid_by": by, "bid": bid, "made": made, "side_change": side_change}

    plays = [
        play("A", 0, 7, True, 7),
        play("A", 1, 7, False, -7),  # side 1: the bidder's side's change is counted, not side 0's
        play("B", 2, 9, True, 9),
        {"bidder": None, "bid_by": None, "bid": None, "made": None, "side_change": [0, 0]},  # thrown in
    ]
    doc = {
        "settings": {"variant": "pidro", "players": {"A": "expert", "B": "expert:bid=heuristic"}},
        "deals": [{"plays": plays}],
    }
    assert module.contracts_by_bid(doc)[2:] == [
        "| 7 | 2, 50% made, +0.0 | – |",
        "| 9 | – | 1, 100% made, +9.0 |",
    ]


@pytest.mark.slow
def test_the_calibrated_contracts_are_the_strength_runs_own_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # it imports strength.py's bands
    spec = importlib.util.spec_from_file_location("bid_calibration", BENCHMARKS / "bid_calibration.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bid_calibration", module)  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    from pedro.tournament.runner import play_duplicate_deal

    found = module.contracts("pidro", 4, "basic", "heuristic", seed=7)
    played = [
        (play.bid, play.made, play.side_points[play.bidder % 2])
        for index in range(4)
        for play in play_duplicate_deal("pidro", {}, ["heuristic", "basic"], 7, index).plays
        if play.bid_by == 0
    ]
    assert found and [(c.bid, c.made, c.points) for c in found] == played
    for contract in found:
        assert 0.0 <= contract.predicted_made <= 1.0 and 0.0 <= contract.predicted_points <= 14
        assert contract.lead_over_pass is not None or contract.dealer  # a stuck dealer may not pass
