"""A tournament as everyone may see it: who sits where at each deal, the results shown, the standings.

Who holds which cards is ``pedro.tournament.duplicate.seatings``: an entrant (a pair, or a player
alone) stays at its table, and on odd deals the entrants of a table hold the next side's cards; the
matchpoints are that module's too. Here only the seats are mapped: the player of a seat at a
table's first deal (its *home* seat) sits, at a later deal, in the seat of the same place within the
side whose cards the entrant holds then. A deal's results are shown once every table has played it.
"""

from __future__ import annotations

from typing import Any

from pedro.players.levels import level_of
from pedro.server.tournaments.queries import TournamentRow, TournamentSeat
from pedro.tournament.duplicate import Seating, matchpoints, seatings
from pedro.variants.model import Ruleset
from pedro.variants.options import make_ruleset


def sides_of(rules: Ruleset) -> list[list[int]]:
    return rules.sides()


def home_seat(rules: Ruleset, seating: Seating, table_no: int, seat: int) -> int:
    """The home seat of the player who sits in ``seat`` at ``seating``'s deal: the entrant holding
    that seat's side, and the seat of the same place within the entrant's home side."""
    sides = sides_of(rules)
    side = rules.side_of(seat)
    entrant = seating.entrants[side]
    return sides[entrant - table_no * len(sides)][sides[side].index(seat)]


def entrant_of(rules: Ruleset, table_no: int, seat: int) -> int:
    """The entrant a home seat belongs to (``duplicate``'s numbering: ``table * sides + side``)."""
    return table_no * len(sides_of(rules)) + rules.side_of(seat)


def _seat_name(s: TournamentSeat) -> str:
    if s.kind == "computer":
        return f"{level_of(s.player or '')} computer"
    return s.name or f"Seat {s.seat + 1}"


def complete_deals(row: TournamentRow) -> set[int]:
    """The deals every table has played: their tables and results may be shown."""
    played: dict[int, int] = {}
    for d in row.played:
        if d.change is not None:
            played[d.deal] = played.get(d.deal, 0) + 1
    return {deal for deal, tables in played.items() if tables == row.tables}


def seating_of(row: TournamentRow, rules: Ruleset, table_no: int, deal: int) -> Seating:
    """Who holds which side's cards at ``table_no``'s ``deal``."""
    return seatings(row.tables, len(sides_of(rules)), row.deals)[deal * row.tables + table_no]


def summary(row: TournamentRow) -> dict[str, Any]:
    """The tournament as everyone may see it: seats, progress, the results of the deals every table
    has played (no other: their cards are still being played somewhere), and the standings."""
    rules = make_ruleset(row.variant, row.options)
    sides = sides_of(rules)
    seated = seatings(row.tables, len(sides), row.deals)
    changes = {(d.deal, d.table_no): d.change for d in row.played if d.change is not None}
    standings = matchpoints(seated, changes)
    names = {
        entrant_of(rules, t, side[0]): [_seat_name(_home(row, t, s)) for s in side]
        for t in range(row.tables)
        for side in sides
    }
    return {
        "id": row.id,
        "title": row.title,
        "variant": rules.id,
        "name": rules.name,
        "options": row.options,
        # the score its deal tables play to (a hand's score may reach it), shown with the rules
        "target": rules.target,
        "players": rules.players,
        "partnerships": rules.partnerships,
        "deals": row.deals,
        "tables": row.tables,
        # the seed gives every card of every deal: shown once every deal is played
        "seed": row.seed if row.finished else None,
        "created": row.created_at.isoformat(),
        "seats": _seats(row, rules),
        "free_seats": [[s.table_no, s.seat] for s in row.seats if not s.claimed],
        "entrants": [{"entrant": e, "names": n} for e, n in sorted(names.items())],
        "progress": [_progress(row, t) for t in range(row.tables)],
        "results": _results(row, seated, {s.entrant: s.per_deal for s in standings}),
        "standings": [
            {
                "entrant": s.entrant,
                "per_deal": list(s.per_deal),
                "total": s.total,
                "most": s.most,
                "share": s.share,
            }
            for s in standings
        ],
        "finished": row.finished,
    }


def _seats(row: TournamentRow, rules: Ruleset) -> list[list[dict[str, Any]]]:
    """Every table's seats: who sits there (a name only once claimed) and whose entrant it plays."""
    return [
        [
            {
                "seat": s.seat,
                "kind": s.kind,
                # a level's name, or the player's spec when it is no level (the page names it so)
                "level": level_of(s.player) if s.kind == "computer" and s.player else None,
                "name": _seat_name(s) if s.claimed else None,
                "claimed": s.claimed,
                "entrant": entrant_of(rules, t, s.seat),
            }
            for s in row.table_seats(t)
        ]
        for t in range(row.tables)
    ]


def _progress(row: TournamentRow, table_no: int) -> dict[str, Any]:
    """How far one table has come: deals played, and the deal it is on (None before or after)."""
    played_here = [d for d in row.played if d.table_no == table_no]
    done = sum(1 for d in played_here if d.change is not None)
    return {
        "table": table_no,
        "started": bool(played_here),
        "played": done,
        "deal": None if done == row.deals or not played_here else played_here[-1].deal,
    }


def _results(
    row: TournamentRow, seated: list[Seating], per_deal: dict[int, tuple[float, ...]]
) -> list[dict[str, Any]]:
    """Each deal's results, table by table: only for a deal every table has played."""
    shown = complete_deals(row)
    results = []
    for deal in range(row.deals):
        at_tables = sorted((d for d in row.played if d.deal == deal), key=lambda d: d.table_no)
        rows = []
        if deal in shown:
            for d in at_tables:
                seating = seated[deal * row.tables + d.table_no]
                assert d.change is not None
                rows.append(
                    {
                        "table": d.table_no,
                        "table_id": d.table_id,
                        "entrants": list(seating.entrants),
                        "change": list(d.change),
                        "matchpoints": [per_deal[e][deal] for e in seating.entrants],
                    }
                )
        played = [d.table_no for d in at_tables if d.change is not None]
        results.append({"deal": deal, "complete": deal in shown, "played": played, "tables": rows})
    return results


def _home(row: TournamentRow, table_no: int, seat: int) -> TournamentSeat:
    s = row.seat(table_no, seat)
    assert s is not None
    return s
