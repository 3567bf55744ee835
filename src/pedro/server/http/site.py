"""The site: the one page at each of its addresses, its static files, and its translations.

Every page address (``/``, ``/t/{table}``, ``/replay/{table}``, ``/d/{tournament}``, ...) answers
the same page, which reads its address and shows the right view; the features' addresses are
listed here together, as the page's are in ``static/app.js``.
"""

from __future__ import annotations

import html
from importlib.resources import files

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from pedro.server.http.page_texts import texts_endpoint

#: The page's static files (and ``index.html``, the page).
STATIC = files("pedro.server") / "static"
#: The page's ``<base>``, which every URL of the client is relative to.
BASE_TAG = '<base href="/">'
#: Where the page is served: the lobby, a table, a replay, a review, a tournament, the profiles.
_PAGES = (
    "/",
    "/t/{table}",
    "/replay/{table}",
    "/review",
    "/d/{tournament}",
    "/profile",
    "/profile/{profile}",
    "/leaderboard",
)


class Site:
    """The page and what it loads."""

    def __init__(self) -> None:
        self.page_html = (STATIC / "index.html").read_text(encoding="utf-8")

    def routes(self) -> list[BaseRoute]:
        return [
            *(Route(path, self.page) for path in _PAGES),
            Route("/api/texts/{lang}", texts_endpoint),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        ]

    async def page(self, request: Request) -> Response:
        """The one page, with its ``<base>`` at the root path, so the client works under a sub-path too."""
        page = self.page_html
        root = request.scope.get("root_path", "").rstrip("/")
        if root:
            page = page.replace(BASE_TAG, f'<base href="{html.escape(root, quote=True)}/">', 1)
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})
