"""The offline app: pedro's table in the browser, on Pyodide, with no server behind it.

``runtime`` names the pinned Pyodide core and wheels the build put into the package; ``bundle``
makes the app's file tree from them, pedro's own source and the site's static files, which
``pedro build-web`` writes out and ``routes`` serves at ``/play/`` of ``pedro serve``.
"""

__all__ = ["bundle", "routes", "runtime"]
