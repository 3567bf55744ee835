"""The offline app's runtime: fetched by the build only as pinned, and checked again when served."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import re
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from pedro.server.offline import runtime

ROOT = Path(__file__).resolve().parent.parent


def _backend_module() -> ModuleType:
    source = ROOT / "build_backend" / "pedro_runtime.py"
    spec = importlib.util.spec_from_file_location("pedro_runtime", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses looks a class's module up there)
    spec.loader.exec_module(module)
    return module


fetcher = _backend_module()


def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A project root pinning a small 'Pyodide' and a wheel, whose downloads are in a folder of
    their own, served as file:// URLs; with a cache of its own."""
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    core = {"pyodide.mjs": b"export const loadPyodide = 1;\n", "python_stdlib.zip": b"PK stdlib"}
    tarball = _tarball({**core, "README.md": b"left out"})
    (downloads / "pyodide-1.tgz").write_bytes(tarball)
    (downloads / "w-1-py3-none-any.whl").write_bytes(b"PK wheel")
    pins = {
        "pyodide": {
            "version": "1",
            "url": (downloads / "pyodide-1.tgz").as_uri(),
            "file": "pyodide-1.tgz",
            "integrity": "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode(),
            "files": {name: {"sha256": hashlib.sha256(data).hexdigest()} for name, data in core.items()},
        },
        "wheels": [
            {
                "file": "w-1-py3-none-any.whl",
                "url": (downloads / "w-1-py3-none-any.whl").as_uri(),
                "sha256": hashlib.sha256(b"PK wheel").hexdigest(),
            }
        ],
    }
    root = tmp_path / "project"
    (root / fetcher.PINS).parent.mkdir(parents=True)
    (root / fetcher.PINS).write_text(json.dumps(pins))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(fetcher.LOCAL_ENV, raising=False)
    return root, downloads


def test_the_build_fetches_the_pinned_files_into_the_package_and_caches_them(
    project: tuple[Path, Path],
) -> None:
    root, downloads = project
    (root / fetcher.TARGET / "wheels").mkdir(parents=True)
    (root / fetcher.TARGET / "wheels" / "old-0-py3-none-any.whl").write_bytes(b"no longer pinned")
    target = fetcher.fetch_runtime(root)
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == [
        "pyodide/pyodide.mjs",
        "pyodide/python_stdlib.zip",
        "wheels/w-1-py3-none-any.whl",
    ]
    assert (target / "pyodide" / "pyodide.mjs").stat().st_mode & 0o777 == 0o644
    # a second build finds them in the cache, with the source gone
    for download in downloads.iterdir():
        download.unlink()
    for fetched in target.rglob("*.*"):
        fetched.unlink()
    fetcher.fetch_runtime(root)
    assert (target / "wheels" / "w-1-py3-none-any.whl").read_bytes() == b"PK wheel"


def test_a_download_that_is_not_the_pinned_one_fails_the_build(project: tuple[Path, Path]) -> None:
    root, downloads = project
    (downloads / "w-1-py3-none-any.whl").write_bytes(b"PK tampered")
    with pytest.raises(
        fetcher.RuntimeFetchError, match=r"w-1-py3-none-any\.whl fetched from file:.* does not"
    ):
        fetcher.fetch_runtime(root)
    assert not (root / fetcher.TARGET / "wheels").exists()


def test_a_failed_download_says_how_to_provide_the_file(
    project: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, downloads = project
    wheel = (downloads / "w-1-py3-none-any.whl").read_bytes()
    (downloads / "w-1-py3-none-any.whl").unlink()
    with pytest.raises(fetcher.RuntimeFetchError) as failed:
        fetcher.fetch_runtime(root)
    assert "could not fetch w-1-py3-none-any.whl" in str(failed.value)
    assert f"set {fetcher.LOCAL_ENV} to that folder" in str(failed.value)
    # provided by hand: found there, with no fetch
    by_hand = tmp_path / "by-hand"
    by_hand.mkdir()
    (by_hand / "w-1-py3-none-any.whl").write_bytes(wheel)
    monkeypatch.setenv(fetcher.LOCAL_ENV, str(by_hand))
    fetcher.fetch_runtime(root)
    (by_hand / "w-1-py3-none-any.whl").write_bytes(b"PK other")
    (root / fetcher.TARGET / "wheels" / "w-1-py3-none-any.whl").unlink()
    with pytest.raises(fetcher.RuntimeFetchError, match=f"does not match .* \\(from {fetcher.LOCAL_ENV}\\)"):
        fetcher.fetch_runtime(root)


def test_the_pins_are_one_file_for_the_build_and_the_package() -> None:
    """(The package may be an installed wheel's, not the checkout's.)"""
    assert (ROOT / fetcher.PINS).read_text() == (runtime.HERE / "runtime.json").read_text()
    assert fetcher.TARGET.parts[-3:] == runtime.RUNTIME_DIR.parts[-3:]


def test_the_webassembly_wheel_is_built_for_the_pinned_pyodide() -> None:
    """pydantic_core's wheel names the Python and the Emscripten ABI that pyodide-lock.json says."""
    lock = json.loads((runtime.RUNTIME_DIR / "pyodide" / "pyodide-lock.json").read_text())
    info = lock["info"]
    python = "cp" + "".join(info["python"].split(".")[:2])
    wasm = [pin["file"] for pin in runtime.PINS["wheels"] if "none-any" not in pin["file"]]
    assert wasm == [
        f"pydantic_core-{v}-{python}-{python}-pyemscripten_{info['abi_version']}_{info['arch']}.whl"
        for v in re.findall(r"pydantic_core-([^-]+)-", wasm[0])
    ]


def test_a_runtime_file_changed_on_disk_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "runtime"
    with pytest.raises(runtime.RuntimeMissing, match=r"pyodide\.mjs is missing"):
        runtime.runtime_tree(folder)
    for file in runtime.pinned_files(folder):
        file.path.parent.mkdir(parents=True, exist_ok=True)
        file.path.write_bytes(b"not it")
    with pytest.raises(runtime.RuntimeMissing, match=r"pyodide\.mjs is not the pinned one"):
        runtime.runtime_tree(folder)
    assert sorted(runtime.runtime_tree()) == sorted(f.tree_path for f in runtime.pinned_files())
