"""Writes the golden records that tests/test_golden_records.py replays: whole games of the
``basic`` player from fixed seeds, two per variant and a few with house rules.

Run it only for a deliberate change of the rules, then pin the printed results in the test::

    python tests/golden/make_records.py
"""

from __future__ import annotations

from pathlib import Path

from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.records import record_from_game, write_record
from pedro.variants.options import make_ruleset

RECORDS = Path(__file__).parent / "records"

#: (variant, options, seed): the seeds give short games (the shortest of the first dozen).
GAMES: list[tuple[str, dict[str, object], int]] = [
    ("cinch", {}, 6),
    ("cinch", {}, 0),
    ("pidro", {}, 6),
    ("pidro", {}, 0),
    ("nicaragua", {}, 4),
    ("nicaragua", {}, 5),
    ("pitch_fives", {}, 0),
    ("pitch_fives", {}, 1),
    ("pedro_sancho", {}, 0),
    ("pedro_sancho", {}, 3),
    ("dom_pedro", {}, 4),
    ("dom_pedro", {}, 11),
    ("king_pedro", {}, 5),
    ("king_pedro", {}, 0),
    ("king_pedro_canadian", {}, 2),
    ("king_pedro_canadian", {}, 6),
    ("sixty_three", {}, 4),
    ("sixty_three", {}, 6),
    ("eighty_three", {}, 0),
    ("eighty_three", {}, 1),
    ("piedro_jokers", {}, 6),
    ("piedro_jokers", {}, 9),
    ("petro_russian", {}, 1),
    ("petro_russian", {}, 7),
    ("cinch", {"scoring": "difference", "min_bid": 6}, 6),
    ("king_pedro", {"target": 150, "lose_at": None}, 2),
    ("pedro_sancho", {"players": 6, "deal_all_out": True}, 7),
    ("eighty_three", {"joker": False, "low_rule": "holder"}, 5),
    ("petro_russian", {"fives_rank": "standard", "plain_honours_score": True}, 9),
]


def file_name(variant: str, options: dict[str, object], seed: int) -> str:
    house = "-house" if options else ""
    return f"{variant}{house}-seed{seed}.json"


def play(variant: str, options: dict[str, object], seed: int) -> GameState:
    """A whole game of basic players; the deal and every player's choices follow from ``seed``."""
    rules = make_ruleset(variant, options)
    state = GameState(rules, seed=seed)
    players = [make_player("basic", seed=f"{seed}-{s}") for s in range(rules.players)]
    while not state.is_over:
        state.apply(choose(players[state.current_player], state))
    return state


def main() -> None:
    for variant, options, seed in GAMES:
        state = play(variant, options, seed)
        name = file_name(variant, options, seed)
        write_record(record_from_game(state), RECORDS / name)
        print(f'    "{name}": ({len(state.results)}, {state.scores}, {state.winner}),')


if __name__ == "__main__":
    main()
