"""The exchange's last decision valued at the first lead: cinch's dealer robbing the pack, for one.

``exchange_values`` simulates an exchange from the seat's first deal, which
it cannot do once the seat's hand has changed (it drew, took or was given
cards). Where the seat's decision is the exchange's last one, though, what
follows is the card play, and the seat knows the whole of its own hand after
each choice: the play can be valued as the expert values a contract, by
solving sampled worlds at the first lead (``solved_play``).

A world gives the other seats the cards this seat has not seen, as many as
each holds (public counts); every unseen trump goes to a hand (trumps are not
laid aside where this is used: the exchange keeps them in play), the other
cards at random among the places left. For each choice the seat's hand is
its hand and the cards it keeps, and the position is solved with every hand
in view (the points of the bidder's side with best play), less the measured
declarer's bias of that value; the other side's value is the rest of the
points in play. The same worlds serve every choice.

It applies when, after the choice, every seat holds a normal hand (the play
starts at once) and no card goes face up; elsewhere it says it does not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import Verb, arg_of, verb_of
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.engine.play import normal_hand_size
from pedro.engine.scoring import TrickCards, count_points
from pedro.players.play_machine import PlayMachine
from pedro.players.solved_play import declarer_bias
from pedro.solver import solve
from pedro.variants.tables import TrumpTables

#: Solves per decision at most (worlds × choices; a solve at the first lead of cinch takes some
#: 8 ms), the fewest and the most worlds, and the most choices valued (all legal ones up to it).
MAX_SOLVES = 120
MIN_WORLDS = 4
MAX_WORLDS = 24
MAX_CHOICES = 40
#: Why the exchange's last decision is not valued this way.
NOT_LAST = "the exchange goes on after this decision, from a hand the simulation cannot deal again"


def applies(obs: Observation) -> bool:
    """Whether this is the exchange's last decision, keeping cards to make a normal hand."""
    legal = obs.legal
    if obs.phase != Phase.EXCHANGE or not isinstance(legal, CardChoice) or legal.alternatives:
        return False
    if legal.verb != Verb.KEEP or obs.trump is None or obs.bidder is None or len(legal.sizes) != 1:
        return False
    if any(obs.face_up) or any(obs.shown):
        return False  # cards laid face up may score as credits, which this does not count
    size = normal_hand_size(obs.rules)
    others = [n for s, n in enumerate(obs.hand_sizes) if s != obs.seat and obs.statuses[s] != Status.FOLDED]
    return len(obs.hand) + legal.sizes[0] == size and all(n == size for n in others)


def last_exchange_worlds(obs: Observation, choices: Sequence[int], seed: str) -> dict[int, list[float]]:
    """Each keep choice -> the points of the seat's side in each world (module docstring), the same
    worlds in the same order for every choice (a world that cannot be set up for one choice is left
    out for all)."""
    rules = obs.rules
    assert obs.trump is not None and obs.bidder is not None and isinstance(obs.legal, CardChoice)
    tt = rules.tables(obs.trump)
    seen = mask_of(obs.hand) | obs.legal.pool | mask_of(obs.own_discards) | mask_of(obs.seen)
    for cards in (*obs.face_up, *obs.shown):
        seen |= mask_of(cards)
    unseen = rules.deck_mask & ~seen
    others = [s for s in range(rules.players) if s != obs.seat and obs.hand_sizes[s] > 0]
    trumps = cards_of(unseen & tt.trump_mask)
    plain = cards_of(unseen & ~tt.trump_mask)
    slots = sum(obs.hand_sizes[s] for s in others)
    per_world: dict[int, list[float]] = {a: [] for a in choices}
    if len(trumps) > slots or len(trumps) + len(plain) < slots:
        return per_world
    rng = random.Random(seed)
    count = max(MIN_WORLDS, min(MAX_WORLDS, MAX_SOLVES // max(1, len(choices))))
    for _ in range(count):
        places = [s for s in others for _ in range(obs.hand_sizes[s])]
        rng.shuffle(places)
        hands = [0] * rules.players
        deck = list(trumps)
        rest = list(plain)
        rng.shuffle(rest)
        deck += rest[: slots - len(trumps)]
        for card, seat in zip(deck, places, strict=True):
            hands[seat] |= 1 << card
        world = _solved_choices(obs, tt, hands, choices)
        if world is not None:
            for action, value in world.items():
                per_world[action].append(value)
    return per_world


def _solved_choices(
    obs: Observation, tt: TrumpTables, hands: list[int], choices: Sequence[int]
) -> dict[int, float] | None:
    """Each choice's points for the seat's side in the world ``hands`` (the others' hands; the
    seat's is its hand and the cards it keeps), by the solver less the declarer's bias; None when
    the play cannot start for one of them."""
    rules = obs.rules
    assert obs.trump is not None and obs.bidder is not None
    me = obs.seat
    status = [Status(s) for s in obs.statuses]
    mine = rules.side_of(me) == rules.side_of(obs.bidder)
    shift = declarer_bias(rules) * rules.total_points
    world: dict[int, float] = {}
    for action in choices:
        hands[me] = mask_of(obs.hand) | arg_of(action) if verb_of(action) == Verb.KEEP else 0
        machine = PlayMachine(rules, tt, obs.bidder, list(hands), list(status))
        if not machine.prepare():
            return None
        pos = machine.play_position(obs.trump, obs.bidder, (0,) * rules.num_sides, 0, -1)
        everything = 0
        for h in hands:
            everything |= h
        one = [TrickCards(obs.bidder, ((obs.bidder, everything),))]
        total = sum(count_points(rules, tt, one, {}, {}, [0] * rules.num_sides, 0)[0])
        value = max(0.0, solve(pos).value - shift)
        world[action] = value if mine else total - value
    return world


__all__ = ["MAX_CHOICES", "NOT_LAST", "applies", "last_exchange_worlds"]
