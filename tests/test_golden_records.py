"""Golden records: whole games (tests/golden/records, written by tests/golden/make_records.py)
replayed by the engine, with how many hands they took, their final scores and winner pinned here.

A change of the rules' behaviour shows as a refused action or a different score; a
deliberate change regenerates the records and these pins together.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pedro.records import read_record, record_from_game, replay

RECORDS = Path(__file__).parent / "golden" / "records"

#: file: (hands played, final score of each side, winning side)
PINNED: dict[str, tuple[int, list[int], int]] = {
    "cinch-seed6.json": (6, [-12, 65], 1),
    "cinch-seed0.json": (7, [-12, 66], 1),
    "pidro-seed6.json": (6, [-7, 64], 1),
    "pidro-seed0.json": (7, [-12, 67], 1),
    "nicaragua-seed4.json": (5, [55, 15], 0),
    "nicaragua-seed5.json": (6, [52, 23], 0),
    "pitch_fives-seed0.json": (5, [1, 31], 1),
    "pitch_fives-seed1.json": (5, [-3, 31], 1),
    "pedro_sancho-seed0.json": (22, [43, 54, 55, 108], 3),
    "pedro_sancho-seed3.json": (22, [85, 28, 59, 103], 3),
    "dom_pedro-seed4.json": (11, [21, 38, 69, 100], 3),
    "dom_pedro-seed11.json": (11, [34, 58, 20, 100], 3),
    "king_pedro-seed5.json": (8, [210, 98], 0),
    "king_pedro-seed0.json": (9, [101, 207], 1),
    "king_pedro_canadian-seed2.json": (6, [106, 266], 1),
    "king_pedro_canadian-seed6.json": (6, [272, 100], 0),
    "sixty_three-seed4.json": (3, [155, 34], 0),
    "sixty_three-seed6.json": (3, [160, 29], 0),
    "eighty_three-seed0.json": (4, [110, 222], 1),
    "eighty_three-seed1.json": (4, [33, 203], 1),
    "piedro_jokers-seed6.json": (5, [-24, 63], 1),
    "piedro_jokers-seed9.json": (5, [12, 62], 1),
    "petro_russian-seed1.json": (16, [36, -1, 69, 46], 2),
    "petro_russian-seed7.json": (18, [65, 11, 49, 56], 0),
    "cinch-house-seed6.json": (4, [0, 62], 1),
    "king_pedro-house-seed2.json": (6, [80, 184], 1),
    "pedro_sancho-house-seed7.json": (16, [56, 105, 24, 30, 41, 9], 1),
    "eighty_three-house-seed5.json": (3, [220, 29], 0),
    "petro_russian-house-seed9.json": (8, [22, 62, 2, 27], 1),
}


def test_every_golden_record_is_pinned() -> None:
    assert sorted(p.name for p in RECORDS.glob("*.json")) == sorted(PINNED)


@pytest.mark.parametrize("name", sorted(PINNED))
def test_golden_record_replays_to_its_pinned_end(name: str) -> None:
    hands, scores, winner = PINNED[name]
    result = replay(RECORDS / name)
    assert result.finished
    assert (len(result.results), result.state.scores, result.winner) == (hands, tuple(scores), winner)
    assert list(result.results[-1].score) == scores
    # the rebuilt game writes back the record it was read from
    assert record_from_game(result.state, result.names) == read_record(RECORDS / name)
