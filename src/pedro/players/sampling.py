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
(``basic.expected_points`` on its cards at the first lead), a seat that bid
``b`` made the bid with chance ``Phi((e + 0.5 - b) / s)`` and a seat that
passed when ``b`` was needed to bid passed with chance one minus that, where
``s`` is 0.28 of the points in play (the spread of a side's points about the
estimate, as ``heuristic`` uses). A world's weight is the product over the
other seats of ``max(0.05, chance) ** 0.5``: tempered because the estimate
is rough and the hands are not the ones bid on. A dealer forced to bid says
nothing.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import PASS, Verb, arg_of, play_action, verb_of
from pedro.engine.draws import sample
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Phase, Status
from pedro.engine.play import effective_suit, legal_play_mask, normal_hand_size, stack_plays
from pedro.engine.play_position import PlayPosition
from pedro.engine.turns import PlayTurns, Trick
from pedro.players.basic import expected_points, nontrump_keep_value
from pedro.variants.model import (
    DiscardPolicy,
    ExcessTrumps,
    FillPolicy,
    OutOfTrumps,
    Ruleset,
    TrumpDiscardClaim,
)
from pedro.variants.tables import TrumpTables

_ACTIVE = int(Status.ACTIVE)
_FOLDED = int(Status.FOLDED)
_COLD = int(Status.COLD)
_UP = int(Status.UP)
_OUT = int(Status.OUT)
#: The "seat" of cards out of play (undealt, discarded face down by others).
OUT_OF_PLAY = -1
#: Above every ``keep_rank``.
_ABOVE_ALL = 1 << 16
#: Draws of one seat's kept and laid-aside non-trumps before it is dealt them at random.
_KEEP_TRIES = 30


# ---------------------------------------------------------------- the card play, over masks


class PlayMachine(PlayTurns):
    """The engine's card play over card masks, so that a guessed world can be replayed and
    played on without a ``GameState``: the turn order, legal plays and tricks are ``PlayTurns``'s.
    """

    _tt: TrumpTables
    #: the play has ended (``prepare`` is False from then on)
    over: bool

    def __init__(
        self, rules: Ruleset, tt: TrumpTables, bidder: int, hands: list[int], status: list[Status]
    ) -> None:
        """The first lead of a hand: ``status`` holds who folded."""
        self._rules = rules
        self._tt = tt
        self._hands = list(hands)
        self._status = list(status)
        self._normal_hand_size = normal_hand_size(rules)
        self._tricks = []
        self.over = False
        self._start_turns(bidder)

    def copy(self) -> PlayMachine:
        new = copy.copy(self)
        new.over = self.over  # the compiled build's copy carries only PlayTurns's (native) fields
        new._hands = list(self._hands)
        new._status = list(self._status)
        new._tricks = list(self._tricks)  # a finished trick does not change
        if self._trick is not None:
            new._trick = Trick(self._trick.leader, list(self._trick.plays), self._trick.winner)
        return new

    # read-only views for the sampler's players (typed so that mypy refuses writes)

    @property
    def tt(self) -> TrumpTables:
        return self._tt

    @property
    def hands(self) -> Sequence[int]:
        """Each seat's cards now, as masks."""
        return self._hands

    @property
    def status(self) -> Sequence[Status]:
        return self._status

    @property
    def tricks(self) -> Sequence[Trick]:
        """The finished tricks of the hand."""
        return self._tricks

    @property
    def trick(self) -> Trick | None:
        """The trick in progress (do not change it: ``copy`` first)."""
        return self._trick

    def play_position(
        self, trump: int, bidder: int, credits: tuple[int, ...], credited: int, low_dealt_to: int
    ) -> PlayPosition:
        """This world's position at the current turn, for the solver (the public facts given)."""
        return self._play_position(trump, bidder, credits, credited, low_dealt_to)

    def _end_play(self) -> None:
        self.over = True

    def prepare(self) -> bool:
        """Move on to the next seat that must play (True), or end the play (False)."""
        return not self.over and self._prepare_play_turn()

    def legal(self) -> tuple[int, ...]:
        """The current seat's legal plays."""
        return self._legal_plays(self.current_player)

    def play(self, action: int) -> None:
        """The current seat plays ``action`` (assumed legal); call ``prepare`` before the next play."""
        self._apply_play(self.current_player, action)


# ---------------------------------------------------------------- what the observation fixes


def _all_tricks(obs: Observation) -> list[SeenTrick]:
    return [*obs.tricks, *([obs.trick] if obs.trick is not None else [])]


def played_by(obs: Observation) -> list[int]:
    """Cards each seat has played in this hand."""
    played = [0] * obs.rules.players
    for t in _all_tricks(obs):
        for seat, cards in t.plays:
            played[seat] |= mask_of(cards)
    return played


def _partner(rules: Ruleset, seat: int) -> int:
    return (seat + 2) % rules.players if rules.partnerships else -1


def _tables(obs: Observation) -> TrumpTables:
    if obs.phase != Phase.PLAY or obs.trump is None or obs.bidder is None or obs.trick is None:
        raise ValueError("worlds are sampled in the card play only")
    return obs.rules.tables(obs.trump)


def _public(obs: Observation) -> int:
    """Cards no hand can hold: played, laid aside face up or killed, and the seat's own discards."""
    out = mask_of(obs.own_discards)
    for t in _all_tricks(obs):
        for _seat, cards in t.plays:
            out |= mask_of(cards)
    for cards in obs.face_up:
        out |= mask_of(cards)
    return out


def play_floors(obs: Observation) -> tuple[list[int], list[int]]:
    """Fewest trumps each seat held at the first lead, by what the exchange allows (module docstring).

    Two lists: floors that always hold, and floors that hold unless a short stock dealt
    discards again in a way the counts cannot rule out (rare; the sampler tries them first).
    """
    rules = obs.rules
    n = rules.players
    sure = [0] * n
    folded = [s == _FOLDED for s in obs.statuses]
    keeps_trumps = rules.discard in (DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST, DiscardPolicy.NONE) or (
        rules.discard == DiscardPolicy.ALL_NONTRUMPS and not _trumps_thrown(rules)
    )
    if rules.fold and rules.fold_mandatory and keeps_trumps:
        sure = [0 if folded[s] else 1 for s in range(n)]
    likely = list(sure)
    if (
        rules.discard == DiscardPolicy.ALL_NONTRUMPS
        and not rules.keep_nontrumps
        and not _trumps_thrown(rules)
        and not (rules.excess_trumps == ExcessTrumps.PASS_TO_PARTNER and rules.partnerships)
        and len(obs.discarded) == n
        and obs.bidder is not None
    ):
        held = [rules.first_deal_size + rules.second_deal for _ in range(n)]
        held[obs.bidder] += rules.kitty_size
        kept = [held[s] - obs.discarded[s] for s in range(n)]
        stock = len(rules.deck) - n * (rules.first_deal_size + rules.second_deal) - rules.kitty_size
        full = max(rules.play_hand_size, 6)
        # a short stock deals discards again, which lowers the counts; then every seat's demand
        # on the stock, computed from the counts, adds up to the stock at least
        demand = sum(max(0, full - kept[s]) for s in range(n) if not folded[s])
        for s in range(n):
            if not folded[s]:
                likely[s] = max(likely[s], kept[s])
                if demand < stock:
                    sure[s] = max(sure[s], kept[s])
    for s, at_lead in _overfull_in_trumps(obs).items():
        likely[s] = max(likely[s], at_lead)
    return sure, likely


def _reduces_from_the_deal(rules: Ruleset) -> bool:
    """Hands are cut to the play size from the deal (and the bidder's kitty), nothing filled."""
    return rules.discard == DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST and rules.fill == FillPolicy.NONE


def _overfull_in_trumps(obs: Observation) -> dict[int, int]:
    """Seats seen to hold more trumps than a play hand, so playing trumps only (reduce to six),
    each with its number of cards at the first lead.

    A seat laid a trump aside face up, or laid aside fewer cards than its deal
    (and kitty) exceeds the play hand: it gave trumps to its partner, which
    only a hand of more trumps than it may keep does. Keeping its trumps
    first, such a seat holds nothing else (the rules let a player keep a
    non-trump over a non-scoring trump, so this is likely, not sure).
    """
    rules = obs.rules
    n = rules.players
    if (
        not _reduces_from_the_deal(rules)
        or len(obs.discarded) != n
        or obs.bidder is None
        or obs.trump is None
    ):
        return {}
    tt = rules.tables(obs.trump)
    played = played_by(obs)
    out = {}
    for s in range(n):
        if obs.statuses[s] == _FOLDED or s == obs.seat:
            continue
        at_lead = obs.hand_sizes[s] + played[s].bit_count()
        held = rules.first_deal_size + rules.second_deal + (rules.kitty_size if s == obs.bidder else 0)
        gave = held - obs.discarded[s] > at_lead
        if gave or mask_of(obs.face_up[s]) & tt.trump_mask:
            out[s] = at_lead
    return out


def trumps_stay_in_play(rules: Ruleset) -> bool:
    """Whether every trump is in a hand, played or face up (none face down or undealt).

    Trumps leave a hand face down only where discards may hold trumps and trump
    discards lie face down; the stock's trumps all reach a hand where the dealer
    takes them from the rest of the stock (or the whole pack is dealt). A folded
    hand holds no trump (a player folds without one, or gives his to partner).
    """
    hidden = not rules.trump_discards_face_up and (
        rules.discard
        in (DiscardPolicy.ANY_CARDS, DiscardPolicy.AT_LEAST_3_ANY, DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST)
        or (rules.discard == DiscardPolicy.ALL_NONTRUMPS and _trumps_thrown(rules))
    )
    if hidden:
        return False
    takes_the_stock = (
        FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
        FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
    )
    if rules.fill in takes_the_stock:
        return True
    dealt = rules.players * (rules.first_deal_size + rules.second_deal) + rules.kitty_size
    return rules.fill == FillPolicy.NONE and dealt == len(rules.deck)


def _trumps_thrown(rules: Ruleset) -> bool:
    """Trumps may be discarded under ``all_nontrumps`` (robbing or claiming the discards)."""
    return rules.dealer_robs_discards or rules.trump_discard_claim != TrumpDiscardClaim.NONE


@dataclass(frozen=True)
class Knowledge:
    """What an observation fixes about the hidden hands, in the form the sampler uses."""

    seat: int
    tt: TrumpTables
    #: cards known to be in each hand now (the seat's own hand, hands shown face up)
    fixed: tuple[int, ...]
    #: hidden cards still to place in each hand
    need: tuple[int, ...]
    #: cards whose place the seat does not know (in a hidden hand or out of play)
    pool: int
    #: per seat, the cards of ``pool`` it may hold
    allowed: tuple[int, ...]
    #: per seat, how many of its hidden cards at least are trumps
    min_trumps: tuple[int, ...]
    #: seats one of which must hold a hidden trump (the play is not over), or none
    some_trump: tuple[int, ...] = ()
    #: the cards of ``pool`` that may be out of play
    out: int = -1
    #: where hands are cut from the deal keeping the best cards (``exchange_model``): per
    #: seat, how many non-trumps it laid aside face down, and the keep rank of the lowest
    #: non-trump it played (kept, so higher than everything it laid aside); else empty
    thrown: tuple[int, ...] = ()
    kept_min: tuple[int, ...] = ()


def knowledge(obs: Observation, likely: bool = True) -> Knowledge:
    """The sampler's constraints: sound ones, and with ``likely`` the floors that are almost sure."""
    rules = obs.rules
    tt = _tables(obs)
    n = rules.players
    me = obs.seat
    fixed = [0] * n
    fixed[me] = mask_of(obs.hand)
    for s in range(n):
        if s != me and obs.shown[s]:
            fixed[s] = mask_of(obs.shown[s])
    need = tuple(obs.hand_sizes[s] - fixed[s].bit_count() for s in range(n))
    known = 0
    for m in fixed:
        known |= m
    pool = rules.deck_mask & ~(_public(obs) | known)
    seen = mask_of(obs.seen)
    partner = _partner(rules, me)
    allowed = [0] * n
    for s in range(n):
        if s == me or need[s] <= 0:
            continue
        a = pool
        if s != partner:
            a &= ~seen
        if obs.statuses[s] in (_COLD, _UP, _OUT):
            a &= ~tt.trump_mask
        allowed[s] = a
    _exclude_by_plays(obs, tt, allowed)
    played = played_by(obs)
    sure, probable = play_floors(obs)
    floors = probable if likely else sure
    min_trumps = [0] * n
    for s in range(n):
        if s == me or need[s] <= 0:
            continue
        held = ((played[s] | fixed[s]) & tt.trump_mask).bit_count()
        m = floors[s] - held
        if rules.out_of_trumps == OutOfTrumps.UP and obs.statuses[s] == _ACTIVE:
            m = max(m, 1 - (fixed[s] & tt.trump_mask).bit_count())
        min_trumps[s] = max(0, m)
    some = _someone_holds_a_trump(obs, tt, fixed, allowed, min_trumps)
    out = pool & ~tt.trump_mask if trumps_stay_in_play(rules) else pool
    thrown, kept_min = exchange_model(obs, played) if likely else ((), ())
    return Knowledge(
        me, tt, tuple(fixed), need, pool, tuple(allowed), tuple(min_trumps), some, out, thrown, kept_min
    )


def keep_rank(c: int) -> int:
    """How a sensible player ranks a non-trump to keep: as ``basic`` does, ties as its sort breaks them."""
    return int(nontrump_keep_value(c)) * 64 + c


def exchange_model(obs: Observation, played: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the sampler needs to deal non-trumps as the exchange left them (``Knowledge.thrown``).

    Where each hand is cut to the play size from its deal (and the bidder's
    kitty), every trump stays in a hand and non-trumps are laid aside face
    down, a player keeps its highest non-trumps: the non-trumps a seat holds
    are the best of those it was dealt. The sampler deals each seat its kept
    non-trumps and its face-down discards together and keeps the best, which
    draws worlds as often as deals make them, instead of every hidden non-trump
    being equally likely in every hand.
    """
    rules = obs.rules
    n = rules.players
    if (
        not _reduces_from_the_deal(rules)
        or rules.discards_face_up
        or not trumps_stay_in_play(rules)
        or len(obs.discarded) != n
        or obs.trump is None
    ):
        return (), ()
    trumps = rules.tables(obs.trump).trump_mask
    thrown = tuple(max(0, obs.discarded[s] - len(obs.face_up[s])) for s in range(n))
    kept_min = tuple(
        min((keep_rank(c) for c in cards_of(played[s] & ~trumps)), default=_ABOVE_ALL) for s in range(n)
    )
    return thrown, kept_min


def _someone_holds_a_trump(
    obs: Observation, tt: TrumpTables, fixed: list[int], allowed: list[int], min_trumps: list[int]
) -> tuple[int, ...]:
    """Seats one of which holds a hidden trump: unless play goes on without trumps, the play
    is over once no seat still playing holds one, so someone did when this trick began."""
    rules = obs.rules
    if rules.out_of_trumps == OutOfTrumps.CONTINUE or obs.trick is None:
        return ()
    in_trick = {s for s, _cards in obs.trick.plays}
    playing = [s for s in range(rules.players) if obs.statuses[s] == _ACTIVE or s in in_trick]
    known = 0
    for s in playing:
        known |= fixed[s]
    for _s, cards in obs.trick.plays:
        known |= mask_of(cards)
    if known & tt.trump_mask or any(min_trumps[s] for s in playing):
        return ()
    return tuple(s for s in playing if allowed[s] & tt.trump_mask)


def _exclude_by_plays(obs: Observation, tt: TrumpTables, allowed: list[int]) -> None:
    """Drop from ``allowed`` each card whose presence would have made one of the seat's plays illegal."""
    rules = obs.rules
    plays: list[tuple[int, tuple[int, ...], int, bool, bool]] = []  # seat, cards, led, first trick, must
    first_lead = True
    for i, t in enumerate(_all_tricks(obs)):
        led = -1
        for seat, cards in t.plays:
            plays.append((seat, cards, led, i == 0, first_lead and rules.first_lead_trump))
            if led < 0:
                led = effective_suit(cards[0], tt.trump_mask)
            first_lead = False
    later = [0] * rules.players  # cards each seat played from this play on
    for seat, cards, led, first, must in reversed(plays):
        later[seat] |= mask_of(cards)
        cand = allowed[seat]
        if not cand:
            continue
        top = cards[0]
        size = len(cards)
        action = play_action(list(cards))
        for x in cards_of(cand):
            hand = later[seat] | 1 << x
            if first:
                mask = legal_play_mask(tt, hand, led, must and led < 0)
                ok = action in stack_plays(rules, tt, hand, mask, size) if size > 1 else bool(mask >> top & 1)
            else:
                ok = bool(legal_play_mask(tt, hand, led, False) >> top & 1)
            if not ok:
                cand &= ~(1 << x)
        allowed[seat] = cand


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
    tt = _tables(obs)
    assert obs.bidder is not None
    played = played_by(obs)
    at_play = [h | p for h, p in zip(hands, played, strict=True)]
    status = [Status.FOLDED if s == _FOLDED else Status.ACTIVE for s in obs.statuses]
    m = PlayMachine(rules, tt, obs.bidder, at_play, status)
    tricks = _all_tricks(obs)
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
    tt = _tables(obs)
    n = rules.players
    if len(hands) != n or hands[obs.seat] != mask_of(obs.hand):
        return None
    union = 0
    for s, h in enumerate(hands):
        if h.bit_count() != obs.hand_sizes[s] or h & union or h & ~rules.deck_mask:
            return None
        union |= h
    public = _public(obs)
    if union & public:
        return None
    if trumps_stay_in_play(rules) and tt.trump_mask & rules.deck_mask & ~(union | public):
        return None
    for s in range(n):
        if obs.shown[s] and hands[s] != mask_of(obs.shown[s]):
            return None
    seen = mask_of(obs.seen)
    partner = _partner(rules, obs.seat)
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
    trumps = remaining & trump_mask
    for s in seats:  # a seat with fewer non-trumps it may hold than places holds trumps in the rest
        short = need[s] - (remaining & ~trump_mask & k.allowed[s]).bit_count()
        if short > 0:
            cand = cards_of(k.allowed[s] & trumps)
            if len(cand) < short:
                return None
            for c in sample(rng, cand, short):
                hands[s] |= 1 << c
                trumps &= ~(1 << c)
            need[s] -= short
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
        r, d = need[s], k.thrown[s]
        pool = cards_of(rest)
        kept: list[int] | None = None
        if r + d <= len(pool):
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
                    kept = dealt[:r]
                    rest &= ~mask_of(dealt)
                    break
        if kept is None:
            choices = cards_of(rest & k.allowed[s])
            if len(choices) < r:
                return None
            kept = rng.sample(choices, r)
            rest &= ~mask_of(kept)
        hands[s] |= mask_of(kept)
    return hands


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


def sample_worlds(
    obs: Observation, count: int, rng: random.Random, tries: int = 40, temper: float | None = None
) -> list[World]:
    """Up to ``count`` consistent worlds (fewer only if ``tries * count`` draws did not find them).

    The first half of the draws use the almost sure floors too; if they find nothing the
    second half does without them.
    """
    return list(iter_worlds(obs, count, rng, tries, temper))


def iter_worlds(
    obs: Observation, count: int, rng: random.Random, tries: int = 40, temper: float | None = None
) -> Iterator[World]:
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
        yield World(tuple(hands), bid_weight(obs, hands, temper), machine)


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


def bid_weight(obs: Observation, hands: list[int] | tuple[int, ...], temper: float | None = None) -> float:
    """The world's weight from the auction: the tempered, floored product of ``call_chances``.

    ``temper`` (default 0.5) is the power of each chance: 0 ignores the auction.
    """
    power = _TEMPER if temper is None else temper
    if power == 0:
        return 1.0
    w = 1.0
    for p in call_chances(obs, hands).values():
        w *= max(_FLOOR, p) ** power
    return w
