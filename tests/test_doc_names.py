"""The code the docs name exists: a file, a module, or a module's or class's attribute.

Docs name code to send a reader to it (``players/parts.py``, ``expert_config.ExpertConfig``);
a name left behind by a move or a rename sends them nowhere. The experiments notes are left out:
they describe settings as they were at the commit each note names.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "pedro"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# where a file named alone in a doc may be
FILE_ROOTS = [ROOT, ROOT / "src", SOURCE]
SEARCHED = [SOURCE, ROOT / "tests", ROOT / "benchmarks", ROOT / "examples"]

CODE_SPAN = re.compile(r"`([^`\n]+)`")
FILE_NAME = re.compile(r"[\w./-]+\.py")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# a file's or a host's name, not code: ``results.json``, ``pedro.sqlite3``, ``cards.example.org``
NOT_CODE = re.compile(
    r"[\w./-]+\.(?:py|md|json|js|mjs|html|wasm|zip|whl|webmanifest|po|pot|sqlite3|service|org|com|net)\b"
)


def _module_names() -> dict[str, list[str]]:
    """pedro's modules by their last name (``expert`` -> ``pedro.players.expert``)."""
    out: dict[str, list[str]] = {}
    for path in SOURCE.rglob("*.py"):
        if "migrations" in path.parts:  # scripts alembic runs, not modules to import
            continue
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.setdefault(parts[-1], []).append(".".join(parts))
    return out


def _class_homes() -> dict[str, list[str]]:
    """pedro's top-level classes by name, with the modules that define them."""
    out: dict[str, list[str]] = {}
    for module in (m for names in MODULES.values() for m in names):
        path = SOURCE.parent / Path(*module.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, []).append(module)
    return out


# the variables the docs' examples use, and the classes of the objects they hold
VARIABLES = {
    "state": [("pedro.engine.state", "GameState"), ("pedro.envs.openspiel", "PedroState")],
    "game": [("pedro.envs.openspiel", "PedroGame")],
    "rules": [("pedro.variants.model", "Ruleset")],
    "e": [("pedro.envs.pettingzoo", "raw_env")],
}
# first names that in the docs are a JSON object's or a catalog key's, not a module's
NOT_MODULES = {"summary", "review"}

MODULES = _module_names()
CLASSES = _class_homes()


@cache
def _import(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _named_for(variable: str) -> list[object]:
    """The classes of the objects the docs give a variable's name (``state.legal_actions()``)."""
    return [
        getattr(module, name)
        for module_name, name in VARIABLES.get(variable, ())
        for module in [_import(module_name)]
        if module is not None
    ]


def _defined_in(value: object, module: ModuleType) -> bool:
    return isinstance(value, type) and value.__module__ == module.__name__


def _has(owner: object, name: str) -> bool:
    """An attribute, also one a class only annotates or sets on ``self`` in a method."""
    if hasattr(owner, name):
        return True
    if isinstance(owner, type):
        for klass in owner.__mro__:
            if name in getattr(klass, "__annotations__", {}):
                return True
            try:
                source = inspect.getsource(klass)
            except (OSError, TypeError):
                continue
            if re.search(rf"\bself\.{re.escape(name)}\s*[:=]", source):
                return True
    return False


def _resolves(owner: object, attributes: list[str]) -> bool:
    for name in attributes:
        if isinstance(owner, ModuleType) and not hasattr(owner, name):  # a package's module
            _import(f"{owner.__name__}.{name}")
        if not _has(owner, name):
            return False
        owner = getattr(owner, name, None)
        if not isinstance(owner, (type, ModuleType)):  # an instance's: nothing further to look into
            return True
    return True


def _dotted_resolves(name: str) -> bool | None:
    """Whether a dotted name is pedro's and exists; None when it is not pedro's to check."""
    parts = name.split(".")
    if parts[0] in sys.stdlib_module_names:  # ``random.choice``: the standard library's
        return None
    if parts[0] == "pedro":
        for cut in range(len(parts), 0, -1):
            module = _import(".".join(parts[:cut]))
            if module is not None:
                return _resolves(module, parts[cut:])
        return False
    if parts[0] in NOT_MODULES:
        return None
    owners: list[object] = list(_named_for(parts[0]))
    for module in (_import(name) for name in MODULES.get(parts[0], ())):
        if module is not None:  # ``expert.clear_bound``, or ``state.observation`` of its class
            owners += [module, *(c for c in vars(module).values() if _defined_in(c, module))]
    for module in (_import(name) for name in CLASSES.get(parts[0], ())):
        if module is not None:
            owners.append(getattr(module, parts[0]))
    if not owners:
        return None
    return any(_resolves(owner, parts[1:]) for owner in owners) or _third_party(parts)


def _third_party(parts: list[str]) -> bool:
    """A library's name that is also one of pedro's modules (``pettingzoo.test.api_test``)."""
    for cut in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return _resolves(module, parts[cut:])
    return False


def _file_exists(name: str) -> bool:
    if any((base / name).is_file() for base in FILE_ROOTS):
        return True
    if "/" not in name:  # a module named by its file alone
        return any(next(base.rglob(name), None) is not None for base in SEARCHED)
    return any((base / name).is_file() for base in SEARCHED) or any(
        str(path).endswith("/" + name) for base in SEARCHED for path in base.rglob(Path(name).name)
    )


def _spans() -> list[tuple[str, str]]:
    """Every code span of the docs, with the doc it is in."""
    return [
        (str(doc.relative_to(ROOT)), span)
        for doc in DOCS
        for span in CODE_SPAN.findall(doc.read_text(encoding="utf-8"))
    ]


def test_files_the_docs_name_exist() -> None:
    missing = sorted(
        {
            (doc, name)
            for doc, span in _spans()
            # a span with a space is a command, naming the user's files (`python my_bot.py`)
            if " " not in span and "://" not in span
            for name in FILE_NAME.findall(span)
            if Path(name).stem not in sys.stdlib_module_names and not _file_exists(name)
        }
    )
    assert missing == [], missing


def test_code_the_docs_name_exists() -> None:
    missing = sorted(
        {
            (doc, name)
            for doc, span in _spans()
            for name in DOTTED.findall(NOT_CODE.sub("", span))
            if _dotted_resolves(name) is False
        }
    )
    assert missing == [], missing


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("pedro.engine.state.GameState", True),
        ("expert_config.ExpertConfig", True),
        ("GameState.observation", True),
        ("pedro.engine.state.NoSuchThing", False),
        ("expert.no_such_function", False),
        ("state.serialize", True),  # a PedroState's (OpenSpiel's State)
        ("pettingzoo.test.api_test", True),  # the library's, not pedro.envs.pettingzoo's
        ("random.choice", None),  # the standard library's: not checked
        ("summary.difference", None),  # a JSON field
    ],
)
def test_the_check_finds_what_is_gone(name: str, found: bool | None) -> None:
    assert _dotted_resolves(name) is found
