"""Player profiles and ratings: a name chosen once, its rating per variant, each game rated once.

``queries`` reads and writes the profiles and their move codes in the database, and reads their
pages and the leaderboards; ``rated_games`` links each finished game to its profiles and applies
its rating, exactly once; ``rater`` does so as each game ends; ``routes`` is the HTTP API.
"""

__all__ = ["queries", "rated_games", "rater", "routes"]
