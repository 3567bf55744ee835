"""The English finder of the browser test that walks every page in Finnish (tests/english_left.py):
it finds English lines, and finds none in the Finnish and Swedish catalogs themselves."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po
from tests.english_left import CATALOGS, PACKAGE, english_lines


def filled(text: str) -> str:
    return re.sub(r"\{\w+\}", "3", text)


@pytest.mark.parametrize("lang", ["fi", "sv"])
def test_no_translation_of_the_catalogs_counts_as_english(lang: str) -> None:
    texts = list(json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8")).values())
    with (PACKAGE / "locale" / lang / "LC_MESSAGES" / "pedro.po").open("rb") as po:
        texts += [m.string for m in read_po(po, locale=lang) if m.id and isinstance(m.string, str)]
    assert len(texts) > 900
    assert english_lines("\n".join(filled(t) for t in texts), lang) == []


def test_the_english_the_browser_could_show_is_found() -> None:
    english = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
    finnish = json.loads((CATALOGS / "fi.json").read_text(encoding="utf-8"))
    # every English text of the client that Finnish says otherwise, in words (not a sign or a name)
    texts = [filled(v) for k, v in english.items() if finnish[k] != v and re.search(r"[a-z]{3}", v)]
    missed = [t for t in texts if not english_lines(t, "fi")]
    assert len(missed) < len(texts) * 0.02, missed
    # the server's English texts too: a card choice's rule, a note, a house rule's description
    for line in (
        "Choose the cards to discard: discard 7 non-trumps to keep 6 cards, all trumps kept",
        "no choice valued: this kind of decision has no estimate",
        "lowest ordinary bid",
        "Pidro table",
        "Ann (random legal moves)",
    ):
        assert english_lines(line, "fi"), line
    assert english_lines("Ann (random legal moves)", "fi", allowed=["Ann (random legal moves)"]) == []


def test_option_syntax_is_no_english_but_words_around_it_are() -> None:
    finnish = "deal_all_out ei jätä pakkaa; sallittu: deal_all_out=true tai discard_and_fill=true"
    assert english_lines(finnish, "fi") == []
    assert english_lines("trump_discard_claim=none, eller lägg till discards_face_up=true", "sv") == []
    assert english_lines("deal_all_out leaves no stock, so it cannot be combined with discard_and_fill", "fi")
    assert english_lines("slam=false, or bid all the points", "sv")
