"""Served under a sub-path (``pedro serve --root-path /pedro`` behind a proxy), the client finds everything.

The page's ``<base>`` is the root path, and every URL the client uses is
relative to it: its scripts, the API, the WebSocket and its links.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pedro.server.app import create_app
from pedro.server.http.site import BASE_TAG
from pedro.server.settings import ServerSettings

STATIC = Path(str(files("pedro.server") / "static"))
#: A URL written from the server's root: "/api/...", '/t/...', `/replay/...`, href: "/" (a leading slash).
ABSOLUTE = re.compile(r"""(?:["'`]/[A-Za-z]|(?:href|src)\s*[:=]\s*["'`]/)""")


def page(tmp_path: Path, path: str, root_path: str = "") -> str:
    app = create_app(
        ServerSettings(database=f"sqlite:///{tmp_path}/db.sqlite3", bot_delay=0, start_workers=False)
    )
    with TestClient(app, root_path=root_path) as client:
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "no-cache"
        return answer.text


@pytest.mark.parametrize("path", ["/", "/t/abc", "/replay/abc"])
def test_the_page_is_based_at_the_root_path(tmp_path: Path, path: str) -> None:
    assert '<base href="/">' in page(tmp_path, path)
    served = page(tmp_path, path, root_path="/games/pedro")
    assert '<base href="/games/pedro/">' in served
    assert '<base href="/">' not in served


def test_the_root_path_cannot_break_out_of_the_tag(tmp_path: Path) -> None:
    served = page(tmp_path, "/", root_path='/x"><script>alert(1)</script>')
    assert "<script>alert" not in served
    assert '<base href="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/">' in served


def test_the_client_uses_relative_urls_only() -> None:
    sources = sorted([*STATIC.glob("*.js"), STATIC / "index.html"])
    assert len(sources) > 5
    found = []
    for source in sources:
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0] if source.suffix == ".js" and "://" not in line else line
            if ABSOLUTE.search(code) and line.strip() != BASE_TAG:  # the base itself, set by the server
                found.append(f"{source.name}:{number}: {line.strip()}")
    assert not found, "URLs from the server's root break a sub-path:\n" + "\n".join(found)


def test_the_check_finds_an_absolute_url() -> None:
    for line in ('api("/api/tables")', "href: `/t/${id}`", 'h("a", { href: "/", text: "Lobby" })',
                 '<script src="/static/app.js">'):  # fmt: skip
        assert ABSOLUTE.search(line), line
    for line in ('api("api/tables")', 'href: "./"', 'path === "/"', "`/${rest}`"):
        assert not ABSOLUTE.search(line), line
