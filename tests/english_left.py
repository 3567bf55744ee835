"""Finds English left on a page that should speak Finnish or Swedish.

A page's visible text is read line by line, and a line is English when it holds a text of the
English catalogs that the page's language says otherwise — a text of ``static/i18n/en.json`` or of
the gettext catalogs (the server's Python texts), their ``{fields}`` matching anything; a short
text only when it is the whole line, its fields short — or when it is built of English words (one of
``TELLING_WORDS`` or two of ``ENGLISH_WORDS``, which Finnish and Swedish do not use). What may
stay English on purpose (names, card codes) is in the caller's allow-list; option syntax
(``all_pass_action=redeal_next_dealer``, ``deal_all_out``), which a house rule's refusal quotes in
every language, is no English word.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from pedro import server as server_package

PACKAGE = Path(server_package.__file__).resolve().parent.parent
CATALOGS = PACKAGE / "server" / "static" / "i18n"

# fmt: off
#: English words that are not words of Finnish or Swedish: one of them makes a line English.
TELLING_WORDS = frozenset({"the", "and", "your", "you", "with", "table", "seat", "trick", "which", "this"})
#: Common English words that are not words of Finnish or Swedish; two of them make a line English.
ENGLISH_WORDS = TELLING_WORDS | {
    "what", "of", "is", "are", "to", "for", "that", "not", "has", "have", "was", "will", "from", "when",
    "there",
    "their", "his", "her", "its", "it", "be", "by", "at", "as", "or", "no", "yes", "can", "may",
    "must", "all", "any", "each", "every", "player", "players", "game", "bid", "cards", "card", "score",
    "scores",
}
# fmt: on
_FIELD = re.compile(r"\\\{(\w+)\\\}")
#: shorter catalog texts count only as a whole line (a word may be the same in both languages)
MIN_CHARS = 12
#: option syntax: a word with an underscore, or ``name=value``
_OPTION_SYNTAX = re.compile(r"[\w.]*(?:_[\w.]*|=[\w.]*)+")


@dataclass(frozen=True)
class Found:
    """An English line and why it counts as English."""

    line: str
    why: str


@dataclass(frozen=True)
class _English:
    """An English catalog text as sought in a line: its pattern, and the longest piece of its
    words that any line it matches must hold. A substring test for the piece is far cheaper than
    the pattern's search, so the pattern runs only on the few lines that hold it (scanning a
    whole catalog went from 9 s to 0.4 s)."""

    source: str
    pattern: re.Pattern[str]
    piece: str
    folded: bool  # whether the piece is sought in the casefolded line
    quotes_options: bool  # sought in the whole line, not among its words only

    def search(self, line: str, casefolded: str) -> bool:
        held = self.piece in (casefolded if self.folded else line)
        return held and self.pattern.search(line) is not None


def _english(text: str) -> _English:
    # a short text, a word or two, is English only as a whole line, its fields short too
    whole = len(re.sub(r"\{\w+\}", "", text)) < MIN_CHARS
    body = _FIELD.sub(".{1,24}?" if whole else ".+?", re.escape(text))
    pattern = re.compile(f"^{body}$" if whole else body, re.IGNORECASE if whole else 0)
    piece = max(re.split(r"\{\w+\}", text), key=len)
    folded_piece = piece.casefold() if whole else piece
    return _English(text, pattern, folded_piece, whole, bool(_OPTION_SYNTAX.search(text)))


def _telling(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", text)))


@cache
def english_texts(lang: str) -> tuple[_English, ...]:
    """The English texts of both catalogs whose ``lang`` text differs (the lines they may be
    in: a short text alone, a longer one anywhere in a line), each as a pattern."""
    english = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
    other = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    texts = {v for k, v in english.items() if other.get(k) != v}
    own = {v.casefold() for v in other.values()}
    with (PACKAGE / "locale" / lang / "LC_MESSAGES" / "pedro.po").open("rb") as po:
        for message in read_po(po, locale=lang):
            if isinstance(message.id, str) and message.id and message.string != message.id:
                texts.add(message.id)
            if isinstance(message.string, str):
                own.add(message.string.casefold())
    # markup, texts of fields and signs alone, and words the language itself says (Swedish
    # "Variant") say nothing about the language
    plain = (t for t in texts if "[" not in t and _telling(t) and t.casefold() not in own)
    return tuple(_english(t) for t in sorted(plain, key=len, reverse=True))


def english_lines(text: str, lang: str, allowed: Iterable[str] = ()) -> list[Found]:
    """Every line of ``text`` (a page's visible text in ``lang``) that is English."""
    allow = tuple(allowed)
    found = []
    for raw in text.splitlines():
        line = raw.strip()
        for word in allow:
            line = line.replace(word, " ")
        if not line.strip():
            continue
        words_only = _OPTION_SYNTAX.sub(" ", line)
        words = {w.lower() for w in re.findall(r"[A-Za-z]+(?:'[a-z]+)?", words_only)}
        english = sorted(words & ENGLISH_WORDS)
        if len(english) >= 2 or words & TELLING_WORDS:
            found.append(Found(raw.strip(), f"English words {english}"))
            continue
        sought = {True: (line, line.casefold()), False: (words_only, words_only.casefold())}
        for english_text in english_texts(lang):
            # a text quoting option syntax is sought with it; any other among the words only
            if english_text.search(*sought[english_text.quotes_options]):
                found.append(Found(raw.strip(), f"the English text {english_text.source!r}"))
                break
    return found
