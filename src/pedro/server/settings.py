"""What an operator sets: ``pedro serve``'s flags, each default defined once, here.

Nothing here loads the server: ``pedro --help`` reads these defaults.
"""

from __future__ import annotations

from dataclasses import dataclass


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
