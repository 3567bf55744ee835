"""Serving a body kept gzip-compressed: as it is to clients that accept gzip, decompressed to the others.

Nearly every client accepts gzip; one that does not still gets plain JSON,
decompressed in a thread so the event loop keeps serving.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response

from pedro.server.http.response_body import Body


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (RFC 9110 12.5.3: ``q=0`` refuses a coding)."""
    qualities: dict[str, float] = {}
    for item in accept_encoding.split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        if not coding:
            continue
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        qualities[coding.lower()] = quality
    for coding in ("gzip", "x-gzip", "*"):
        if coding in qualities:
            return qualities[coding] > 0
    return False


async def body_response(request: Request, body: Body) -> Response:
    """A JSON response of ``body``: gzip-encoded when the client accepts it; its length set either way."""
    headers = {"Vary": "Accept-Encoding"}
    if body.download is not None:
        headers["Content-Disposition"] = f'attachment; filename="{body.download}"'
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return Response(body.gzipped, media_type="application/json", headers=headers)
    return Response(await asyncio.to_thread(body.plain), media_type="application/json", headers=headers)
