"""The quick benchmarks still run against the code as it is now (a merge once left one calling
the store with an old signature, and nothing noticed until its figures were wanted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
            "one_against_field.py",
            ["--variant", "pedro_sancho", "--players", "heuristic,basic", "--deals", "3"],
            "relative score change",
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
                "expert:4/score",
                "expert:4/resample2",
                "expert:4/clear8/noread",
            ],
            "Loss per deal by the tricks finished",
        ),
    ],
)
def test_a_quick_benchmark_runs_and_prints_its_figures(script: str, args: list[str], prints: str) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() and prints in result.stdout, result.stdout[-2000:]
