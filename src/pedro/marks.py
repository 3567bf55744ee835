"""``N_``, the mark of an English text the catalogs translate later (``pedro.i18n``).

A module of its own, compiled with the engine: the engine marks the texts of its card
choices as it makes them, several times a hand, and a call into an interpreted module
costs a Python frame each time. ``pedro.i18n`` gives the same function.
"""

from __future__ import annotations


def N_(message: str, /) -> str:
    """Marks ``message`` for the catalogs without translating it (translated later, with ``_``)."""
    return message
