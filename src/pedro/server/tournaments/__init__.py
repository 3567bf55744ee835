"""Duplicate tournaments for people: the same deals at every table, results compared deal by deal.

``running`` creates and joins tournaments, starts each deal's table and records its result, and
answers their HTTP API; ``queries`` keeps them in the database. The seatings and matchpoints are
``pedro.tournament.duplicate``'s; each deal is an ordinary table of one hand.
"""

__all__ = ["queries", "running"]
