"""The player's language: gettext catalogs (English, Finnish, Swedish) read with Babel.

Texts a player reads are written in English in the source, marked with ``_("...")`` (or
``ngettext`` for counts), and looked up in ``pedro/locale/<lang>/LC_MESSAGES/pedro.po`` for the
language in use. The ``.po`` files ship in the package and are compiled in memory on first use
(Babel reads them, :mod:`gettext` looks up), so an installed pedro needs no build step and no
download to speak Finnish.

The language in use is a context variable: the terminal game sets it once (``use``), ``pedro
rules`` for the sheet it prints (``speaking``), and everything else (records, logs, wire formats)
stays English because nothing sets it there. Placeholders are ``{name}`` fields filled after the
lookup, so a translation may move them.

The engine writes its explanations (why a move is illegal, a card choice's rule) in English
always, marked with ``N_`` and filled with ``str.format``: they reach bots and the server's
messages, which are contracts. An interface shows them to a person through ``translate``, which
finds the English template a text was made from and fills its translation.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources

from pedro.marks import N_ as N_  # marks a text for the catalogs (one definition, compiled with the engine)

#: The language the source is written in.
DEFAULT = "en"
#: Every language with a catalog, the default first; each is named in its own language.
LANGUAGES: Mapping[str, str] = {"en": "English", "fi": "suomi", "sv": "svenska"}
#: The catalogs' gettext domain and the package folder they are in.
DOMAIN = "pedro"

_current: ContextVar[str] = ContextVar("pedro_language", default=DEFAULT)


class LanguageError(ValueError):
    """A language pedro has no catalog for; the message lists the ones it has."""


def check_language(code: str) -> str:
    """``code`` (``fi``, ``FI``, ``sv_FI``, ``fi-FI``) as one of ``LANGUAGES``; else LanguageError."""
    lang = _base(code)
    if lang not in LANGUAGES:
        known = ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
        raise LanguageError(f"no language {code!r}; the languages are: {known}")
    return lang


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

    As gettext reads them: the first variable set wins, and ``LANGUAGE`` may list several
    (``sv:fi``); the first of pedro's languages in it is taken. ``C``/``POSIX`` or a language
    pedro has not got falls back to English: an environment's setting is a wish, not an order.
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if not value:
            continue
        for part in value.split(":"):
            lang = _base(part)
            if lang in LANGUAGES:
                return lang
        if name != "LANGUAGE":
            return DEFAULT
    return DEFAULT


def _base(code: str) -> str:
    """``fi`` from ``fi_FI.UTF-8``, ``fi-FI`` or ``FI``."""
    return code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def current() -> str:
    """The language in use in this context."""
    return _current.get()


def use(lang: str) -> None:
    """Speak ``lang`` from now on in this context (the terminal game: the whole run)."""
    _current.set(check_language(lang))


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block only (a server request, a test)."""
    token = _current.set(check_language(lang))
    try:
        yield
    finally:
        _current.reset(token)


@cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang``, compiled from its ``.po`` file once; English has none."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source = resources.files("pedro").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with source.open("rb") as po:
        parsed = read_po(po, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, parsed)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


_FIELD = re.compile(r"\{(\w+)\}")


@cache
def _templates(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Every singular text of ``lang``'s catalog that has fields, as a pattern that reads those
    fields back out of an English text made from it; the most specific (most fixed words) first."""
    from babel.messages.pofile import read_po

    source = resources.files("pedro").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with source.open("rb") as po:
        ids = [m.id for m in read_po(po, locale=lang, domain=DOMAIN) if isinstance(m.id, str) and m.id]
    found = []
    for msgid in ids:
        parts = _FIELD.split(msgid)
        if len(parts) == 1:
            continue
        names = parts[1::2]
        if len(set(names)) != len(names):
            continue  # a field written twice: not read back
        pattern = "".join(
            re.escape(part) if k % 2 == 0 else f"(?P<{part}>.+?)" for k, part in enumerate(parts)
        )
        fixed = sum(len(p) for p in parts[::2])
        found.append((fixed, re.compile(pattern, re.DOTALL), msgid))
    found.sort(key=lambda item: -item[0])
    return tuple((pattern, msgid) for _fixed, pattern, msgid in found)


def page_catalog(lang: str) -> dict[str, object]:
    """``lang``'s translations of the texts the engine, the players and the variants make, for
    the browser, which shows those texts (they reach it in English) in the page's language.

    ``texts`` maps each translated singular text without a context to its translation;
    ``templates`` lists the texts with fields in the order ``translate`` tries them, so the
    page reads an English text back into its template exactly as the terminal does.
    """
    check_language(lang)
    if lang == DEFAULT:
        return {"language": lang, "texts": {}, "templates": []}
    from babel.messages.pofile import read_po

    source = resources.files("pedro").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with source.open("rb") as po:
        parsed = read_po(po, locale=lang, domain=DOMAIN)
    texts = {
        m.id: m.string
        for m in parsed
        if isinstance(m.id, str)
        and m.id
        and isinstance(m.string, str)
        and m.string
        and not m.context
        and not m.fuzzy
    }
    templates = [msgid for _pattern, msgid in _templates(lang) if msgid in texts]
    return {"language": lang, "texts": texts, "templates": templates}


def translate(text: str) -> str:
    """An English text the engine made (``bids go up to 14``), in the language in use.

    The text is looked up whole, else matched against the catalog's templates; the fields read
    back are translated the same way (a card choice's rule holds another rule). A text no
    template makes stays as it is: numbers, cards, names.
    """
    lang = _current.get()
    if lang == DEFAULT or not text:
        return text
    whole = catalog(lang).gettext(text)
    if whole != text:
        return whole
    for pattern, msgid in _templates(lang):
        match = pattern.fullmatch(text)
        if match is not None:
            fields = {name: translate(value) for name, value in match.groupdict().items()}
            return catalog(lang).gettext(msgid).format(**fields)
    return text


def _(message: str, /, **fields: object) -> str:
    """``message`` in the language in use, its ``{name}`` fields filled from ``fields``."""
    text = catalog(_current.get()).gettext(message)
    return text.format(**fields) if fields else text


def ngettext(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The singular or plural text for ``n`` in the language in use; ``{n}`` and ``fields`` filled."""
    text = catalog(_current.get()).ngettext(singular, plural, n)
    return text.format(n=n, **fields)


def pgettext(context: str, message: str, /, **fields: object) -> str:
    """``message`` in the sense ``context`` gives it (``"you"``: said of the player himself, which
    other languages conjugate apart), in the language in use, its fields filled."""
    text = catalog(_current.get()).pgettext(context, message)
    return text.format(**fields) if fields else text
