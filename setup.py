"""Builds pedro's extension modules with mypyc where it can; the metadata is in pyproject.toml.

``build_backend/pedro_build.py`` says which modules compile and when a build compiles them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_backend"))
from pedro_build import COMPILED_MODULES, build_is_compiled

compiled, reason = build_is_compiled()
print(f"pedro build: {'compiled (mypyc)' if compiled else 'pure Python'}: {reason}", file=sys.stderr)
if compiled:
    from mypyc.build import mypycify

    # group_name: the modules share one C library, named pedro__mypyc rather than by a hash
    modules = [f"src/{module}" for module in COMPILED_MODULES]
    setup(ext_modules=mypycify(modules, opt_level="3", group_name="pedro"))
else:
    setup()
