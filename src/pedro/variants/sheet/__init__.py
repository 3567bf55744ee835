"""A readable rule sheet generated from a ``Ruleset``.

The sheet is built only from the ruleset's fields, never from per-variant
text (apart from the variant's own summary and a pointer to its section of
docs/rules.md), so it always describes the rules the engine will actually
enforce, house-rule options included.

It is written in the player's language (``pedro.i18n``): every sentence is a whole text in the
catalogs, its numbers and names filled in, and a sentence that differs for partnerships and for
players on their own is two texts, as other languages do not say "he" and "it" the English way.
"""

from __future__ import annotations

from pedro.i18n import _
from pedro.variants.model import Ruleset
from pedro.variants.sheet import bidding, exchange, game, play, scoring
from pedro.variants.sheet.words import Words, points_text, trump_order_text, wrap

__all__ = ["points_text", "rule_sheet", "trump_order_text"]


def rule_sheet(rules: Ruleset) -> str:
    """The complete rules of ``rules`` as markdown text a new player can learn the game from,
    in the language in use."""
    w = Words(rules)
    sections = [
        (f"# {rules.name} (`{rules.id}`)", game.intro(rules)),
        ("## " + _("Players"), game.players(rules)),
        ("## " + _("The pack"), game.pack(rules)),
        ("## " + _("Trumps"), game.trumps(rules)),
        ("## " + _("Card points"), game.points(rules, w)),
        ("## " + _("The deal"), game.deal(rules)),
        ("## " + _("Bidding"), bidding.bidding(rules, w)),
        ("## " + _("Naming trumps"), bidding.naming(rules)),
        ("## " + _("Before play: discarding and filling"), exchange.exchange(rules, w)),
        ("## " + _("Play"), play.play(rules, w)),
        ("## " + _("Counting the points"), scoring.counting(rules, w)),
        ("## " + _("Scoring"), scoring.scoring(rules, w)),
        ("## " + _("Winning the game"), scoring.game_end(rules, w)),
    ]
    out: list[str] = []
    for heading, paragraphs in sections:
        out.append(heading)
        out.extend(wrap(p) for p in paragraphs if p)
    return "\n\n".join(out) + "\n"
