"""``/play/``: the offline app's tree, served by ``pedro serve`` from the same bundle ``pedro
build-web`` writes, so a visitor installs the app from the game's own site.

The bundle is built once, at the first request, in a worker thread (it reads and checks some
15 MB). Files that compress are sent gzip-compressed to clients that accept it, compressed once
each. Every file carries an ETag of its contents and is revalidated at each use (``no-cache``):
a new release reaches the installed app at once, and the service worker's install, which asks
again for the files the first visit's page has just fetched, is answered "not modified" instead
of downloading them twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections.abc import Callable
from pathlib import PurePosixPath

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.http.compressed import accepts_gzip
from pedro.server.http.errors import HttpError
from pedro.server.http.response_body import gzipped
from pedro.server.offline.bundle import Bundle, build_bundle, read
from pedro.server.offline.runtime import RuntimeMissing

log = logging.getLogger("pedro.server")

#: Each file's media type by its suffix; the tree's ``api/texts/<lang>`` have none and are JSON.
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".zip": "application/zip",
    ".whl": "application/zip",
}
#: Already compressed: gzip would gain nothing (python_stdlib.zip shrinks by 2%).
_COMPRESSED = frozenset({"image/png", "application/zip"})


def media_type(path: str) -> str:
    return MEDIA_TYPES.get(PurePosixPath(path).suffix, "application/json")


class OfflineRoutes:
    """The tree at ``/play/``, built by ``build`` when first asked for."""

    def __init__(self, build: Callable[[], Bundle] = build_bundle) -> None:
        self._build = build
        self._bundle: Bundle | None = None
        self._building = threading.Lock()
        self._gzipped: dict[str, bytes] = {}
        self._etags: dict[str, str] = {}

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/play", self.to_folder, methods=["GET", "HEAD"]),
            Route("/play/{path:path}", self.file, methods=["GET", "HEAD"]),
        ]

    async def to_folder(self, request: Request) -> Response:
        """``/play`` → ``/play/``: the tree's relative URLs resolve inside the folder only.
        (A relative Location keeps any root path the server runs under.)"""
        return RedirectResponse("play/", status_code=308)

    def _built(self) -> Bundle:
        with self._building:
            if self._bundle is None:
                self._bundle = self._build()
            return self._bundle

    async def bundle(self) -> Bundle:
        if self._bundle is not None:
            return self._bundle
        try:
            return await asyncio.to_thread(self._built)
        except RuntimeMissing as exc:
            log.error("the offline app cannot be served: %s", exc)
            raise HttpError.of(503, "no_offline_app", why=str(exc)) from exc

    def _gzip(self, path: str, bundle: Bundle) -> bytes:
        if path not in self._gzipped:
            self._gzipped[path] = gzipped(read(bundle.files[path]))
        return self._gzipped[path]

    def _etag(self, path: str, bundle: Bundle) -> str:
        """A weak tag of the file's contents (weak: the gzip-compressed bytes carry it too)."""
        if path not in self._etags:
            digest = hashlib.sha256(read(bundle.files[path])).hexdigest()[:24]
            self._etags[path] = f'W/"{digest}"'
        return self._etags[path]

    async def file(self, request: Request) -> Response:
        path = str(request.path_params["path"]) or "index.html"
        bundle = await self.bundle()
        if path not in bundle.files:
            raise HttpError.of(404, "no_page")
        kind = media_type(path)
        known = self._etags.get(path)
        etag = known if known is not None else await asyncio.to_thread(self._etag, path, bundle)
        headers = {"Cache-Control": "no-cache", "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        content = bundle.files[path]
        if kind not in _COMPRESSED:
            headers["Vary"] = "Accept-Encoding"
            if accepts_gzip(request.headers.get("accept-encoding", "")):
                headers["Content-Encoding"] = "gzip"
                body = await asyncio.to_thread(self._gzip, path, bundle)
                return Response(body, media_type=kind, headers=headers)
        if isinstance(content, bytes):
            return Response(content, media_type=kind, headers=headers)
        return FileResponse(content, media_type=kind, headers=headers)
