"""Dealing the hidden cards again: a state one seat cannot tell from the real one.

OpenSpiel's search bots (ISMCTS) call ``resample_from_infostate`` to draw a
world consistent with what the deciding seat has seen. Every world returned
here is checked exactly: the current hand is dealt from a new pack and all its
steps replayed, and the world is kept only if each player step is legal and by
the same seat and the seat's recall (``Table.recall``) comes out the same,
entry by entry (compared as it grows, so a bad pack is dropped at its first
difference). Earlier hands keep their real cards: nothing after a hand depends
on its hidden cards (scores and dealers are public).

Packs come from two samplers:

1. **Exact draws** (``propose_pack``): the cards the seat knows the place of
   stay where they are (its own deal, cards it received or saw), each card
   another seat is publicly known to have held (played, laid face up, shown)
   goes to a random free position among those that seat took cards from (its
   deal positions, the kitty and stock cards it took or looked through), the
   rest are shuffled into the positions left; rejection keeps the consistent
   ones, which are then uniform among those proposals. Up to ``TRIES`` draws.
2. **A Markov chain** when exact draws fail (they rarely pass in the card play:
   every card each seat played must land in its hand): from the real pack,
   each move swaps the cards of two positions the seat does not know (with
   even chances any two, or two of the same effective suit, trumps being one
   suit: both moves are symmetric) and is kept if the replay still matches. The chain
   is uniform over the consistent packs it can reach; it starts from the real
   deal, so its first ``BURN_IN`` accepted moves are discarded, and it is kept
   for the position (``Table.cache``) so later calls make ``MOVES`` moves each.

Both treat the other seats' decisions as independent of their cards (the
usual determinization). Limits: placing a publicly held card only among its
holder's positions leaves out worlds where it came by a partner's give, a pick
from the discards or the wash; a chain's samples are correlated with each
other and, to a degree its mixing decides, with the real deal.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from pedro.cards import cards_of
from pedro.engine.deal import deal_positions
from pedro.engine.observation import Observation
from pedro.engine.play import effective_suit
from pedro.envs.chance import CHANCE, Table

#: exact draws tried before a chain is started
TRIES = 30
#: a new chain discards this many accepted moves (trying at most BURN_IN_TRIES moves)
BURN_IN = 120
BURN_IN_TRIES = 1200
#: moves tried by each later call on the same position
MOVES = 4


@dataclass
class ResampleStats:
    """How one resample went: the sampler, packs replayed, chain moves accepted, time taken."""

    method: str  # "deal" (the hand is being dealt), "exact", "chain" or "copy" (nothing to draw)
    replays: int
    accepted: int
    seconds: float


@dataclass
class _Chain:
    free: list[int]  # positions the chain may swap
    classes: dict[int, int]  # card -> effective suit (trumps: one class)
    pack: list[int]
    table: Table


def resample(table: Table, seat: int, rng: random.Random, tries: int = TRIES) -> tuple[Table, ResampleStats]:
    """A table with the same recall for ``seat`` and the current hand's hidden cards drawn again."""
    if not 0 <= seat < table.players:
        raise ValueError(f"seat must be from 0 to {table.players - 1}, got {seat}")
    start = time.perf_counter()
    if seat in table.stale or (table.at_deal is not None and seat in table.at_deal.stale):
        table.catch_up()  # the seat's recall is compared step by step: it must be complete
    if table.at_deal is None:  # the first dealer is not chosen yet: nothing is hidden
        return table.copy(), ResampleStats("copy", 0, 0, time.perf_counter() - start)
    shuffle = table.shuffle
    if table.engine is None or (shuffle is not None and shuffle.kind == "pack"):
        # the current hand's pack is being drawn: nobody has seen any of it
        dealing = table.at_deal.copy()
        for _ in table.steps[table.hand_step :]:
            dealing.apply(rng.choice(dealing.chance_outcomes())[0])
        return dealing, ResampleStats("deal", 0, 0, time.perf_counter() - start)
    key = ("chain", seat)
    chain = table.cache.get(key)
    if chain is None:
        for attempt in range(1, tries + 1):
            new = replay_hand(table, seat, propose_pack(table, seat, rng), rng)
            if new is not None:
                return new, ResampleStats("exact", attempt, 0, time.perf_counter() - start)
        chain = _new_chain(table, seat)
        accepted, moves = _walk(table, seat, chain, rng, BURN_IN_TRIES, BURN_IN)
        table.cache[key] = chain
        replays = tries + moves
    else:
        assert isinstance(chain, _Chain)
        accepted, moves = _walk(table, seat, chain, rng, MOVES, MOVES)
        replays = moves
    return chain.table.copy(), ResampleStats("chain", replays, accepted, time.perf_counter() - start)


def _fixed_positions(
    table: Table, seat: int, where: dict[int, int], deal: tuple[tuple[int, ...], ...]
) -> set[int]:
    """Positions of the current pack whose card ``seat`` knows: its first deal and cards it knows of."""
    return set(deal[seat]) | {where[c] for c in _known_cards(table, seat)}


def _layout(table: Table) -> tuple[list[int], dict[int, int], tuple[tuple[int, ...], ...]]:
    """The current hand's real pack, each card's position in it, and each seat's first-deal positions."""
    engine = table.engine
    assert engine is not None
    rules = table.rules
    real = table.deals.packs[engine.hand_index]
    where = {c: i for i, c in enumerate(real)}
    packets = (1,) if rules.deal_all_out else rules.packets
    return real, where, deal_positions(rules.players, engine.dealer, rules.first_deal_size, packets)


def _known_cards(table: Table, seat: int) -> set[int]:
    engine = table.engine
    assert engine is not None
    obs = engine.observation(seat)
    known = set(obs.hand) | set(obs.own_discards) | set(obs.seen)
    return known | {c for c, s in engine.later_receivers().items() if s == seat}


def _new_chain(table: Table, seat: int) -> _Chain:
    engine = table.engine
    assert engine is not None
    pack, where, deal = _layout(table)
    real = list(pack)
    fixed = _fixed_positions(table, seat, where, deal)
    trumps = table.rules.tables(engine.trump).trump_mask if engine.trump is not None else 0
    classes = {c: effective_suit(c, trumps) for c in real}
    return _Chain([i for i in range(len(real)) if i not in fixed], classes, real, table.copy())


def _walk(
    table: Table, seat: int, chain: _Chain, rng: random.Random, tries: int, wanted: int
) -> tuple[int, int]:
    """Try up to ``tries`` moves, stopping after ``wanted`` accepted; (accepted, tried)."""
    accepted = tried = 0
    free = chain.free
    if len(free) < 2:
        return 0, 0
    while tried < tries and accepted < wanted:
        tried += 1
        pack = chain.pack
        i = rng.choice(free)
        kind = rng.randrange(2)
        if kind == 0:  # two cards of the same effective suit
            cls = chain.classes[pack[i]]
            others = [j for j in free if j != i and chain.classes[pack[j]] == cls]
        else:  # any two
            others = [j for j in free if j != i]
        if not others:
            continue
        j = rng.choice(others)
        moved = list(pack)
        moved[i], moved[j] = moved[j], moved[i]
        new = replay_hand(table, seat, moved, rng)
        if new is not None:
            chain.pack = moved
            chain.table = new
            accepted += 1
    return accepted, tried


def propose_pack(table: Table, seat: int, rng: random.Random) -> list[int]:
    """A pack for the current hand keeping what ``seat`` knows in place (see the module docstring)."""
    engine = table.engine
    assert engine is not None
    real, where, deal = _layout(table)
    pack: list[int | None] = [None] * len(real)
    for i in _fixed_positions(table, seat, where, deal):
        pack[i] = real[i]
    placed = {c for c in pack if c is not None}
    taken = _taken_positions(table, where, deal)
    held = _publicly_held(engine.observation(seat))
    others = [s for s in range(table.players) if s != seat]
    rng.shuffle(others)
    for s in others:
        for c in held[s]:
            if c in placed:
                continue
            free = [i for i in taken[s] if pack[i] is None]
            if free:
                pack[rng.choice(sorted(free))] = c
                placed.add(c)
    rest = [c for c in real if c not in placed]
    rng.shuffle(rest)
    fill = iter(rest)
    return [c if c is not None else next(fill) for c in pack]


def _taken_positions(
    table: Table, where: dict[int, int], deal: tuple[tuple[int, ...], ...]
) -> list[set[int]]:
    """Per seat, the positions it took cards from (deal, kitty, stock) or looked through."""
    engine = table.engine
    assert engine is not None
    taken: list[set[int]] = [set(positions) for positions in deal]
    for c, s in engine.later_receivers().items():
        taken[s].add(where[c])
    for s, cards in enumerate(engine.seen):
        taken[s].update(where[c] for c in cards_of(cards))
    return taken


def _publicly_held(obs: Observation) -> list[list[int]]:
    """Per seat, the cards everyone saw it hold: played (this hand), laid face up or shown."""
    held: list[list[int]] = [[] for _ in obs.face_up]
    for trick in (*obs.tricks, *([obs.trick] if obs.trick is not None else [])):
        for s, cards in trick.plays:
            held[s].extend(cards)
    for s, seat_held in enumerate(held):
        seat_held.extend(obs.face_up[s])
        seat_held.extend(obs.shown[s])
    return held


def replay_hand(table: Table, seat: int, pack: list[int], rng: random.Random) -> Table | None:
    """``table``'s current hand dealt from ``pack``, or None if ``seat`` could tell the difference."""
    assert table.at_deal is not None
    new = table.at_deal.copy(logging=(seat,))  # the other seats' logs are rebuilt only if asked for
    target = table.logs[seat]
    try:
        for card in pack[:-1]:
            new.apply(card)
        checked = table.hand_log_start[seat]
        if not _same_so_far(new.logs[seat], target, checked):
            return None
        checked = len(new.logs[seat])
        for player, action in table.steps[table.hand_step + len(pack) - 1 :]:
            now = new.current_player()
            if player == CHANCE:
                if now != CHANCE:
                    return None
                outcomes = [c for c, _p in new.chance_outcomes()]
                new.apply(action if action in outcomes else rng.choice(outcomes))
            else:
                if now != player:
                    return None
                new.apply(action)
            if not _same_so_far(new.logs[seat], target, checked):
                return None
            checked = len(new.logs[seat])
    except ValueError:  # an action the new cards do not allow (IllegalActionError, a refused id)
        return None
    if len(new.logs[seat]) != len(target) or new.current_player() != table.current_player():
        return None
    return new


def _same_so_far(log: list[str], target: list[str], checked: int) -> bool:
    return len(log) <= len(target) and log[checked:] == target[checked : len(log)]
