"""Per-player summaries of a tournament, its JSON document and its plot.

The unit of variance is the duplicate deal: a player's value for a deal is
the mean of its two plays, and the difference A − B is taken deal by deal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pedro.tournament.runner import (
    LABELS,
    DealResult,
    Faults,
    GameResult,
    PlayRecord,
    TournamentResults,
    add_faults,
)
from pedro.tournament.stats import Estimate, estimate, running
from pedro.variants.options import OptionValue

#: The ``format`` of the JSON document.
FORMAT = "pedro-tournament/1"


@dataclass(frozen=True)
class PlayerSummary:
    """What the report says about one of the two players."""

    label: str
    name: str
    #: points taken per play of a deal
    points: Estimate
    #: score change per play of a deal
    change: Estimate
    bids_won: int
    made: int
    set: int
    avg_bid: float | None
    games_won: int
    #: decisions its bot programs left to the fallback player, by why (none for built-in players)
    faults: Faults = ()

    @property
    def fault_count(self) -> int:
        return sum(n for _, n in self.faults)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "name": self.name,
            "points_per_deal": self.points.to_json(),
            "change_per_deal": self.change.to_json(),
            "bids_won": self.bids_won,
            "bids_made": self.made,
            "bids_set": self.set,
            "avg_bid": self.avg_bid,
            "games_won": self.games_won,
            "faults": dict(self.faults),
        }


@dataclass(frozen=True)
class Summary:
    players: tuple[PlayerSummary, PlayerSummary]
    #: per deal, A's points minus B's
    points_diff: Estimate
    #: per deal, A's score change minus B's
    change_diff: Estimate
    deals: int
    thrown_in: int
    games: int
    unfinished: int

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "difference": {
                "points_per_deal": self.points_diff.to_json(),
                "change_per_deal": self.change_diff.to_json(),
            },
            "deals": self.deals,
            "plays_thrown_in": self.thrown_in,
            "games": self.games,
            "games_unfinished": self.unfinished,
        }


def points_diffs(deals: Sequence[DealResult]) -> list[float]:
    return [d.points(0) - d.points(1) for d in deals]


def change_diffs(deals: Sequence[DealResult]) -> list[float]:
    return [d.change(0) - d.change(1) for d in deals]


def summarise(players: Sequence[str], results: TournamentResults) -> Summary:
    """Means with 95% intervals, bids and games won per player, and the paired differences."""
    deals, games = results.deals, results.games
    plays = [play for d in deals for play in d.plays]
    a, b = (_player_summary(p, label, players[p], results, plays) for p, label in enumerate(LABELS))
    return Summary(
        players=(a, b),
        points_diff=estimate(points_diffs(deals)),
        change_diff=estimate(change_diffs(deals)),
        deals=len(deals),
        thrown_in=sum(1 for play in plays if play.bidder is None),
        games=len(games),
        unfinished=sum(1 for g in games for w in g.winners if w is None),
    )


def _player_summary(
    p: int, label: str, name: str, results: TournamentResults, plays: Sequence[PlayRecord]
) -> PlayerSummary:
    """Player ``p``'s means, bids, games won and faults over every deal and game."""
    deals, games = results.deals, results.games
    bids = [play for play in plays if play.bid_by == p]
    values = [play.bid for play in bids if play.bid is not None]
    return PlayerSummary(
        label=label,
        name=name,
        points=estimate([d.points(p) for d in deals]),
        change=estimate([d.change(p) for d in deals]),
        bids_won=len(bids),
        made=sum(1 for play in bids if play.made),
        set=sum(1 for play in bids if play.made is False),
        avg_bid=sum(values) / len(values) if values else None,
        games_won=sum(1 for g in games for w in g.winners if w == p),
        faults=add_faults(*(play.faults[p] for play in plays), *(g.faults[p] for g in games)),
    )


def pedro_version() -> str:
    try:
        return version("pedro")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def document(
    *,
    variant: str,
    options: Mapping[str, OptionValue],
    players: Sequence[str],
    seed: int,
    max_hands: int,
    summary: Summary,
    results: TournamentResults,
) -> dict[str, Any]:
    """The JSON document: settings, the per-player summary and one row per deal and game."""
    return {
        "format": FORMAT,
        "settings": {
            "variant": variant,
            "options": dict(options),
            "players": dict(zip(LABELS, players, strict=True)),
            "seed": seed,
            "deals": summary.deals,
            "games": summary.games,
            "max_hands": max_hands,
            "version": pedro_version(),
            "seating": "each deal twice: A in the even seats and B in the odd seats, then swapped",
        },
        "summary": summary.to_json(),
        "deals": [d.to_json() for d in results.deals],
        "games": [g.to_json() for g in results.games],
    }


class MergeError(ValueError):
    """Tournament documents that cannot be joined into one."""


def merge(docs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One document from the documents of several runs of the same match on different deals.

    A long match can so be played in parts (``--seed S --deals N``, then
    ``--seed S+N``, ...), on several machines or across interruptions: deal
    ``i`` of a run with seed ``S`` is the deal of seed ``S + i`` in any run, so
    the joined parts are the single run with the smallest seed, deal for deal.
    """
    if not docs:
        raise MergeError("no tournament documents to merge")
    first = docs[0]["settings"]
    same = ("variant", "options", "players", "max_hands")
    for doc in docs[1:]:
        for key in same:
            if doc["settings"][key] != first[key]:
                raise MergeError(f"cannot merge: {key} differs ({first[key]!r} and {doc['settings'][key]!r})")
    seed = min(doc["settings"]["seed"] for doc in docs)
    deals = sorted((d for doc in docs for d in doc["deals"]), key=lambda d: d["seed"])
    games = sorted((g for doc in docs for g in doc["games"]), key=lambda g: g["seed"])
    for rows, what in ((deals, "deal"), (games, "game")):
        seeds = [row["seed"] for row in rows]
        if len(set(seeds)) != len(seeds):
            raise MergeError(f"cannot merge: a {what} seed appears in more than one document")
    results = TournamentResults(
        deals=[DealResult.from_json(d, d["seed"] - seed) for d in deals],
        games=[GameResult.from_json(g, g["seed"] - seed) for g in games],
    )
    players = [first["players"][label] for label in LABELS]
    return document(
        variant=first["variant"],
        options=first["options"],
        players=players,
        seed=seed,
        max_hands=first["max_hands"],
        summary=summarise(players, results),
        results=results,
    )


def write_json(path: Path, doc: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


#: The plot's file formats, by the suffix of its name.
PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: Path) -> str | None:
    """``png``, ``svg`` or ``pdf`` from the suffix of ``path`` (any case); None for any other suffix."""
    return PLOT_FORMATS.get(path.suffix.lower())


def write_plot(path: Path, deals: Sequence[DealResult], players: Sequence[str], title: str) -> None:
    """The running mean of the paired differences (points, score change) with 95% bands.

    Written as PNG, SVG or PDF as the suffix of ``path`` says; raises ValueError for another suffix.
    """
    fmt = plot_format(path)
    if fmt is None:
        raise ValueError(f"a plot is written as {_plot_suffixes()}, chosen by the file's suffix; got {path}")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(8, 6), layout="constrained")
    axes = fig.subplots(2, 1, sharex=True)
    x = list(range(1, len(deals) + 1))
    for ax, diffs, what in (
        (axes[0], points_diffs(deals), "points"),
        (axes[1], change_diffs(deals), "score change"),
    ):
        run = running(diffs)
        means = [m for m, _ in run]
        low = [m - h if h is not None else m for m, h in run]
        high = [m + h if h is not None else m for m, h in run]
        ax.fill_between(x, low, high, alpha=0.3, label="95% confidence band")
        ax.plot(x, means, label=f"running mean of {what} A − B")
        ax.axhline(0.0, color="black", linewidth=0.8)
        ax.set_ylabel(f"{what} per deal, A − B")
        ax.legend(loc="best")
    axes[1].set_xlabel("deals")
    axes[1].xaxis.set_major_locator(MaxNLocator(integer=True))  # no "deal 1.5" on short runs
    fig.suptitle(f"{title}: A = {players[0]}, B = {players[1]}")
    fig.savefig(path, format=fmt, dpi=100)


def _plot_suffixes() -> str:
    names = list(PLOT_FORMATS)
    return ", ".join(names[:-1]) + f" or {names[-1]}"
