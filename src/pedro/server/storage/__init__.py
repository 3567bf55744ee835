"""The database every server process shares: its schema, its migrations and the game tables' rows.

``schema`` is every table pedro keeps (one ``MetaData``, which the migrations upgrade to);
``tables_db`` is ``Store``: the engine, the migrations run at start, and the rows of the game
tables, their seats and actions, read and written in short transactions; ``name_keys`` is the key
profiles' names are unique by, whatever letters they are written in; ``single_process`` keeps an SQLite
file to one server process. The features keep their
own queries on that engine (``profiles.queries``, ``tournaments.queries``, ``reviews.queries``).
"""

__all__ = ["name_keys", "schema", "single_process", "tables_db"]
