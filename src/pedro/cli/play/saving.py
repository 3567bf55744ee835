"""Where ``pedro play`` writes its game record, and the writing itself.

A game is never lost for want of a place: the record is written when the game ends or
stops, and when the file asked for cannot be written it goes to pedro's user data folder.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from rich.markup import escape

from pedro.cli.play.narration import Say
from pedro.engine.state import GameState
from pedro.i18n import _
from pedro.records import record_from_game, write_record
from pedro.variants.model import Ruleset


def default_save_path(rules: Ruleset, now: datetime | None = None, folder: Path | None = None) -> Path:
    """``pedro-<variant>-<timestamp>.json`` in ``folder`` (the current one), not overwriting a file."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = folder if folder is not None else Path()
    path = base / f"pedro-{rules.id}-{stamp}.json"
    k = 2
    while path.exists():
        path = base / f"pedro-{rules.id}-{stamp}-{k}.json"
        k += 1
    return path


def games_folder() -> Path:
    """Where a game goes when it cannot be saved where asked: ``games`` in pedro's user data folder."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("pedro", appauthor=False)) / "games"


def check_save_path(path: Path) -> None:
    """Raise ValueError saying why the game record could not be written to ``path``, before the game."""
    if path.is_dir():
        raise ValueError(f"--save {path} is a folder; give a file name, e.g. {path / 'game.json'}")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"--save {path}: folder {folder} does not exist")
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise ValueError(f"--save {path}: cannot write there: {error.strerror or error}") from None
    if not existed:
        path.unlink(missing_ok=True)  # only tried: the record is written when the game stops


def save_game(state: GameState, names: Sequence[str], path: Path | None, say: Say) -> Path | None:
    """Write the game's record to ``path`` (by default a new file here); say where it went.

    When the file asked for cannot be written (its folder was removed during the game,
    the disk is full...), the record goes to pedro's user data folder instead, and that
    is said; None when it could be written nowhere.
    """
    record = record_from_game(state, names)
    path = path or default_save_path(state.rules)
    try:
        write_record(record, path)
    except OSError as error:
        say(
            "[red]"
            + _(
                "The game could not be saved to {path}: {reason}.",
                path=escape(str(path)),
                reason=escape(error.strerror or str(error)),
            )
            + "[/]",
            soft_wrap=True,
        )
        try:
            folder = games_folder()
            folder.mkdir(parents=True, exist_ok=True)
            path = default_save_path(state.rules, folder=folder)
            write_record(record, path)
        except OSError as second:
            say(
                "[red]"
                + _(
                    "Nor in {folder}: {reason}; the game is lost.",
                    folder=escape(str(games_folder())),
                    reason=escape(second.strerror or str(second)),
                )
                + "[/]",
                soft_wrap=True,
            )
            return None
        say("[yellow]" + _("Saved it in pedro's data folder instead.") + "[/]")
    say(
        _(
            "Game saved to [bold]{path}[/] (replay it with: {command})",
            path=escape(str(path)),
            command="pedro replay " + escape(str(path)),
        ),
        soft_wrap=True,
    )
    if not state.is_over:
        say(
            _(
                "Resume it with: {command}",
                command="[bold]pedro play --resume " + escape(shlex.quote(str(path))) + "[/]",
            ),
            soft_wrap=True,
        )
    return path
