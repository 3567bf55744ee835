"""The offline app: a game against computer players in the browser, with no server at all.

``solo`` is its table (a served table's parts, with no I/O), ``worker`` what the app's Web Worker
calls, in the browser's Python (Pyodide). docs/offline.md tells how the app is built and served.
"""

__all__ = ["solo", "worker"]
