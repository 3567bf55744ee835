"""Fixtures for the browser tests: a real ``pedro serve`` per test and Debian's Chromium driven by Playwright.

Chromium is never downloaded: the tests use ``/usr/bin/chromium`` (or the path in
``PEDRO_CHROMIUM``). Without it, or without the Playwright package, the tests skip,
unless ``PEDRO_REQUIRE_SERVICES`` is set, in which case they fail.

Screenshots of key moments go to ``test-artifacts/screenshots/``; when a test fails,
every page it opened is captured in ``test-artifacts/failures/<test>/`` together with
the server's log.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.e2e.driver import Player
from tests.serving import ServerProcess, require_or_skip, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
FAILURES = ARTIFACTS / "failures"

CHROMIUM_ENV = "PEDRO_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: pause between computer decisions: short, but not zero, so the page sees the play unfold
BOT_DELAY = 0.05


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def chromium_executable() -> str:
    path = os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        require_or_skip(f"Chromium ({path}; set {CHROMIUM_ENV} to use another)")
    return path


@pytest.fixture(scope="module")
def chromium() -> Iterator[Callable[[], Browser]]:
    """One headless Chromium for the tests of a module that run one after another in a test process:
    each player has a browser context of its own, which shares no storage, cookies or pages with any
    other, so only the start-up (some two seconds of a core) is shared. A Chromium that went away is
    started again. Not for the whole session: while Playwright's synchronous API is open, the
    process's asyncio loop counts as running, and the server tests that run ``asyncio.run`` in the
    same process would fail."""
    path = chromium_executable()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require_or_skip("the Playwright package")
        raise AssertionError("unreachable") from None
    with sync_playwright() as p:
        running: list[Browser] = []

        def current() -> Browser:
            if not running or not running[0].is_connected():
                running[:] = [p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)]
            return running[0]

        try:
            yield current
        finally:
            if running and running[0].is_connected():
                running[0].close()


@pytest.fixture
def browser(chromium: Callable[[], Browser]) -> Iterator[Browser]:
    """This test's Chromium; every context the test leaves open is closed after it."""
    launched = chromium()
    yield launched
    for context in launched.contexts:
        context.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A ``pedro serve`` process of this test's own, on an SQLite file in ``tmp_path``."""
    with running_server(f"sqlite:///{tmp_path / 'pedro.sqlite3'}", tmp_path, bot_delay=BOT_DELAY) as s:
        yield s


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:120]


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    """``screenshot(page, "name")`` saves ``test-artifacts/screenshots/name.png`` and returns its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, *, full_page: bool = False) -> Path:
        path = SCREENSHOTS / f"{_slug(name)}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture
def players(
    request: pytest.FixtureRequest, browser: Browser, server: ServerProcess
) -> Iterator[Callable[..., Player]]:
    """``players(name, storage=..., **context_options)``: a new browser context with one page, wrapped.

    Each player has a context of its own (its own localStorage, so its own seat). After a failed
    test, every page is captured, with the server log, under ``test-artifacts/failures/``.
    """
    opened: list[tuple[BrowserContext, Player]] = []

    def open_player(name: str, *, storage: dict[str, Any] | None = None, **options: Any) -> Player:
        options.setdefault("viewport", {"width": 1280, "height": 800})
        # the page speaks the browser's language: English unless a test asks for another
        options.setdefault("locale", "en-US")
        context = browser.new_context(base_url=server.url, storage_state=storage, **options)
        context.set_default_timeout(20_000)
        player = Player(name, context.new_page(), server.url)
        opened.append((context, player))
        return player

    yield open_player

    failed = any(getattr(request.node, f"rep_{when}", None) and getattr(request.node, f"rep_{when}").failed
                 for when in ("setup", "call"))  # fmt: skip
    if failed:
        folder = FAILURES / _slug(request.node.nodeid)
        folder.mkdir(parents=True, exist_ok=True)
        for _, player in opened:
            try:
                player.page.screenshot(path=str(folder / f"{_slug(player.name)}.png"), full_page=True)
                (folder / f"{_slug(player.name)}.txt").write_text(player.describe())
            except Exception as exc:  # the page may be gone; keep what can be kept
                (folder / f"{_slug(player.name)}.error.txt").write_text(repr(exc))
        if server.log_path.exists():
            shutil.copy(server.log_path, folder / "server.log")
    for context, _ in opened:
        context.close()
