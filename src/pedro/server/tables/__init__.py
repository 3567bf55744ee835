"""The tables being played: their rooms, the WebSocket of each open page, and creating and joining them.

``game`` is a table's game and what is told when it ends; ``room`` is one table live (the only
writer of its game), and ``computers`` its computer players; ``registry`` the loaded tables;
``table_view`` a seat's ``state`` message, made from the game and the table's facts alone, of the
JSON ``views`` (encoded by ``json_bytes``); ``acting`` the checks an action passes, ``refusals``
what a refused one raises; ``protocol`` what clients may send and ``messages`` what they are sent
(``message_docs`` writes its reference in docs/server.md); ``websocket`` the connection of an open
page; ``routes`` the HTTP API (the lobby, creating a table, taking a seat; ``variants_json`` what
the create form offers), ``host`` the controls of a table's creator and ``again`` the next game of
the same players; ``limits`` the abuse limits on creating tables, ``address_limits`` those on each
address's connections and refusals.
"""

__all__ = [
    "acting",
    "address_limits",
    "again",
    "computers",
    "game",
    "host",
    "json_bytes",
    "limits",
    "message_docs",
    "messages",
    "protocol",
    "refusals",
    "registry",
    "room",
    "routes",
    "table_view",
    "variants_json",
    "views",
    "websocket",
]
