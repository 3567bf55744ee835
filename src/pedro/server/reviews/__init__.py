"""Game reviews and practice hints: the expert's value of each decision, made in review workers.

``compute`` runs in a review worker process: it values one hand of one seat as ``pedro analyze``
does, or a practice table's choices now; ``queries`` keeps each reviewed hand in the database;
``routes`` makes and answers the reviews, with their progress; ``queue`` says whose turn it is,
and bounds how many wait; ``hints`` answers a practice table's player.
"""

__all__ = ["compute", "hints", "queries", "queue", "routes"]
