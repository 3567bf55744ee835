"""What one seat's observation fixes of the hidden hands: the cards each seat may hold, the
trumps each must have held at the first lead, and how the exchange shaped the hands.

``knowledge`` gathers it for the sampler (``players.sampling``, whose module
docstring gives the rules); ``play_floors`` and ``trumps_stay_in_play`` are
also the checks a drawn world must pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import play_action
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Phase, Status
from pedro.engine.play import effective_suit, legal_play_mask, stack_plays
from pedro.players.hand_strength import nontrump_keep_value
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


def seen_tricks(obs: Observation) -> list[SeenTrick]:
    """The finished tricks and the one in progress."""
    return [*obs.tricks, *([obs.trick] if obs.trick is not None else [])]


def played_by(obs: Observation) -> list[int]:
    """Cards each seat has played in this hand."""
    played = [0] * obs.rules.players
    for t in seen_tricks(obs):
        for seat, cards in t.plays:
            played[seat] |= mask_of(cards)
    return played


def partner_of(rules: Ruleset, seat: int) -> int:
    """The seat's partner (-1 where everyone plays alone)."""
    return (seat + 2) % rules.players if rules.partnerships else -1


def tables_of(obs: Observation) -> TrumpTables:
    """The trump tables of the card play in progress (worlds are sampled there only)."""
    if obs.phase != Phase.PLAY or obs.trump is None or obs.bidder is None or obs.trick is None:
        raise ValueError("worlds are sampled in the card play only")
    return obs.rules.tables(obs.trump)


def public_cards(obs: Observation) -> int:
    """Cards no hand can hold: played, laid aside face up or killed, and the seat's own discards."""
    out = mask_of(obs.own_discards)
    for t in seen_tricks(obs):
        for _seat, cards in t.plays:
            out |= mask_of(cards)
    for cards in obs.face_up:
        out |= mask_of(cards)
    return out


def play_floors(obs: Observation) -> tuple[list[int], list[int]]:
    """Fewest trumps each seat held at the first lead, by what the exchange allows (the module
    docstring of ``players.sampling``).

    Two lists: floors that always hold, and floors that hold unless a short stock dealt
    discards again in a way the counts cannot rule out (rare; the sampler tries them first).
    """
    n = obs.rules.players
    folded = [s == _FOLDED for s in obs.statuses]
    sure = [0 if folded[s] else 1 for s in range(n)] if _fold_needs_a_trump(obs.rules) else [0] * n
    likely = list(sure)
    counts = _kept_counts(obs, folded)
    if counts is not None:
        kept, no_refill = counts
        for s in range(n):
            if not folded[s]:
                likely[s] = max(likely[s], kept[s])
                if no_refill:
                    sure[s] = max(sure[s], kept[s])
    for s, at_lead in _overfull_in_trumps(obs).items():
        likely[s] = max(likely[s], at_lead)
    return sure, likely


def _fold_needs_a_trump(rules: Ruleset) -> bool:
    """A seat without a trump must fold, and no trump leaves a hand in the exchange: a seat still
    in the hand held a trump at the first lead."""
    keeps_trumps = rules.discard in (DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST, DiscardPolicy.NONE) or (
        rules.discard == DiscardPolicy.ALL_NONTRUMPS and not _trumps_thrown(rules)
    )
    return bool(rules.fold and rules.fold_mandatory and keeps_trumps)


def _kept_counts(obs: Observation, folded: list[bool]) -> tuple[list[int], bool] | None:
    """Where every non-trump is discarded and trumps stay, the cards each seat kept (all trumps),
    and whether the stock was long enough that no discards were dealt again (then the counts are
    sure); None elsewhere."""
    rules = obs.rules
    n = rules.players
    if (
        rules.discard != DiscardPolicy.ALL_NONTRUMPS
        or rules.keep_nontrumps
        or _trumps_thrown(rules)
        or (rules.excess_trumps == ExcessTrumps.PASS_TO_PARTNER and rules.partnerships)
        or len(obs.discarded) != n
        or obs.bidder is None
    ):
        return None
    held = [rules.first_deal_size + rules.second_deal for _ in range(n)]
    held[obs.bidder] += rules.kitty_size
    kept = [held[s] - obs.discarded[s] for s in range(n)]
    stock = len(rules.deck) - n * (rules.first_deal_size + rules.second_deal) - rules.kitty_size
    full = max(rules.play_hand_size, 6)
    # a short stock deals discards again, which lowers the counts; then every seat's demand
    # on the stock, computed from the counts, adds up to the stock at least
    demand = sum(max(0, full - kept[s]) for s in range(n) if not folded[s])
    return kept, demand < stock


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
    tt = tables_of(obs)
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
    pool = rules.deck_mask & ~(public_cards(obs) | known)
    seen = mask_of(obs.seen)
    partner = partner_of(rules, me)
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
    for i, t in enumerate(seen_tricks(obs)):
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
