"""One sampled world of the card play solved exactly: what each play is worth to the seat's side.

A play is made in the world, the play goes on by the rules to the next seat
that must play, and the rest is solved with perfect information
(``pedro.solver``): the points of the bidder's side with best play on both
sides. The seat's side takes those points if it is the bidder's, else the
rest of the points the world's cards can score (``world_total``): in a
partnership game exactly the other side's points, in an individual game what
every non-bidder together keeps from the bidder.
"""

from __future__ import annotations

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import CARD_BITS
from pedro.engine.observation import Observation
from pedro.engine.scoring import TrickCards, count_points
from pedro.players.bidding import held_contract, utility
from pedro.players.hand_constraints import played_by
from pedro.players.play_machine import PlayMachine
from pedro.players.sampling import World
from pedro.solver import PlayPosition, solve
from pedro.variants.model import ExcessTrumps, LowRule


def credits_of(obs: Observation) -> tuple[tuple[int, ...], int]:
    """Points credited per side for scoring trumps laid aside, and those cards (notes K11, K19).

    Seen from the table: the face-up discards (and the seat's own discards).
    """
    rules = obs.rules
    assert obs.trump is not None
    tt = rules.tables(obs.trump)
    credits = [0] * rules.num_sides
    credited = 0
    policy = rules.excess_trumps
    if policy not in (ExcessTrumps.DISCARD_NONSCORING_FACE_UP, ExcessTrumps.MUST_DISCARD_TO_6):
        return tuple(credits), 0
    for s in range(rules.players):
        laid = mask_of(obs.face_up[s])
        if s == obs.seat:
            laid |= mask_of(obs.own_discards)
        scoring = laid & tt.trump_mask & tt.scoring_mask
        if not scoring:
            continue
        side = rules.side_of(s)
        if policy == ExcessTrumps.MUST_DISCARD_TO_6:
            side = next(o for o in range(rules.num_sides) if o != side)
        credits[side] += sum(tt.points[c] for c in cards_of(scoring))
        credited |= scoring
    return tuple(credits), credited


def position_of(obs: Observation, machine: PlayMachine) -> PlayPosition:
    """The solver's position for a world, at the machine's turn."""
    assert obs.trump is not None and obs.bidder is not None
    credits, credited = credits_of(obs)
    return machine.play_position(obs.trump, obs.bidder, credits, credited, _low_dealt_to(obs, machine))


def _low_dealt_to(obs: Observation, machine: PlayMachine) -> int:
    """Under ``low_rule = dealt``, the Low's first receiver, taken to be its holder at the first lead.

    (Who was dealt a card that changed hands in the exchange is not in the observation.)
    """
    rules = obs.rules
    if rules.low_rule != LowRule.DEALT:
        return -1
    low = machine.tt.low_card
    if low < 0:
        return -1
    played = played_by(obs)
    for s in range(rules.players):
        if (machine.hands[s] | played[s]) >> low & 1:
            return s
    return -1


def _points(obs: Observation, machine: PlayMachine, tricks: list[TrickCards]) -> list[int]:
    pos = position_of(obs, machine)
    holder: dict[int, int] = {}
    low = machine.tt.low_card
    if low >= 0 and obs.rules.low_rule == LowRule.HOLDER:
        for s, h in enumerate(pos.hands_at_play()):
            if h >> low & 1:
                holder[low] = s
    dealt = {low: pos.low_dealt_to} if pos.low_dealt_to >= 0 else {}
    points, _ = count_points(obs.rules, machine.tt, tricks, holder, dealt, list(pos.credits), pos.credited)
    return points


def world_values(
    obs: Observation, world: World, actions: list[int], for_score: bool = False
) -> dict[int, float]:
    """Each action's points for the seat's side in one world, with best play afterwards; with
    ``for_score``, what those points make of the hand for the seat's side (``score_of_points``:
    how ``benchmarks/card_play_loss.py --measure score`` counts a loss)."""
    values, _ = solved_world(obs, world, actions)
    if not for_score:
        return values
    assert obs.bidder is not None
    return score_of_points(obs, obs.rules.side_of(obs.bidder), world_total(obs, world), values)


def world_total(obs: Observation, world: World) -> int:
    """Every point the world's cards can score: one trick holding every card in play."""
    assert obs.bidder is not None
    everything = 0
    for h in world.machine.hands:
        everything |= h
    for p in played_by(obs):
        everything |= p
    return sum(_points(obs, world.machine, [TrickCards(obs.bidder, ((obs.bidder, everything),))]))


def solved_world(obs: Observation, world: World, actions: list[int]) -> tuple[dict[int, float], int]:
    """``world_values`` and the nodes its solves searched (the cost ``max_nodes`` counts)."""
    rules = obs.rules
    assert obs.bidder is not None
    bidder_side = rules.side_of(obs.bidder)
    mine = rules.side_of(obs.seat) == bidder_side
    base = world.machine
    total = world_total(obs, world)
    out: dict[int, float] = {}
    solved = False
    nodes = 0
    for action in actions:
        m = base.copy()
        m.play(action)
        if m.prepare():
            # each play's solve reuses what the solves of this world's other plays found
            result = solve(position_of(obs, m), same_deal=solved)
            value = result.value
            nodes += result.nodes
            solved = True
        else:
            done = [TrickCards(t.winner, tuple((s, a & CARD_BITS) for s, a in t.plays)) for t in m.tricks]
            value = _points(obs, m, done)[bidder_side]
        out[action] = float(value if mine else total - value)
    return out, nodes


def score_of_points(
    obs: Observation, bidder_side: int, total: int, values: dict[int, float]
) -> dict[int, float]:
    """Each action's worth to the seat's side in score (``bidding.utility``: its score change less
    the others', the game's end included) from its points in ``values``.

    The solver's value stays the right play inside each world: the worth is monotone in the
    bidder's points, rising for the bidder's side and falling for the others. The others' points
    are spread evenly over their sides (in a partnership game exactly what they take).
    """
    rules = obs.rules
    assert obs.bidder is not None
    side = rules.side_of(obs.seat)
    contract = held_contract(obs, obs.bidder)
    others = [s for s in range(rules.num_sides) if s != bidder_side]
    out: dict[int, float] = {}
    for action, own in values.items():
        taken = int(own) if side == bidder_side else total - int(own)
        points = [0] * rules.num_sides
        points[bidder_side] = taken
        rest = total - taken
        for i, s in enumerate(others):
            points[s] = rest // len(others) + (1 if i < rest % len(others) else 0)
        out[action] = utility(rules, side, obs.scores, contract, points)
    return out


__all__ = ["credits_of", "position_of", "score_of_points", "solved_world", "world_total", "world_values"]
