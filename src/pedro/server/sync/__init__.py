"""Commits off the event loop, and several server processes on one PostgreSQL database.

``writer`` is the one thread that commits the tables' writes in groups (``AsyncStore``: awaited,
committed before announced); ``cluster`` is the heartbeat that says which process drives which
table and where each seat's player is connected; ``listener`` hears the other processes' commits.
"""

__all__ = ["cluster", "listener", "writer"]
