"""Where numpy is missing (Python compiled to WebAssembly in a browser), the engine, the records and
the computer players still import, and play the same games: numpy only speeds up the solver."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from tests.test_solver import positions as solver_positions

from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.solver import dispatch, solve
from pedro.variants.options import make_ruleset

#: the solver and the players are the same Python on both builds (CI's compiled run leaves them out)
pytestmark = pytest.mark.players

#: Plays the games of ``games`` in a Python without numpy and numba (imports of them fail) and
#: prints each game's final scores, with the expert's first card play of the first hand.
SCRIPT = """
import json, sys
sys.modules["numpy"] = None
sys.modules["numba"] = None
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.variants.options import make_ruleset
results = []
for variant, player, seed in json.loads(sys.argv[1]):
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(player, seed=f"{seed}-{s}") for s in range(rules.players)]
    while not state.is_over:
        state.apply(choose(seats[state.current_player], state))
    results.append(list(state.scores))
state = GameState(make_ruleset("cinch"), seed=1)
helper = make_player("basic", seed=0)
while state.phase != Phase.PLAY:
    state.apply(choose(helper, state))
expert = make_player("expert:2", seed=0)
print(json.dumps({"scores": results, "expert": choose(expert, state) in state.legal_actions(),
                  "numpy": "numpy" in sys.modules and sys.modules["numpy"] is not None}))
"""

GAMES = [("cinch", "basic", 3), ("pidro", "heuristic", 4), ("eighty_three", "basic", 5)]


def scores(variant: str, player: str, seed: int) -> list[int]:
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    seats = [make_player(player, seed=f"{seed}-{s}") for s in range(rules.players)]
    while not state.is_over:
        state.apply(choose(seats[state.current_player], state))
    return list(state.scores)


def test_without_the_kernel_auto_solves_with_the_python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve`` picks the Python search when the compiled one could not be imported; asking for the
    compiled one then says why it is missing."""
    positions = [state.play_position() for state in solver_positions("cinch", {}, 8, 4)]
    kernel = [solve(position) for position in positions]
    monkeypatch.setattr(dispatch, "fast", None)
    for position, expected in zip(positions, kernel, strict=True):
        result = solve(position)
        assert (result.value, set(result.best)) == (expected.value, set(expected.best))
    with pytest.raises(RuntimeError, match="needs numpy"):
        solve(positions[0], engine="kernel")


@pytest.mark.slow
def test_without_numpy_the_players_play_the_same_games() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(GAMES)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert not answer["numpy"] and answer["expert"]
    assert answer["scores"] == [scores(*game) for game in GAMES]
