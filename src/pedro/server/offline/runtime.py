"""The offline app's pinned runtime: Pyodide's core and the wheels its worker installs.

The build fetches them (``build_backend/pedro_runtime.py``) into ``runtime_files/`` beside this module,
so pedro serves the app with no network; ``runtime.json`` pins each file's checksum, which is
checked here again before a file is served: a file changed on disk is refused, not shipped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The pins: ``runtime.json``, read by the build backend too.
PINS: dict[str, Any] = json.loads((HERE / "runtime.json").read_text(encoding="utf-8"))
#: Where the build put the files: ``pyodide/`` and ``wheels/``.
RUNTIME_DIR = HERE / "runtime_files"
#: The Pyodide release the app runs on.
PYODIDE_VERSION: str = PINS["pyodide"]["version"]


class RuntimeMissing(Exception):
    """A pinned file is not where the build puts it, or is not the pinned one."""


@dataclass(frozen=True)
class RuntimeFile:
    """One pinned file: its path in the app's tree, where it is, and its checksum."""

    tree_path: str
    path: Path
    sha256: str


def pinned_files(folder: Path = RUNTIME_DIR) -> tuple[RuntimeFile, ...]:
    """Every pinned file, Pyodide's core first (``pyodide/...``), then the wheels (``python/...``)."""
    core = tuple(
        RuntimeFile(f"pyodide/{name}", folder / "pyodide" / name, pin["sha256"])
        for name, pin in PINS["pyodide"]["files"].items()
    )
    wheels = tuple(
        RuntimeFile(f"python/{pin['file']}", folder / "wheels" / pin["file"], pin["sha256"])
        for pin in PINS["wheels"]
    )
    return core + wheels


def file_sha256(path: Path) -> str:
    """A file's sha256, computed once per version of the file (the runtime is some 15 MB)."""
    stat = path.stat()
    return _sha256(path, stat.st_size, stat.st_mtime_ns)


@cache
def _sha256(path: Path, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def checked(file: RuntimeFile) -> Path:
    """``file``'s path once its contents are the pinned ones."""
    try:
        sha256 = file_sha256(file.path)
    except OSError as exc:
        raise RuntimeMissing(
            f"the offline app's runtime file {file.path} is missing ({exc.strerror}): building "
            "pedro fetches it (pip install ., or python build_backend/pedro_runtime.py in a checkout)"
        ) from exc
    if sha256 != file.sha256:
        raise RuntimeMissing(
            f"the offline app's runtime file {file.path} is not the pinned one (its sha256 differs from "
            "runtime.json's): reinstall pedro, or run python build_backend/pedro_runtime.py in a checkout"
        )
    return file.path


def runtime_tree(folder: Path = RUNTIME_DIR) -> dict[str, Path]:
    """The app's runtime files by their paths in its tree, each checked."""
    return {file.tree_path: checked(file) for file in pinned_files(folder)}


def wheel_paths() -> list[str]:
    """The wheels' paths in the tree, in the order the worker installs them (runtime.json's)."""
    return [file.tree_path for file in pinned_files() if file.tree_path.endswith(".whl")]
