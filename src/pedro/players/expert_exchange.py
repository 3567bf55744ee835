"""The expert's exchange decisions (discard, keep, kill, give, fold, claim), valued by simulation.

The choices are valued by ``players.exchange_values`` (sampled deals played on
from the decision by ``heuristic``'s rollout, which names the best candidate;
that one and ``heuristic``'s own choice are valued again on the same deals by
the solver, ``solved_points``; the exchange's last decision by solving worlds
at the first lead, ``players.last_exchange``). The candidate replaces the
rule's choice only when the solver puts it ``EXCHANGE_OVER_RULE_Z`` standard
errors ahead; where nothing can be valued, the rule decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pedro.engine.observation import Observation
from pedro.players.card_search import TIE
from pedro.players.exchange_values import candidates, exchange_worlds
from pedro.players.heuristic import Shared
from pedro.players.last_exchange import MAX_CHOICES as LAST_MAX_CHOICES
from pedro.players.last_exchange import applies, last_exchange_worlds
from pedro.players.paired_stats import paired_lead
from pedro.players.parts import Exchanger
from pedro.players.solved_play import solved_points

#: An exchange choice other than ``heuristic``'s is made only when it leads that one by this many
#: standard errors over the same sampled deals (``ExpertExchanger.exchange``).
EXCHANGE_OVER_RULE_Z = 2.0
#: Legal card sets counted one by one up to this many (beyond, the count is the upper bound).
_COUNT_LIMIT = 4096


class ExchangeValuer:
    """Values a seat's exchange choices on sampled deals (module docstring), with ``rule`` (the
    player's own rule exchanger, ``heuristic``'s) naming the choice the others are set against."""

    def __init__(self, shared: Shared, rule: Exchanger, deals: int) -> None:
        self.shared = shared
        self.rule = rule
        self.deals = deals

    def worlds(self, obs: Observation, include: Sequence[int] = ()) -> tuple[dict[int, list[float]], str]:
        """The exchange choices valued (module ``exchange_values``; at the exchange's last decision
        ``last_exchange``), each with its points on every deal valued, and why none were when empty."""
        worlds, why, _ = self.valued(obs, candidates(obs, self.rule.exchange(obs), include))
        return worlds, why

    def valued(self, obs: Observation, choices: list[int]) -> tuple[dict[int, list[float]], str, bool]:
        """``choices`` valued by the rollouts, or at the exchange's last decision by solved worlds
        (the flag); why none were when empty."""
        seed = self.seed(obs)
        worlds, why = exchange_worlds(obs, self.shared.rollout_policy(obs.rules), seed, choices, self.deals)
        if worlds or not applies(obs):
            return worlds, why, False
        last = last_exchange_worlds(obs, _last_choices(obs, choices), seed)
        return {a: v for a, v in last.items() if v}, why, True

    def solved(self, obs: Observation, choices: list[int]) -> dict[int, list[float]]:
        """``choices`` valued again on the same deals, played on by the solver (``solved_points``)."""
        policy = self.shared.rollout_policy(obs.rules)
        worlds, _ = exchange_worlds(obs, policy, self.seed(obs), choices, self.deals, solved_points)
        return worlds

    def seed(self, obs: Observation) -> str:
        """The deals' seed: the player's, the hand's and the decision's."""
        return f"exchange:{self.shared.seed}:{obs.hand_index}:{obs.seat}:{len(obs.own_discards)}"


class ExpertExchanger:
    """The rule's choice, unless a simulated challenger clearly leads it (``exchange``)."""

    def __init__(self, valuer: ExchangeValuer) -> None:
        self.valuer = valuer

    def exchange(self, obs: Observation) -> int:
        """``heuristic``'s choice, unless the rollouts' best choice clearly leads it on the same deals
        valued by the solver (``solved_points``, as the expert values a contract; ``_clear_leader``);
        at the exchange's last decision, the best of the solved worlds alone.

        The rollouts (cheap: every candidate) play the hand as ``heuristic`` does, and the expert
        does not: a discard that suits the rollout's play can look best there and not in the
        expert's hands, and a choice worth several points can lead the rule's by less than a
        standard error of the rollouts' noise. So they only name the challenger, and the solver
        (two choices, the same deals) decides."""
        rule = self.valuer.rule.exchange(obs)
        if legal_count(obs) <= 1:
            return rule
        worlds, _, solved = self.valuer.valued(obs, candidates(obs, rule))
        if worlds and not solved:
            means = {a: sum(v) / len(v) for a, v in worlds.items()}
            best = max(means, key=lambda a: (means[a], a == rule))
            if best == rule:
                return rule
            worlds = self.valuer.solved(obs, [rule, best])
        return clear_leader(worlds, rule) or rule


def _last_choices(obs: Observation, choices: list[int]) -> list[int]:
    """Every legal choice at the exchange's last decision when they are few, else ``choices``."""
    return list(obs.legal) if legal_count(obs) <= LAST_MAX_CHOICES else choices  # type: ignore[arg-type]


def clear_leader(worlds: Mapping[int, Sequence[float]], rule: int) -> int | None:
    """The choice with the best mean when it leads ``rule``'s by ``EXCHANGE_OVER_RULE_Z`` standard
    errors on the same deals; None when none does (or ``rule`` was not valued)."""
    if not worlds.get(rule):
        return None
    means = {a: sum(v) / len(v) for a, v in worlds.items() if v}
    best = max(means, key=lambda a: (means[a], a == rule))
    if means[best] <= means[rule] + TIE or paired_lead(worlds[best], worlds[rule]) < EXCHANGE_OVER_RULE_Z:
        return None
    return best


def legal_count(obs: Observation) -> int:
    """How many legal choices the decision has (a large set of card sets: its upper bound)."""
    legal = obs.legal
    if legal is None:
        return 0
    if isinstance(legal, tuple):
        return len(legal)
    bound = legal.upper_bound()
    return sum(1 for _ in legal) if bound <= _COUNT_LIMIT else bound


__all__ = ["EXCHANGE_OVER_RULE_Z", "ExchangeValuer", "ExpertExchanger", "clear_leader", "legal_count"]
