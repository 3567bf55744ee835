"""The offline app's file tree, the same for ``pedro build-web`` and ``/play/`` of ``pedro serve``.

Every URL inside is relative, so the tree works at any path of any static host::

    index.html             the app's page (static/play.html)
    static/**              the site's static files: the same table UI as the server's
    api/texts/en|fi|sv     what GET /api/texts/{lang} answers, so static/i18n.js works unchanged
    pyodide/*              the pinned Pyodide core (runtime.py)
    python/pedro.zip       pedro's Python source that the worker imports
    python/*.whl           the pinned wheels the worker installs
    manifest.webmanifest   the app's manifest, installable on a phone's home screen
    files.json             {"version", "files", "wheels", "pyodide"}: "files" lists every file of
                           the tree but files.json and sw.js, "wheels" in the order to install
    sw.js                  the service worker, which caches the tree for use with no network

The version is a hash of every file's path and contents, and sw.js carries it: a changed tree is
a new service worker, which caches the new tree and drops the old.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import orjson

import pedro
from pedro import i18n
from pedro.server.http.site import STATIC
from pedro.server.offline.runtime import HERE, PYODIDE_VERSION, file_sha256, runtime_tree, wheel_paths

#: A file's contents: bytes made here, or a file of the installed package (read when needed).
Content = bytes | Path

#: The installed pedro package, whose Python source goes into python/pedro.zip.
PACKAGE = Path(pedro.__file__).resolve().parent
#: What the worker never imports, relative to the package: the terminal, the RL environments, the
#: server's database, HTTP and multi-player parts, the numba kernels (the solver imports them only
#: where numpy is) and the offline app's own server side.
LEFT_OUT = (
    "cli/",
    "envs/",
    "server/app.py",
    "server/services.py",
    "server/storage/",
    "server/sync/",
    "server/http/",
    # of the finished games' part, the worker builds replay frames (an opened record's replay)
    "server/finished/bodies.py",
    "server/finished/body_cache.py",
    "server/finished/from_database.py",
    "server/finished/routes.py",
    "server/finished/workers.py",
    "server/profiles/",
    "server/reviews/",
    "server/tournaments/",
    "server/offline/bundle.py",
    "server/offline/routes.py",
    "server/offline/runtime.py",
    "solver/kernel.py",
    "solver/fast.py",
)
#: The placeholder in service_worker.js that the tree's version replaces.
_VERSION_MARK = "__PEDRO_TREE_VERSION__"
#: Made here, from the others' contents: not listed in files.json's "files".
MADE_FILES = ("files.json", "sw.js")


def _python_sources(package: Path) -> Iterator[tuple[str, Path]]:
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if "__pycache__" not in relative and not relative.startswith(LEFT_OUT):
            yield f"pedro/{relative}", path


def pedro_zip(package: Path = PACKAGE) -> bytes:
    """The worker's pedro: the installed package's ``.py`` files but ``LEFT_OUT``, as a zip to put
    on ``sys.path``; the same source always gives the same bytes (a fixed date on every entry)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in _python_sources(package):
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, path.read_bytes())
    return buffer.getvalue()


def _static_files() -> dict[str, Content]:
    static = Path(str(STATIC))
    return {
        f"static/{path.relative_to(static).as_posix()}": path
        for path in sorted(static.rglob("*"))
        if path.is_file()
    }


def app_files() -> dict[str, Content]:
    """Every file of the tree but files.json and sw.js, by its path in the tree."""
    return {
        "index.html": Path(str(STATIC / "play.html")),
        **_static_files(),
        **{f"api/texts/{lang}": orjson.dumps(i18n.page_catalog(lang)) for lang in i18n.LANGUAGES},
        **runtime_tree(),
        "python/pedro.zip": pedro_zip(),
        "manifest.webmanifest": HERE / "manifest.webmanifest",
    }


def read(content: Content) -> bytes:
    return content if isinstance(content, bytes) else content.read_bytes()


def _sha256(content: Content) -> str:
    return hashlib.sha256(content).hexdigest() if isinstance(content, bytes) else file_sha256(content)


def tree_version(files: Mapping[str, Content]) -> str:
    """A hash of every file's path and contents: any change to the tree changes it."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path}\0{_sha256(files[path])}\n".encode())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Bundle:
    """The whole tree: ``files`` by their paths in it, files.json and sw.js included."""

    files: Mapping[str, Content]
    version: str

    @classmethod
    def of(cls, files: Mapping[str, Content]) -> Bundle:
        """The tree of ``files``, with the files.json and sw.js made from them."""
        template = (HERE / "service_worker.js").read_text(encoding="utf-8")
        # the worker's own code counts too: a changed worker is a new version
        version = tree_version({**files, "sw.js": template.encode()})
        listing = {
            "version": version,
            "files": sorted(files),
            "wheels": wheel_paths(),
            "pyodide": PYODIDE_VERSION,
        }
        made = {
            "files.json": json.dumps(listing, indent=1).encode(),
            "sw.js": template.replace(_VERSION_MARK, version).encode(),
        }
        return cls({**files, **made}, version)

    def size(self, path: str) -> int:
        content = self.files[path]
        return len(content) if isinstance(content, bytes) else content.stat().st_size

    def total_size(self) -> int:
        return sum(self.size(path) for path in self.files)

    def write(self, folder: Path) -> None:
        """The tree into ``folder`` (which exists)."""
        for path, content in self.files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(read(content))


def build_bundle() -> Bundle:
    """The app's tree from the installed package (a second or so: it checks the runtime's files)."""
    return Bundle.of(app_files())
