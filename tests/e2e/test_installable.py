"""Installable: a phone can add the site to its home screen and open it full screen.

The page links a web app manifest whose icons and theme colour the browser accepts. Chromium's
own reading of the manifest (the DevTools protocol's ``Page.getAppManifest`` and
``Page.getInstallabilityErrors``) is the judge, not a list of fields kept here.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from starlette.testclient import TestClient
from tests.e2e.driver import Player
from tests.serving import ServerProcess

from pedro.server.app import create_app
from pedro.server.settings import ServerSettings

#: what a PNG's header says its width and height are (bytes 16 to 24, the IHDR chunk)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE), "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def manifest_and_icons(get: Callable[[str], Any], page_url: str) -> dict[str, Any]:
    """The manifest the page links, every icon it names fetched and checked against its sizes."""
    page = get(page_url)
    assert page.status_code == 200
    assert '<link rel="manifest" href="static/manifest.webmanifest">' in page.text
    assert '<meta name="theme-color" content="#1f6b45">' in page.text
    answer = get(urljoin(page_url, "static/manifest.webmanifest"))
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest: dict[str, Any] = json.loads(answer.text)
    manifest_url = urljoin(page_url, "static/manifest.webmanifest")
    # the app opens at the site's own root, also when the site is served under a sub-path
    assert urljoin(manifest_url, manifest["start_url"]) == urljoin(page_url, "./")
    for icon in manifest["icons"]:
        got = get(urljoin(manifest_url, icon["src"]))
        assert got.status_code == 200, icon
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}", icon
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    touch = get(urljoin(page_url, "static/icons/apple-touch-icon.png"))
    assert png_size(touch.content) == (180, 180)
    return manifest


def test_the_manifest_and_its_icons_are_served(tmp_path: Path) -> None:
    app = create_app(
        ServerSettings(database=f"sqlite:///{tmp_path}/db.sqlite3", bot_delay=0, start_workers=False)
    )
    with TestClient(app) as client:
        manifest = manifest_and_icons(client.get, "http://testserver/")
    assert manifest["display"] == "standalone" and manifest["short_name"] == "Pedro"
    # under a sub-path the same relative addresses open the app at the sub-path's root
    at = "https://club.example/pedro/static/manifest.webmanifest"
    assert (
        urljoin(at, manifest["start_url"]) == urljoin(at, manifest["scope"]) == "https://club.example/pedro/"
    )


@pytest.mark.browser
def test_chromium_finds_the_site_installable(players: Callable[..., Player], server: ServerProcess) -> None:
    phone = players("phone", viewport={"width": 375, "height": 667})
    phone.goto("./")
    phone.page.locator(".create-form").wait_for()
    cdp = phone.page.context.new_cdp_session(phone.page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{server.url}/static/manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    parsed = manifest["data"] and json.loads(manifest["data"])
    assert parsed["theme_color"] == "#1f6b45"
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test browser's every context is private, which no site can change: every other reason counts
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
