"""The key a name is compared by: one key for names that look alike, so nobody passes for another.

A name's key is its NFKC form (full-width and mathematical letters become plain ones), each
letter Unicode's confusables table (TS 39's ``confusables.txt``, as the ``confusable-homoglyphs``
library ships it) gives as like an ASCII letter or digit replaced by it (Cyrillic "е", Greek
"ο"), then case-folded. "Ｅxpert", "еxpert" and "EXPERT" all key as "expert". ASCII is kept as
it is (TS 39 would also fold "rn" into "m" and "1" into "l"), so the keys of plain names are
their case-folded selves, as they were before look-alikes were folded.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

#: The longest key kept (as the names' column).
KEY_CHARS = 40


@functools.cache
def _plain(char: str) -> str:
    """The ASCII letter or digit ``char`` looks like, else ``char`` itself.

    >>> _plain("е"), _plain("ο"), _plain("ä"), _plain("x")
    ('e', 'o', 'ä', 'x')
    """
    if char.isascii():
        return char
    likes: list[str] = sorted(
        h["c"]
        for h in confusables.confusables_data.get(char, ())
        if len(h["c"]) == 1 and h["c"].isascii() and h["c"].isalnum()
    )
    letters = [c for c in likes if c.isalpha()]
    return (letters or likes or [char])[0]


def name_key(name: str) -> str:
    """Names are one whatever their case and however their letters are written.

    >>> name_key("Ann"), name_key("ＥXPERT"), name_key("\\u0435xpert"), name_key("Åsa")
    ('ann', 'expert', 'expert', 'åsa')
    """
    folded = unicodedata.normalize("NFKC", name)
    return "".join(_plain(c) for c in folded).casefold()[:KEY_CHARS]
