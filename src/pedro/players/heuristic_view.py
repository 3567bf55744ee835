"""``heuristic``'s picture of the card play: ``basic``'s, plus the card counting it adds.

It tracks the seats known to hold no trumps (a non-trump played to a trump
lead, a cold, out or folded seat, no trumps left unseen) and, where every
non-trump is discarded, how many trumps each seat kept (cards laid aside
against the first deal) less those it has played; the chance that an
opponent behind beats a card follows those counts. A trump held is worth,
besides ``basic``'s value, a share of the points in play in proportion to the
unseen trumps it beats (``_KEEP_HIGH``).
"""

from __future__ import annotations

from bisect import bisect_left

from pedro.cards import cards_of
from pedro.engine.actions import play_cards
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Status
from pedro.engine.play import trick_winner
from pedro.players.play_view import PlayView, TrickInfo
from pedro.variants.model import DiscardPolicy, Ruleset
from pedro.variants.tables import TrumpTables

#: What a trump is worth kept for later beyond ``basic``'s value, in fourteenths of the points in
#: play, at a trump above every unseen one (in proportion to the unseen trumps it beats): spending a
#: high trump to win a few points now costs the tricks it would take later. Measured in duplicate
#: deals against ``basic`` with both bidding alike (``basic``'s bids and trumps; 2000 cinch deals,
#: 1500 in 83): without it +0.04 and +0.28 points a deal; with 1.0, +0.27 and +0.89, and +0.10 in
#: pidro, +0.80 in King Pedro Canadian (a flat extra of 1.0 at the strongest trump gave +0.31 and
#: +0.67, but made a weak trump worth more than the Low where the capturer scores it).
_KEEP_HIGH = 1.0


class HeuristicView(PlayView):
    """``basic``'s picture of the play, plus who is out of trumps and how many each may hold."""

    def __init__(self, obs: Observation, rules: Ruleset, tt: TrumpTables) -> None:
        super().__init__(obs, rules, tt)
        self.void = self._trumpless()
        self.trump_holders = [s for s in self.others if s not in self.void]
        self.trump_counts = self._trump_counts()

    def _trump_counts(self) -> dict[int, float]:
        """Expected trumps still held by each other live seat.

        Where every non-trump is discarded, a seat other than the dealer kept at least
        ``first deal - cards laid aside`` trumps (its fill may have brought more); trumps
        played since come off. The unseen trumps not accounted for so are shared evenly.
        """
        obs = self.obs
        rules = self.rules
        holders = self.trump_holders
        unseen = self.unseen_trumps.bit_count()
        counts = {s: 0.0 for s in holders}
        if not holders:
            return counts
        known = (
            rules.discard == DiscardPolicy.ALL_NONTRUMPS
            and not rules.keep_nontrumps
            and len(obs.discarded) == self.n
        )
        if known:
            played = [0] * self.n
            tricks: list[SeenTrick] = list(obs.tricks)
            if obs.trick is not None:
                tricks.append(obs.trick)
            for t in tricks:
                for seat, cards in t.plays:
                    played[seat] += sum(1 for x in cards if self.is_trump(x))
            for s in holders:
                if s != obs.dealer:
                    counts[s] = float(max(0, rules.first_deal_size - obs.discarded[s] - played[s]))
        total = sum(counts.values())
        if total > unseen:
            scale = unseen / total
            counts = {s: v * scale for s, v in counts.items()}
            total = unseen
        spread = (unseen - total) / (len(holders) + 0.3)
        return {s: v + spread for s, v in counts.items()}

    def _trumpless(self) -> set[int]:
        """Seats known to hold no trumps."""
        obs = self.obs
        void: set[int] = set()
        for s, status in enumerate(obs.statuses):
            if status != Status.ACTIVE or not obs.hand_sizes[s]:
                void.add(s)
        tricks: list[SeenTrick] = list(obs.tricks)
        if obs.trick is not None:
            tricks.append(obs.trick)
        for t in tricks:
            if not t.plays:
                continue
            led = t.plays[0][1][0]
            if not self.is_trump(led):
                continue
            for s, cards in t.plays[1:]:
                if cards and not self.is_trump(cards[0]):
                    void.add(s)
        if not self.unseen_trumps:
            void.update(s for s in range(self.n) if s != obs.seat)
        return void

    def hold_value(self, c: int) -> float:
        """``basic``'s value of keeping ``c``; a trump adds ``_KEEP_HIGH`` by the unseen trumps it beats."""
        value = super().hold_value(c)
        if self.is_trump(c):
            unseen = self.unseen_strengths
            beaten = bisect_left(unseen, self.tt.strength[c]) / len(unseen) if unseen else 1.0
            value += _KEEP_HIGH * self.unit * beaten
        return value

    def beat_chance(self, c: int, opponents: list[int]) -> float:
        """Chance that one of ``opponents`` (playing after) beats ``c``, now winning the trick."""
        live = [s for s in opponents if s not in self.void]
        if not live:
            return 0.0
        holders = max(1, len(self.trump_holders))
        q = min(1.0, len(live) / (holders + 0.3))
        unseen = self.unseen_trumps.bit_count()
        if unseen:
            q = min(1.0, sum(self.trump_counts.get(s, 0.0) for s in live) / unseen)
        if self.is_trump(c):
            return 1.0 - (1.0 - q) ** self.higher_unseen(c)
        p = 0.6 ** len(live) if self.unseen_trumps else 1.0
        if self.rules.plain_ranking and c < 52:
            suit, rank = c // 13, c % 13
            higher = sum(
                1
                for x in cards_of(self.unseen & ~self.tt.trump_mask)
                if x < 52 and x // 13 == suit and x % 13 > rank
            )
            p *= (1 - q) ** higher
        return 1.0 - p

    # ---- leading

    def trumps_against(self) -> bool:
        """Whether an opponent not known to be out of trumps is still in the hand."""
        return any(self.rules.side_of(s) != self.side for s in self.trump_holders)

    def free_to_draw(self, c: int) -> bool:
        """A trump of no points that is not the Low (the Low scores wherever it goes)."""
        return self.points(c) == 0 and self.tt.roles[c] != "2"

    def cheapest_lead(self, plain: list[int], trumps: list[int]) -> int:
        """A non-trump of no points if there is one; a non-trump's points count against leading it."""
        pool = [c for c in plain if not self.points(c)] or plain or trumps

        def cost(c: int) -> float:
            return self.hold_value(c) + (self.points(c) if not self.is_trump(c) else 0)

        return min(pool, key=lambda c: (cost(c), c))

    # ---- following

    def follow(self, legal: tuple[int, ...], info: TrickInfo) -> int:
        obs = self.obs
        rules = self.rules
        leader = info.tops[0][0]
        opponents_after = [s for s in info.after if rules.side_of(s) != self.side]
        partners_after = [s for s in info.after if rules.side_of(s) == self.side and s not in self.void]

        def value(action: int) -> float:
            cards = play_cards(action)
            top = cards[0]
            tops = [*info.tops, (obs.seat, top)]
            winner = trick_winner(rules, self.tt, leader, tops)
            win_card = next(c for s, c in tops if s == winner)
            mine = sum(self.points(c) for c in cards)
            keep = sum(self.hold_value(c) for c in cards)
            if rules.side_of(winner) == self.side:
                p = 1.0 - self.beat_chance(win_card, opponents_after)
            else:
                can_overtake = not self.is_trump(win_card) or self.higher_unseen(win_card) > 0
                p = 0.3 if partners_after and self.unseen_trumps and can_overtake else 0.0
            return p * (info.points + mine) - (1 - p) * mine - keep

        return max(legal, key=lambda a: (value(a), -a))


__all__ = ["HeuristicView"]
