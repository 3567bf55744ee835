"""``pedro --version``: the package's version and which build runs, compiled or pure Python.

The compiled build is the same source with the engine compiled by mypyc into C extension
modules (docs/engine.md, "Compiled build"); whether it runs is read off the imported modules
themselves, so the answer holds whatever way the package was installed.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.metadata import PackageNotFoundError, version

#: Modules every compiled build compiles (the build's list is build_backend/pedro_build.py).
COMPILED_PROBES = ("pedro.cards", "pedro.engine.state", "pedro.engine.turns")
COMPILED = "compiled (mypyc)"
PURE = "pure Python"


def is_extension(module_name: str) -> bool:
    """Whether the module was imported from a C extension (a compiled module) rather than a .py file."""
    path = getattr(importlib.import_module(module_name), "__file__", None) or ""
    return path.endswith(tuple(EXTENSION_SUFFIXES))


def build_kind() -> str:
    """``compiled (mypyc)`` when the engine's modules are compiled, ``pure Python`` when none is."""
    compiled = [is_extension(name) for name in COMPILED_PROBES]
    if all(compiled):
        return COMPILED
    if not any(compiled):
        return PURE
    return "mixed: compiled " + ", ".join(n for n, c in zip(COMPILED_PROBES, compiled, strict=True) if c)


def version_text() -> str:
    """The line ``pedro --version`` prints, e.g. ``pedro 0.1.0 (compiled (mypyc))``."""
    try:
        number = version("pedro")
    except PackageNotFoundError:  # run from a source tree that was never installed
        number = "unknown"
    return f"pedro {number} ({build_kind()})"
