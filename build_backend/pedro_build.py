"""How pedro's wheel is built: which modules mypyc compiles, and whether this build compiles them.

The engine is strictly typed, so mypyc compiles the hot modules from the same source into C
extensions; everything else stays Python. A build compiles when a C compiler that can build
Python extensions is there and ``PEDRO_PURE_PYTHON`` is not set to 1; otherwise the wheel is
the pure-Python package, which behaves the same, only slower. Editable installs are always
pure Python, so that an edit to ``src/`` takes effect at once. ``pedro --version`` says which
build runs. Read by ``setup.py`` and the in-tree build backend (``pedro_backend.py``).
"""

from __future__ import annotations

import os
import sysconfig
import tempfile
from pathlib import Path

#: The modules mypyc compiles, relative to src/: the engine and what its hot paths call.
#: variants/model.py stays Python: options.py's ``_Draft`` subclasses ``Ruleset``, which a
#: compiled Python class refuses (mypyc checks its exact type), and compiling it gained nothing
#: measurable (``Ruleset`` has to be a Python class for its cached values anyway); the trump
#: tables the play reads at every card are a native class of their own (variants/tables.py).
COMPILED_MODULES = (
    "pedro/cards.py",
    "pedro/marks.py",
    "pedro/engine/actions.py",
    "pedro/engine/auction.py",
    "pedro/engine/choices.py",
    "pedro/engine/deal.py",
    "pedro/engine/draws.py",
    "pedro/engine/driver.py",
    "pedro/engine/exchange.py",
    "pedro/engine/exchange_checks.py",
    "pedro/engine/exchange_plan.py",
    "pedro/engine/exchange_stock.py",
    "pedro/engine/observation.py",
    "pedro/engine/phases.py",
    "pedro/engine/play.py",
    "pedro/engine/results.py",
    "pedro/engine/scoring.py",
    "pedro/engine/state.py",
    "pedro/engine/table.py",
    "pedro/engine/turns.py",
    "pedro/variants/tables.py",
)

#: What a compiled build needs, asked for only when the build compiles: mypy (mypyc). mypyc checks
#: the types of every module the compiled ones import, so these import no third-party package
#: (the engine marks its texts with ``pedro.marks``, not ``pedro.i18n``, which imports Babel).
MYPYC_REQUIREMENTS = ("mypy>=1.18",)

#: Set to 1 to build the pure-Python package even where a C compiler is there.
PURE_ENV = "PEDRO_PURE_PYTHON"


def can_compile_extensions() -> bool:
    """Whether a C compiler here builds a file that includes Python.h (the probe mypyc needs)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").is_file():
        return False
    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "probe.c")
        source.write_text("#include <Python.h>\nint pedro_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(source)], output_dir=tmp, include_dirs=[include])
        except (CCompilerError, DistutilsError, OSError):
            return False
    return True


def build_is_compiled() -> tuple[bool, str]:
    """Whether this build compiles the hot modules, and why (printed by setup.py)."""
    if os.environ.get(PURE_ENV, "").strip() not in ("", "0"):
        return False, f"{PURE_ENV}={os.environ[PURE_ENV]} asks for the pure-Python package"
    if not can_compile_extensions():
        return False, "no C compiler that builds Python extensions was found"
    return True, "a C compiler was found: mypyc compiles the hot modules"
