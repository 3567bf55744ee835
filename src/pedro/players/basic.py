"""``basic``: a plain rule-based player that plays every variant sensibly.

It sees only its ``Observation`` and decides with a handful of rules a
club player would recognise: bid what the trumps in hand are likely to take,
name the longest-and-strongest suit, throw away low non-trumps, and in play
win point tricks with the cheapest card that holds, keep pedros off tricks
the opponents will win, and feed points to a partner whose trick is safe.
Every decision is a few integer operations per legal action, so whole
simulated games cost milliseconds. It exists as a sparring partner that is
clearly better than ``random`` and as the default opponent of ``pedro play``.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import (
    FOLD,
    PASS,
    PROTECT,
    Verb,
    arg_of,
    cards_action,
    play_cards,
    play_top,
    verb_of,
)
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Phase, Status
from pedro.engine.play import trick_winner
from pedro.variants.model import AuctionModel, LowRule, Ruleset
from pedro.variants.tables import TrumpTables

#: Card-set choices up to this many outcomes are searched exhaustively when the greedy pick is refused.
_SEARCH_LIMIT = 3000
#: Fraction of the variant's points bid below the estimate.
_BID_MARGIN = 0.07
#: Random candidates tried for bigger card-set choices.
_SAMPLES = 400


#: A card -> value function.
_KeyFn = Callable[[int], float]


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


# --------------------------------------------------------------------------- hand evaluation


#: The trumps from the top: (card, points, a Low scored by its holder).
_TrumpOrder = tuple[tuple[int, int, bool], ...]


@dataclass
class _SuitValues:
    """One suit under one ruleset: its trumps, and ``expected_points`` of each trump holding."""

    trump_mask: int
    order: _TrumpOrder
    top_mask: int  # the top four trumps
    #: a trump holding (the hand's trumps, as a mask) -> its ``expected_points``
    values: dict[int, float]


#: What an estimate reads of a suit (its trumps from the top; the partnerships, the points in
#: play, the cards added to a hand) -> that suit's values: shared by the rulesets that agree on
#: it, as a variant's do under most house rules.
_SHARED: dict[tuple[_TrumpOrder, bool, int, int], _SuitValues] = {}
#: id of a ruleset -> (the ruleset, kept so that its id stays its own; its four suits' values)
_BY_RULES: dict[int, tuple[Ruleset, tuple[_SuitValues, ...]]] = {}
#: Entries kept in each; more, and that one starts again (a server makes a ruleset per game played
#: with house rules).
_KEPT = 64


def _suit_values(rules: Ruleset) -> tuple[_SuitValues, ...]:
    """The cache of ``expected_points`` for each suit under ``rules``.

    Bidding by simulation weighs every sampled deal against the calls made so
    far, a million estimates or more a game, and an estimate depends on the
    hand's trumps only: a suit has a few thousand trump holdings that occur,
    so each is worked out once. The ruleset is looked up by its identity
    (hashing a whole ruleset each time would cost more than it saves).
    """
    hit = _BY_RULES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    for cache in (_BY_RULES, _SHARED):
        if len(cache) >= _KEPT:
            cache.clear()
    holder_low = rules.low_rule != LowRule.CAPTURER
    extra = rules.kitty_size + rules.second_deal
    suits = []
    for suit in range(4):
        tt = rules.tables(suit)
        order = sorted(cards_of(tt.trump_mask), key=lambda c: -tt.strength[c])
        cards = tuple((c, tt.points[c], holder_low and tt.roles[c] == "2") for c in order)
        key = (cards, rules.partnerships, rules.total_points, extra)
        known = _SHARED.get(key)
        if known is None:
            known = _SHARED[key] = _SuitValues(tt.trump_mask, cards, mask_of(order[:4]), {})
        suits.append(known)
    kept = tuple(suits)
    _BY_RULES[id(rules)] = (rules, kept)
    return kept  # not read back: a bot thinking in another thread may have cleared the cache


def expected_points(rules: Ruleset, hand: int, suit: int) -> float:
    """Points the bidder's side can expect with ``suit`` as trumps, from the cards in ``hand``.

    A scoring trump counts fully when no trump above it is missing (or it is a
    Low scored by its holder), otherwise by a chance that grows with the
    trumps held and shrinks with the trumps missing above it. The points
    the hand does not hold are shared with the partner or the field. The
    constants are fitted so that basic bidders make most of their bids.
    Only the hand's trumps count, so the value of each holding is worked out once.
    """
    return _worth(rules, _suit_values(rules)[suit], hand)


def best_expected_points(rules: Ruleset, hand: int) -> tuple[int, float]:
    """The suit with the best ``expected_points`` (the lowest of equals), and that estimate.

    >>> from pedro.cards import parse_cards
    >>> from pedro.variants.catalog import VARIANTS
    >>> best_expected_points(VARIANTS["cinch"], mask_of(parse_cards("ah kh jh 10h 5h 5d 2h 3c 4s")))
    (1, 13.4)
    """
    suits = _suit_values(rules)
    suit, best = 0, _worth(rules, suits[0], hand)
    for s in (1, 2, 3):
        value = _worth(rules, suits[s], hand)
        if value > best:
            suit, best = s, value
    return suit, best


def _worth(rules: Ruleset, known: _SuitValues, hand: int) -> float:
    """``expected_points`` of ``hand`` in the suit ``known`` caches."""
    trumps = hand & known.trump_mask
    value = known.values.get(trumps)
    if value is None:
        value = known.values[trumps] = _trumps_worth(rules, known, trumps)
    return value


def _trumps_worth(rules: Ruleset, known: _SuitValues, trumps: int) -> float:
    """``expected_points`` of a hand holding exactly ``trumps`` of the suit."""
    n_trumps = trumps.bit_count()
    held = 0
    expected = 0.0
    mine_above = 0
    missing_above = 0
    for c, pts, sure in known.order:
        if trumps >> c & 1:
            if pts:
                held += pts
                if sure or missing_above == 0:
                    p = 1.0
                else:
                    p = _clamp(0.45 + 0.07 * n_trumps + 0.03 * mine_above - 0.02 * missing_above, 0.3, 0.95)
                expected += p * pts
            mine_above += 1
        else:
            missing_above += 1
    rest = rules.total_points - held
    extra = rules.kitty_size + rules.second_deal
    top = (trumps & known.top_mask).bit_count()  # high trumps capture the others' points
    if rules.partnerships:
        share = _clamp(0.3 + 0.11 * top + 0.015 * n_trumps + 0.01 * extra, 0.25, 0.85)
    else:
        share = _clamp(0.03 + 0.05 * top + 0.02 * n_trumps + 0.01 * extra, 0.02, 0.4)
    return expected + share * rest


# --------------------------------------------------------------------------- the player


@dataclass(frozen=True)
class _Trick:
    """What a follower needs to know about the trick in progress."""

    tops: list[tuple[int, int]]  # (seat, top card)
    points: int  # points of every card in it that go to its winner
    after: list[int]  # seats still to play after this one


class BasicPlayer:
    """Rule-based player: bids from its trumps, keeps trumps, plays the cheapest winning card."""

    name = "basic"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(f"basic:{seed}")

    def rules_for(self, obs: Observation) -> Ruleset:
        """The rules in force, house rules included, as every observation carries them."""
        return obs.rules

    def act(self, obs: Observation) -> int:
        legal = obs.legal
        if legal is None:
            raise ValueError("it is not this seat's turn")
        rules = self.rules_for(obs)
        if isinstance(legal, CardChoice):
            return self._card_choice(obs, rules, legal)
        if len(legal) == 1:
            return legal[0]
        phase = obs.phase
        if phase == Phase.AUCTION:
            action = self._bid(obs, rules, legal)
        elif phase == Phase.TRUMP:
            action = self._name_trump(obs, rules, legal)
        elif phase == Phase.PLAY:
            action = self._play(obs, rules, legal)
        else:
            action = self._exchange_list(obs, legal)
        return action if action in legal else legal[0]

    # ------------------------------------------------------------------ auction and trumps

    def _bid(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
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
            return _bid_of(legal, max(lowest, min(int(value), bids[-1])))
        high = self._high_call(obs)
        if high is not None and rules.side_of(high[0]) == rules.side_of(obs.seat) and high[0] != obs.seat:
            # partner holds the contract: take it over only with a clearly better hand
            margin = 2 * rules.total_points / 14
            if value < lowest + margin:
                return PASS
        if value < lowest:
            return PASS
        speaks_last = rules.auction == AuctionModel.SINGLE_ROUND and obs.seat == obs.dealer
        if speaks_last or rules.auction == AuctionModel.UNTIL_ONE_LEFT:
            return _bid_of(legal, lowest)  # nobody can answer, or the auction goes round again
        return _bid_of(legal, min(int(value), bids[-1]))

    @staticmethod
    def _high_call(obs: Observation) -> tuple[int, int] | None:
        high = None
        for seat, action in obs.calls:
            if action != PASS:
                high = (seat, action)
        return high

    def _name_trump(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
        hand = mask_of(obs.hand)
        return max(legal, key=lambda a: (expected_points(rules, hand, arg_of(a) & 3), -a))

    # ------------------------------------------------------------------ exchange

    def _exchange_list(self, obs: Observation, legal: tuple[int, ...]) -> int:
        """Fold steps: fold a trumpless hand; give one or two trumps to partner unless bidding."""
        give = [a for a in legal if verb_of(a) == Verb.GIVE]
        if give:
            return PASS if obs.bidder == obs.seat and PASS in legal else give[0]
        if FOLD in legal:
            return FOLD
        return legal[0]

    def _card_choice(self, obs: Observation, rules: Ruleset, choice: CardChoice) -> int:
        tt = rules.tables(obs.trump) if obs.trump is not None else None
        keep = _keep_value_fn(tt)
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

    def _search(self, choice: CardChoice, keep: _KeyFn, taking: bool) -> int:
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

    # ------------------------------------------------------------------ play

    def _view(self, obs: Observation, rules: Ruleset, tt: TrumpTables) -> _PlayView:
        """How this player reads the table in the play (subclasses bring their own reading)."""
        return _PlayView(obs, rules, tt)

    def _play(self, obs: Observation, rules: Ruleset, legal: tuple[int, ...]) -> int:
        assert obs.trump is not None
        tt = rules.tables(obs.trump)
        view = self._view(obs, rules, tt)
        trick = obs.trick
        if trick is None or not trick.plays:
            return view.lead(legal)
        return view.follow(legal, view.trick_info(trick))


def _keep_value_fn(tt: TrumpTables | None) -> _KeyFn:
    """How much a card is worth keeping in the exchange: trumps by scoring class then strength."""

    def keep(c: int) -> float:
        if tt is not None and tt.trump_mask >> c & 1:
            pts = tt.points[c]
            cat = 0 if pts == 0 else 1 if tt.roles[c] == "2" else 2 if pts == 1 else 3
            return 1000 + 100 * cat + tt.strength[c]
        return nontrump_keep_value(c)

    return keep


def nontrump_keep_value(c: int) -> float:
    """How much a non-trump is worth keeping: its rank (a non-trump joker above every rank)."""
    return float(c % 13) if c < 52 else 50.0


def _bid_of(legal: tuple[int, ...], value: int) -> int:
    for a in legal:
        if verb_of(a) == Verb.BID and arg_of(a) == value:
            return a
    bids = [a for a in legal if verb_of(a) == Verb.BID]
    return min(bids, key=lambda a: abs(arg_of(a) - value)) if bids else legal[0]


class _PlayView:
    """One seat's picture of the card play: what is gone, who is still to play, what holds."""

    def __init__(self, obs: Observation, rules: Ruleset, tt: TrumpTables) -> None:
        self.obs = obs
        self.rules = rules
        self.tt = tt
        self.n = len(obs.hand_sizes)
        self.side = rules.side_of(obs.seat)
        known = mask_of(obs.hand) | mask_of(obs.own_discards) | mask_of(obs.seen)
        for cards in (*obs.face_up, *obs.shown):
            known |= mask_of(cards)
        tricks: list[SeenTrick] = list(obs.tricks)
        if obs.trick is not None:
            tricks.append(obs.trick)
        for t in tricks:
            for _, cards in t.plays:
                known |= mask_of(cards)
        self.unseen_trumps = tt.trump_mask & rules.deck_mask & ~known
        self.unseen = rules.deck_mask & ~known
        self.holder_low = rules.low_rule != LowRule.CAPTURER
        self.unit = rules.total_points / 14
        self.max_strength = max(tt.strength) or 1
        self.attacking = obs.bidder is not None and rules.side_of(obs.bidder) == self.side
        others = [
            s
            for s in range(self.n)
            if s != obs.seat and obs.statuses[s] == Status.ACTIVE and obs.hand_sizes[s]
        ]
        self.others = others

    # ---- card values

    def points(self, c: int) -> int:
        """Points a card carries to the trick's winner (a holder-scored Low carries none)."""
        if self.holder_low and self.tt.roles[c] == "2":
            return 0
        return self.tt.points[c]

    def is_trump(self, c: int) -> bool:
        return bool(self.tt.trump_mask >> c & 1)

    @property
    def unseen_strengths(self) -> list[int]:
        """The strengths of the unseen trumps, in order (asked many times a decision: kept)."""
        found = self.__dict__.get("_unseen_strengths")
        if found is None:
            found = self._unseen_strengths = sorted(self.tt.strength[x] for x in cards_of(self.unseen_trumps))
        return found

    def higher_unseen(self, c: int) -> int:
        strengths = self.unseen_strengths
        return len(strengths) - bisect_right(strengths, self.tt.strength[c])

    def is_boss(self, c: int) -> bool:
        return self.is_trump(c) and self.higher_unseen(c) == 0

    def hold_value(self, c: int) -> float:
        """What keeping ``c`` for later is worth: its points if safe, half if not, plus its strength."""
        if self.is_trump(c):
            safe = 1.0 if self.is_boss(c) else 0.5
            return safe * self.points(c) + 0.6 * self.unit * self.tt.strength[c] / self.max_strength
        rank = c % 13 if c < 52 else 0
        return 0.1 * self.unit * rank / 12

    # ---- chances

    def holds(self, c: int, opponents_after: int, led: int) -> float:
        """Chance that ``c``, now winning the trick, is not beaten by the opponents still to play."""
        if opponents_after == 0:
            return 1.0
        holders = max(1, len(self.others))
        q = min(1.0, opponents_after / holders)
        if self.is_trump(c):
            return (1 - q) ** self.higher_unseen(c)
        p = 0.6**opponents_after if self.unseen_trumps else 1.0
        if self.rules.plain_ranking and c < 52:
            suit, rank = c // 13, c % 13
            higher = sum(
                1
                for x in cards_of(self.unseen & ~self.tt.trump_mask)
                if x < 52 and x // 13 == suit and x % 13 > rank
            )
            p *= (1 - q) ** higher
        return p

    # ---- leading

    def lead(self, legal: tuple[int, ...]) -> int:
        tops = sorted({play_top(a) for a in legal})
        trumps = [c for c in tops if self.is_trump(c)]
        plain = [c for c in tops if not self.is_trump(c)]
        bosses = [c for c in trumps if self.is_boss(c)]
        top: int | None = None
        if bosses and (self.unseen_trumps or self.attacking or any(self.points(c) for c in bosses)):
            top = max(bosses, key=lambda c: (self.points(c), self.tt.strength[c]))
        elif self.attacking and self.unseen_trumps and len(trumps) >= 3:
            free = [c for c in trumps if self.points(c) == 0]
            if free:
                top = max(free, key=lambda c: self.tt.strength[c])
        if top is None:
            pool = plain or trumps
            top = min(pool, key=lambda c: (self.hold_value(c), c))
        return self._best_stack(legal, top)

    def _best_stack(self, legal: tuple[int, ...], top: int) -> int:
        """Among plays with this top card, bury the cards least worth keeping."""
        options = [a for a in legal if play_top(a) == top]
        return min(options, key=lambda a: (sum(self.hold_value(c) for c in play_cards(a)[1:]), a))

    # ---- following

    def trick_info(self, trick: SeenTrick) -> _Trick:
        obs = self.obs
        tops = [(seat, cards[0]) for seat, cards in trick.plays]
        points = sum(self.points(c) for _, cards in trick.plays for c in cards)
        leader = tops[0][0]
        played = {seat for seat, _ in tops}
        after = []
        for i in range(1, self.n):
            s = (leader + i) % self.n
            if s == obs.seat or s in played:
                continue
            if (
                obs.statuses[s] == Status.ACTIVE
                and obs.hand_sizes[s]
                and self._position(s, leader) > self._position(obs.seat, leader)
            ):
                after.append(s)
        return _Trick(tops, points, after)

    def _position(self, seat: int, leader: int) -> int:
        return (seat - leader) % self.n

    def follow(self, legal: tuple[int, ...], info: _Trick) -> int:
        obs = self.obs
        rules = self.rules
        leader = info.tops[0][0]
        led = info.tops[0][1]
        opp_after = sum(1 for s in info.after if rules.side_of(s) != self.side)
        partner_after = any(rules.side_of(s) == self.side for s in info.after)

        def value(action: int) -> float:
            cards = play_cards(action)
            top = cards[0]
            tops = [*info.tops, (obs.seat, top)]
            winner = trick_winner(rules, self.tt, leader, tops)
            win_card = next(c for s, c in tops if s == winner)
            if rules.side_of(winner) == self.side:
                p = self.holds(win_card, opp_after, led)
            else:
                p = 0.3 if partner_after and self.unseen_trumps else 0.0
            mine = sum(self.points(c) for c in cards)
            keep = sum(self.hold_value(c) for c in cards)
            return p * (info.points + mine) - (1 - p) * mine - keep

        return max(legal, key=lambda a: (value(a), -a))
