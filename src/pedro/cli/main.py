"""The ``pedro`` command: one typer app whose commands are thin wrappers.

Each command's work lives in its own module (``rules_cmd``, ``replay_cmd``,
``simulate_cmd``, ``play_cmd``) so it can be tested without a shell.
"""

from __future__ import annotations

import typer
from rich.console import Console

from pedro.cli.rules_cmd import show_options, show_rules, show_variants

app = typer.Typer(
    name="pedro",
    help="The Pedro family of card games: rules, records, simulations and a terminal game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()


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
) -> None:
    """Print a variant's rule sheet, generated from the rules data."""
    code = show_options(console, variant) if list_options else show_rules(console, variant, option, markdown=not plain)
    raise typer.Exit(code)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
