"""The browser client's catalogs (static/i18n/*.json): every key the JavaScript asks for is in the
English catalog, every language has every key and no other, and each translation fills the same
``{fields}`` as the English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pedro import server as server_package

STATIC = Path(server_package.__file__).parent / "static"
CATALOGS = STATIC / "i18n"
LANGUAGES = sorted(p.stem for p in CATALOGS.glob("*.json"))
#: ``t("key"`` / ``tn("key"`` / ``tIf("key"``: a key written out whole.
LITERAL = re.compile(r"""\b(t|tn|tIf)\(\s*["']([^"'$]+)["']""")
#: ``t(`suit.${letter}`)``: a key made at run time, its fixed start.
PREFIX = re.compile(r"""\b(?:t|tn|tIf)\(\s*`([^`$]*)\$\{""")
FIELD = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return data


COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL)


def scripts() -> dict[str, str]:
    """Each script's code, its comments left out (they show how ``t("key")`` is called)."""
    return {p.name: COMMENT.sub("", p.read_text(encoding="utf-8")) for p in sorted(STATIC.glob("*.js"))}


def used_keys() -> tuple[set[str], set[str]]:
    """The keys the scripts name whole (a ``tn`` key as its ``.one`` and ``.other`` forms), and
    the fixed starts of the keys they make at run time."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for text in scripts().values():
        for fn, key in LITERAL.findall(text):
            keys |= {f"{key}.one", f"{key}.other"} if fn == "tn" else {key}
        prefixes |= set(PREFIX.findall(text))
    return keys, prefixes


def test_the_languages_are_the_ones_the_client_offers() -> None:
    offered = re.search(r"LANGUAGES = \{([^}]*)\}", scripts()["i18n.js"])
    assert offered is not None
    assert sorted(re.findall(r"(\w+):", offered.group(1))) == LANGUAGES == ["en", "fi", "sv"]


def test_every_key_the_scripts_ask_for_is_in_the_english_catalog() -> None:
    keys, prefixes = used_keys()
    assert len(keys) > 150
    missing = sorted(keys - set(catalog("en")))
    assert not missing, f"keys used in static/*.js but not in i18n/en.json: {missing}"
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in catalog("en")), f"no key starts with {prefix!r}"


def test_every_english_key_is_used() -> None:
    keys, prefixes = used_keys()
    stale = sorted(k for k in catalog("en") if k not in keys and not k.startswith(tuple(prefixes)))
    assert not stale, f"keys in i18n/en.json that no script uses: {stale}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_has_every_key_translated_with_the_same_fields(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert not sorted(set(english) - set(other)), f"{lang}.json lacks {sorted(set(english) - set(other))}"
    assert not sorted(set(other) - set(english)), (
        f"{lang}.json has stale keys {sorted(set(other) - set(english))}"
    )
    empty = sorted(k for k, v in other.items() if not v.strip())
    assert not empty, f"{lang}.json leaves {empty} empty"
    wrong = {
        k: (english[k], v)
        for k, v in other.items()
        if set(FIELD.findall(v)) != set(FIELD.findall(english[k]))
    }
    assert not wrong, f"{lang}.json fills other fields than the English: {wrong}"


def test_a_plural_key_has_both_forms_in_every_language() -> None:
    for lang in LANGUAGES:
        keys = catalog(lang)
        stems = {k.rsplit(".", 1)[0] for k in keys if k.endswith((".one", ".other"))}
        for stem in stems:
            assert f"{stem}.one" in keys and f"{stem}.other" in keys, (lang, stem)
