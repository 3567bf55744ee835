"""The expert's card play: sampled worlds, each solved exactly, weighed by what the seat has seen.

For a play the expert draws worlds consistent with what its seat has seen
(``pedro.players.sampling``: hands, voids shown in play, statuses, what the
exchange allows, the auction as weights), weighs each world by how well it
explains the other side's plays so far (``pedro.players.inference``: would a
sensible player have played so with those cards?), and in each world values
every legal play with the exact solver (``solved_worlds``). It plays the
action whose weighted average over the worlds is best for its side.

**Cost.** One solve per (world, distinct play): plays of equal effect are one
class (``play_classes``). Identical worlds are solved once. The config's
``samples`` fixes the number of worlds (deterministic: the draw is seeded by
the player's seed and the decision); ``max_solves`` lowers it for plays with
many distinct choices, and ``max_nodes`` stops valuing new worlds once the
decision's solves have searched that many positions, both still after
``MIN_WORLDS`` (``expert_config.ExpertConfig``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from pedro.cards import mask_of
from pedro.engine.actions import CARD_BITS
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase
from pedro.players.expert_config import ExpertConfig
from pedro.players.heuristic import Shared
from pedro.players.inference import PlayModel
from pedro.players.parts import CardPlayer
from pedro.players.sampling import World, iter_worlds
from pedro.players.solved_worlds import solved_world
from pedro.variants.model import Ruleset
from pedro.variants.tables import TrumpTables

#: The fewest worlds a card play is valued on, whatever the caps on solves and nodes.
MIN_WORLDS = 10
#: Values this close are equal.
TIE = 1e-9


class SolvingCardPlayer:
    """Plays the card whose value over the weighed, solved worlds is best; among equals,
    ``fallback``'s choice (``heuristic``'s), which also plays where no world fits."""

    def __init__(self, shared: Shared, config: ExpertConfig, fallback: CardPlayer) -> None:
        self.shared = shared
        self.config = config
        self.fallback = fallback
        #: worlds valued at the last decision (for measurements)
        self.last_worlds = 0

    def play(self, obs: Observation, legal: tuple[int, ...]) -> int:
        values = self.evaluate(obs)
        if not values:
            return self.fallback.play(obs, legal)
        top = max(values.values())
        best = sorted(a for a, v in values.items() if v >= top - TIE)
        if len(best) == 1:
            return best[0]
        preferred = self.fallback.play(obs, legal)
        return preferred if preferred in best else best[0]

    def evaluate(self, obs: Observation) -> dict[int, float]:
        """Each legal play -> expected points its seat's side takes in this hand (module docstring).

        Empty when no consistent world was found (the caller falls back to ``heuristic``).
        """
        if obs.phase != Phase.PLAY or obs.legal is None or not obs.my_turn:
            raise ValueError("evaluate needs the seat's turn in the card play")
        legal = list(obs.legal)
        rng = random.Random(f"expert:{self.shared.seed}:{obs.hand_index}:{_plays_made(obs)}:{obs.seat}")
        config = self.config
        reps = play_classes(obs, legal)
        distinct = sorted(set(reps.values()))
        count = config.samples
        if config.max_solves is not None:
            count = min(count, max(MIN_WORLDS, config.max_solves // len(distinct)))
        sums = dict.fromkeys(distinct, 0.0)
        weight_sum = 0.0
        done: dict[tuple[int, ...], dict[int, float]] = {}
        used = nodes = 0
        for world, weight in self.weighed_worlds(obs, count, rng):
            if config.max_nodes is not None and used >= MIN_WORLDS and nodes >= config.max_nodes:
                break
            values = done.get(world.hands)
            if values is None:
                values, searched = solved_world(obs, world, distinct)
                done[world.hands] = values
                nodes += searched
            for a in distinct:
                sums[a] += weight * values[a]
            weight_sum += weight
            used += 1
        self.last_worlds = used
        if not used or weight_sum <= 0:
            return {}
        return {a: sums[reps[a]] / weight_sum for a in legal}

    def weighed_worlds(
        self, obs: Observation, most: int, rng: random.Random
    ) -> Iterable[tuple[World, float]]:
        """Up to ``most`` worlds consistent with what the seat has seen, each with its weight: the
        auction's evidence (``sampling``) times, when the player reads the play, how likely the
        others' plays were with those hands (``inference.PlayModel``)."""
        model = PlayModel(obs, self.shared.rollout_policy(obs.rules)) if self.config.read_play else None
        # weighed as they are reached: a decision that stops early leaves the rest unweighed
        return (
            (w, w.weight * (model.weight(w.hands) if model is not None else 1.0))
            for w in iter_worlds(obs, most, rng)
        )


def _plays_made(obs: Observation) -> int:
    made = sum(len(t.plays) for t in obs.tricks)
    return made + (len(obs.trick.plays) if obs.trick is not None else 0)


# ---------------------------------------------------------------- plays of equal effect


def play_classes(obs: Observation, legal: list[int]) -> dict[int, int]:
    """Each legal play -> a representative play of equal value in every world.

    Two single cards are alike when neither scores and every card between them
    (trump order, or rank in their plain suit) is in this hand among the alike
    cards or is gone for good (played in a finished trick, laid aside face up,
    the seat's own discards). Off for stacks and ``relative_high_low`` (the
    lowest trump played scores there).
    """
    rules = obs.rules
    assert obs.trump is not None
    tt = rules.tables(obs.trump)
    reps = {a: a for a in legal}
    if rules.relative_high_low or any((a & CARD_BITS).bit_count() != 1 for a in legal):
        return reps
    gone = mask_of(obs.own_discards)
    for t in obs.tricks:
        for _seat, cards in t.plays:
            gone |= mask_of(cards)
    for cards in obs.face_up:
        gone |= mask_of(cards)
    zero = {
        (a & CARD_BITS).bit_length() - 1: a for a in legal if not tt.points[(a & CARD_BITS).bit_length() - 1]
    }
    if len(zero) < 2:
        return reps
    quiet = mask_of(zero) | gone
    for group, ranked in _orders(rules, tt):
        run_rep = -1
        blocked = True
        for c in group:
            if c in zero:
                if run_rep >= 0 and not blocked:
                    reps[zero[c]] = reps[zero[run_rep]]
                else:
                    run_rep = c
                blocked = False
            elif ranked and not quiet >> c & 1:
                blocked = True
    return reps


def _orders(rules: Ruleset, tt: TrumpTables) -> list[tuple[list[int], bool]]:
    """Classes of comparable cards in order, and whether order matters in them.

    Trumps rank by strength; plain cards of a suit rank, or, where plain cards
    never rank (the leader wins a trick without trumps), are all alike.
    """
    deck = rules.deck
    trumps = sorted((c for c in deck if tt.trump_mask >> c & 1), key=lambda c: tt.strength[c])
    out = [(trumps, True)]
    for suit in range(4):
        plain = [c for c in deck if c < 52 and c // 13 == suit and not tt.trump_mask >> c & 1]
        out.append((sorted(plain), rules.plain_ranking))
    return out


__all__ = ["MIN_WORLDS", "SolvingCardPlayer", "play_classes"]
