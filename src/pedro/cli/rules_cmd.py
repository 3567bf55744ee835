"""``pedro variants`` and ``pedro rules``: browse the variants and print rule sheets.

These are plain functions taking a ``rich`` console so that the typer app
can wire them up and tests can call them with a recording console. They
never raise on bad user input: errors are printed with the allowed values
and reported through the returned exit status.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from pedro import i18n
from pedro.i18n import _
from pedro.variants.catalog import VARIANTS, UnknownVariantError, get_variant
from pedro.variants.model import Ruleset
from pedro.variants.options import (
    OPTIONS,
    OptionError,
    make_ruleset,
    option_text,
    option_values,
    parse_option_args,
)
from pedro.variants.sheet import rule_sheet

#: Exit status for a usage error (unknown variant, bad option), as typer/click use.
USAGE_ERROR = 2


def players_text(rules: Ruleset) -> str:
    """Seats and sides in a few characters, e.g. ``4 (2×2)`` or ``4–7 alone``."""
    if rules.partnerships:
        return f"{rules.players} (2×2)"
    if rules.min_players != rules.max_players:
        return f"{rules.min_players}–{rules.max_players} alone"
    return f"{rules.players} alone"


def first_sentence(text: str) -> str:
    """The first sentence of a summary, for one-line listings."""
    head, sep, _rest = text.partition(". ")
    return head + "." if sep else text


#: Narrower consoles get the variants as a list, not a table whose summaries wrap a word a line.
WIDE_VARIANTS_TABLE = 120


def show_variants(console: Console) -> int:
    """Print all variants, a table on a wide console and a list on a narrow one; exit status 0."""
    console.print(_variants_table() if console.width >= WIDE_VARIANTS_TABLE else _variants_list())
    console.print(
        "Players: 4 (2×2) means two partnerships of two, partners opposite; alone, each plays for "
        "himself. Points: all the points at stake in one hand.\n"
        "Full rules: [bold]pedro rules VARIANT[/] (house rules: [bold]--option NAME=VALUE[/]); "
        "the reasons behind them: docs/rules.md."
    )
    return 0


def _variants_list() -> Table:
    """Each variant's id, then its facts and summary in one column beside it (fits 80 columns)."""
    table = Table.grid(padding=(0, 2))
    table.title = "Pedro family variants"
    table.title_justify = "left"
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("variant")
    for k, rules in enumerate(VARIANTS.values()):
        if k:
            table.add_row()
        facts = (
            f"[bold]{escape(rules.name)}[/] · {players_text(rules)} · "
            f"{rules.total_points} points · game to {rules.target}"
        )
        table.add_row(rules.id, f"{facts}\n{escape(first_sentence(rules.summary))}")
    return table


def _variants_table() -> Table:
    table = Table(title="Pedro family variants", show_lines=False)
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("name")
    table.add_column("players", no_wrap=True)
    table.add_column("points", justify="right")
    table.add_column("target", justify="right")
    table.add_column("summary")
    for rules in VARIANTS.values():
        table.add_row(
            rules.id,
            rules.name,
            players_text(rules),
            str(rules.total_points),
            str(rules.target),
            first_sentence(rules.summary),
        )
    return table


def show_rules(
    console: Console,
    variant_id: str,
    option_args: Sequence[str] = (),
    *,
    markdown: bool = True,
    lang: str | None = None,
) -> int:
    """Print the rule sheet of ``variant_id`` with ``--option`` texts applied; returns the exit status.

    ``markdown=False`` prints the sheet as plain markdown text (for files and pipes). ``lang`` is
    the sheet's language (``--lang``); without it, the environment's (``LANG``...).
    """
    try:
        language = i18n.check_language(lang) if lang is not None else i18n.language_from_env()
    except i18n.LanguageError as error:
        _error(console, str(error))
        return USAGE_ERROR
    try:
        rules = make_ruleset(variant_id, parse_option_args(option_args))
    except (UnknownVariantError, OptionError) as error:
        with i18n.speaking(language):
            _error(console, error.translated() if isinstance(error, OptionError) else str(error))
        return USAGE_ERROR
    with i18n.speaking(language):
        sheet = rule_sheet(rules)
    if markdown:
        console.print(Markdown(sheet))
    else:
        console.print(sheet, markup=False, highlight=False, soft_wrap=True, end="")
    return 0


def show_options(console: Console, variant_id: str, *, lang: str | None = None) -> int:
    """Print the house-rule options of ``variant_id`` with their allowed and current values.

    ``lang`` is the table's language (``--lang``), else the environment's: the headings, the
    allowed values in words and the effects are translated; option names and values stay as
    they are typed (``all_pass_action``, ``redeal_next_dealer``, ``true``, ``null``).
    """
    try:
        language = i18n.check_language(lang) if lang is not None else i18n.language_from_env()
    except i18n.LanguageError as error:
        _error(console, str(error))
        return USAGE_ERROR
    with i18n.speaking(language):
        try:
            rules = get_variant(variant_id)
        except UnknownVariantError as error:
            _error(console, str(error))
            return USAGE_ERROR
        wide = console.width >= WIDE_OPTIONS
        console.print(_options_table(rules) if wide else _options_list(rules))
    return 0


#: Columns from which the options are a table; narrower, a table's columns cut the long option
#: values a user must type ("cinch_min6_fo…"), so each option is a block of wrapped lines.
WIDE_OPTIONS = 120


def _option_rows(rules: Ruleset) -> list[tuple[str, str, str, str]]:
    """(name, allowed values, default, effect) of each option of ``rules``' variant, in the
    language in use."""
    current = option_values(rules)
    return [
        (
            name,
            i18n.translate(spec.allowed_text()),
            "" if name == "preset" else option_text(current.get(name)),
            i18n.translate(spec.description),
        )
        for name, spec in OPTIONS.items()
        if spec.applies_to(rules.id)
    ]


def _options_title(rules: Ruleset) -> str:
    return _("Options for {variant} ({id})", variant=rules.name, id=rules.id)


def _options_table(rules: Ruleset) -> Table:
    """The options of ``rules``' variant in the language in use, one row each."""
    table = Table(title=_options_title(rules))
    table.add_column(_("option"), style="bold cyan", no_wrap=True)
    table.add_column(_("allowed"))
    table.add_column(_("default"), no_wrap=True)
    table.add_column(_("effect"))
    for row in _option_rows(rules):
        table.add_row(*row)
    return table


def _options_list(rules: Ruleset) -> Group:
    """The same as ``_options_table`` for a narrow terminal: each option a block, lines wrapped
    between words, so no value is cut."""
    lines: list[RenderableType] = [Text(_options_title(rules), style="bold")]
    for name, allowed, default, effect in _option_rows(rules):
        head = Text("\n" + name, style="bold cyan")
        if default:
            head.append(f"  {_('default')}: {default}", style="default")
        lines.append(_Wrapped(head))
        lines.append(_Wrapped(Text(f"{_('allowed')}: {allowed}"), indent=2))
        lines.append(_Wrapped(Text(effect), indent=2))
    return Group(*lines)


class _Wrapped:
    """Text wrapped ``indent`` columns in, each line ending at its last word. A rich ``Padding``
    would pad every line to the terminal's width, and a plain wrap leaves the space it broke at;
    both come along when the list is copied or piped."""

    def __init__(self, text: Text, indent: int = 0) -> None:
        self.text = text
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.text.wrap(console, max(options.max_width - self.indent, 1)):
            line.rstrip()
            yield Text(" " * self.indent).append_text(line)


def _error(console: Console, message: str) -> None:
    console.print(f"[bold red]{_('error:')}[/] {escape(message)}", highlight=False, soft_wrap=True)
