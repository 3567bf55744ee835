"""The offline app's runtime, fetched at build time: Pyodide's core and the wheels the worker installs.

The browser app (``pedro build-web``, ``/play/`` of ``pedro serve``) runs pedro in Pyodide and
must never reach a CDN, so every build (wheel and editable alike) puts the pinned files into
``src/pedro/server/offline/runtime_files/``, a gitignored folder that ships as package data: an
installed pedro serves the app with no network. The pins (URL and checksum of each download,
checksum of each file taken from Pyodide's tarball) are in ``src/pedro/server/offline/runtime.json``,
which ``pedro.server.offline.runtime`` reads too.

Each download is looked for in ``$PEDRO_RUNTIME_FILES`` (a folder holding the downloads by their
file names, for builds without a network), then in the download cache
(``${XDG_CACHE_HOME:-~/.cache}/pedro-build/``), then fetched; a checksum that does not match
fails the build. Standard library only: the build environment has nothing else.

Run as a script (``python build_backend/pedro_runtime.py``) to fetch the files into a checkout
without reinstalling.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The pins, relative to the project's root.
PINS = Path("src/pedro/server/offline/runtime.json")
#: Where the files go, relative to the project's root: ``pyodide/`` and ``wheels/``.
TARGET = Path("src/pedro/server/offline/runtime_files")
#: A folder holding the downloads by their file names, looked in before the cache and the network.
LOCAL_ENV = "PEDRO_RUNTIME_FILES"
#: Seconds a download may stall.
_TIMEOUT = 120


class RuntimeFetchError(Exception):
    """A pinned file could not be had: the message says which, from where, and how to provide it."""


@dataclass(frozen=True)
class Download:
    """One pinned download: its file name, where it is fetched from and its checksum."""

    name: str
    url: str
    #: ``hashlib`` algorithm name
    algorithm: str
    #: the expected digest, as hex
    digest: str

    def matches(self, data: bytes) -> bool:
        return hashlib.new(self.algorithm, data).hexdigest() == self.digest


def _sri_hex(integrity: str) -> tuple[str, str]:
    """npm's ``sha512-<base64>`` as ``("sha512", hex)``."""
    algorithm, _, encoded = integrity.partition("-")
    return algorithm, base64.b64decode(encoded).hex()


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pedro-build"


def _write_atomically(path: Path, data: bytes) -> None:
    """Another build may read or write the same file at once (CI builds two at a time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide installed package data from other users
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _how_to_provide(download: Download) -> str:
    return (
        f"The offline app's runtime is pinned in {PINS}. To build without fetching, download "
        f"{download.url} by hand into a folder (keeping its name {download.name}) and set "
        f"{LOCAL_ENV} to that folder, or put it in {_cache_dir()}."
    )


def obtain(download: Download) -> bytes:
    """``download``'s bytes, checked: from ``$PEDRO_RUNTIME_FILES``, else the cache, else the network."""
    local = os.environ.get(LOCAL_ENV, "").strip()
    if local and (Path(local) / download.name).is_file():
        data = (Path(local) / download.name).read_bytes()
        if not download.matches(data):
            raise RuntimeFetchError(
                f"pedro build: {Path(local) / download.name} does not match its {download.algorithm} "
                f"checksum {download.digest} (from {LOCAL_ENV}). {_how_to_provide(download)}"
            )
        return data
    cached = _cache_dir() / download.name
    if cached.is_file():
        data = cached.read_bytes()
        if download.matches(data):
            return data
    try:
        with urllib.request.urlopen(download.url, timeout=_TIMEOUT) as response:
            data = bytes(response.read())
    except OSError as exc:
        raise RuntimeFetchError(
            f"pedro build: could not fetch {download.name} from {download.url}: {exc}. "
            f"{_how_to_provide(download)}"
        ) from exc
    if not download.matches(data):
        raise RuntimeFetchError(
            f"pedro build: {download.name} fetched from {download.url} does not match its "
            f"{download.algorithm} checksum {download.digest}. {_how_to_provide(download)}"
        )
    try:
        _write_atomically(cached, data)
    except OSError as exc:  # a read-only home: the build goes on, without a cache
        print(f"pedro build: could not cache {download.name} in {cached}: {exc}", file=sys.stderr)
    return data


def _pyodide_files(pins: dict[str, Any], tarball: bytes) -> dict[str, bytes]:
    """The pinned files of Pyodide's npm tarball (under ``package/``), each checked."""
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        for name, pin in pins["files"].items():
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeFetchError(f"pedro build: Pyodide's tarball has no file {name}")
            data = member.read()
            if hashlib.sha256(data).hexdigest() != pin["sha256"]:
                raise RuntimeFetchError(f"pedro build: {name} of Pyodide's tarball does not match {PINS}")
            found[name] = data
    return found


def _is_current(path: Path, sha256: str) -> bool:
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256


def fetch_runtime(root: Path = Path()) -> Path:
    """Put the pinned runtime into ``root/TARGET`` (only what is missing or changed), remove what
    is no longer pinned there, and return the folder."""
    pins = json.loads((root / PINS).read_text(encoding="utf-8"))
    target = root / TARGET
    pyodide = pins["pyodide"]
    wanted: dict[Path, str] = {
        target / "pyodide" / name: pin["sha256"] for name, pin in pyodide["files"].items()
    }
    if not all(_is_current(path, sha) for path, sha in wanted.items()):
        algorithm, digest = _sri_hex(pyodide["integrity"])
        tarball = obtain(Download(pyodide["file"], pyodide["url"], algorithm, digest))
        for name, data in _pyodide_files(pyodide, tarball).items():
            _write_atomically(target / "pyodide" / name, data)
    for wheel in pins["wheels"]:
        path = target / "wheels" / wheel["file"]
        wanted[path] = wheel["sha256"]
        if not _is_current(path, wheel["sha256"]):
            _write_atomically(path, obtain(Download(wheel["file"], wheel["url"], "sha256", wheel["sha256"])))
    # (a dot file is another build's download under way)
    for stale in (p for p in target.rglob("*") if p.is_file() and p not in wanted and p.name[0] != "."):
        stale.unlink()
    return target


if __name__ == "__main__":
    try:
        print(f"pedro build: the offline app's runtime is in {fetch_runtime()}")
    except RuntimeFetchError as exc:
        sys.exit(str(exc))
