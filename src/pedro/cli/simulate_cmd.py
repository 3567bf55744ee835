"""``pedro simulate``: whole games between computer players, summarised (and optionally recorded).

Game ``k`` is seeded with ``seed + k`` (deal and players alike), so any game
of a run can be reproduced alone. Each player sees only its seat's
observation. With ``--record`` every game is written as one
``pedro-record/1`` line, which ``pedro replay`` checks action by action.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pedro.cli.errors import report, said
from pedro.engine.state import GameState
from pedro.players import PLAYERS, UnknownPlayerError, check_player
from pedro.players.external import FALLBACK
from pedro.players.games import GameFailure, run_game
from pedro.records import record_from_game, record_line
from pedro.terminal import plural, progress_bar, seed_range
from pedro.variants.catalog import UnknownVariantError
from pedro.variants.model import Ruleset
from pedro.variants.options import OptionError, make_ruleset, parse_option_args

#: Exit status for a usage error (unknown variant, bad option, bad players), as typer/click use.
USAGE_ERROR = 2
#: Exit status when a game cannot be played to its end (a player or engine fault).
GAME_FAILED = 1
#: How many bot fault messages the summary shows.
MAX_FAULT_MESSAGES = 5
#: The player of every seat when ``--players`` is not given: ``random`` games of some variants
#: (Pidro) hardly ever reach the target, so the default is the simplest player that plays to win.
DEFAULT_PLAYER = "basic"


@dataclass
class SideStats:
    """What the summary table shows for one side."""

    wins: int = 0
    points: int = 0
    bids: list[int] = field(default_factory=list)
    made: int = 0
    set: int = 0


@dataclass
class Summary:
    """Totals over all simulated games."""

    sides: list[SideStats]
    games: int = 0
    unfinished: int = 0
    hands: int = 0
    thrown_in: int = 0
    #: per seat played by a bot program: decisions the fallback player made, by why
    faults: dict[int, dict[str, int]] = field(default_factory=dict)
    #: the first fault messages, to show why
    fault_messages: list[str] = field(default_factory=list)


def run(
    console: Console,
    variant: str,
    option_args: Sequence[str] | None,
    *,
    games: int,
    seed: int,
    players: str | None,
    record: Path | None,
    max_hands: int,
) -> int:
    """Play ``games`` games of ``variant`` and print a summary; returns the exit status."""
    try:
        rules = make_ruleset(variant, parse_option_args(option_args or ()))
        names = player_names(players, rules)
    except (UnknownVariantError, OptionError, UnknownPlayerError) as exc:
        _error(console, said(exc))
        return USAGE_ERROR
    if games < 1 or max_hands < 1:
        _error(console, "--games and --max-hands must be at least 1")
        return USAGE_ERROR
    summary = Summary(sides=[SideStats() for _ in range(rules.num_sides)])
    with ExitStack() as stack:
        out: TextIO | None = None
        if record is not None:
            try:
                out = stack.enter_context(Path(record).open("w", encoding="utf-8"))
            except OSError as exc:
                _error(console, f"cannot write the record file {record}: {exc.strerror or exc}")
                return USAGE_ERROR
        try:
            _play_all(console, rules, names, summary, games=games, seed=seed, max_hands=max_hands, out=out)
        except GameFailure as exc:
            _error(console, said(exc))
            return GAME_FAILED
    print_summary(console, rules, names, summary, seed=seed, max_hands=max_hands)
    if record is not None:
        console.print(f"Wrote {plural(summary.games, 'record')} to {escape(str(record))}")
    return 0


def _play_all(
    console: Console,
    rules: Ruleset,
    names: Sequence[str],
    summary: Summary,
    *,
    games: int,
    seed: int,
    max_hands: int,
    out: TextIO | None,
) -> None:
    """Play the games with a progress bar, counting each into ``summary`` and writing its record."""
    labels = [f"{name}-{s}" for s, name in enumerate(names)]
    with progress_bar(console) as progress:
        task = progress.add_task(rules.id, total=games)
        for k in range(games):
            run = run_game(rules, names, seed + k, max_hands)
            state = run.state
            _count(summary, state)
            for seat, faults in run.faults.items():
                counts = summary.faults.setdefault(seat, {})
                for kind, n in faults.items():
                    counts[kind] = counts.get(kind, 0) + n
            room = MAX_FAULT_MESSAGES - len(summary.fault_messages)
            summary.fault_messages += [f"game {seed + k}, {m}" for m in run.messages[:room]]
            if out is not None:
                out.write(record_line(record_from_game(state, labels)) + "\n")
            progress.advance(task)


def player_names(players: str | None, rules: Ruleset) -> list[str]:
    """One player name per seat from ``a,b,c,d`` (one name alone is used for every seat; none: ``basic``)."""
    n = rules.players
    if players is None or not players.strip():
        return [DEFAULT_PLAYER] * n
    names = [p.strip() for p in players.split(",")]
    if len(names) == 1:
        names *= n
    if len(names) != n or not all(names):
        raise UnknownPlayerError(
            f"--players needs {n} comma-separated names for {rules.id} (one per seat) or a single name "
            f"for every seat, got {players!r}; players are: {', '.join(PLAYERS)}"
        )
    for name in names:
        check_player(name)
    return names


def _count(summary: Summary, state: GameState) -> None:
    rules = state.rules
    summary.games += 1
    if state.winner is None:
        summary.unfinished += 1
    else:
        summary.sides[state.winner].wins += 1
    for r in state.results:
        summary.hands += 1
        if r.bidder is None:
            summary.thrown_in += 1
            continue
        for side, points in zip(summary.sides, r.points, strict=True):
            side.points += points
        bidders = summary.sides[rules.side_of(r.bidder)]
        if r.bid is not None:
            bidders.bids.append(r.bid)
        if r.made:
            bidders.made += 1
        else:
            bidders.set += 1


def print_summary(
    console: Console, rules: Ruleset, names: Sequence[str], summary: Summary, *, seed: int, max_hands: int
) -> None:
    """The summary table: games won, points per hand, bids made and set, average bid, per side."""
    played = summary.hands - summary.thrown_in
    table = Table(
        title=f"{rules.name} ({rules.id}): {plural(summary.games, 'game')}, {seed_range(seed, summary.games)}"
    )
    table.add_column("side", style="bold cyan", no_wrap=True)
    table.add_column("games won", justify="right")
    table.add_column("points/hand", justify="right")
    table.add_column("bids made", justify="right")
    table.add_column("bids set", justify="right")
    table.add_column("avg bid", justify="right")
    for seats, stats in zip(rules.sides(), summary.sides, strict=True):
        label = "seat" + ("s " if len(seats) > 1 else " ") + "+".join(str(s) for s in seats)
        avg_points = f"{stats.points / played:.2f}" if played else "–"
        avg_bid = f"{sum(stats.bids) / len(stats.bids):.2f}" if stats.bids else "–"
        table.add_row(label, str(stats.wins), avg_points, str(stats.made), str(stats.set), avg_bid)
    console.print(table)
    # seats counted from 1 where people read them (the records count from 0)
    console.print("Players: " + ", ".join(f"seat {s + 1} {escape(name)}" for s, name in enumerate(names)))
    console.print(
        f"Unfinished games (stopped after {plural(max_hands, 'hand')}): {summary.unfinished}. "
        f"Hands: {summary.hands} ({summary.thrown_in} thrown in after all passed); "
        f"{summary.hands / summary.games:.1f} hands per game."
    )
    for seat, faults in sorted(summary.faults.items()):
        if faults:
            kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(faults.items()))
            who = f"seat {seat + 1} ({escape(names[seat])})"
            console.print(
                f"[bold yellow]Bot faults[/] at {who}: {sum(faults.values())} "
                f"decisions made by the fallback player {FALLBACK} instead ({kinds}).",
                highlight=False,
                soft_wrap=True,
            )
    for message in summary.fault_messages:
        console.print(f"  {escape(message)}", highlight=False, soft_wrap=True)


def _error(console: Console, message: str) -> None:
    report(console, message)
