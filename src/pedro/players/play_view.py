"""One seat's picture of the card play, as the rule players read it: what is gone, who is still to
play, what a card is worth kept, and the chance that a winning card holds.

``basic`` plays from it as it is; ``heuristic`` reads more into it (``heuristic_view``).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import play_cards, play_top
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Status
from pedro.engine.play import trick_winner
from pedro.variants.model import LowRule, Ruleset
from pedro.variants.tables import TrumpTables


@dataclass(frozen=True)
class TrickInfo:
    """What a follower needs to know about the trick in progress."""

    tops: list[tuple[int, int]]  # (seat, top card)
    points: int  # points of every card in it that go to its winner
    after: list[int]  # seats still to play after this one


class PlayView:
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
        """A trump to cash or to draw trumps with (``trump_lead``), else the cheapest card."""
        tops = sorted({play_top(a) for a in legal})
        trumps = [c for c in tops if self.is_trump(c)]
        plain = [c for c in tops if not self.is_trump(c)]
        top = self.trump_lead(trumps)
        if top is None:
            top = self.cheapest_lead(plain, trumps)
        return self._best_stack(legal, top)

    def trumps_against(self) -> bool:
        """Whether the other side may still hold trumps (here: whether any trump is unseen)."""
        return bool(self.unseen_trumps)

    def free_to_draw(self, c: int) -> bool:
        """Whether trump ``c`` may be led to draw trumps: it carries no points."""
        return self.points(c) == 0

    def trump_lead(self, trumps: list[int]) -> int | None:
        """A boss trump to cash (a scoring one first, it cannot be taken; else the strongest), or,
        attacking with three trumps or more, the strongest free one to draw the others' trumps;
        None when no trump should lead."""
        bosses = [c for c in trumps if self.is_boss(c)]
        against = self.trumps_against()
        if bosses and (against or self.attacking or any(self.points(c) for c in bosses)):
            return max(bosses, key=lambda c: (self.points(c), self.tt.strength[c]))
        if self.attacking and against and len(trumps) >= 3:
            free = [c for c in trumps if self.free_to_draw(c)]
            if free:
                return max(free, key=lambda c: self.tt.strength[c])
        return None

    def cheapest_lead(self, plain: list[int], trumps: list[int]) -> int:
        """The card least worth keeping, a non-trump if there is one."""
        return min(plain or trumps, key=lambda c: (self.hold_value(c), c))

    def _best_stack(self, legal: tuple[int, ...], top: int) -> int:
        """Among plays with this top card, bury the cards least worth keeping."""
        options = [a for a in legal if play_top(a) == top]
        return min(options, key=lambda a: (sum(self.hold_value(c) for c in play_cards(a)[1:]), a))

    # ---- following

    def trick_info(self, trick: SeenTrick) -> TrickInfo:
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
        return TrickInfo(tops, points, after)

    def _position(self, seat: int, leader: int) -> int:
        return (seat - leader) % self.n

    def follow(self, legal: tuple[int, ...], info: TrickInfo) -> int:
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
