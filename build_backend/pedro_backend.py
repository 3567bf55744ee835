"""The in-tree build backend: setuptools' own, with four differences.

A wheel asks for mypy (which brings mypyc) only when it will compile, so the pure-Python
package builds where no C compiler is; an editable install is always pure Python, so that
developers' edits to ``src/`` run without a rebuild (``pedro_build.py`` says why); each
wheel is built from an empty build/ folder; and every wheel and editable install first fetches
the offline app's pinned runtime into the package (``pedro_runtime.py``).
"""

from __future__ import annotations

import os
import shutil
from typing import Any

from pedro_build import MYPYC_REQUIREMENTS, PURE_ENV, build_is_compiled
from pedro_runtime import fetch_runtime
from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (re-exported: the hooks that need no change)
    build_sdist,
    get_requires_for_build_sdist,
)


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """mypy (and what it checks) when this wheel will be compiled, else nothing beyond the
    build-system requirements.

    (setuptools' own hook would run setup.py, which imports mypyc before it is installed.)
    """
    return list(MYPYC_REQUIREMENTS) if build_is_compiled()[0] else []


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """An editable install is pure Python: it needs no mypy."""
    os.environ[PURE_ENV] = "1"
    return list(_setuptools.get_requires_for_build_editable(config_settings))


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """setuptools' metadata for an editable install, pure Python.

    pip runs every hook in a process of its own, so each editable hook says so itself.
    """
    os.environ[PURE_ENV] = "1"
    return str(_setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings))


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' editable wheel, pure Python (the source under src/ is what runs)."""
    os.environ[PURE_ENV] = "1"
    fetch_runtime()
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """setuptools' metadata, without compiling: the metadata is the same for both builds."""
    os.environ[PURE_ENV] = "1"
    return str(_setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings))


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' wheel, from an empty build/: a pure-Python wheel must not pick up the compiled
    modules an earlier build left in build/lib."""
    shutil.rmtree("build", ignore_errors=True)
    fetch_runtime()
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))
