"""The ``pedro`` command: one typer app whose commands are thin wrappers.

Each command's work lives in its own module (``rules_cmd``, ``replay_cmd``, ``analyze_cmd``,
``simulate_cmd``, ``tournament_cmd``, ``play_cmd``) so it can be tested without a shell.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from pedro.cli.errors import PedroGroup
from pedro.cli.rules_cmd import show_options, show_rules, show_variants
from pedro.server.settings import Limits, ServerSettings, TurnClocks

app = typer.Typer(
    name="pedro",
    help="The Pedro family of card games: rules, records, simulations and a terminal game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=PedroGroup,
)
console = Console()


def _show_version(value: bool) -> None:
    if value:
        from pedro.cli.version_cmd import version_text

        print(version_text())
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_show_version,
        is_eager=True,
        help="print the version and the build, and exit",
    ),
) -> None:
    """The Pedro family of card games: rules, records, simulations and a terminal game."""


#: How a bot program is named where players are.
_BOTS = "cmd:COMMAND runs a bot program (docs/bots.md)"


@app.command()
def variants() -> None:
    """List the variants and their ids."""
    raise typer.Exit(show_variants(console))


@app.command()
def rules(
    variant: str = typer.Argument(..., help="variant id, e.g. cinch (see `pedro variants`)"),
    option: list[str] = typer.Option([], "--option", "-o", help="house rule NAME=VALUE (repeatable)"),
    plain: bool = typer.Option(False, "--plain", help="print the sheet as plain markdown text"),
    list_options: bool = typer.Option(False, "--list-options", help="list the variant's house-rule options"),
    lang: str = typer.Option(
        None,
        "--lang",
        help="the sheet's language: en, fi (suomi) or sv (svenska); default from LANGUAGE, LC_ALL or LANG",
    ),
) -> None:
    """Print a variant's rule sheet, generated from the rules data."""
    code = (
        show_options(console, variant, lang=lang)
        if list_options
        else show_rules(console, variant, option, markdown=not plain, lang=lang)
    )
    raise typer.Exit(code)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a pedro-record/1 JSON file (or a .jsonl file of records)"),
    json_output: bool = typer.Option(False, "--json", help="print one JSON object with every hand's result"),
) -> None:
    """Check a game record action by action and print an account of the game."""
    from pedro.cli import replay_cmd

    raise typer.Exit(replay_cmd.run(console, file, as_json=json_output))


@app.command()
def analyze(
    file: Path = typer.Argument(..., help="a pedro-record/1 JSON file (or a .jsonl file with --line)"),
    hand: list[int] = typer.Option([], "--hand", "-k", help="only this hand, counted from 1 (repeatable)"),
    player: str = typer.Option("expert", "--player", help="whose estimates: expert or expert:N (N samples)"),
    seed: int = typer.Option(0, "--seed", help="seed of the estimates' sampling"),
    top: int = typer.Option(10, "--top", min=0, help="how many of the biggest mistakes to list"),
    line: int = typer.Option(None, "--line", help="which record of a .jsonl file, counted from 1"),
    json_output: bool = typer.Option(False, "--json", help="print one JSON object with every decision"),
    seat: list[int] = typer.Option(
        [], "--seat", help="only this seat's decisions, counted from 1 (repeatable; records count from 0)"
    ),
) -> None:
    """Value every decision of a recorded game and list the biggest mistakes."""
    from pedro.cli import analyze_cmd

    raise typer.Exit(
        analyze_cmd.run(
            console,
            file,
            hand,
            player=player,
            seed=seed,
            top=top,
            line=line,
            as_json=json_output,
            seats=[s - 1 for s in seat],  # --seat counts from 1, the record from 0
        )
    )


@app.command()
def simulate(
    variant: str = typer.Option("cinch", "--variant", "-v", help="variant id"),
    option: list[str] = typer.Option([], "--option", "-o", help="house rule NAME=VALUE (repeatable)"),
    games: int = typer.Option(100, "--games", "-n", min=1, help="number of games"),
    seed: int = typer.Option(0, "--seed", help="seed of the first game; game k uses seed+k"),
    players: str = typer.Option(
        None,
        "--players",
        help=f"comma-separated player names, one per seat, or one for all (default: basic); {_BOTS}",
    ),
    record: Path = typer.Option(
        None, "--record", help="write one pedro-record/1 per line to this .jsonl file"
    ),
    max_hands: int = typer.Option(
        500, "--max-hands", min=1, help="stop a game unfinished after this many hands"
    ),
) -> None:
    """Play whole games between computer players and summarise them."""
    from pedro.cli import simulate_cmd

    raise typer.Exit(
        simulate_cmd.run(
            console,
            variant,
            option,
            games=games,
            seed=seed,
            players=players,
            record=record,
            max_hands=max_hands,
        )
    )


@app.command()
def tournament(
    variant: str = typer.Option("cinch", "--variant", "-v", help="variant id"),
    option: list[str] = typer.Option([], "--option", "-o", help="house rule NAME=VALUE (repeatable)"),
    players: str = typer.Option(
        None, "--players", help=f"the two players to compare, A,B, e.g. basic,random; {_BOTS}"
    ),
    deals: int = typer.Option(100, "--deals", "-n", help="duplicate deals; deal i uses seed+i"),
    seed: int = typer.Option(0, "--seed", help="seed of the first deal (and of the first game)"),
    jobs: int = typer.Option(
        1, "--jobs", "-j", help="local processes playing deals in parallel (CPUs of a local Ray instance)"
    ),
    games: int = typer.Option(0, "--games", help="also play this many duplicate whole games"),
    max_hands: int = typer.Option(500, "--max-hands", help="stop a game unfinished after this many hands"),
    out: Path = typer.Option(None, "--out", help="write the settings, summary and every deal as JSON"),
    plot: Path = typer.Option(
        None, "--plot", help="plot the running difference A − B to a .png, .svg or .pdf file"
    ),
    backend: str = typer.Option(
        "local", "--backend", help="local: processes on this machine; ray: a Ray cluster (the ray extra)"
    ),
    address: str = typer.Option(
        None, "--address", help="with --backend ray: the head node HOST:PORT, or auto (default: a local Ray)"
    ),
) -> None:
    """Compare two computer players over duplicate deals (same cards, sides swapped)."""
    from pedro.cli import tournament_cmd

    raise typer.Exit(
        tournament_cmd.run(
            console,
            variant,
            option,
            players=players,
            deals=deals,
            seed=seed,
            jobs=jobs,
            games=games,
            max_hands=max_hands,
            out=out,
            plot=plot,
            backend=backend,
            address=address,
        )
    )


@app.command()
def play(
    variant: str = typer.Option(None, "--variant", "-v", help="variant id (default: cinch)"),
    option: list[str] = typer.Option([], "--option", "-o", help="house rule NAME=VALUE (repeatable)"),
    players: str = typer.Option(
        None,
        "--players",
        help="computer players for the other seats (default: basic in each), e.g. expert,heuristic,expert, "
        "one for all (a strength level: beginner, club, strong, expert), "
        f"or one per seat with human at yours; {_BOTS}",
    ),
    seed: int = typer.Option(None, "--seed", help="seed for the deal (random if not given)"),
    save: Path = typer.Option(
        None,
        "--save",
        help="where to save the game record (default: a new file in the current folder; "
        "with --resume, the resumed file)",
    ),
    name: str = typer.Option(None, "--name", help="your name in the record (default: You)"),
    hints: bool = typer.Option(False, "--hints", help="type hint at a prompt for the expert's estimates"),
    resume: Path = typer.Option(
        None,
        "--resume",
        help="play on an unfinished game from its record (saved when you quit or press Ctrl-C), "
        "with the same variant, options, seats and players",
    ),
    lang: str = typer.Option(
        None,
        "--lang",
        help="the game's language: en, fi (suomi) or sv (svenska); default from LANGUAGE, LC_ALL or LANG",
    ),
) -> None:
    """Play a game in the terminal against computer players."""
    from pedro.cli import play_cmd

    raise typer.Exit(
        play_cmd.run(
            console,
            variant,
            option,
            players=players,
            seed=seed,
            save=save,
            name=name,
            hints=hints,
            resume=resume,
            lang=lang,
        )
    )


@app.command("build-web")
def build_web(
    folder: Path = typer.Argument(..., help="the folder to write the app into (new or empty)"),
    force: bool = typer.Option(False, "--force", help="replace what the folder holds"),
) -> None:
    """Write the offline app (Pyodide, pedro, the table UI) for a static host: docs/offline.md."""
    from pedro.cli import build_web_cmd

    raise typer.Exit(build_web_cmd.run(console, folder, force=force))


@app.command()
def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="address to listen on (0.0.0.0 for every interface)"
    ),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port to listen on"),
    database: str = typer.Option(
        None,
        "--database",
        envvar="PEDRO_DATABASE",
        help="SQLAlchemy URL: sqlite:///FILE or postgresql://USER:PASS@HOST/DB",
    ),
    away: float = typer.Option(
        ServerSettings.away_seconds, "--away", min=0,
        help="seconds before a computer plays for a disconnected player",
    ),
    bot_delay: float = typer.Option(
        ServerSettings.bot_delay, "--bot-delay", min=0, help="pause in seconds before each computer decision"
    ),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning or error"),
    turn_clocks: str = typer.Option(
        ",".join(f"{s:g}" for s in TurnClocks.lengths), "--turn-clocks",
        help="seconds per decision a table's creator may choose for its turn clock, comma-separated",
    ),
    tables_per_minute: int = typer.Option(
        Limits.tables_per_minute, "--tables-per-minute", min=1,
        help="tables one address may create in any minute",
    ),
    open_tables_per_client: int = typer.Option(
        Limits.open_tables_per_client, "--open-tables-per-client", min=1,
        help="unfinished tables one address may have created",
    ),
    computer_only_tables: int = typer.Option(
        Limits.computer_only_tables, "--computer-only-tables", min=0,
        help="unfinished tables without a human seat on the whole server (0: none)",
    ),
    max_expert_samples: int = typer.Option(
        Limits.max_expert_samples, "--max-expert-samples", min=1,
        help="strongest computer player allowed: expert:N with N at most this (the expert's own)",
    ),
    websockets_per_client: int = typer.Option(
        Limits.websockets_per_client, "--websockets-per-client", min=1,
        help="table connections (players and spectators) one address may have open at once",
    ),
    reviews_per_client: int = typer.Option(
        Limits.reviews_per_client, "--reviews-per-client", min=1,
        help="game reviews one address may have waiting or under way",
    ),
    reviews_queued: int = typer.Option(
        Limits.reviews_queued, "--reviews-queued", min=1,
        help="game reviews waiting or under way on the whole server",
    ),
    review_max_hands: int = typer.Option(
        Limits.review_max_hands, "--review-max-hands", min=1,
        help="hands a game may have to be reviewed (longer ones are refused)",
    ),
    chat_chars: int = typer.Option(
        Limits.chat_chars, "--chat-chars", min=1, max=500,
        help="characters of one chat message at a table",
    ),
    chat_messages: int = typer.Option(
        Limits.chat_messages, "--chat-messages", min=1,
        help="chat messages one person may send in --chat-seconds",
    ),
    chat_seconds: float = typer.Option(
        Limits.chat_seconds, "--chat-seconds", min=0.1,
        help="the window of seconds --chat-messages counts in",
    ),
    forwarded_allow_ips: str = typer.Option(
        None, "--forwarded-allow-ips",
        help="proxies whose X-Forwarded-For gives the client's address, comma-separated, * for any "
        "(default: $FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    ),
    log_format: str = typer.Option(
        "text", "--log-format", help="text, or json: one JSON object per line (for journald and collectors)"
    ),
    root_path: str = typer.Option(
        "", "--root-path", help="the URL path a reverse proxy serves pedro under, e.g. /pedro (it strips it)"
    ),
    proxy_headers: bool = typer.Option(
        True,
        "--proxy-headers/--no-proxy-headers",
        help="trust X-Forwarded-For/-Proto from the addresses of --forwarded-allow-ips",
    ),
    shutdown_timeout: float = typer.Option(
        ServerSettings.shutdown_timeout, "--shutdown-timeout", min=0,
        help="seconds a graceful stop (SIGTERM) waits for the clients",
    ),
    header_timeout: float = typer.Option(
        ServerSettings.header_timeout, "--header-timeout", min=0.1,
        help="seconds a request's headers may take to arrive before the connection is closed",
    ),
    keep_alive_timeout: int = typer.Option(
        ServerSettings.keep_alive_timeout, "--keep-alive-timeout", min=1,
        help="seconds an HTTP connection may stay idle between requests",
    ),
    idle_hours: float = typer.Option(
        ServerSettings.idle_seconds / 3600, "--idle-hours", min=0.01,
        help="an unfinished table with no move, no new player and nobody connected this long leaves "
        "the lobby and memory; its link still opens it and the game goes on",
    ),
    review_workers: int = typer.Option(
        ServerSettings.review_processes, "--review-workers", min=1,
        help="worker processes that make game reviews (each uses a core)",
    ),
    heartbeat_seconds: float = typer.Option(
        ServerSettings.heartbeat_seconds, "--heartbeat-seconds", min=0.1,
        help="PostgreSQL, several processes: seconds between a process's heartbeats",
    ),
    lease_seconds: float = typer.Option(
        ServerSettings.lease_seconds, "--lease-seconds", min=0.2,
        help="PostgreSQL, several processes: a process silent this long is taken for dead and its "
        "tables' computer players are taken over (at least twice --heartbeat-seconds)",
    ),
    start_workers: bool = typer.Option(
        ServerSettings.start_workers, "--start-workers/--no-start-workers",
        help="start the worker processes (replays, reviews, hints) with the server, so that no "
        "request waits for one to start; or each at its first job (less memory and start-up work "
        "where they are rarely needed)",
    ),
) -> None:  # fmt: skip
    """Serve the browser game: a lobby, tables with friends and computer players."""
    from pedro.cli import serve_cmd

    if lease_seconds < 2 * heartbeat_seconds:  # one late heartbeat must not make a live process dead
        raise typer.BadParameter(
            f"--lease-seconds {lease_seconds} is less than twice --heartbeat-seconds {heartbeat_seconds}"
        )
    limits = Limits(
        tables_per_minute=tables_per_minute,
        open_tables_per_client=open_tables_per_client,
        computer_only_tables=computer_only_tables,
        max_expert_samples=max_expert_samples,
        websockets_per_client=websockets_per_client,
        reviews_per_client=reviews_per_client,
        reviews_queued=reviews_queued,
        review_max_hands=review_max_hands,
        chat_chars=chat_chars,
        chat_messages=chat_messages,
        chat_seconds=chat_seconds,
    )

    settings = ServerSettings(
        database=database or "",  # empty: the user's own (serve_cmd.default_database)
        turn_clocks=TurnClocks(lengths=_clock_lengths(turn_clocks)),
        away_seconds=away,
        bot_delay=bot_delay,
        limits=limits,
        shutdown_timeout=shutdown_timeout,
        header_timeout=header_timeout,
        keep_alive_timeout=keep_alive_timeout,
        idle_seconds=idle_hours * 3600,
        review_processes=review_workers,
        start_workers=start_workers,
        heartbeat_seconds=heartbeat_seconds,
        lease_seconds=lease_seconds,
    )
    raise typer.Exit(
        serve_cmd.run(
            console,
            host=host,
            port=port,
            settings=settings,
            log_level=log_level,
            forwarded_allow_ips=forwarded_allow_ips,
            log_format=log_format,
            root_path=root_path,
            proxy_headers=proxy_headers,
        )
    )


def _clock_lengths(text: str) -> tuple[float, ...]:
    """``--turn-clocks``: "20,45,90" as seconds, each above 0 and at most an hour."""
    try:
        lengths = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"{text!r}: give seconds separated by commas, like 20,45,90") from None
    if not all(0 < s <= 3600 for s in lengths):
        raise typer.BadParameter(f"{text!r}: each clock is more than 0 and at most 3600 seconds")
    return lengths


def main() -> None:
    app()


if __name__ == "__main__":
    main()
