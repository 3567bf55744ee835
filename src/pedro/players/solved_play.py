"""A contract's hand valued by the exact solver after the exchange: ``expert``'s bidding simulation.

``heuristic`` values a contract on a sampled deal by a rollout of its own
play. The expert plays its cards far better than that rollout (it samples
and solves), so it values the card play by the exact solver instead: the
exchange is played by the players' own exchange choices (the policy), and
at the first lead the sampled world is solved with every hand in view
(``pedro.solver.solve``): the points the declarer's side takes with best
play on both sides.

That perfect-information value is not what real play takes (the declarer's
side sees the defenders' cards, the defenders each other's, and the solver's
"paranoid" coalition in individual games); the bidding simulation moves
``DECLARER_BIAS`` of the points in play from the declarer's side, the gap
measured by ``benchmarks/declarer_bias.py`` against the expert's own card
play, where taking it off was not shown to make the expert pass hands worth
a bid (``DECLARER_BIAS``).

The solver gives one number, the declarer's side's points. The others'
points are the rest of the points the rollout of the same exchanged hand
scored, shared among the other sides as that rollout shared them. Where one
other side takes all the rest (partnership games), only the total counts,
and where every play gives the same total (``Ruleset.fixed_hand_total``) it
is taken from the cheapest play instead of a rollout: exact, but for classic
Pitch's Game point, which a tie withholds.
"""

from __future__ import annotations

from collections.abc import Sequence

from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players.base import Player
from pedro.players.simulation import play_out, play_out_any
from pedro.solver import solve
from pedro.variants.model import Ruleset

#: Share of the points in play the bidding simulation moves from the declarer's side to the
#: others. ``benchmarks/declarer_bias.py`` measures how far the solver's value at the first lead
#: overstates what the declarer's side takes when ``expert`` plays every seat (hands bid and
#: exchanged by ``heuristic``). In the partnership games it is small: pidro 0.014 of the points in
#: play (400 hands), King Pedro (Canadian) 0.022 (381 hands), cinch 0.034 (40 hands), Sixty-Three
#: 0.038 (60 hands), King Pedro none (60 hands). Yet taking it off made the expert pass hands worth
#: a bid, and on the same deals its own calls did better with none taken off: pidro +0.60 score
#: change a deal (225 deals), King Pedro from -12.2 points a deal behind ``heuristic`` to +4.7
#: ahead (500 deals), King Pedro (Canadian) +6.0 points (200 deals), cinch +1.4 points and +0.8
#: score change (200 deals), Sixty-Three +8.0 points (100 deals; all in docs/experiments/declarer-bias.md). So
#: ``DEFAULT_BIAS`` is none; 83 takes it unmeasured.
#: Where everyone plays alone the bias runs the other way: the solver plays the other seats as
#: one side that sees every card, which real opponents are not (``--hands 60 --seed 50000``:
#: Pedro Sancho -0.85 points, -1.56 to -0.14; Dom Pedro -1.43, -2.54 to -0.32; the Russian Petro
#: -0.18, -0.32 to -0.05). Uncorrected, the expert passed where ``heuristic`` bid, so the measured
#: shares are taken off.
DECLARER_BIAS: dict[str, float] = {
    "pedro_sancho": -0.047,
    "dom_pedro": -0.040,
    "petro_russian": -0.013,
}
DEFAULT_BIAS = 0.0


def declarer_bias(rules: Ruleset) -> float:
    """The measured bias of the solver's value to the declarer's side in these rules."""
    return DECLARER_BIAS.get(rules.id, DEFAULT_BIAS)


#: What one valuation costs besides the solver's search, in the solver's nodes of the same time.
#: Measured on the expert's first calls (six hands a variant, CPU time against nodes and
#: valuations): a valuation took about 1.6 ms of Python work (the exchange and a rollout) and a
#: node about 0.2 microseconds. A valuation searches some 470 nodes in pidro and took 1.7 ms in
#: all, 2,000 in King Pedro (Canadian) (2.3 ms), 20,000 to 25,000 in cinch and 83 (about 6 ms).
#: In the partnership games the rollout is now skipped (``_solved``), so a valuation costs less
#: than this; it is kept so that a call gets the deals it got (a lower one buys more deals: a
#: change of the calls, to be measured before it is taken).
VALUATION_WORK = 8_000


def solved_points(state: GameState, players: Sequence[Player]) -> tuple[int, ...]:
    """Points per side of the hand in ``state`` (trumps named): the exchange by ``players``, then
    the declarer's side's points by the solver and the others' the rest (module docstring)."""
    return _solved(state, players)[0]


class CountedSolvedPoints:
    """``solved_points`` that counts its work: the solver's nodes, and ``VALUATION_WORK`` for each
    valuation, so that the expert's bidding can give cheap calls more deals
    (``pedro.players.expert_bidding.affordable_deals``)."""

    def __init__(self) -> None:
        self.work = 0

    def __call__(self, state: GameState, players: Sequence[Player]) -> tuple[int, ...]:
        points, nodes = _solved(state, players)
        self.work += nodes + VALUATION_WORK
        return points


def _solved(state: GameState, players: Sequence[Player]) -> tuple[tuple[int, ...], int]:
    """``solved_points`` and the nodes its solve searched (none when no solve was needed)."""
    start = len(state.results)
    while not state.is_over and len(state.results) == start and state.phase != Phase.PLAY:
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    if len(state.results) != start:
        return tuple(state.results[start].points), 0  # the hand ended in the exchange
    if state.phase != Phase.PLAY:
        return play_out(state, players), 0
    rules = state.rules
    bidder = state.observation(state.current_player).bidder
    assert bidder is not None
    side = rules.side_of(bidder)
    others = [s for s in range(rules.num_sides) if s != side]
    # one other side takes all the rest, so only the rollout's total counts; where every play
    # gives the same total, the cheapest play gives it (the same values, for far less work)
    cheap = len(others) == 1 and rules.fixed_hand_total
    rollout = play_out_any(state.clone()) if cheap else play_out(state.clone(), players)
    result = solve(state.play_position())
    value = result.value
    rest = max(0, sum(rollout) - value)
    out = [0] * len(rollout)
    out[side] = value
    if others:
        weights = [rollout[s] for s in others]
        total = sum(weights)
        shares = [rest * w // total for w in weights] if total else [rest // len(others)] * len(others)
        for s, share in zip(others, shares, strict=True):
            out[s] = share
        # the remainder of the integer division to the side the rollout gave most
        out[max(others, key=lambda s: rollout[s])] += rest - sum(shares)
    return tuple(out), result.nodes


__all__ = [
    "DECLARER_BIAS",
    "DEFAULT_BIAS",
    "VALUATION_WORK",
    "CountedSolvedPoints",
    "declarer_bias",
    "solved_points",
]
