"""Seeded games and decisions of the computer players, pinned by a hash.

The players are built from parts (a bidder, an exchanger, a card player): a
change of how they are put together must not change a single decision. Two
pins guard it:

* whole games, every seat one player (each level and each ``expert``
  setting), a few hands each, hashed by their record;
* the expert's decisions where a game rarely shows them (its own exchange
  and calls against ``heuristic``'s): at each auction, trump and exchange
  decision of a seeded ``heuristic`` game, a new expert is asked for its
  choice and for what it thinks each choice is worth (``estimates``).

A change of play on purpose changes a pin: print the new ones with
``PYTHONPATH=src:. python tests/test_player_fingerprints.py`` and say in the
commit why. The expert's solver compiles on first use (some 15 s, cached).
"""

from __future__ import annotations

import hashlib

import orjson
import pytest

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import choose, make_player
from pedro.players.games import play_game
from pedro.records import record_from_game
from pedro.variants.catalog import VARIANTS

SEED = 7
#: The players pinned, each in the variants it is pinned in, with the hands its games last: as few as
#: reach the branches of the player a longer game reaches (an expert's hand costs seconds).
GAMES: dict[str, tuple[tuple[str, int], ...]] = {
    "basic": (("cinch", 4), ("pidro", 4), ("eighty_three", 4), ("king_pedro", 4), ("pedro_sancho", 4)),
    "heuristic": (("cinch", 4), ("pidro", 4), ("eighty_three", 1), ("king_pedro", 4), ("pedro_sancho", 4)),
    "strong": (("cinch", 3), ("pidro", 3), ("king_pedro_canadian", 3), ("pedro_sancho", 3)),
    "expert:3": (("cinch", 2), ("pidro", 3), ("eighty_three", 1), ("king_pedro", 2), ("pedro_sancho", 2)),
    # strong is this setting by another name: its games above are this setting's in those variants
    "expert:3:bid=heuristic": (("eighty_three", 2), ("king_pedro", 1)),
    # where the exchange is a forced discard (cinch, pidro) this setting plays as expert:3
    "expert:3:exchange=heuristic": (("king_pedro_canadian", 3),),
}
#: The variants whose decisions are pinned, and the hands of the ``heuristic`` game they come from.
DECISIONS: tuple[tuple[str, int], ...] = (
    ("cinch", 1),
    ("pidro", 2),
    ("king_pedro_canadian", 2),
    ("pedro_sancho", 1),
)


def game_fingerprint(spec: str, variant: str, hands: int) -> str:
    rules = VARIANTS[variant]
    state = play_game(rules, [spec] * rules.players, SEED, hands)
    return hashlib.sha256(orjson.dumps(record_from_game(state), option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


#: Who is asked at each kind of decision: the expert, and the setting that gives that decision to
#: ``heuristic``'s part (the other setting decides it as the expert does: the games above pin that).
ASKED: dict[int, tuple[str, str]] = {
    Phase.AUCTION: ("expert:3", "expert:3:bid=heuristic"),
    Phase.TRUMP: ("expert:3", "expert:3:bid=heuristic"),
    Phase.EXCHANGE: ("expert:3", "expert:3:exchange=heuristic"),
}


def decisions_fingerprint(variant: str, hands: int) -> str:
    rules = VARIANTS[variant]
    state = GameState(rules, seed=SEED)
    table = [make_player("heuristic", SEED * 16 + s) for s in range(rules.players)]
    digest = hashlib.sha256()
    asked = 0
    while not state.is_over and len(state.results) < hands:
        seat = state.current_player
        obs = state.observation(seat)
        legal = obs.legal
        several = legal is not None and (not isinstance(legal, tuple) or len(legal) > 1)
        if obs.phase in ASKED and several:
            for spec in ASKED[obs.phase]:
                expert = make_player(spec, f"pin:{asked}")
                action = expert.act(obs)
                estimates = expert.estimates(obs)  # type: ignore[attr-defined]
                values = sorted((a, round(v, 6)) for a, v in estimates.values.items()) if estimates else []
                why = estimates.why if estimates else ""
                digest.update(repr((spec, seat, action, values, why)).encode())
            asked += 1
        state.apply(choose(table[seat], state))
    digest.update(str(asked).encode())
    return digest.hexdigest()[:16]


#: Each game's player, variant and hash.
_GAME_PINS = """
basic cinch 4b0e0784aa127ab8
basic pidro 3cb56784a0d0fc3c
basic eighty_three 7db99a3da0125fd3
basic king_pedro 72ff460be6f167ae
basic pedro_sancho 8b17cf8ed5ac8271
heuristic cinch 35cb2ff0a3832c47
heuristic pidro 0ac5c6f0cadc34f1
heuristic eighty_three f2b7761a6cf2b0db
heuristic king_pedro 41c188260d0c5c5c
heuristic pedro_sancho 4a6d42e1d1e595f6
strong cinch 7d1a3ef6d55312dc
strong pidro f95f572f7df1dc3f
strong king_pedro_canadian 58063e722d938819
strong pedro_sancho a0a3341687dd2838
expert:3 cinch 36408c0088618601
expert:3 pidro add9ed71eec77a9e
expert:3 eighty_three 886afcb691218491
expert:3 king_pedro 2bf9c7b29296b6ae
expert:3 pedro_sancho 0bf179ac4a6f73b9
expert:3:bid=heuristic eighty_three 7ef83463fa08d06b
expert:3:bid=heuristic king_pedro dda9cdf60db3f258
expert:3:exchange=heuristic king_pedro_canadian 42e8b5d4556f1af4
"""
#: Each variant's decisions' hash.
_DECISION_PINS = """
cinch 5aff7ba96a1c9620
pidro f14afedeff896e5c
king_pedro_canadian ee0a39813a5c6b3c
pedro_sancho 360e5abf820495ba
"""


def _game_pins() -> dict[tuple[str, str], str]:
    lines = [line.split() for line in _GAME_PINS.strip().splitlines()]
    return {(spec, variant): pin for spec, variant, pin in lines}


def _decision_pins() -> dict[str, str]:
    words = _DECISION_PINS.split()
    return {words[i]: words[i + 1] for i in range(0, len(words), 2)}


def _marks(spec: str, variant: str) -> tuple[pytest.MarkDecorator, ...]:
    """The expert's games search for seconds a decision: slow, and left out of CI's compiled run
    (the engine's share of them is what the other games check on both builds). ``heuristic``'s
    calls in 83's long auction simulate for seconds: slow."""
    if spec.startswith(("expert", "strong")):
        return (pytest.mark.slow, pytest.mark.players)
    return (pytest.mark.slow,) if (spec, variant) == ("heuristic", "eighty_three") else ()


@pytest.mark.parametrize(
    ("spec", "variant", "hands"),
    [pytest.param(s, v, h, marks=_marks(s, v)) for s, g in GAMES.items() for v, h in g],
)
def test_seeded_games_of_each_player_are_the_same_as_pinned(spec: str, variant: str, hands: int) -> None:
    assert game_fingerprint(spec, variant, hands) == _game_pins()[spec, variant]


@pytest.mark.slow
@pytest.mark.players
@pytest.mark.parametrize(("variant", "hands"), DECISIONS)
def test_the_experts_calls_trumps_and_exchanges_are_the_same_as_pinned(variant: str, hands: int) -> None:
    assert decisions_fingerprint(variant, hands) == _decision_pins()[variant]


if __name__ == "__main__":
    for spec, games in GAMES.items():
        print(spec, " ".join(f"{v} {game_fingerprint(spec, v, h)}" for v, h in games), flush=True)
    print(" ".join(f"{v} {decisions_fingerprint(v, h)}" for v, h in DECISIONS))
