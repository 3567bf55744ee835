"""``basic``: a plain rule-based player that plays every variant sensibly.

It sees only its ``Observation`` and decides with a handful of rules a
club player would recognise: bid what the trumps in hand are likely to take,
name the longest-and-strongest suit, throw away low non-trumps, and in play
win point tricks with the cheapest card that holds, keep pedros off tricks
the opponents will win, and feed points to a partner whose trick is safe.
Every decision is a few integer operations per legal action, so whole
simulated games cost milliseconds. It exists as a sparring partner that is
clearly better than ``random`` and as the default opponent of ``pedro play``.

Its parts (``players.parts``): ``BasicBidder``, ``BasicExchanger`` and
``RuleCardPlayer``, which reads the play through ``play_view``; ``heuristic``
builds on the exchanger and the card player, and the helpers here that both
bid by (``high_call``, ``bid_of``, ...) are theirs too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import islice

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import FOLD, PASS, PROTECT, Verb, arg_of, cards_action, verb_of
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.players.hand_strength import best_expected_points, expected_points, nontrump_keep_value
from pedro.players.parts import ComposedPlayer
from pedro.players.play_view import PlayView
from pedro.variants.model import AuctionModel, Ruleset
from pedro.variants.tables import TrumpTables

#: Card-set choices up to this many outcomes are searched exhaustively when the greedy pick is refused.
_SEARCH_LIMIT = 3000
#: Fraction of the variant's points bid below the estimate.
_BID_MARGIN = 0.07
#: Random candidates tried for bigger card-set choices.
_SAMPLES = 400


#: A card -> value function.
KeyFn = Callable[[int], float]


# --------------------------------------------------------------------------- auction and trumps


def high_call(obs: Observation) -> tuple[int, int] | None:
    """The seat and action of the highest call so far (None before any bid)."""
    high = None
    for seat, action in obs.calls:
        if action != PASS:
            high = (seat, action)
    return high


def partner_holds_contract(obs: Observation) -> bool:
    """Whether the seat's partner made the highest call so far."""
    high = high_call(obs)
    return (
        high is not None and obs.rules.side_of(high[0]) == obs.rules.side_of(obs.seat) and high[0] != obs.seat
    )


def lowest_bid_suffices(obs: Observation) -> bool:
    """Whether a bid above the lowest gains nothing: nobody can answer (the dealer speaks last in
    a single round), or the auction goes round again."""
    rules = obs.rules
    speaks_last = rules.auction == AuctionModel.SINGLE_ROUND and obs.seat == obs.dealer
    return speaks_last or rules.auction == AuctionModel.UNTIL_ONE_LEFT


def bid_of(legal: tuple[int, ...], value: int) -> int:
    """The bid of ``value`` among ``legal``, else the nearest bid (the first action without bids)."""
    for a in legal:
        if verb_of(a) == Verb.BID and arg_of(a) == value:
            return a
    bids = [a for a in legal if verb_of(a) == Verb.BID]
    return min(bids, key=lambda a: abs(arg_of(a) - value)) if bids else legal[0]


def trump_by_estimate(obs: Observation, legal: tuple[int, ...]) -> int:
    """The trump action whose suit the hand is worth most in (``expected_points``)."""
    hand = mask_of(obs.hand)
    return max(legal, key=lambda a: (expected_points(obs.rules, hand, arg_of(a) & 3), -a))


class BasicBidder:
    """Bids what its trumps are likely to take, a little under; names their best suit."""

    def bid(self, obs: Observation, legal: tuple[int, ...]) -> int:
        rules = obs.rules
        hand = mask_of(obs.hand)
        # bid a little under the estimate: it is right on average, so a bid at it is made only half the time
        value = best_expected_points(rules, hand)[1] - _BID_MARGIN * rules.total_points
        bids = sorted(arg_of(a) for a in legal if verb_of(a) == Verb.BID)
        can_pass = PASS in legal
        if not bids:
            others = [a for a in legal if a != PASS]
            if PROTECT in others and value >= rules.min_bid - 1:
                return PROTECT
            return PASS if can_pass else legal[0]
        lowest = bids[0]
        if not can_pass:  # forced dealer: the forced bid, or more with a strong hand
            return bid_of(legal, max(lowest, min(int(value), bids[-1])))
        if partner_holds_contract(obs):
            # partner holds the contract: take it over only with a clearly better hand
            margin = 2 * rules.total_points / 14
            if value < lowest + margin:
                return PASS
        if value < lowest:
            return PASS
        if lowest_bid_suffices(obs):
            return bid_of(legal, lowest)  # nobody can answer, or the auction goes round again
        return bid_of(legal, min(int(value), bids[-1]))

    def name_trump(self, obs: Observation, legal: tuple[int, ...]) -> int:
        return trump_by_estimate(obs, legal)


# --------------------------------------------------------------------------- exchange


class BasicExchanger:
    """Keeps trumps and lays aside the rest; folds a trumpless hand; gives partner a lone trump.

    ``rng`` draws candidates among card-set choices too many to search.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def exchange(self, obs: Observation) -> int:
        legal = obs.legal
        if isinstance(legal, CardChoice):
            return self.choose_cards(obs, legal)
        assert legal is not None
        return self.fold_step(obs, legal)

    @staticmethod
    def fold_step(obs: Observation, legal: tuple[int, ...]) -> int:
        """Fold steps: fold a trumpless hand; give one or two trumps to partner unless bidding."""
        give = [a for a in legal if verb_of(a) == Verb.GIVE]
        if give:
            return PASS if obs.bidder == obs.seat and PASS in legal else give[0]
        if FOLD in legal:
            return FOLD
        return legal[0]

    def choose_cards(self, obs: Observation, choice: CardChoice) -> int:
        """Keeps the best cards, lays aside the worst, by ``keep_value``."""
        rules = obs.rules
        tt = rules.tables(obs.trump) if obs.trump is not None else None
        keep = keep_value_fn(tt)
        pool = cards_of(choice.pool)
        verb = choice.verb
        taking = verb == Verb.KEEP
        ranked = sorted(pool, key=keep, reverse=taking)  # best first when keeping, worst first otherwise
        trump_mask = tt.trump_mask if tt is not None else 0
        sizes = choice.sizes
        if taking:
            if len(sizes) == 1:
                k = sizes[0]
            else:  # take every trump offered, then cards only to reach the play hand size
                offered = (choice.pool & trump_mask).bit_count()
                k = offered + max(0, rules.play_hand_size - len(obs.hand) - offered)
        elif verb == Verb.DISCARD:
            # throw away the non-trumps (not fewer than asked, not more than allowed)
            k = (choice.pool & ~trump_mask).bit_count()
        else:  # kill / give: as many as the rule asks (give the full excess to partner)
            k = max(sizes) if sizes else 0
        candidates: list[int] = []
        if k == 0 and PASS in choice.alternatives:
            candidates.append(PASS)
        for size in sorted(sizes, key=lambda s: abs(s - k)):
            candidates.append(cards_action(verb, mask_of(ranked[:size])))
        for action in candidates:
            if choice.reason_illegal(action) is None:
                return action
        return self._search(choice, keep, taking)

    def _search(self, choice: CardChoice, keep: KeyFn, taking: bool) -> int:
        """The best legal set by total keep value, searched or sampled."""

        def score(action: int) -> float:
            if verb_of(action) != choice.verb:
                return -1e9
            total = sum(keep(c) for c in cards_of(arg_of(action)))
            return total if taking else -total

        if choice.upper_bound() <= _SEARCH_LIMIT:
            options = list(choice)
        else:
            options = [choice.sample(self.rng) for _ in range(_SAMPLES)]
            options += list(islice(iter(choice), 50))
        options = [a for a in options if choice.reason_illegal(a) is None]
        if not options:
            return choice.sample(self.rng)
        return max(options, key=lambda a: (score(a), -a))


def keep_value_fn(tt: TrumpTables | None) -> KeyFn:
    """How much a card is worth keeping in the exchange: trumps by scoring class then strength."""

    def keep(c: int) -> float:
        if tt is not None and tt.trump_mask >> c & 1:
            pts = tt.points[c]
            cat = 0 if pts == 0 else 1 if tt.roles[c] == "2" else 2 if pts == 1 else 3
            return 1000 + 100 * cat + tt.strength[c]
        return nontrump_keep_value(c)

    return keep


# --------------------------------------------------------------------------- play


#: How a rule card player reads the table: ``PlayView`` or a reading of its own.
ViewFactory = Callable[[Observation, Ruleset, TrumpTables], PlayView]


class RuleCardPlayer:
    """Leads and follows as its reading of the table (``view``) says."""

    def __init__(self, view: ViewFactory = PlayView) -> None:
        self.view = view

    def play(self, obs: Observation, legal: tuple[int, ...]) -> int:
        assert obs.trump is not None
        rules = obs.rules
        view = self.view(obs, rules, rules.tables(obs.trump))
        trick = obs.trick
        if trick is None or not trick.plays:
            return view.lead(legal)
        return view.follow(legal, view.trick_info(trick))


# --------------------------------------------------------------------------- the player


class BasicPlayer(ComposedPlayer):
    """Rule-based player: bids from its trumps, keeps trumps, plays the cheapest winning card."""

    name = "basic"

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(BasicBidder(), BasicExchanger(random.Random(f"basic:{seed}")), RuleCardPlayer())


__all__ = [
    "BasicBidder",
    "BasicExchanger",
    "BasicPlayer",
    "RuleCardPlayer",
    "bid_of",
    "high_call",
    "keep_value_fn",
    "lowest_bid_suffices",
    "partner_holds_contract",
    "trump_by_estimate",
]
