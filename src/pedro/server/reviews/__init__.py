"""Game reviews and practice hints: the expert's value of each decision, made in review workers.

``compute`` runs in a worker process and values one hand of one seat as ``pedro analyze`` does;
``queries`` keeps each reviewed hand in the database; ``routes`` answers the reviews, with their
progress; ``hints`` gives a practice table's player the expert's values of the choices now.
"""

__all__ = ["compute", "hints", "queries", "routes"]
