"""The player's language: gettext catalogs (English, Finnish, Swedish) read with Babel.

Texts a player reads are written in English in the source, marked with ``_("...")`` (or
``ngettext`` for counts), and looked up in ``pedro/locale/<lang>/LC_MESSAGES/pedro.po`` for the
language in use. The ``.po`` files ship in the package and are compiled in memory on first use
(Babel reads them, :mod:`gettext` looks up), so an installed pedro needs no build step and no
download to speak Finnish.

The language in use is a context variable: the terminal game sets it once (``use``), the server
sets it for each player's request, and everything else (records, logs, wire formats) stays
English because nothing sets it there. Placeholders are ``{name}`` fields filled after the
lookup, so a translation may move them. The language lives at the bottom of the layers: the
engine's explanations of an illegal move and the rule sheets are translated where they are made.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources

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


def _(message: str, /, **fields: object) -> str:
    """``message`` in the language in use, its ``{name}`` fields filled from ``fields``."""
    text = catalog(_current.get()).gettext(message)
    return text.format(**fields) if fields else text


def ngettext(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The singular or plural text for ``n`` in the language in use; ``{n}`` and ``fields`` filled."""
    text = catalog(_current.get()).ngettext(singular, plural, n)
    return text.format(n=n, **fields)


def N_(message: str, /) -> str:
    """Marks ``message`` for the catalogs without translating it (translated later, with ``_``)."""
    return message
