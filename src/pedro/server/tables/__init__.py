"""The tables being played: their rooms, the WebSocket of each open page, and creating and joining them.

``game`` is a table's game and what is told when it ends; ``room`` is one table live (the only
writer of its game); ``registry`` the loaded tables; ``views`` the JSON the clients are sent;
``protocol`` what clients may send; ``websocket`` the connection of an open page; ``routes`` the
HTTP API (the lobby, creating a table, taking a seat); ``limits`` the abuse limits on creating
tables.
"""

__all__ = ["game", "limits", "protocol", "registry", "room", "routes", "views", "websocket"]
