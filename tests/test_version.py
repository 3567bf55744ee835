"""``pedro --version``: the version and which build runs, read off the imported engine modules."""

from __future__ import annotations

import _random
import os
import re
from importlib.metadata import version

import pytest
from typer.testing import CliRunner

import pedro.engine.state
from pedro.cli.main import app
from pedro.cli.version_cmd import COMPILED, PURE, build_kind, is_extension, version_text

#: Set by CI to the build each test run must import: "compiled" or "pure".
EXPECTED = os.environ.get("PEDRO_EXPECT_BUILD")


def test_version_option_prints_the_version_and_the_build() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"pedro {version('pedro')} ({build_kind()})"
    assert re.fullmatch(r"pedro \d+\.\d+\.\d+ \((compiled \(mypyc\)|pure Python)\)", version_text())


def test_a_c_extension_and_a_source_module_are_told_apart() -> None:
    assert is_extension(_random.__name__)  # CPython's C extension
    assert not is_extension("pedro.cli.version_cmd")  # never compiled


def test_the_build_follows_the_engine_modules_files() -> None:
    compiled = pedro.engine.state.__file__ is not None and not pedro.engine.state.__file__.endswith(".py")
    assert build_kind() == (COMPILED if compiled else PURE)


@pytest.mark.skipif(EXPECTED is None, reason="PEDRO_EXPECT_BUILD is not set (CI sets it)")
def test_the_build_ci_asked_for_is_the_one_imported() -> None:
    assert EXPECTED in ("compiled", "pure")
    assert build_kind() == (COMPILED if EXPECTED == "compiled" else PURE), pedro.engine.state.__file__
