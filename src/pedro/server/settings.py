"""What an operator sets: ``pedro serve``'s flags, each default defined once, here.

Nothing here loads the server: ``pedro --help`` reads these defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """What one server allows; ``pedro serve`` sets each with a flag of the same name."""

    #: tables one client may create in any 60 seconds
    tables_per_minute: int = 10
    #: unfinished tables one client may have created
    open_tables_per_client: int = 20
    #: unfinished tables without a human seat on the whole server (they play for nobody)
    computer_only_tables: int = 4
    #: most worlds a computer player may sample per card play (``expert:N``); the default
    #: is the expert's own (``pedro.players.expert.DEFAULT_SAMPLES``, a test keeps them equal),
    #: so ``expert`` is allowed and ``expert:1000`` is not
    max_expert_samples: int = 120
    #: table WebSockets one client address may have open at once (players and spectators)
    websockets_per_client: int = 100
    #: reviews one client address may have waiting or under way
    reviews_per_client: int = 3
    #: reviews waiting or under way on the whole server
    reviews_queued: int = 20
    #: hands a game may have to be reviewed (each costs seconds of a worker)
    review_max_hands: int = 60
    #: characters of one chat message at a table (once cleaned of invisible characters)
    chat_chars: int = 200
    #: chat messages one person (a seat, a spectator's connection) may send in ``chat_seconds``
    chat_messages: int = 5
    chat_seconds: float = 10.0


@dataclass(frozen=True)
class TurnClocks:
    """The turn clocks a table may be created with (``server.tables.clocks``); ``pedro serve
    --turn-clocks`` sets the lengths (tests make them short). A request only chooses among them."""

    #: seconds per decision a table's creator may choose (or no clock)
    lengths: tuple[float, ...] = (20.0, 45.0, 90.0)
    #: seconds added to a hand's first decision: the page shows the hand's result this long
    #: (``HAND_END_HOLD_MS`` in static/table.js)
    hand_pause: float = 6.0


@dataclass(frozen=True)
class ServerSettings:
    """One server's settings; ``pedro serve`` reads its flags' defaults from here."""

    database: str
    #: seconds before a computer plays for a disconnected player
    away_seconds: float = 60.0
    #: pause in seconds before each computer decision
    bot_delay: float = 0.8
    limits: Limits = field(default_factory=Limits)
    turn_clocks: TurnClocks = field(default_factory=TurnClocks)
    #: processes that build finished games' records and replays (0: threads, for tests)
    worker_processes: int = 1
    #: the most bytes of built records and replays kept (gzip-compressed)
    body_cache_bytes: int = 64 * 2**20
    #: build a game's replay and record when it ends, before anyone asks
    prebuild_replays: bool = True
    #: start the worker processes with the server (else at the first request that needs one)
    start_workers: bool = True
    #: seconds a graceful shutdown waits for the tables, then for the clients
    shutdown_timeout: float = 10.0
    #: seconds a request's headers may take to arrive (``http.http_protocol``); uvicorn has no
    #: such bound, and a client trickling its headers would hold its connection as long as it liked
    header_timeout: float = 10.0
    #: seconds a kept-alive HTTP connection may stay idle between requests (uvicorn's own)
    keep_alive_timeout: int = 5
    #: PostgreSQL, several processes: seconds between heartbeats, and after which a silent process
    #: is taken for dead (its tables' computer players are taken over)
    heartbeat_seconds: float = 1.0
    lease_seconds: float = 5.0
    #: an unfinished table untouched this long leaves the lobby and memory (its link still opens it)
    idle_seconds: float = 24 * 3600.0
    #: processes that make game reviews, apart from the replays' (0: threads, for tests)
    review_processes: int = 1
    #: whose estimates a review shows (``expert``, as ``pedro analyze``; ``expert:N`` is faster)
    review_player: str = "expert"
