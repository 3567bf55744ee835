"""Finished games' records and replays: built once in worker processes, kept, and served.

``bodies`` builds a finished game's record and replay, ``replay_frames`` the replay viewer's
frames, ``from_database`` both for a table read from the database (its game played once);
``body_cache`` keeps what was built; ``routes`` serves them (and builds them as a game ends);
``workers`` are the worker processes that build them (the reviews and ratings use them too).
"""

__all__ = ["bodies", "body_cache", "from_database", "replay_frames", "routes", "workers"]
