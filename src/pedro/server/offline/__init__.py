"""The offline app: pedro's table in the browser, on Pyodide, with no server behind it.

``solo`` is its table (a served table's parts, with no I/O), ``worker`` what the app's Web
Worker calls in the browser's Python, and ``record_calls`` what it calls for records.
``runtime`` names the pinned Pyodide core and wheels the build put into the package; ``bundle``
makes the app's file tree from them, pedro's own source and the site's static files, which
``pedro build-web`` writes out and ``routes`` serves at ``/play/`` of ``pedro serve``.
docs/offline.md tells the whole.
"""

__all__ = ["bundle", "record_calls", "routes", "runtime", "solo", "worker"]
