"""How every ``pedro`` command reports a user's error: one style, two exit statuses.

A person who typed something wrong, or gave a file that is not a game record,
gets one or two plain lines — what was wrong, then what is allowed or where to
look — on standard error, never a traceback or a boxed panel. The exit status
says which kind of error it was, so that scripts can tell them apart.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from pedro.players import LEVELS, PLAYERS, UnknownPlayerError
from pedro.players.expert_config import MAX_SAMPLES

#: Exit status for bad usage: an unknown command, option, variant or player, a value out of range.
USAGE_ERROR = 2
#: Exit status for bad data: a file that is not a valid game record (or cannot be read).
BAD_DATA = 1


def _click_class(name: str) -> type[Exception]:
    """click's error class ``name`` as the installed typer has it (its own copy of click, or click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


_ClickException = _click_class("ClickException")
_UsageError = _click_class("UsageError")

#: Where the full description of the player names is (the error only lists them).
_PLAYERS_DOC = "docs/players.md"


def report(console: Console, message: str, hint: str | None = None) -> None:
    """Print ``error: message`` and, below it, ``hint`` (what is allowed, where to look)."""
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    if hint:
        console.print(f"  {escape(hint)}", highlight=False, soft_wrap=True)


def said(error: Exception) -> str:
    """The error's text, with an unknown player's long list of settings made short."""
    text = str(error)
    if isinstance(error, UnknownPlayerError):
        return short_player_error(text)
    return text


def short_player_error(text: str) -> str:
    """``unknown player 'x'`` and the names allowed, in one line; the settings are in the docs."""
    head = text.split("; ", 1)[0]
    levels = ", ".join(level.name for level in LEVELS)
    return (
        f"{head}; players: {', '.join(PLAYERS)}; levels: {levels}; "
        f"expert:N (N 1 to {MAX_SAMPLES}), cmd:COMMAND (see {_PLAYERS_DOC})"
    )


class PedroGroup(TyperGroup):
    """The ``pedro`` command group, reporting click's usage errors in the commands' own style."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except _UsageError as error:
            report(Console(stderr=True), _usage_message(error), _help_hint(error))
            sys.exit(USAGE_ERROR)
        except _ClickException as error:
            report(Console(stderr=True), _message(error))
            sys.exit(getattr(error, "exit_code", 1))
        except typer.Abort:
            Console(stderr=True).print("aborted", highlight=False)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _message(error: Exception) -> str:
    format_message = getattr(error, "format_message", None)
    return str(format_message() if callable(format_message) else error).strip()


def _usage_message(error: Exception) -> str:
    """click's message, begun in lower case as the commands' own are (``--games`` left as it is)."""
    text = _message(error).rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _help_hint(error: Exception) -> str:
    ctx = getattr(error, "ctx", None)
    path = getattr(ctx, "command_path", None) or "pedro"
    return f"see: {path} --help"
