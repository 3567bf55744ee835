"""``pedro analyze``: every decision of a recorded game valued by the ``expert``.

Usage::

    pedro analyze game.json [--hand 3] [--seat 1] [--player expert:64] [--top 10] [--json]

The biggest mistakes come first, then every hand's decisions in order with
the value of each legal choice. Only what the deciding seat could see is
used, so a decision is judged as the player could have judged it. A bad
record is one message and exit status 1, as in ``pedro replay``. ``--seat`` counts seats
from 1, as people do (``--seat 1`` is the record's seat 0); ``run`` takes the record's
seat numbers, and ``--json`` gives them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pedro import terminal
from pedro.analysis import ChoiceEstimator, Decision, Review, biggest_mistakes, decisions, review
from pedro.cli.errors import BAD_DATA, USAGE_ERROR, report, said
from pedro.engine.actions import action_words
from pedro.engine.phases import Phase
from pedro.players import UnknownPlayerError, make_player
from pedro.records import ReplayError

_PHASE_WORDS = {Phase.AUCTION: "call", Phase.TRUMP: "trump", Phase.EXCHANGE: "exchange", Phase.PLAY: "play"}


def run(
    console: Console,
    path: Path,
    hands: Sequence[int] = (),
    player: str = "expert",
    seed: int = 0,
    top: int = 10,
    line: int | None = None,
    as_json: bool = False,
    err_console: Console | None = None,
    seats: Sequence[int] = (),
) -> int:
    errors = err_console if err_console is not None else Console(stderr=True)
    try:
        _estimator(player, seed)  # refuses a player without estimates before the record is read
        source = _record_source(Path(path), line)
        players = int(_record_field(source, "players"))
        wrong = [s for s in seats if not 0 <= s < players]
        if wrong:  # said as people count seats, from 1, as --seat takes them
            raise ValueError(f"--seat {wrong[0] + 1}: the game has seats 1 to {players}")
        found = decisions(source, hands or None, seats or None)
    except (UnknownPlayerError, ValueError) as exc:
        report(errors, said(exc))
        return BAD_DATA if isinstance(exc, ReplayError) else USAGE_ERROR
    if hands and not found:
        report(errors, f"the record has no hand {', '.join(map(str, hands))}")
        return USAGE_ERROR
    names = _names(source)
    with terminal.progress_bar(errors) as progress:
        task = progress.add_task("estimating", total=len(found))
        # a fresh estimator per hand and seat: values as the server's review of one seat gives them
        reviews = review(found, lambda: _estimator(player, seed), advance=lambda: progress.advance(task))
    if as_json:
        console.print(
            json.dumps(_json(reviews, player, names)), markup=False, highlight=False, soft_wrap=True
        )
        return 0
    _print(console, reviews, names, player, top)
    return 0


def _estimator(player: str, seed: int) -> ChoiceEstimator:
    candidate = make_player(player, seed)
    if not callable(getattr(candidate, "estimates", None)):
        raise UnknownPlayerError(f"player {player!r} gives no estimates; use expert or expert:N")
    return candidate  # type: ignore[return-value]


def _record_source(path: Path, line: int | None) -> str | Path:
    """The record to analyse: the file, or one line of a ``.jsonl`` file of records."""
    if path.suffix.lower() != ".jsonl":
        if line is not None:
            raise ValueError("--line is for .jsonl files of records (as written by pedro simulate --record)")
        return path
    try:
        lines = [text for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]
    except FileNotFoundError:
        raise ReplayError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"cannot read {path}: {exc}") from None
    if line is None:
        if len(lines) != 1:
            raise ValueError(f"{path} holds {len(lines)} records; choose one with --line 1..{len(lines)}")
        line = 1
    if not 1 <= line <= len(lines):
        raise ValueError(f"--line {line}: {path} holds {len(lines)} records (1..{len(lines)})")
    return lines[line - 1]


def _names(source: str | Path) -> list[str]:
    return list(_record_field(source, "names"))


def _record_field(source: str | Path, key: str) -> Any:
    """A field of the record, once ``decisions`` or ``read_record`` checked it (ReplayError if bad)."""
    from pedro.records import read_record

    return read_record(source)[key]


def _choice(decision: Decision, action: int) -> str:
    return action_words(action, decision.obs.rules.max_bid, pretty=True)


def _markup(decision: Decision, action: int) -> str:
    rules = decision.obs.rules
    return terminal.action_markup(action, rules, terminal.tables_of(rules, decision.obs))


def _value(value: float, unit: str) -> str:
    return f"{value:+.2f}" if unit == "score" else f"{value:.2f}"


def _print(console: Console, reviews: list[Review], names: Sequence[str], player: str, top: int) -> None:
    _print_counts(console, reviews, player)
    _print_mistakes(console, reviews, names, top)
    hand = 0
    for r in reviews:
        if r.decision.hand != hand:
            hand = r.decision.hand
            console.print(f"\n[bold]Hand {hand}[/]")
        console.print(_decision_line(r, names))


def _print_counts(console: Console, reviews: list[Review], player: str) -> None:
    """How many decisions were valued, and in what; a count of none is left out."""
    console.print(counts_line(reviews, player))
    console.print(
        "[dim]Values: for plays and the exchange, the points the side takes in the hand; "
        "for calls, the expected change of the side's score.[/]"
    )


def counts_line(reviews: Sequence[Review], player: str) -> str:
    """``40 decisions with a choice: 38 with every choice valued by expert, 2 with some``."""
    every = sum(1 for r in reviews if r.estimates is not None and r.estimates.values and r.estimates.complete)
    some = sum(
        1 for r in reviews if r.estimates is not None and r.estimates.values and not r.estimates.complete
    )
    none = len(reviews) - every - some
    parts = [
        f"[bold]{count}[/] {words}"
        for count, words in (
            (every, f"with every choice valued by {escape(player)}"),
            (some, "with some choices valued"),
            (none, "not valued"),
        )
        if count
    ]
    head = f"[bold]{len(reviews)}[/] decision{'' if len(reviews) == 1 else 's'} with a choice"
    return head + (": " + ", ".join(parts) if parts else "")


def _print_mistakes(console: Console, reviews: list[Review], names: Sequence[str], top: int) -> None:
    """The ``top`` costliest decisions, as a table."""
    mistakes = biggest_mistakes(reviews, top)
    if not mistakes:
        console.print("No decision cost anything by these estimates.")
        return
    table = Table(title="Biggest mistakes", box=box.SIMPLE_HEAD, title_justify="left")
    for col in ("hand", "#", "who", "chose", "best", "cost"):
        table.add_column(col, justify="right" if col in ("hand", "#", "cost") else "left")
    for r in mistakes:
        d, est = r.decision, r.estimates
        assert est is not None
        best_action = est.ranked()[0][0]
        who = escape(names[d.seat])
        chose, best = _markup(d, d.action), _markup(d, best_action)
        table.add_row(str(d.hand), str(d.number), who, chose, best, f"{r.cost:.2f}")
    console.print(table)


def _decision_line(r: Review, names: Sequence[str]) -> str:
    """One decision: who chose what, the verdict, and the best-valued choices."""
    d, est = r.decision, r.estimates
    chose = _markup(d, d.action)
    head = f"  {d.number:>3}. {escape(names[d.seat])} ({_PHASE_WORDS.get(d.phase, '?')}) {chose}"
    if est is None or not est.values:
        why = f": {escape(est.why)}" if est is not None and est.why else ""
        return f"{head}  [dim](not valued{why})[/]"
    cost, verdict = r.cost, r.verdict
    if cost is None:
        mark = f"[dim]{verdict}[/]"
    else:
        mark = f"[red]{verdict}[/]" if cost > 1e-9 else f"[green]{verdict}[/]"
    options = ", ".join(f"{_markup(d, a)} {_value(v, est.unit)}" for a, v in est.ranked()[:8])
    more = f" … {len(est.values) - 8} more" if len(est.values) > 8 else ""
    note = f"  [yellow]({escape(est.note())})[/]" if not est.complete else ""
    return f"{head}  {mark}  [dim]{options}{more}[/]{note}"


def _json(reviews: list[Review], player: str, names: Sequence[str]) -> dict[str, Any]:
    rows = []
    for r in reviews:
        d, est = r.decision, r.estimates
        rows.append(
            {
                "hand": d.hand,
                "number": d.number,
                "seat": d.seat,
                "name": names[d.seat],
                "phase": _PHASE_WORDS.get(d.phase, str(d.phase)),
                "action": _choice(d, d.action),
                "unit": est.unit if est else None,
                "choices": [{"action": _choice(d, a), "value": v} for a, v in est.ranked()] if est else None,
                "legal": est.legal if est else None,
                "not_valued": est.note() if est and not est.complete else None,
                "cost": r.cost,
                "verdict": r.verdict,
            }
        )
    return {"format": "pedro-analysis/1", "player": player, "decisions": rows}
