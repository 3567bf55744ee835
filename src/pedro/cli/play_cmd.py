"""``pedro play``: one human against computer players in the terminal.

This module reads the command's arguments (and, with ``--resume``, the record of the
game to play on) into a :class:`~pedro.cli.play.game.TerminalGame`, which plays it;
``pedro.cli.play`` holds the game's parts. The game is saved as a ``pedro-record/1``
file when it ends and when the player leaves (``quit``, end of input, Ctrl-C) or an
internal error stops it; ``--resume`` rebuilds such an unfinished game from its record
and plays it on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from pedro import i18n
from pedro.cli.errors import BAD_DATA, USAGE_ERROR, said
from pedro.cli.play.game import Ask, TerminalGame
from pedro.cli.play.saving import check_save_path
from pedro.cli.play.seats import (
    DEFAULT_PLAYER,
    HUMAN,
    check_name,
    seat_players,
    split_record_name,
)
from pedro.i18n import _
from pedro.players import UnknownPlayerError
from pedro.records import ReplayError
from pedro.variants.catalog import UnknownVariantError
from pedro.variants.options import OptionError, make_ruleset, parse_option_args

DEFAULT_VARIANT = "cinch"


def run(
    console: Console,
    variant: str | None,
    option_args: Sequence[str] | None,
    *,
    players: str | None,
    seed: int | None,
    save: Path | None,
    name: str | None,
    hints: bool = False,
    ask: Ask | None = None,
    resume: Path | None = None,
    lang: str | None = None,
) -> int:
    """Play one game in the terminal; returns the exit status (0 when finished or left with ``quit``).

    With ``resume`` the game is the unfinished one of that record, played on
    from where it stopped with the same variant, options, seats and players.
    ``lang`` is the game's language (``--lang``); without it, the environment's (``LANG``...).
    """
    try:
        i18n.use(i18n.check_language(lang) if lang is not None else i18n.language_from_env())
    except i18n.LanguageError as error:
        _error(console, str(error))
        return USAGE_ERROR
    try:
        if save is not None:
            check_save_path(save)
        if resume is not None:
            given = [
                flag
                for flag, value in (("--variant", variant), ("--option", option_args), ("--name", name))
                if value
            ]
            if given:
                raise ValueError(
                    "--resume plays on the recorded game with its own variant, options and names; "
                    f"leave out {', '.join(given)}"
                )
            game = resumed_game(console, resume, players=players, seed=seed, save=save, hints=hints, ask=ask)
        else:
            rules = make_ruleset(variant or DEFAULT_VARIANT, parse_option_args(option_args or ()))
            kinds = seat_players(players, rules.players)
            if name is not None:
                check_name(name)
            game = TerminalGame(
                console,
                rules,
                kinds,
                seed=seed,
                save=save,
                name=name,
                hints=hints,
                ask=ask,
            )
    except ReplayError as error:
        _error(console, str(error))
        return BAD_DATA
    except (UnknownVariantError, OptionError, UnknownPlayerError, ValueError) as error:
        _error(console, error.translated() if isinstance(error, OptionError) else said(error))
        return USAGE_ERROR
    return game.run()


def resumed_game(
    console: Console,
    path: Path,
    *,
    players: str | None = None,
    seed: int | None = None,
    save: Path | None = None,
    hints: bool = False,
    ask: Ask | None = None,
) -> TerminalGame:
    """The unfinished game of the record at ``path``, ready to play on; ValueError or ReplayError if not.

    The seats' players are read from the record's names (``Bo (basic)``; the
    human's name alone) unless ``players`` gives them; the hands after the
    recorded ones are dealt from ``seed``; the game is saved to ``save``, by
    default over ``path``.
    """
    from pedro.records import resume

    if path.suffix.lower() == ".jsonl" and path.is_file():
        lines = [
            line for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()
        ]
        if len(lines) > 1:
            raise ValueError(
                f"{path} holds {len(lines)} game records (one per line); --resume takes one game's record, "
                "a .json file as pedro play saves it"
            )
    seed = seed if seed is not None else random.randrange(1_000_000)
    result = resume(path, seed)
    if result.finished:
        raise ValueError(f"the game in {path} is over; nothing to resume (see it with: pedro replay {path})")
    n = result.rules.players
    split = [split_record_name(text) for text in result.names]
    names = [shown for shown, _ in split]
    if players:
        kinds = seat_players(players, n)
    else:
        kinds = [kind if kind is not None else HUMAN for _, kind in split]
        if kinds.count(HUMAN) != 1:
            recorded = ", ".join(repr(text) for text in result.names)
            raise ValueError(
                f"{path} does not say which seat was yours and which computer players sat at the others "
                f"(names {recorded}; pedro play writes them as 'Bo (basic)'); give them with --players, "
                f"e.g. --players {','.join([HUMAN] + [DEFAULT_PLAYER] * (n - 1))}"
            )
    return TerminalGame(
        console, result.rules, kinds, seed=seed, save=save or path, hints=hints, ask=ask,
        state=result.state, names=names, resumed_from=path,
    )  # fmt: skip


def _error(console: Console, message: str) -> None:
    """``virhe: ...``: the one line of a usage error, its first word in the game's language."""
    console.print(f"[bold red]{_('error:')}[/] {escape(message)}", highlight=False, soft_wrap=True)
