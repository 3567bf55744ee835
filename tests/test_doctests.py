"""The documented examples run: doctests of the core API, docs/engine.md's code, and doctest
collection of src/pedro without the optional extras."""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pedro.cli.version_cmd import is_extension

ROOT = Path(__file__).resolve().parents[1]

#: The core API's entry points, each of which shows its use in a doctest.
CORE_API = {
    "pedro.cards": ("parse_card", "parse_cards", "format_card", "format_cards", "pretty_card"),
    "pedro.engine.actions": ("action_text", "parse_action_words", "parse_action_text"),
    "pedro.variants.options": ("make_ruleset",),
    "pedro.variants.option_spec": ("option_text",),
    "pedro.records.reading": ("read_record",),
    "pedro.records.replaying": ("replay",),
}


def python_blocks(path: Path) -> list[str]:
    """The fenced ```python blocks of a Markdown file."""
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


def doctests_of(module: ModuleType) -> list[doctest.DocTest]:
    """The module's doctests, run in its namespace. A module compiled by mypyc has no docstrings
    (its functions' ``__doc__`` is None), so its examples are read from the source beside it
    and run against the compiled functions."""
    found = [t for t in doctest.DocTestFinder().find(module) if t.examples]
    if found or not is_extension(module.__name__):
        return found
    source = Path(module.__file__ or "").with_name(module.__name__.rsplit(".", 1)[-1] + ".py")
    parser = doctest.DocTestParser()
    tests = []
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and ast.get_docstring(node):
            name = f"{module.__name__}.{node.name}"
            docstring = ast.get_docstring(node, clean=False) or ""
            tests.append(parser.get_doctest(docstring, dict(vars(module)), name, str(source), node.lineno))
    return [t for t in tests if t.examples]


@pytest.mark.parametrize("module_name", sorted(CORE_API))
def test_core_api_doctests_pass(module_name: str) -> None:
    module = importlib.import_module(module_name)
    tests = {t.name.rsplit(".", 1)[-1]: t for t in doctests_of(module)}
    missing = [name for name in CORE_API[module_name] if name not in tests]
    assert not missing, f"{module_name}: no doctest for {missing}"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests.values():
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_engine_md_examples_run_and_show_what_they_say(capsys: pytest.CaptureFixture[str]) -> None:
    """Each block runs as written; a line ``expression  # 'text'`` must give that text."""
    blocks = python_blocks(ROOT / "docs" / "engine.md")
    assert len(blocks) >= 2
    namespaces: list[dict[str, Any]] = []
    checked = 0
    for block in blocks:
        namespace: dict[str, Any] = {"__name__": "engine_md"}
        exec(compile(block, "docs/engine.md", "exec"), namespace)
        namespaces.append(namespace)
        for line in block.splitlines():
            shown = re.fullmatch(r"(\S.*?)\s+# ('.*')", line)
            if shown:
                assert eval(shown[1], namespace) == ast.literal_eval(shown[2]), line
                checked += 1
    assert checked >= 1
    # the first example plays a whole game and prints its end
    state = namespaces[0]["state"]
    assert state.is_over
    assert capsys.readouterr().out.splitlines()[0] == f"{state.scores} {state.winner}"


@pytest.mark.slow
def test_doctest_collection_skips_a_module_whose_extra_is_missing(tmp_path: Path) -> None:
    """Without pyspiel and pettingzoo the two environment modules are skipped, saying why."""
    (tmp_path / "pyspiel.py").write_text('raise ImportError("no pyspiel here")\n')
    (tmp_path / "pettingzoo").mkdir()
    (tmp_path / "pettingzoo" / "__init__.py").write_text('raise ImportError("no pettingzoo here")\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    collect = ["-p", "no:cacheprovider", "-p", "no:xdist", "--collect-only", "-rs", "src/pedro/envs"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *collect],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "src/pedro/envs/actions.py" in run.stdout  # the other modules are still collected
    for module, package in (("openspiel", "pyspiel"), ("pettingzoo", "pettingzoo")):
        assert re.search(
            rf"SKIPPED .*src/pedro/envs/{module}\.py needs the 'envs' extra .*no {package} here", run.stdout
        ), run.stdout
