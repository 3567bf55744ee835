"""Duplicate tournaments for people: the same deals at every table, each result compared across tables.

As in duplicate bridge, the luck of the cards cancels: every table plays the
same deals (deal ``i`` is the first hand of ``GameState(rules, seed=seed + i)``,
the deals of ``pedro tournament``), and a result is compared only with the
results of the same cards at the other tables.

An *entrant* is one side of the variant: two partners, or a player alone. A
table seats one entrant per side. The seating is stationary with the sides
switched each deal: on even deals entrant ``t * sides + k`` holds side ``k``'s
cards at table ``t``; on odd deals the entrants of a table hold the next side's
cards (in a partnership game the two pairs swap cards). So every entrant holds
each side's cards in turn and is compared, on every deal, with the entrants that
held the same cards at the other tables.

*Matchpoints* per deal, as bridge scores them: among the results of the same
cards, a result scores 2 for each one it beats and 1 for each it ties (in a
score change, the points its side gained less the others' mean, so that
scoring that gives everyone points compares fairly). The total over the deals,
and its share of the most possible, rank the entrants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pedro.tournament.runner import play_hands
from pedro.variants.model import Ruleset


@dataclass(frozen=True)
class Seating:
    """Who holds which side's cards at one table for one deal: ``entrants[side]``."""

    deal: int
    table: int
    entrants: tuple[int, ...]


def seatings(tables: int, sides: int, deals: int) -> list[Seating]:
    """Every table's seating for every deal (``tables * sides`` entrants, numbered from 0).

    >>> [s.entrants for s in seatings(tables=2, sides=2, deals=2)]
    [(0, 1), (2, 3), (1, 0), (3, 2)]
    """
    if tables < 1 or sides < 2 or deals < 1:
        raise ValueError(f"need a table, two sides and a deal (got {tables}, {sides}, {deals})")
    out = []
    for deal in range(deals):
        shift = deal % sides
        for table in range(tables):
            home = [table * sides + k for k in range(sides)]
            out.append(Seating(deal, table, tuple(home[(k - shift) % sides] for k in range(sides))))
    return out


@dataclass(frozen=True)
class Standing:
    """An entrant's matchpoints: per deal, the total, and the share of the most possible."""

    entrant: int
    per_deal: tuple[float, ...]
    total: float
    most: float

    @property
    def share(self) -> float:
        return self.total / self.most if self.most else 0.0


def relative_change(changes: Sequence[int], side: int) -> float:
    """A side's score change less the mean of the other sides': what a result is worth to it."""
    others = [c for s, c in enumerate(changes) if s != side]
    return changes[side] - sum(others) / len(others)


def matchpoints(
    seated: Sequence[Seating], changes: Mapping[tuple[int, int], Sequence[int]]
) -> list[Standing]:
    """Each entrant's standing, best first, from every table's score change per side on every deal
    (``changes[(deal, table)]``, indexed by side). A deal not yet played at every table scores
    nothing for anyone (its results cannot be compared yet)."""
    entrants = sorted({e for s in seated for e in s.entrants})
    deals = sorted({s.deal for s in seated})
    points = {e: [0.0] * len(deals) for e in entrants}
    most = dict.fromkeys(entrants, 0.0)
    for i, deal in enumerate(deals):
        at_tables = [s for s in seated if s.deal == deal]
        if any((deal, s.table) not in changes for s in at_tables):
            continue
        sides = len(at_tables[0].entrants)
        for side in range(sides):
            results = [(s.entrants[side], relative_change(changes[(deal, s.table)], side)) for s in at_tables]
            for entrant, value in results:
                others = [v for e, v in results if e != entrant]
                points[entrant][i] += sum(2.0 if value > v else 1.0 if value == v else 0.0 for v in others)
                most[entrant] += 2.0 * len(others)
    standings = [Standing(e, tuple(points[e]), sum(points[e]), most[e]) for e in entrants]
    return sorted(standings, key=lambda s: (-s.share, s.entrant))


def play_table(rules: Ruleset, seed: int, seating: Seating, players: Sequence[str]) -> tuple[int, ...]:
    """The score change per side when the computer ``players[entrant]`` play one table's deal: the
    first hand of ``GameState(rules, seed=seed + deal)``, each side's seats held by its entrant."""
    names = [players[seating.entrants[rules.side_of(seat)]] for seat in range(rules.players)]
    state = play_hands(rules, names, seed + seating.deal, max_hands=1)
    return tuple(state.results[0].change)
