"""Duplicate tournaments for people: the same deals at every table, results compared deal by deal.

``running`` creates and joins tournaments, starts each deal's table and records its result;
``standings`` maps who sits where at each deal and says what everyone may see; ``requests`` is what
clients send and ``routes`` the HTTP API; ``queries`` keeps tournaments in the database. The
seatings and matchpoints are ``pedro.tournament.duplicate``'s; each deal is an ordinary table of
one hand.
"""

__all__ = ["queries", "requests", "routes", "running", "standings"]
