"""The fast tier's promise: every test module keeps a test that is not slow (tests/tiers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.tiers import fast_tests

TESTS = Path(__file__).resolve().parent
MODULES = sorted(TESTS.rglob("test_*.py"))


def test_the_suite_has_its_modules() -> None:
    assert len(MODULES) > 100 and TESTS / "e2e" / "test_browser.py" in MODULES


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.relative_to(TESTS).as_posix())
def test_every_module_keeps_a_fast_test(module: Path) -> None:
    fast = fast_tests(module.read_text(encoding="utf-8"))
    assert fast, f"{module.relative_to(TESTS)}: every test is slow; keep a fast test of its subject"


@pytest.mark.parametrize(
    "source",
    [
        "import pytest\npytestmark = pytest.mark.slow\ndef test_a(): pass\n",
        "import pytest\npytestmark = [pytest.mark.browser]\ndef test_a(): pass\n",
        "from pytest import mark\npytestmark = (mark.postgres, mark.processes)\ndef test_a(): pass\n",
        "import pytest\n@pytest.mark.slow\ndef test_a(): pass\n@pytest.mark.processes\ndef test_b(): pass\n",
        "import pytest\nSLOW = pytest.mark.slow\n@SLOW\ndef test_a(): pass\n",
        "import pytest\n@pytest.mark.parametrize('v', [pytest.param(1, marks=pytest.mark.slow),"
        " pytest.param(2, marks=[pytest.mark.browser])])\ndef test_a(v): pass\n",
        "import pytest\n@pytest.mark.slow\nclass TestA:\n    def test_a(self): pass\n",
        "import pytest\nclass TestA:\n    pytestmark = pytest.mark.slow\n    def test_a(self): pass\n",
        "def helper(): pass\n",
    ],
)
def test_a_module_whose_tests_are_all_slow_has_none_left(source: str) -> None:
    assert fast_tests(source) == []


@pytest.mark.parametrize(
    ("source", "fast"),
    [
        ("import pytest\npytestmark = pytest.mark.postgres\ndef test_a(): pass\n", ["test_a"]),
        ("import pytest\n@pytest.mark.slow\ndef test_a(): pass\ndef test_b(): pass\n", ["test_b"]),
        (
            "import pytest\n@pytest.mark.parametrize('v', [1, pytest.param(2, marks=pytest.mark.slow)])\n"
            "def test_a(v): pass\n",
            ["test_a"],
        ),
        (
            "import pytest\n@pytest.mark.parametrize('v', range(3))\n@pytest.mark.skipif(False, reason='')\n"
            "def test_a(v): pass\n",
            ["test_a"],
        ),
        ("class TestA:\n    def test_a(self): pass\n    def helper(self): pass\n", ["TestA.test_a"]),
        ("async def test_a(): pass\n", ["test_a"]),
    ],
)
def test_the_tests_left_unmarked_are_the_fast_ones(source: str, fast: list[str]) -> None:
    assert fast_tests(source) == fast
