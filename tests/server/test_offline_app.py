"""The offline app's tree: what files.json lists, its version, /play/ of pedro serve, pedro build-web."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient
from tests.server.client_helpers import running_server
from typer.testing import CliRunner

from pedro import i18n
from pedro.cli.main import app as cli
from pedro.server.http.errors import HttpError, http_error_handler
from pedro.server.offline.bundle import MADE_FILES, Bundle, build_bundle, read
from pedro.server.offline.routes import OfflineRoutes
from pedro.server.offline.runtime import PYODIDE_VERSION, RuntimeMissing


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return build_bundle()


@pytest.fixture(scope="module")
def client(bundle: Bundle) -> Iterator[TestClient]:
    """The routes alone, on the bundle built once for this module."""
    with TestClient(_app(OfflineRoutes(lambda: bundle))) as c:
        yield c


def _app(routes: OfflineRoutes) -> Starlette:
    return Starlette(routes=routes.routes(), exception_handlers={HttpError: http_error_handler})


def test_files_json_lists_every_file_of_the_tree_and_nothing_else(bundle: Bundle) -> None:
    listing = json.loads(read(bundle.files["files.json"]))
    assert set(listing["files"]) | set(MADE_FILES) == set(bundle.files)
    assert not set(listing["files"]) & set(MADE_FILES)
    assert listing["version"] == bundle.version and listing["pyodide"] == PYODIDE_VERSION
    assert listing["wheels"] and set(listing["wheels"]) <= set(listing["files"])
    assert listing["wheels"][0].startswith("python/pydantic_core-")
    expected = {"index.html", "manifest.webmanifest", "python/pedro.zip", "static/i18n.js", "static/table.js"}
    expected |= {f"pyodide/{name}" for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")}
    expected |= {f"api/texts/{lang}" for lang in i18n.LANGUAGES}
    assert expected <= set(listing["files"])


def test_the_version_changes_when_any_file_changes(bundle: Bundle) -> None:
    files = {path: bundle.files[path] for path in json.loads(read(bundle.files["files.json"]))["files"]}
    assert Bundle.of(files).version == bundle.version
    changed = Bundle.of({**files, "static/table.js": read(files["static/table.js"]) + b"\n"})
    assert changed.version != bundle.version
    assert Bundle.of({**files, "static/new.js": b""}).version != bundle.version
    # the service worker carries it: a changed tree installs a new worker, with a new cache
    assert f'const VERSION = "{changed.version}";' in read(changed.files["sw.js"]).decode()
    assert bundle.version not in read(changed.files["sw.js"]).decode()


def test_the_manifest_installs_the_app_at_its_folder(bundle: Bundle) -> None:
    manifest = json.loads(read(bundle.files["manifest.webmanifest"]))
    assert manifest["name"] == "Pedro — play offline"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert all(icon["src"] in bundle.files for icon in manifest["icons"])


def test_the_texts_are_those_the_server_answers(bundle: Bundle, tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        for lang in i18n.LANGUAGES:
            served = server.get(f"/api/texts/{lang}").json()
            assert json.loads(read(bundle.files[f"api/texts/{lang}"])) == served
        # and the server serves the tree at /play/
        assert server.get("/play/files.json").json()["version"] == bundle.version


@pytest.mark.parametrize(
    ("path", "media_type"),
    [
        ("pyodide/pyodide.asm.wasm", "application/wasm"),
        ("pyodide/pyodide.mjs", "text/javascript; charset=utf-8"),
        ("sw.js", "text/javascript; charset=utf-8"),
        ("files.json", "application/json"),
        ("api/texts/fi", "application/json"),
        ("manifest.webmanifest", "application/manifest+json"),
        ("", "text/html; charset=utf-8"),
    ],
)
def test_each_file_is_served_with_its_media_type_gzip_compressed(
    client: TestClient, bundle: Bundle, path: str, media_type: str
) -> None:
    answer = client.get(f"/play/{path}", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == media_type
    assert answer.headers["content-encoding"] == "gzip"
    plain = read(bundle.files[path or "index.html"])
    assert answer.content == plain  # (httpx decompresses)
    assert int(answer.headers["content-length"]) < len(plain)
    assert answer.headers["cache-control"] == "no-cache"  # revalidated at each use, by its ETag
    again = client.get(f"/play/{path}", headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_client_without_gzip_and_compressed_files_get_the_bytes_as_they_are(
    client: TestClient, bundle: Bundle
) -> None:
    wasm = client.get("/play/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in wasm.headers
    assert wasm.content == read(bundle.files["pyodide/pyodide.asm.wasm"])
    wheel = next(p for p in bundle.files if p.endswith(".whl"))
    for path in (wheel, "python/pedro.zip", "static/icons/icon-192.png"):
        answer = client.get(f"/play/{path}", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in answer.headers
        assert answer.content == read(bundle.files[path])


def test_play_without_its_slash_and_unknown_paths(client: TestClient) -> None:
    moved = client.get("/play", follow_redirects=False)
    assert moved.status_code == 308 and moved.headers["location"] == "play/"
    assert client.get("/play").url.path == "/play/"
    missing = client.get("/play/static/nothing.js")
    assert missing.status_code == 404 and missing.json()["code"] == "no_page"


def test_a_missing_runtime_is_told_and_tried_again(caplog: pytest.LogCaptureFixture) -> None:
    tries = []

    def build() -> Bundle:
        tries.append(1)
        raise RuntimeMissing("pyodide.mjs is missing")

    with TestClient(_app(OfflineRoutes(build))) as c:
        for _ in range(2):
            answer = c.get("/play/")
            assert answer.status_code == 503
            assert answer.json()["code"] == "no_offline_app"
            assert answer.json()["fields"]["why"] == "pyodide.mjs is missing"
    assert len(tries) == 2


def test_build_web_writes_the_tree(bundle: Bundle, tmp_path: Path) -> None:
    folder = tmp_path / "app"
    done = CliRunner().invoke(cli, ["build-web", str(folder)])
    assert done.exit_code == 0, done.output
    written = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert written == sorted(bundle.files)
    assert (folder / "sw.js").read_bytes() == read(bundle.files["sw.js"])
    assert f"{len(bundle.files)} files" in " ".join(done.output.split())

    # not over a folder's files, unless asked to
    (folder / "stray.txt").write_text("mine")
    refused = CliRunner().invoke(cli, ["build-web", str(folder)])
    said = " ".join(refused.output.split())
    assert refused.exit_code == 2 and "is not empty" in said and "--force" in said
    assert CliRunner().invoke(cli, ["build-web", "--force", str(folder)]).exit_code == 0
    assert not (folder / "stray.txt").exists() and (folder / "index.html").is_file()

    a_file = tmp_path / "file"
    a_file.write_text("")
    refused = CliRunner().invoke(cli, ["build-web", str(a_file)])
    assert refused.exit_code == 2 and "is a file" in " ".join(refused.output.split())
