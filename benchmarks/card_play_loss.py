"""Card-play quality on fixed positions: how many points each player's choice gives up.

Positions are every card play with a choice that matters (not every legal
play has the same value) in games between ``heuristic`` players (``--table
A,B``: A's positions in games of A's side against B). A choice's
loss is how many points it gives up against the best play, both valued with
perfect play afterwards in the true deal (the exact solver); the
``omniscient`` player loses nothing by definition. Every player is asked on
the same positions, so the differences between players are paired and their
intervals narrow: a few hundred positions separate settings that a
tournament would need thousands of deals to tell apart.

    python benchmarks/card_play_loss.py --variant pidro --deals 150 --players heuristic expert:40 expert
    python benchmarks/card_play_loss.py --variant eighty_three --players heuristic expert:40/noread expert
    python benchmarks/card_play_loss.py --variant cinch --measure score --players heuristic expert

A player is any name ``pedro`` accepts; ``/noread`` turns off the expert's
reading of the opponents' play, ``/nodesN`` sets its cap on the solver's nodes
per decision (``/nodes0``: no cap), ``/worldsN`` and ``/solvesN`` its worlds
and its cap on solves per decision (``/solves0``: no cap); flags combine
(``expert/nodes0/noread``). ``--measure score`` counts a loss
in score (the seat's side's score change less the others', the game's end
included, as the expert's calls count it) instead of points. The share
printed is how much of the first player's loss each player removes.

``--ceiling N`` compares the players with the expert's own picture of the
hidden hands: at each position N worlds, drawn and weighed as the expert
weighs them, every play solved in each. A player's loss on those worlds is
the weighted mean of what its choice gives up to the best play of each world;
the least loss any one choice has there (the value of seeing the cards, for
this choice) is printed as "the best choice on those worlds". If the picture
were the truth, a player's loss there and its measured loss would agree on
average, and no honest player could lose less than that least loss: a
player near it is at the ceiling its picture allows, and only a truer
picture can lift it. With ``--ceiling`` every play with a choice is kept,
also those where no choice loses in the true deal (the picture cannot know
which those are); the means per deal, and so the shares, are unchanged.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import Player, choose, make_player
from pedro.players.card_search import SolvingCardPlayer, play_classes
from pedro.players.expert import ExpertPlayer
from pedro.players.sampling import World, replay
from pedro.players.solved_worlds import world_values
from pedro.variants.options import make_ruleset

Position = tuple[Observation, dict[int, float]]


def positions(
    variant: str,
    deals: int,
    seed: int,
    score: bool = False,
    table: Sequence[str] = ("heuristic",),
    every: bool = False,
) -> list[Position]:
    """Each card play with a choice that matters, and each legal play's loss in points (or score).

    ``table`` names who plays the games: one player at every seat, or two, the first for the
    side of seat 0 (whose positions alone are kept) and the second for the others. ``every``
    keeps the plays whose choice does not matter in the true deal too: a picture of the hidden
    hands cannot know that, so its losses are compared on every choice (``--ceiling``).
    """
    rules = make_ruleset(variant, {})
    out: list[Position] = []
    ours, theirs = table[0], table[-1]
    for deal in range(deals):
        state = GameState(rules, seed=seed + deal)
        names = [ours if rules.side_of(s) == rules.side_of(0) else theirs for s in range(rules.players)]
        players = [make_player(name, (seed + deal) * 16 + s) for s, name in enumerate(names)]
        while not state.results:
            seat = state.current_player
            kept = len(table) == 1 or names[seat] == ours
            if kept and state.phase == Phase.PLAY and len(state.legal_actions()) > 1:
                loss = _losses(state, seat, score)
                if loss is not None and (every or any(loss.values())):
                    out.append((state.observation(seat), loss))
            state.apply(choose(players[seat], state))
    return out


def _losses(state: GameState, seat: int, score: bool) -> dict[int, float] | None:
    """What each legal play gives up for the seat's side, with perfect play afterwards in the true
    deal (None when a play ends the hand)."""
    legal = state.legal_actions()
    for action in legal:
        after = state.clone()
        after.apply(action)
        if after.phase != Phase.PLAY or after.results:
            return None
    obs = state.observation(seat)
    machine = replay(obs, tuple(state.hands))
    assert machine is not None
    values = world_values(obs, World(tuple(state.hands), 1.0, machine), list(legal), score)
    best = max(values.values())
    return {a: best - v for a, v in values.items()}


def expected_losses(obs: Observation, worlds: int, score: bool) -> dict[int, float]:
    """Each legal play's loss in ``worlds`` of the expert's weighed worlds, their weighted mean
    (the module docstring's ``--ceiling``)."""
    legal = list(obs.legal or ())
    reps = play_classes(obs, legal)
    distinct = sorted(set(reps.values()))
    rng = random.Random(f"ceiling:{obs.hand_index}:{len(obs.tricks)}:{obs.seat}:{legal}")
    seen = [
        (weight, world_values(obs, world, distinct, score))
        for world, weight in ExpertPlayer("card-play-loss").card_player.weighed_worlds(obs, worlds, rng)
    ]
    total = sum(weight for weight, _ in seen) or 1.0
    lost = {
        a: sum(weight * (max(values.values()) - values[a]) for weight, values in seen) / total
        for a in distinct
    }
    return {a: lost[reps[a]] for a in legal}


def player(spec: str) -> Player:
    name, *flags = spec.split("/")
    made = make_player(name, "card-play-loss")
    if not flags:
        return made
    if not isinstance(made, ExpertPlayer):
        raise SystemExit(f"/{flags[0]} applies to the expert only, got {spec!r}")
    config = made.card_player.config
    for flag in flags:
        config = replace(config, **_setting(flag, spec))
    # the positions are card plays: the expert's card player with the settings, its other parts kept
    made.card_player = SolvingCardPlayer(made.shared, config, made.card_player.fallback)
    return made


def _setting(flag: str, spec: str) -> dict[str, Any]:
    """One ``/flag`` of ``spec``: the expert's settings it changes (module docstring)."""
    if flag == "noread":
        return {"read_play": False}
    if flag.startswith("nodes") and flag[5:].isdigit():
        return {"max_nodes": int(flag[5:]) or None}
    if flag.startswith("worlds") and flag[6:].isdigit():
        return {"samples": int(flag[6:])}
    if flag.startswith("solves") and flag[6:].isdigit():
        return {"max_solves": int(flag[6:]) or None}
    if flag:
        raise SystemExit(
            f"unknown flag {flag!r} in {spec!r}; the flags are /noread, /nodesN (0: no cap), /worldsN"
            " and /solvesN (0: no cap)"
        )
    return {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="pidro")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5001)
    parser.add_argument("--players", nargs="+", default=["heuristic", "expert:40/noread", "expert"])
    parser.add_argument(
        "--measure", choices=["points", "score"], default="points", help="what a loss is counted in"
    )
    parser.add_argument(
        "--table",
        default="heuristic",
        help="who plays the games the positions come from: one player at every seat, or A,B: A "
        "for the side of seat 0, whose positions alone are kept, and B for the others",
    )
    parser.add_argument(
        "--ceiling",
        type=int,
        default=0,
        metavar="N",
        help="also the loss no choice avoids on N of the expert's weighed worlds (0: not shown)",
    )
    args = parser.parse_args()
    table = args.table.split(",")
    if len(table) > 2:
        raise SystemExit(f"--table takes one player or two (A,B), got {args.table!r}")
    start = time.perf_counter()
    found = positions(args.variant, args.deals, args.seed, args.measure == "score", table, bool(args.ceiling))
    print(
        f"{args.variant}: {len(found)} positions where the choice matters"
        f"{' in the true deal or not (--ceiling)' if args.ceiling else ''}, from {args.deals} deals of "
        f"{' against '.join(table)} "
        f"({time.perf_counter() - start:.0f} s)"
    )
    losses: dict[str, list[float]] = {}
    choices: dict[str, list[int]] = {}
    print(
        "| player | mean loss per position | loss per deal | share of the first's loss removed "
        "| decision ms, median | p99 |"
    )
    print("|---|---|---|---|---|---|")
    for spec in args.players:
        p = player(spec)
        losses[spec], choices[spec], times = [], [], []
        for obs, loss in found:
            start = time.perf_counter()
            choices[spec].append(p.act(obs))
            times.append(1000 * (time.perf_counter() - start))
            losses[spec].append(loss[choices[spec][-1]])
        mean = statistics.mean(losses[spec])
        first = statistics.mean(losses[args.players[0]])
        share = f"{1 - mean / first:.0%}" if first else "-"
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"| {spec} | {mean:.3f} | {sum(losses[spec]) / args.deals:.2f} | {share} "
            f"| {statistics.median(times):.0f} | {p99:.0f} |",
            flush=True,
        )
    if args.ceiling:
        pictures = [expected_losses(obs, args.ceiling, args.measure == "score") for obs, _ in found]
        print()
        print(f"On the expert's own {args.ceiling} weighed worlds of each position (--ceiling):")
        print(
            "| player | loss per position, measured | on the expert's worlds | share of the first's removed |"
        )
        print("|---|---|---|---|")
        rows = [
            (
                spec,
                f"{statistics.mean(losses[spec]):.3f}",
                [pic[c] for pic, c in zip(pictures, choices[spec], strict=True)],
            )
            for spec in args.players
        ]
        rows.append(("the best choice on those worlds", "–", [min(pic.values()) for pic in pictures]))
        first = statistics.mean(rows[0][2])
        for spec, measured, expected in rows:
            share = f"{1 - statistics.mean(expected) / first:.0%}" if first else "-"
            print(f"| {spec} | {measured} | {statistics.mean(expected):.3f} | {share} |")
        print()
    # each player against the first, and the later ones against the second (a setting tried
    # against the player it changes)
    pairs = [(spec, args.players[0]) for spec in args.players[1:]]
    pairs += [(spec, args.players[1]) for spec in args.players[2:]]
    for spec, base in pairs:
        diffs = [a - b for a, b in zip(losses[spec], losses[base], strict=True)]
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        print(
            f"{spec} − {base}: {statistics.mean(diffs):+.3f} ± {half:.3f} {args.measure} per position (95%)"
        )
    print()
    print("Loss per deal by the tricks finished before the play (where the choices are lost):")
    tricks = sorted({len(obs.tricks) for obs, _ in found})
    print("| player | " + " | ".join(f"{t} finished" for t in tricks) + " |")
    print("|---|" + "---|" * len(tricks))
    for spec in args.players:
        per = [
            sum(x for (obs, _), x in zip(found, losses[spec], strict=True) if len(obs.tricks) == t)
            for t in tricks
        ]
        print(f"| {spec} | " + " | ".join(f"{x / args.deals:.2f}" for x in per) + " |")
    counts = [sum(1 for obs, _ in found if len(obs.tricks) == t) for t in tricks]
    print("| positions | " + " | ".join(str(c) for c in counts) + " |")


if __name__ == "__main__":
    main()
