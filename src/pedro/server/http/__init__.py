"""The web server's own parts, below every feature: refusals, request and response bodies, the site.

``errors`` is the one refusal (``HttpError``: status, code, message) and its English messages;
``request_body`` reads every JSON request body (size, JSON, model); ``response_body`` and
``compressed`` keep and serve gzip-compressed bodies; ``site`` serves the page, ``page_texts`` its
translations, ``health`` answers the load balancers; ``lifecycle`` is the graceful shutdown;
``logs``, ``heap``, ``http_protocol`` and ``ws_protocol`` set up the process under uvicorn.
"""

__all__ = [
    "compressed",
    "errors",
    "health",
    "heap",
    "http_protocol",
    "lifecycle",
    "logs",
    "page_texts",
    "request_body",
    "response_body",
    "site",
    "ws_protocol",
]
