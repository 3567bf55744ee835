"""``pedro build-web DIR``: the offline app's file tree, written out for any static host.

The tree is the one ``pedro serve`` serves at ``/play/`` (``pedro.server.offline.bundle``); every
URL in it is relative, so the folder works at any path of any host that serves files over HTTPS
(a service worker needs a secure origin; ``localhost`` counts as one).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rich.console import Console

from pedro.server.offline.bundle import build_bundle
from pedro.server.offline.runtime import RuntimeMissing

#: Exit status for a usage error, as typer/click use.
USAGE_ERROR = 2


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def run(console: Console, folder: Path, force: bool = False) -> int:
    """Write the tree into ``folder``: a new or empty folder, or any folder with ``force`` (whose
    files are then replaced by the tree's alone)."""
    if folder.exists() and not folder.is_dir():
        console.print(f"[red]error:[/] {folder} is a file, not a folder")
        return USAGE_ERROR
    filled = folder.is_dir() and any(folder.iterdir())
    if filled and not force:
        console.print(f"[red]error:[/] {folder} is not empty")
        console.print("Give a new or empty folder, or --force to replace what is in it.")
        return USAGE_ERROR
    try:
        bundle = build_bundle()
    except RuntimeMissing as exc:  # before anything of the folder is removed
        console.print(f"[red]error:[/] {exc}")
        return 1
    if filled:
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    bundle.write(folder)
    for path in sorted(bundle.files):
        console.print(f"  {path}  [dim]{bundle.size(path):,} bytes[/]", highlight=False)
    console.print(
        f"Wrote the offline app (version {bundle.version}) to {folder}: "
        f"{len(bundle.files)} files, {_megabytes(bundle.total_size())}.",
        highlight=False,
    )
    return 0
