"""``pedro tournament``: two computer players compared over duplicate deals.

Usage::

    pedro tournament --variant cinch --players basic,random --deals 500 --jobs 2 \\
        --games 20 --out results.json --plot curve.png

Each deal ``i`` (seed ``S+i``) is played twice with the same cards: player A
in the even seats and B in the odd seats, then swapped (in the variants where
everyone plays alone, A holds the even seats and B the odd ones, then the
reverse, so each player plays every seat's cards once per deal). The report
gives, per player, the points taken and the score change per play of a deal
with 95% confidence intervals, bids won, made and set, the average bid, and
games won in ``--games`` duplicate whole games (seed ``S+g``, played twice to
the end, sides swapped, stopped after ``--max-hands`` hands). The difference
A − B is taken deal by deal, so its interval, ``mean ± 1.96·sd/√n``, has the
luck of the cards removed. Results do not depend on ``--jobs``: each seat's
player is seeded from the deal's seed and the seat alone. ``--out`` writes
every setting, the summary and one row per deal and game as JSON; ``--plot``
draws the running mean of the differences with their 95% bands as a PNG (or an
SVG or PDF, as the file's suffix says).

``--backend ray`` plays the deals as Ray tasks instead (``pip install
'pedro[ray]'``): on a local Ray instance with ``--jobs`` CPUs, or with
``--address HOST:PORT`` (or ``auto``) on all the CPUs of a running Ray
cluster. The results are the same as with the local backend.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pedro.cli.errors import report, said
from pedro.players import PLAYERS, UnknownPlayerError, check_player, is_command
from pedro.players.external import FALLBACK, parse_spec
from pedro.terminal import plural, progress_bar, seed_range
from pedro.tournament.ray_backend import RayBackend, RayBackendError
from pedro.tournament.report import (
    PLOT_FORMATS,
    Summary,
    document,
    plot_format,
    summarise,
    write_json,
    write_plot,
)
from pedro.tournament.runner import LABELS, Backend, LocalBackend, TournamentError, run_tournament
from pedro.tournament.stats import Estimate
from pedro.variants.catalog import UnknownVariantError
from pedro.variants.options import OptionError, make_ruleset, options_dict, parse_option_args

#: Exit status for a usage error (unknown variant, bad option, bad players or numbers).
USAGE_ERROR = 2
#: Exit status when a deal cannot be played to its end (a player or engine fault, a failing cluster).
GAME_FAILED = 1
#: Where the deals can be played.
BACKENDS = ("local", "ray")


def parse_players(players: str | None) -> list[str]:
    """The two player names of ``A,B``."""
    if players is None or not players.strip():
        raise UnknownPlayerError(f"give two players with --players A,B; players are: {', '.join(PLAYERS)}")
    names = [p.strip() for p in players.split(",")]
    if len(names) != 2 or not all(names):
        raise UnknownPlayerError(
            f"--players needs two comma-separated names A,B, got {players!r}; "
            f"players are: {', '.join(PLAYERS)}"
        )
    for name in names:
        check_player(name)
    return names


def run(
    console: Console,
    variant: str,
    option_args: Sequence[str] | None,
    *,
    players: str | None,
    deals: int,
    seed: int,
    jobs: int,
    games: int = 0,
    max_hands: int = 500,
    out: Path | None = None,
    plot: Path | None = None,
    backend: str = "local",
    address: str | None = None,
) -> int:
    """Run a duplicate tournament and print its report; returns the exit status."""
    try:
        rules = make_ruleset(variant, parse_option_args(option_args or ()))
        names = parse_players(players)
    except (UnknownVariantError, OptionError, UnknownPlayerError) as exc:
        _error(console, said(exc))
        return USAGE_ERROR
    for value, what, least in (
        (deals, "--deals", 1),
        (jobs, "--jobs", 1),
        (games, "--games", 0),
        (max_hands, "--max-hands", 1),
    ):
        if value < least:
            _error(console, f"{what} must be at least {least}, got {value}")
            return USAGE_ERROR
    if plot is not None and plot_format(plot) is None:
        _error(
            console,
            f"--plot {plot}: the plot is written as PNG, SVG or PDF, as the file's suffix says; "
            f"name it with one of {', '.join(PLOT_FORMATS)} (e.g. {plot.with_suffix('.png').name})",
        )
        return USAGE_ERROR
    for path, what in ((out, "--out"), (plot, "--plot")):
        if path is not None and not path.parent.is_dir():
            _error(console, f"cannot write {what} file {path}: folder {path.parent} does not exist")
            return USAGE_ERROR
    problem = _backend_problem(backend, address, jobs)
    if problem is not None:
        _error(console, problem)
        return USAGE_ERROR
    options = options_dict(rules)
    try:
        with open_backend(console, backend, address, jobs) as (runner, where):
            started = time.perf_counter()
            with progress_bar(console) as progress:
                task = progress.add_task(f"{rules.id} {names[0]} vs {names[1]}", total=deals + games)
                results = run_tournament(
                    rules.id,
                    options,
                    names,
                    seed=seed,
                    deals=deals,
                    games=games,
                    max_hands=max_hands,
                    backend=runner,
                    advance=lambda: progress.advance(task),
                )
            elapsed = time.perf_counter() - started
    except _BackendUnavailable as exc:
        _error(console, said(exc))
        return USAGE_ERROR
    except (TournamentError, RayBackendError) as exc:
        _error(console, said(exc))
        return GAME_FAILED
    summary = summarise(names, results)
    print_report(console, rules.name, rules.id, summary, seed=seed, games=games, max_hands=max_hands)
    console.print(f"Played in {elapsed:.1f} s {escape(where)}.", highlight=False)
    try:
        if out is not None:
            doc = document(
                variant=rules.id,
                options=options,
                players=names,
                seed=seed,
                max_hands=max_hands,
                summary=summary,
                results=results,
            )
            write_json(out, doc)
            console.print(f"Wrote the results to {escape(str(out))}")
        if plot is not None:
            write_plot(plot, results.deals, names, f"{rules.name}, {plural(deals, 'duplicate deal')}")
            console.print(f"Wrote the plot to {escape(str(plot))}")
    except OSError as exc:
        _error(console, f"cannot write {exc.filename}: {exc.strerror or exc}")
        return USAGE_ERROR
    return 0


def _backend_problem(backend: str, address: str | None, jobs: int) -> str | None:
    """Why ``--backend``, ``--address`` and ``--jobs`` do not go together, if they do not."""
    if backend not in BACKENDS:
        return f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}"
    if address is not None and backend != "ray":
        return "--address is only valid with --backend ray"
    if address is not None and not address.strip():
        return "--address is empty; give the Ray head node as HOST:PORT, or auto"
    if address is not None and jobs != 1:
        return "--jobs sets the CPUs of a local Ray instance; with --address the whole cluster is used"
    return None


class _BackendUnavailable(Exception):
    """The backend could not be started: Ray is missing or the cluster cannot be reached."""


@contextmanager
def open_backend(
    console: Console, backend: str, address: str | None, jobs: int
) -> Iterator[tuple[Backend, str]]:
    """The backend, ready, and where it plays (for the report); a Ray backend is shut down after."""
    if backend == "local":
        yield LocalBackend(jobs), f"with {jobs} job{'s' if jobs > 1 else ''}"
        return
    ray_backend = RayBackend(address.strip() if address else None, num_cpus=jobs)
    try:
        with console.status("Starting Ray" if address is None else f"Connecting to Ray at {escape(address)}"):
            ray_backend.start()
    except RayBackendError as exc:
        raise _BackendUnavailable(str(exc)) from None
    try:
        where = ray_backend.describe()
        console.print(f"Playing on {escape(where)}.", highlight=False)
        yield ray_backend, f"on {where}"
    finally:
        ray_backend.close()


def _ci(e: Estimate, signed: bool = False) -> str:
    """``mean ± half-width`` of the 95% interval (the mean alone when there is no interval)."""
    mean = f"{e.mean:+.2f}" if signed else f"{e.mean:.2f}"
    half = e.half_width
    return mean if half is None else f"{mean} ± {half:.2f}"


#: How long a bot program's name may be in the report's table before it is shortened.
SHORT_NAME = 24


def short_name(name: str) -> str:
    """A bot program's spec with its paths cut to file names, so the table stays readable."""
    if not is_command(name) or len(name) <= SHORT_NAME:
        return name
    argv, _ = parse_spec(name)
    short = "cmd:" + " ".join(Path(arg).name or arg for arg in argv)
    return short if len(short) <= SHORT_NAME else short[: SHORT_NAME - 1] + "…"


def _interval(e: Estimate) -> str:
    return "" if e.low is None or e.high is None else f" (95% CI {e.low:+.2f} to {e.high:+.2f})"


def print_report(
    console: Console,
    name: str,
    variant: str,
    summary: Summary,
    *,
    seed: int,
    games: int,
    max_hands: int,
) -> None:
    """The per-player table and the paired differences."""
    n = summary.deals
    table = Table(
        title=f"{name} ({variant}): {plural(n, 'duplicate deal')}, {seed_range(seed, n)}",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("player", style="bold cyan", no_wrap=True)
    for header in ("points/deal", "change/deal", "bids", "made", "set", "avg bid") + (
        ("games",) if games else ()
    ):
        table.add_column(header, justify="right", no_wrap=True)
    for p in summary.players:
        cells = [
            f"{p.label} {escape(short_name(p.name))}",
            _ci(p.points),
            _ci(p.change, signed=True),
            str(p.bids_won),
            str(p.made),
            str(p.set),
            "–" if p.avg_bid is None else f"{p.avg_bid:.2f}",
        ]
        table.add_row(*cells, *([str(p.games_won)] if games else []))
    console.print(table)
    if any(short_name(p.name) != p.name for p in summary.players):
        console.print(
            "Players: " + "; ".join(f"{p.label} = {escape(p.name)}" for p in summary.players),
            highlight=False,
            soft_wrap=True,
        )
    a, b = LABELS
    console.print(
        f"{a} − {b} per deal (sides swapped on the same cards): points {_ci(summary.points_diff, True)}"
        f"{_interval(summary.points_diff)}, score change {_ci(summary.change_diff, True)}"
        f"{_interval(summary.change_diff)}",
        highlight=False,
    )
    console.print(
        f"Points and score change per play of a deal ± the half-width of the 95% confidence interval; "
        f"bids: auctions won; "
        f"{summary.thrown_in} of {2 * n} plays thrown in after all passed.",
        highlight=False,
    )
    if games:
        console.print(
            f"Games won: {plural(games, 'duplicate game')} ({seed_range(seed, games)}, each played twice), "
            f"{summary.unfinished} of {2 * games} plays unfinished after {plural(max_hands, 'hand')}.",
            highlight=False,
        )
    for p in summary.players:
        if p.faults:
            kinds = ", ".join(f"{kind} {count}" for kind, count in p.faults)
            console.print(
                f"[bold yellow]Bot faults[/] of {p.label} {escape(short_name(p.name))}: {p.fault_count} "
                f"decisions made by the fallback player {FALLBACK} instead ({kinds}); `pedro simulate` with "
                "the same players prints the bot's first faults and why (docs/bots.md).",
                highlight=False,
            )


def _error(console: Console, message: str) -> None:
    report(console, message)
