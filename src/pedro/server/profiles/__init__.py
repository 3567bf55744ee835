"""Player profiles and ratings: a name chosen once, its rating per variant, each game rated once.

``queries`` reads and writes the profiles, their move codes and the ratings in the database (one
short transaction each; a finished game's rating is applied exactly once); ``rater`` rates each
game as it ends; ``routes`` is the profiles' HTTP API.
"""

__all__ = ["queries", "rater", "routes"]
