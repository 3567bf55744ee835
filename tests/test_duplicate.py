"""Duplicate tournaments for people, where the luck of the cards cancels: the seating and the matchpoints."""

from __future__ import annotations

from collections import Counter

import pytest

from pedro.tournament.duplicate import matchpoints, play_table, relative_change, seatings
from pedro.variants.options import make_ruleset


def test_every_entrant_plays_every_deal_once_and_holds_each_sides_cards_in_turn() -> None:
    for tables, sides in ((2, 2), (3, 2), (2, 4)):
        seated = seatings(tables, sides, deals=2 * sides)
        for deal in range(2 * sides):
            held = [e for s in seated if s.deal == deal for e in s.entrants]
            assert sorted(held) == list(range(tables * sides))
        holds = Counter((e, side) for s in seated for side, e in enumerate(s.entrants))
        assert set(holds.values()) == {2}, holds  # each entrant, each side, twice in 2 * sides deals
        # an entrant always sits with the same others at its table
        tables_of = {e: {s.table for s in seated if e in s.entrants} for e in range(tables * sides)}
        assert all(len(t) == 1 for t in tables_of.values())


def test_matchpoints_of_two_tables_by_hand() -> None:
    seated = seatings(tables=2, sides=2, deals=2)
    changes = {
        (0, 0): (5, 0),  # table 0: entrant 0 holds side 0 and gains 5
        (0, 1): (0, 3),  # table 1: the same cards, entrant 2 gains nothing, entrant 3 gains 3
        (1, 0): (-7, 4),  # deal 1, sides switched: entrant 1 holds side 0
        (1, 1): (-7, 4),  # the same result at the other table: ties
    }
    standings = {s.entrant: s for s in matchpoints(seated, changes)}
    # deal 0, side 0: entrant 0 (+5) beats entrant 2 (-3); side 1: entrant 3 (+3) beats entrant 1 (-5)
    # deal 1: every result ties its counterpart
    assert {e: s.per_deal for e, s in standings.items()} == {
        0: (2.0, 1.0), 1: (0.0, 1.0), 2: (0.0, 1.0), 3: (2.0, 1.0),
    }  # fmt: skip
    assert [s.entrant for s in matchpoints(seated, changes)] == [0, 3, 1, 2]
    assert standings[0].share == pytest.approx(0.75) and standings[1].share == pytest.approx(0.25)


def test_a_deal_not_yet_played_at_every_table_scores_nothing() -> None:
    seated = seatings(tables=2, sides=2, deals=2)
    standings = matchpoints(seated, {(0, 0): (5, 0), (0, 1): (0, 3), (1, 0): (1, 0)})
    assert all(s.per_deal[1] == 0.0 and s.most == 2.0 for s in standings)


def test_a_two_table_four_deal_tournament_of_computer_players() -> None:
    rules = make_ruleset("cinch")
    players = ["heuristic", "random", "basic", "random"]  # entrants: pairs 0 and 1 at table 0, 2 and 3 at 1
    seated = seatings(tables=2, sides=2, deals=4)
    changes = {(s.deal, s.table): play_table(rules, 100, s, players) for s in seated}
    standings = {s.entrant: s for s in matchpoints(seated, changes)}
    # by hand: on each deal and side, the entrants that held those cards at the two tables
    expected = {e: [0.0] * 4 for e in range(4)}
    for deal in range(4):
        first, second = (s for s in seated if s.deal == deal)
        for side in range(2):
            a = changes[(deal, first.table)][side] - changes[(deal, first.table)][1 - side]
            b = changes[(deal, second.table)][side] - changes[(deal, second.table)][1 - side]
            expected[first.entrants[side]][deal] = 2.0 if a > b else 1.0 if a == b else 0.0
            expected[second.entrants[side]][deal] = 2.0 if b > a else 1.0 if a == b else 0.0
    assert {e: list(s.per_deal) for e, s in standings.items()} == expected
    assert all(s.most == 8.0 for s in standings.values())
    # the same cards at both tables: with the same players in the same seats, the same result
    mirror = seatings(tables=2, sides=2, deals=1)
    assert play_table(rules, 100, mirror[0], players[:2] * 2) == play_table(
        rules, 100, mirror[1], players[:2] * 2
    )


def test_a_result_is_worth_its_gain_less_the_others_mean() -> None:
    assert relative_change([10, 4, 4, 1], side=0) == pytest.approx(7.0)
    assert relative_change([-9, 3], side=1) == pytest.approx(12.0)
