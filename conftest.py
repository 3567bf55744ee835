"""Doctest collection of ``src/pedro`` without the optional extras.

``--doctest-modules`` imports every module, and two of them exist only for an
extra (``pip install 'pedro[envs]'``): without it they are reported as
skipped, with the reason, instead of failing the whole collection.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path

import pytest

#: Modules of src/pedro that need an extra: the packages they import and the extra that brings them.
NEEDS_EXTRA: dict[str, tuple[tuple[str, ...], str]] = {
    "src/pedro/envs/openspiel.py": (("pyspiel",), "envs"),
    "src/pedro/envs/pettingzoo.py": (("gymnasium", "pettingzoo"), "envs"),
}


def missing_extra(relative: str) -> str | None:
    """Why the module at ``relative`` (to the repository) cannot be imported here, or None if it can."""
    needs = NEEDS_EXTRA.get(relative)
    if needs is None:
        return None
    packages, extra = needs
    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError as exc:
            return f"{relative} needs the {extra!r} extra (pip install 'pedro[{extra}]'): {exc}"
    return None


class _NeedsExtra(pytest.File):
    """Stands in for a module whose extra is missing: its collection is skipped, saying why."""

    reason = ""

    def collect(self) -> Iterable[pytest.Item]:
        pytest.skip(self.reason)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Iterable[pytest.Collector | None]:
    collected = yield
    root = parent.config.rootpath
    reason = missing_extra(file_path.relative_to(root).as_posix()) if file_path.is_relative_to(root) else None
    if reason is None:
        return collected
    stand_in = _NeedsExtra.from_parent(parent, path=file_path)
    stand_in.reason = reason
    return [stand_in]


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> Iterable[None]:
    """Each test speaks English whatever the machine's locale, and a test that sets a language
    (``pedro play --lang fi``) leaves none behind for the next one."""
    from pedro import i18n

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    with i18n.speaking(i18n.DEFAULT):
        yield
