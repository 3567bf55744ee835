"""Guessing the hidden cards: worlds consistent with everything one seat has seen.

A *world* gives every seat's hand now. It is consistent with an observation
when nothing the seat saw rules it out:

* the seat's own hand, each seat's hand size, and the hands shown face up by
  cold, up or out players are exactly as seen;
* no hand holds a card that was played, laid aside face up, killed, or is
  one of the seat's own discards;
* a card the seat saw elsewhere (the stock it looked through, the others'
  discards it picked from, cards it gave its partner) is at most in its
  partner's hand: what the seat did not take or give is out of play;
* the card play so far replays under the variant's rules from the world's
  hands at the first lead (each seat's hand now plus the cards it played):
  every play legal and by the seat whose turn it was, the same tricks and
  winners, the same seats gone cold, up or out. This is what makes a seat
  that did not follow a trump lead hold no trump, under each variant's own
  follow rule (``pedro.engine.play``), and a seat that is still playing under
  the "up" rule hold one;
* what the exchange allows a hand to hold: where every non-trump is
  discarded (and trumps may not be), a seat kept ``cards held - cards laid
  aside`` trumps, all of them still in its hand or played (filled cards only
  add) -- unless a short stock dealt discards again, which the counts rule
  out only sometimes: otherwise the sampler assumes it (the true hands broke
  it in no test game) but the check does not; where a player without a trump
  must fold, a seat still in the hand held a trump at the first lead;
* where no trump can leave the hands face down or stay undealt (the dealer
  takes the stock's trumps, or the whole pack is dealt, and trump discards
  lie face up), every trump not seen is in a hidden hand;
* unless play goes on without trumps, some seat still playing held a trump
  when the current trick began (else the play would be over).

``consistent`` checks all of it for a given world; ``sample_worlds`` draws
worlds that pass it. The draw is a constrained random assignment: the cards
a seat may hold follow from the rules above (a card whose presence would have
made one of the seat's plays illegal is excluded), required trumps are placed
first, then each card goes to a seat with room, chosen in proportion to the
room left, with augmenting paths when a card's seats are full; a world that
still fails the full check is drawn again.

**Hands cut to six from the deal** (``exchange_model``: 63, 83, King Pedro)
are drawn as the deal makes them, not only as the rules allow: every trump
goes to a hand first, then each seat is dealt its non-trumps together with
the cards it laid aside face down and keeps the best (``keep_rank``); and a
seat seen to have had more trumps than six (it laid one aside face up, or
gave its partner trumps) holds only trumps. Both are what a sensible player
does, not what the rules force: like the almost sure floors they shape the
first half of the draws (the second half, tried only when the first found
no world, does without them), and the check does not use them.

**Bids are soft evidence.** A seat's calls say something about its hand but
the hand has changed since (discards, fills), so worlds are weighted rather
than rejected: with ``e`` the hand's estimated points with the trump suit
(``hand_strength.expected_points`` on its cards at the first lead), a seat that bid
``b`` made the bid with chance ``Phi((e + 0.5 - b) / s)`` and a seat that
passed when ``b`` was needed to bid passed with chance one minus that, where
``s`` is 0.28 of the points in play (the spread of a side's points about the
estimate, as ``heuristic`` uses). A world's weight is the product over the
other seats of ``max(0.05, chance) ** 0.5``: tempered because the estimate
is rough and the hands are not the ones bid on. A dealer forced to bid says
nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import PASS, Verb, arg_of, play_action, verb_of
from pedro.engine.draws import sample
from pedro.engine.observation import Observation
from pedro.engine.phases import Status
from pedro.players.hand_constraints import (
    OUT_OF_PLAY,
    Knowledge,
    keep_rank,
    knowledge,
    partner_of,
    play_floors,
    played_by,
    public_cards,
    seen_tricks,
    tables_of,
    trumps_stay_in_play,
)
from pedro.players.hand_strength import expected_points
from pedro.players.play_machine import PlayMachine
from pedro.variants.model import Ruleset

#: Draws of one seat's kept and laid-aside non-trumps before it is dealt them at random.
_KEEP_TRIES = 30


# ---------------------------------------------------------------- the check


#: Called before each replayed play with the machine at that turn, the seat and its play.
OnPlay = Callable[[PlayMachine, int, int], None]


def replay(
    obs: Observation, hands: list[int] | tuple[int, ...], on_play: OnPlay | None = None
) -> PlayMachine | None:
    """The play so far replayed from ``hands`` (each seat's hand now); None if it does not replay.

    On success the machine is at the observation's turn. ``on_play`` sees each
    legal play before it is made (``inference`` weighs worlds by them).
    """
    rules = obs.rules
    tt = tables_of(obs)
    assert obs.bidder is not None
    played = played_by(obs)
    at_play = [h | p for h, p in zip(hands, played, strict=True)]
    status = [Status.FOLDED if s == Status.FOLDED else Status.ACTIVE for s in obs.statuses]
    m = PlayMachine(rules, tt, obs.bidder, at_play, status)
    tricks = seen_tricks(obs)
    for t in tricks:
        for seat, cards in t.plays:
            if not m.prepare() or m.current_player != seat:
                return None
            action = play_action(list(cards))
            if action not in m.legal():
                return None
            if on_play is not None:
                on_play(m, seat, action)
            m.play(action)
    if not m.prepare() or m.current_player != obs.current_player:
        return None
    if tuple(m.status) != tuple(obs.statuses) or len(m.tricks) != len(obs.tricks):
        return None
    for trick, seen in zip(m.tricks, obs.tricks, strict=True):
        if trick.leader != seen.leader or trick.winner != seen.winner:
            return None
    assert obs.trick is not None and m.trick is not None
    if m.trick.leader != obs.trick.leader:
        return None
    return m


def consistent(obs: Observation, hands: list[int] | tuple[int, ...]) -> bool:
    """Whether a world (every seat's hand now) agrees with everything ``obs`` shows (module docstring)."""
    return _replay_if_consistent(obs, hands) is not None


def _replay_if_consistent(obs: Observation, hands: list[int] | tuple[int, ...]) -> PlayMachine | None:
    rules = obs.rules
    tt = tables_of(obs)
    n = rules.players
    if len(hands) != n or hands[obs.seat] != mask_of(obs.hand):
        return None
    union = 0
    for s, h in enumerate(hands):
        if h.bit_count() != obs.hand_sizes[s] or h & union or h & ~rules.deck_mask:
            return None
        union |= h
    public = public_cards(obs)
    if union & public:
        return None
    if trumps_stay_in_play(rules) and tt.trump_mask & rules.deck_mask & ~(union | public):
        return None
    for s in range(n):
        if obs.shown[s] and hands[s] != mask_of(obs.shown[s]):
            return None
    seen = mask_of(obs.seen)
    partner = partner_of(rules, obs.seat)
    if any(hands[s] & seen for s in range(n) if s not in (obs.seat, partner)):
        return None
    played = played_by(obs)
    floors, _ = play_floors(obs)
    for s in range(n):
        if ((hands[s] | played[s]) & tt.trump_mask).bit_count() < floors[s]:
            return None
    return replay(obs, hands)


# ---------------------------------------------------------------- the draw


def sample_hands(k: Knowledge, rng: random.Random) -> list[int] | None:
    """One random assignment of the pool that meets ``k`` (sizes, allowed cards, trumps); None if stuck."""
    n = len(k.fixed)
    hands = list(k.fixed)
    need = list(k.need)
    remaining = k.pool
    seats = [s for s in range(n) if s != k.seat and need[s] > 0]
    trump_mask = k.tt.trump_mask
    floors = list(k.min_trumps)
    if k.some_trump:
        floors[rng.choice(k.some_trump)] += 1
    order = [s for s in seats if floors[s] > 0]
    rng.shuffle(order)
    for s in order:
        cand = cards_of(k.allowed[s] & trump_mask & remaining)
        m = floors[s]
        if len(cand) < m:
            return None
        for c in rng.sample(cand, m):
            hands[s] |= 1 << c
            remaining &= ~(1 << c)
        need[s] -= m
    if k.thrown:
        return _deal_as_exchanged(k, rng, hands, need, remaining, seats)
    return _place(k, rng, hands, need, remaining, seats, remaining.bit_count() - sum(need[s] for s in seats))


def _deal_as_exchanged(
    k: Knowledge, rng: random.Random, hands: list[int], need: list[int], remaining: int, seats: list[int]
) -> list[int] | None:
    """Every trump into a hand, then each seat's non-trumps as the best of a random deal of them.

    A seat that may hold fewer of the unplaced non-trumps than it has places for
    (voids shown in play) gets that many of its allowed trumps first: placed at
    random, the trumps would seldom fill it so, and the draw would be thrown
    away. A seat with ``r`` places for non-trumps that laid ``d`` aside is dealt
    ``r + d`` of the unplaced non-trumps and keeps the best ``r``; the deal is
    redrawn while a kept card is one it cannot hold (a void shown in play) or a
    laid-aside card outranks a non-trump it played. A seat no such deal fits is
    given allowed non-trumps at random.
    """
    trump_mask = k.tt.trump_mask
    trumps = _trumps_for_short_seats(k, rng, hands, need, remaining, seats)
    if trumps is None:
        return None
    placed = _place(k, rng, hands, need, trumps, seats, 0)
    if placed is None:
        return None
    for s in seats:
        need[s] -= (placed[s] & ~hands[s]).bit_count()
    hands = placed
    rest = remaining & ~trump_mask
    order = [s for s in seats if need[s] > 0]
    rng.shuffle(order)
    for s in order:
        taken = _kept_of_a_deal(k, rng, s, need[s], rest)
        if taken is None:
            choices = cards_of(rest & k.allowed[s])
            if len(choices) < need[s]:
                return None
            kept = rng.sample(choices, need[s])
            taken = kept, mask_of(kept)
        kept, dealt = taken
        rest &= ~dealt
        hands[s] |= mask_of(kept)
    return hands


def _trumps_for_short_seats(
    k: Knowledge, rng: random.Random, hands: list[int], need: list[int], remaining: int, seats: list[int]
) -> int | None:
    """A seat with fewer non-trumps it may hold than places holds trumps in the rest: placed in
    ``hands`` (``need`` lowered); the trumps left to place, or None when a seat cannot be filled."""
    trump_mask = k.tt.trump_mask
    trumps = remaining & trump_mask
    for s in seats:
        short = need[s] - (remaining & ~trump_mask & k.allowed[s]).bit_count()
        if short > 0:
            cand = cards_of(k.allowed[s] & trumps)
            if len(cand) < short:
                return None
            for c in sample(rng, cand, short):
                hands[s] |= 1 << c
                trumps &= ~(1 << c)
            need[s] -= short
    return trumps


def _kept_of_a_deal(
    k: Knowledge, rng: random.Random, s: int, r: int, rest: int
) -> tuple[list[int], int] | None:
    """Seat ``s`` dealt ``r`` plus the cards it laid aside of the non-trumps ``rest``, keeping the
    best ``r``: those, and every card dealt; None when no deal of ``_KEEP_TRIES`` fits what the
    seat showed (``_deal_as_exchanged``)."""
    d = k.thrown[s]
    pool = cards_of(rest)
    if r + d > len(pool):
        return None
    # the pool ranked once: a deal's cards sort by their places in it (best first)
    ranked = sorted(pool, key=keep_rank, reverse=True)
    place = {c: i for i, c in enumerate(ranked)}
    # cards it may keep (no void shown), and how far down a laid-aside card may rank
    allowed = k.allowed[s]
    lowest = sum(1 for c in ranked if keep_rank(c) >= k.kept_min[s])
    for _ in range(_KEEP_TRIES):
        places = sorted([place[c] for c in sample(rng, pool, r + d)])
        if r < len(places) and places[r] < lowest:
            continue  # a laid-aside card outranks a non-trump it played
        dealt = [ranked[i] for i in places]
        if all(allowed >> c & 1 for c in dealt[:r]):
            return dealt[:r], mask_of(dealt)
    return None


def _place(
    k: Knowledge,
    rng: random.Random,
    hands: list[int],
    need: list[int],
    remaining: int,
    seats: list[int],
    out_room: int,
) -> list[int] | None:
    """Each card of ``remaining`` to a seat with room (``need``) or out of play (``out_room``), at random."""
    if out_room < 0:
        return None
    room = {s: need[s] for s in seats}
    room[OUT_OF_PLAY] = out_room
    holder: dict[int, int] = {}
    held: dict[int, list[int]] = {s: [] for s in room}
    cards = cards_of(remaining)
    rng.shuffle(cards)

    def options(c: int) -> list[int]:
        opts = [s for s in seats if k.allowed[s] >> c & 1]
        if out_room > 0 and k.out >> c & 1:
            opts.append(OUT_OF_PLAY)
        return opts

    def place(c: int, visited: set[int]) -> bool:
        """Kuhn's augmenting path over seats with room (each seat's slots are alike)."""
        opts = options(c)
        rng.shuffle(opts)
        for s in opts:
            if s in visited:
                continue
            visited.add(s)
            if room[s] > 0:
                room[s] -= 1
                holder[c] = s
                held[s].append(c)
                return True
            for d in list(held[s]):
                held[s].remove(d)
                room[s] += 1
                if place(d, visited):
                    room[s] -= 1
                    holder[c] = s
                    held[s].append(c)
                    return True
                held[s].append(d)
                room[s] -= 1
        return False

    for c in cards:
        free = [s for s in options(c) if room[s] > 0]
        if free:
            total = sum(room[s] for s in free)
            r = rng.random() * total
            for s in free:
                r -= room[s]
                if r < 0:
                    break
            room[s] -= 1
            holder[c] = s
            held[s].append(c)
        elif not place(c, set()):
            return None
    out = list(hands)
    for c, s in holder.items():
        if s != OUT_OF_PLAY:
            out[s] |= 1 << c
    return out


@dataclass(frozen=True)
class World:
    """One guess at every seat's hand now, its weight from the auction, and the play replayed to now."""

    hands: tuple[int, ...]
    weight: float
    machine: PlayMachine


def sample_worlds(obs: Observation, count: int, rng: random.Random, tries: int = 40) -> list[World]:
    """Up to ``count`` consistent worlds (fewer only if ``tries * count`` draws did not find them).

    The first half of the draws use the almost sure floors too; if they find nothing the
    second half does without them.
    """
    return list(iter_worlds(obs, count, rng, tries))


def iter_worlds(obs: Observation, count: int, rng: random.Random, tries: int = 40) -> Iterator[World]:
    """``sample_worlds`` one at a time: a player that stops early draws no more (the worlds it
    takes are the same, as long as nothing else draws from ``rng`` meanwhile)."""
    likely = knowledge(obs, likely=True)
    found = 0
    draws = max(2, tries * count)
    k = likely
    for i in range(draws):
        if found >= count:
            break
        if i == draws // 2 and not found:
            k = knowledge(obs, likely=False)
        hands = sample_hands(k, rng)
        if hands is None:
            continue
        machine = _replay_if_consistent(obs, hands)
        if machine is None:
            continue
        found += 1
        yield World(tuple(hands), bid_weight(obs, hands), machine)


# ---------------------------------------------------------------- bids as evidence

#: Spread of a side's points about the hand's estimate, as a fraction of the points in play.
_SIGMA = 0.28
#: Evidence is tempered (weights are chances to this power) and floored: the estimate is rough.
_TEMPER = 0.5
_FLOOR = 0.05


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def call_chances(obs: Observation, hands: list[int] | tuple[int, ...]) -> dict[int, float]:
    """Per other seat, how likely its calls were with the hand the world gives it (module docstring)."""
    rules = obs.rules
    assert obs.trump is not None
    played = played_by(obs)
    sigma = max(1.0, _SIGMA * rules.total_points)
    calls = list(obs.calls)
    forced_dealer = (
        bool(calls)
        and calls[-1][0] == obs.dealer
        and verb_of(calls[-1][1]) == Verb.BID
        and all(a == PASS for _, a in calls[:-1])
        and rules.dealer_forced_bid is not None
    )
    if forced_dealer:
        calls = calls[:-1]
    chance: dict[int, float] = {}
    estimates: dict[int, float] = {}
    high = 0
    for seat, action in calls:
        if seat == obs.seat:
            high = max(high, _call_value(rules, action))
            continue
        if seat not in estimates:
            estimates[seat] = expected_points(rules, hands[seat] | played[seat], obs.trump)
        e = estimates[seat]
        if action == PASS:
            need = max(rules.min_bid, high + 1)
            p = 1.0 - _phi((e + 0.5 - need) / sigma)
        else:
            value = _call_value(rules, action)
            high = max(high, value)
            p = _phi((e + 0.5 - value) / sigma)
        chance[seat] = chance.get(seat, 1.0) * p
    return chance


def _call_value(rules: Ruleset, action: int) -> int:
    verb = verb_of(action)
    if verb == Verb.BID:
        return arg_of(action)
    if verb == Verb.PASS or verb == Verb.PROTECT:
        return 0
    return rules.max_bid  # 28-56, the double: the top of the auction


def bid_weight(obs: Observation, hands: list[int] | tuple[int, ...]) -> float:
    """The world's weight from the auction: the tempered, floored product of ``call_chances``."""
    w = 1.0
    for p in call_chances(obs, hands).values():
        w *= max(_FLOOR, p) ** _TEMPER
    return w
