"""The words every section of the rule sheet uses: card roles, counts, and the sentences that
differ for partnerships and for players on their own; and the wrapping of its paragraphs."""

from __future__ import annotations

import re
import textwrap

from pedro.i18n import N_, _, ngettext
from pedro.variants.model import POINT_NAMES, Ruleset

ROLE_NOTES = {
    "L5": N_("left pedro"),
    "OJ": N_("off-jack"),
    "JK": N_("joker"),
    "BJ": N_("big joker"),
    "SJ": N_("small joker"),
}
_NUMBER_WORDS = (
    N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"),
    N_("six"), N_("seven"), N_("eight"), N_("nine"), N_("ten"),
)  # fmt: skip


def trump_order_text(rules: Ruleset) -> str:
    """Trump order high to low with role names, e.g. ``A K ... 5 L5(left pedro) 4 3 2``."""
    return " ".join(role_label(role, note=True) for role in rules.trump_order)


def points_text(rules: Ruleset) -> str:
    """The point table in trump order, e.g. ``A (High) 1, J (Jack) 1, ...``."""
    order = {role: i for i, role in enumerate(rules.trump_order)}
    items = sorted(
        ((role, p) for role, p in rules.points if p), key=lambda item: order.get(item[0], len(order))
    )
    return ", ".join(f"{role_label(role)} ({point_name(role)}) {p}" for role, p in items)


def point_name(role: str) -> str:
    """A scoring role's name in the language in use: ``High``, ``Korkein``, ``Högsta``."""
    name = POINT_NAMES.get(role)
    return _(name) if name is not None else role


# ---------------------------------------------------------------------------
# words that depend on the seating


class Words:
    """Whether the sheet talks of sides or of players; the sentences that differ are whole texts."""

    def __init__(self, rules: Ruleset) -> None:
        self.partnerships = rules.partnerships

    def pick(self, sides: str, players: str, **fields: object) -> str:
        """The partnership text or the players' one (both marked with ``N_``), translated and filled."""
        return _(sides if self.partnerships else players, **fields)


#: A line Markdown would read as the start of a list, a heading or a quote ("2 (Low) 1." wrapped
#: before the "1." made an item numbered 1 of the sentence after it).
BLOCK_START = re.compile(r"(\d+[.)]|[-+*]|#+|>)(\s|$)")


def wrap(paragraph: str) -> str:
    """Wrapped for reading as plain text too, with no line that Markdown would take for a block."""
    if paragraph.startswith(("- ", "#")):
        return paragraph
    lines = textwrap.wrap(paragraph, width=92, break_on_hyphens=False)
    i = 1
    while i < len(lines):
        if BLOCK_START.match(lines[i]):  # its first word goes up to the line before
            word, _sep, rest = lines[i].partition(" ")
            lines[i - 1] += " " + word
            if rest:
                lines[i] = rest
                continue
            del lines[i]
            continue
        i += 1
    return "\n".join(lines)


def role_label(role: str, *, note: bool = False) -> str:
    """A trump role as the sheet writes it (``10`` for ``T``), with its name in brackets if ``note``."""
    label = "10" if role == "T" else role
    if note and role in ROLE_NOTES:
        return f"{label}({_(ROLE_NOTES[role])})"
    return label


def count_word(n: int) -> str:
    """``two`` for 2: small counts in words, larger ones in figures."""
    return _(_NUMBER_WORDS[n]) if 0 <= n < len(_NUMBER_WORDS) else str(n)


def card_count(n: int) -> str:
    """``1 card``, ``6 cards``."""
    return ngettext("{n} card", "{n} cards", n)


def scoring_trumps(rules: Ruleset) -> int:
    """How many trumps score a point."""
    return rules.tables(0).scoring_mask.bit_count()


def stock_size(rules: Ruleset) -> int:
    """The cards left undealt after the deal (and the second deal) and the kitty."""
    dealt = rules.players * (rules.first_deal_size + rules.second_deal) + rules.kitty_size
    return len(rules.deck) - dealt
