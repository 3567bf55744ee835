"""``GET /api/texts/{lang}``: the gettext catalog's texts for the browser.

The server's JSON stays English (bots and records read it), so the texts it makes in Python —
a card choice's rule, a hint's or review's note, a house rule's description — reach the page in
English; the page translates them with this catalog (``tServer`` in ``static/i18n.js``) the way
the terminal does with ``pedro.i18n.translate``. The catalogs are the package's ``.po`` files, so
a text has one translation, shared by the terminal and the browser.
"""

from __future__ import annotations

from functools import cache

from starlette.requests import Request
from starlette.responses import Response

from pedro import i18n
from pedro.server.http.compressed import body_response
from pedro.server.http.errors import error_response
from pedro.server.http.response_body import Body


@cache
def _body(lang: str) -> Body:
    """A language's catalog, made once and kept gzip-compressed (some 95 kB, 27 kB gzip-compressed)."""
    return Body.of_json(i18n.page_catalog(lang))


async def texts_endpoint(request: Request) -> Response:
    lang = str(request.path_params["lang"])
    if lang not in i18n.LANGUAGES:
        known = ", ".join(i18n.LANGUAGES)
        return error_response(404, "no_language", lang=lang, known=known)
    return await body_response(request, _body(lang))
