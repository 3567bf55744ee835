"""The server's database schema: every table pedro keeps, on one ``MetaData``.

The migrations (``storage/migrations``) create and upgrade these tables; a test compares the two,
so this is the schema as the newest migration leaves it. Each part says which package reads and
writes it.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
    true,
)

metadata = MetaData()

tables_table = Table(
    "pedro_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("title", String(100), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON object of option values
    Column("seed", String(64), nullable=False),
    Column("listed", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished", Boolean, nullable=False, default=False, index=True),
    #: a practice table: hints on request, unrated
    Column("practice", Boolean, nullable=False, default=False, server_default=false()),
    #: the game ends after this many hands (a duplicate tournament's deal); NULL: at the target score
    Column("hands", Integer),
    #: sha256 of the host secret its creator was given (``tables.host``); NULL: no host
    Column("host_hash", String(64)),
    #: the host closed the table before its game ended: nothing more is played at it
    Column("closed", Boolean, nullable=False, default=False, server_default=false()),
    #: the table of the next game, set up when one of the players asked to play again
    Column("next_table", String(40)),
    #: the table's chat is on (its creator may turn it off: ``pedro.server.tables.chat``)
    Column("chat", Boolean, nullable=False, default=True, server_default=true()),
    #: seconds each decision of a human seat may take (``server.tables.clocks``); NULL: no clock
    Column("clock", Float),
)

seats_table = Table(
    "pedro_seats",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # "human" or "computer"
    Column("player", String(40)),  # the computer player's name
    Column("name", String(40)),
    Column("secret_hash", String(64)),  # sha256 of the seat's secret; NULL while free
    #: the host gave the seat to the computer for the rest of the game (its player was away)
    Column("handed", Boolean, nullable=False, default=False, server_default=false()),
    #: held for the seat's player of the previous game (its secret), who has not come yet
    Column("pending", Boolean, nullable=False, default=False, server_default=false()),
)

#: The spectators a table's host removed, by the id their browser sends when it watches.
barred_viewers_table = Table(
    "pedro_barred_viewers",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("viewer", String(64), primary_key=True),
)

actions_table = Table(
    "pedro_actions",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("text", String(400), nullable=False),  # record text: "<seat> <words>"
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: A table's chat (``pedro.server.tables.chat``): it lives with the table, never in its game record.
chat_table = Table(
    "pedro_chat",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("channel", String(12), nullable=False),  # "table" or "spectators"
    Column("seat", Integer),  # the speaking seat; NULL for a spectator
    Column("name", String(40)),  # a spectator's name; NULL for a seat (its name is the seat's)
    Column("text", String(2000)),  # free text, or NULL for a phrase
    Column("phrase", String(20)),  # a quick phrase's code ("gg"), or NULL for free text
    Column("created_at", DateTime(timezone=True), nullable=False),
)


# Several server processes on one PostgreSQL database (see ``sync.cluster``); unused on SQLite.

processes_table = Table(
    "pedro_processes",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    #: the database's clock at the process's latest heartbeat: a process not seen lately is dead
    Column("seen_at", DateTime(timezone=True), nullable=False, index=True),
)

leases_table = Table(
    "pedro_leases",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    #: the process that drives the table's computer players and stand-ins
    Column("holder", String(40), ForeignKey("pedro_processes.id", ondelete="CASCADE"), nullable=False),
)

presence_table = Table(
    "pedro_presence",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    #: a process where the seat's player is connected
    Column("process", String(40), ForeignKey("pedro_processes.id", ondelete="CASCADE"), primary_key=True),
)

#: A seat's review, hand by hand, as the review ``player`` made it (gzip-compressed JSON): hand 0
#: holds the game's outline once it is finished (``pedro.server.reviews``).
reviews_table = Table(
    "pedro_reviews",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(40), primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("body", LargeBinary, nullable=False),
)

# Duplicate tournaments (``pedro.server.tournaments``): each deal of each tournament table is a
# table of its own (``hands`` = 1), linked here to its tournament.

tournaments_table = Table(
    "pedro_tournaments",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("title", String(100), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON object of option values
    #: deal ``i`` is dealt from the seed ``seed + i``, as ``pedro tournament`` deals
    Column("seed", BigInteger, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("tables", Integer, nullable=False),
    Column("director_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

tournament_seats_table = Table(
    "pedro_tournament_seats",
    metadata,
    Column(
        "tournament_id", String(40), ForeignKey("pedro_tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("table_no", Integer, primary_key=True),
    #: the seat at the first deal (later deals move the pairs round: ``tournaments.running.home_seat``)
    Column("seat", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # "human" or "computer"
    Column("player", String(40)),  # the computer player's name
    Column("name", String(40)),
    Column("secret_hash", String(64)),  # sha256 of the player's secret; NULL while free
)

tournament_deals_table = Table(
    "pedro_tournament_deals",
    metadata,
    Column(
        "tournament_id", String(40), ForeignKey("pedro_tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("table_no", Integer, primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column(
        "table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), nullable=False, unique=True
    ),
    #: the score change per side once the deal is played (JSON list); NULL while it is played
    Column("change", Text),
)

# Profiles and ratings (``pedro.server.profiles.queries`` reads and writes them).

#: A player's profile: a name chosen once, and the hash of the secret its browser keeps. Computer
#: players have one each (``kind`` "computer", no secret), so a level is a point on the same scale.
profiles_table = Table(
    "pedro_profiles",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(40), nullable=False),
    #: the name's look-alike key (``storage.name_keys.name_key``): names are unique however written
    Column("name_key", String(40), nullable=False, unique=True),
    Column("kind", String(10), nullable=False),  # "human" or "computer"
    Column("secret_hash", String(64), unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: A short-lived, one-time code that moves a profile to another browser (stored hashed).
profile_codes_table = Table(
    "pedro_profile_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("profile_id", String(40), ForeignKey("pedro_profiles.id", ondelete="CASCADE"), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

#: The profile that took a human seat (written with the claim).
seat_profiles_table = Table(
    "pedro_seat_profiles",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("profile_id", String(40), ForeignKey("pedro_profiles.id", ondelete="CASCADE"), nullable=False),
)

#: The actions a stand-in made for an away player (written with the action).
stand_ins_table = Table(
    "pedro_stand_ins",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    #: the seat's turn clock ran out: the stand-in made this one decision for a present player
    Column("timed_out", Boolean, nullable=False, default=False, server_default=false()),
)

#: One row per finished game, written once with its rating updates: the guard that applies them once.
rated_games_table = Table(
    "pedro_rated_games",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("rated", Boolean, nullable=False),
    #: why not rated: a code of ``pedro.ratings.unrated_reason`` or "stand_in" (``reason_seat``'s
    #: player was away)
    Column("reason", String(20)),
    Column("reason_seat", Integer),
    Column("finished_at", DateTime(timezone=True), nullable=False),
)

#: A profile's current rating in a variant.
ratings_table = Table(
    "pedro_ratings",
    metadata,
    Column("profile_id", String(40), ForeignKey("pedro_profiles.id", ondelete="CASCADE"), primary_key=True),
    Column("variant", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

#: A finished game as one seat's profile played it: the link to the game, its bids and points,
#: and (rated games) the rating before and after: the rating history.
profile_games_table = Table(
    "pedro_profile_games",
    metadata,
    Column("table_id", String(40), ForeignKey("pedro_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column(
        "profile_id",
        String(40),
        ForeignKey("pedro_profiles.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("variant", String(40), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("place", Integer, nullable=False),  # the seat's side's place, from 1
    Column("sides", Integer, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("points", Integer, nullable=False),  # the side's score changes summed over the hands
    Column("bids_won", Integer, nullable=False),
    Column("bids_made", Integer, nullable=False),
    Column("bids_set", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("mu", Float),  # after the game, when rated
    Column("sigma", Float),
    Column("shown_before", Float),
    Column("shown_after", Float),
)
