"""Player profiles and ratings: a name chosen once, its rating per variant, each game rated once.

``queries`` reads and writes the profiles, their move codes and the ratings in the database (one
short transaction each; a finished game's rating is applied exactly once); ``routes`` is the
profiles' HTTP API and the rating of each game as it ends.
"""

__all__ = ["queries", "routes"]
