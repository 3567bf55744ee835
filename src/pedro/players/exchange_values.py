"""What each exchange choice (keep, discard, kill, give, fold) is worth, by simulation.

The exchange is valued the way ``heuristic`` values its bids: on sampled deals
of the cards the seat cannot see (earlier calls weigh which deals are drawn,
``bidding.Estimator``), the recorded contract is set up, the seats that decide
before this one follow the rollout policy, and from the seat's decision each
candidate choice is made and the rest of the hand is played out by the policy.
A deal counts only where the seat arrives at the very decision it faces (the
same hand and the same legal choices), so worlds that the exchange so far rules
out are dropped rather than guessed at. The value is the mean points the
seat's side takes in the hand, the unit card plays are valued in.

Candidates: every legal choice when there are at most ``MAX_CANDIDATES``;
otherwise the policy's own choice, the choices asked for (``include``), and
the sets one card away from the policy's choice, up to the cap.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from pedro.cards import cards_of
from pedro.engine.actions import arg_of, cards_action
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.i18n import N_
from pedro.players.base import Player
from pedro.players.bidding import Estimator
from pedro.players.simulation import PlayValuation, SampledDeals, contract_state, play_out

#: Choices valued at one decision (each costs one rollout per sampled deal).
MAX_CANDIDATES = 16
#: Worlds that must reach the seat's decision for the values to count.
MIN_WORLDS = 4
#: Why an exchange decision taken after the seat's hand changed cannot be simulated.
NOT_FIRST_DEAL = N_(
    "the hand is no longer the one the seat was dealt (it drew, took or was given cards), "
    "and the simulation can deal only a first hand again"
)
#: Why the choices beyond ``MAX_CANDIDATES`` are not valued.
TOO_MANY = N_("the rest are too many to simulate each (at most {n} are)").format(n=MAX_CANDIDATES)


def candidates(obs: Observation, preferred: int, include: Iterable[int] = ()) -> list[int]:
    """The choices to value at this decision (module docstring)."""
    legal = obs.legal
    if legal is None:
        return []
    if isinstance(legal, tuple):
        return list(legal)
    if legal.upper_bound() <= MAX_CANDIDATES:
        return list(legal)
    out = list(dict.fromkeys([preferred, *(a for a in include if a in legal), *legal.alternatives]))
    if preferred not in legal.alternatives:
        room = MAX_CANDIDATES - len(out)
        if room > 0:
            near = _neighbours(legal, arg_of(preferred), room + len(out))
            out += [a for a in near if a not in out][:room]
    return out


def _neighbours(choice: CardChoice, mask: int, limit: int) -> list[int]:
    """Legal sets one card away from ``mask``: one card swapped for another, dropped or added."""
    inside = [c for c in cards_of(mask) if not choice.required >> c & 1]
    outside = cards_of(choice.pool & ~mask)
    found: list[int] = []
    tries = [mask ^ (1 << a) ^ (1 << b) for a in inside for b in outside]
    tries += [mask ^ (1 << a) for a in inside] + [mask | (1 << b) for b in outside]
    for m in tries:
        if len(found) >= limit:
            break
        action = cards_action(choice.verb, m)
        if action in choice and action not in found:
            found.append(action)
    return found


def _reach_decision(state: GameState, obs: Observation, policy: Sequence[Player]) -> bool:
    """Let the other seats act until the seat's turn; True when it faces the observed decision with
    the same cards face up and the same seats folded. (How many cards each seat laid aside is not
    asked: where that depends on the hand, as in Nicaraguan Pedro, few deals would match.)"""
    while state.phase == Phase.EXCHANGE and not state.results and state.current_player != obs.seat:
        seat = state.current_player
        state.apply(policy[seat].act(state.observation(seat)))
    if state.phase != Phase.EXCHANGE or state.results or state.current_player != obs.seat:
        return False
    now = state.observation(obs.seat)
    return (
        now.hand == obs.hand
        and now.legal == obs.legal
        and now.face_up == obs.face_up
        and now.statuses == obs.statuses
    )


def exchange_worlds(
    obs: Observation,
    policy: Sequence[Player],
    seed: str,
    choices: Sequence[int],
    samples: int = 20,
    valuation: PlayValuation = play_out,
) -> tuple[dict[int, list[float]], str]:
    """Each of ``choices`` -> the points the seat's side takes on each sampled deal that reaches
    the decision (the same deals, in the same order, for every choice), and when there are none
    a plain sentence saying why. The hand is played on from the choice by ``valuation`` (a
    rollout of ``policy``, or ``solved_play.solved_points``: the exchange by ``policy``, then
    the solver)."""
    if obs.phase != Phase.EXCHANGE or obs.bidder is None or obs.bid is None or obs.trump is None:
        return {}, N_("the hand has no contract to simulate yet")
    rules = obs.rules
    side = rules.side_of(obs.seat)
    try:
        est = Estimator(obs, policy, seed, samples)
    except ValueError:
        return {}, NOT_FIRST_DEAL
    per_world: dict[int, list[float]] = {a: [] for a in choices}
    worlds = 0
    for sample in est.samples:
        deals = SampledDeals(rules, obs.dealer, obs.seat, obs.hand, random.Random(sample.deals_seed))
        state = contract_state(rules, deals, obs.bidder, obs.bid, obs.trump)
        if state is None or not _reach_decision(state, obs, policy):
            continue
        worlds += 1
        for action in choices:
            trial = state.clone()
            trial.apply(action)
            per_world[action].append(valuation(trial, policy)[side])
    if worlds < min(MIN_WORLDS, samples):
        return {}, (
            f"only {worlds} of {len(est.samples)} sampled deals lead to this very decision "
            f"(at least {min(MIN_WORLDS, samples)} are needed)"
        )
    return per_world, ""


__all__ = ["MAX_CANDIDATES", "candidates", "exchange_worlds"]
