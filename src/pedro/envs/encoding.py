"""One seat's observation as a fixed float vector, for learning environments.

The encoder reads only an ``Observation`` (never the game state), so it can
hold nothing the seat may not see. Seats are relative to the observer
(``0`` = me, ``1`` = the seat to my left, ...) and sides too (``0`` = mine),
so one policy can play any seat. Every value lies in ``[0, 1]``.

The layout is one table, ``ObservationEncoder.slices``; ``docs/environments.md``
prints it (``markdown_table``) and a test keeps the two equal.

>>> from pedro.variants.options import make_ruleset
>>> from pedro.engine.state import GameState
>>> encoder = ObservationEncoder(make_ruleset("cinch"))
>>> vector = encoder.encode(GameState(encoder.rules, seed=1).observation(0))
>>> vector.shape == (encoder.size,), float(vector[encoder.slice("hand").indices()].sum())
(True, 9.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pedro.cards import NUM_CARDS
from pedro.engine.actions import ARG_MASK, VERB_SHIFT, Verb
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.variants.model import Ruleset

#: hand sizes and laid-aside counts are divided by this (and capped at 1)
CARD_COUNT_SCALE = 26
#: the hand number is capped here and divided by it
HAND_INDEX_SCALE = 63

#: the kinds of call in the ``calls`` slice, in order
CALL_KINDS = ("none", "pass", "bid", "28-56", "double", "protect")
#: the kinds of contract in the ``contract`` slice, in order
CONTRACT_KINDS = ("bid", "28-56", "double", "protect")
_CALL_INDEX = {
    int(Verb.PASS): 1,
    int(Verb.BID): 2,
    int(Verb.BID_28_56): 3,
    int(Verb.BID_DOUBLE): 4,
    int(Verb.PROTECT): 5,
}
_GAME_OVER = int(Phase.GAME_OVER)
_OUT = int(Status.OUT)


@dataclass(frozen=True)
class Slice:
    """A named part of the observation vector."""

    name: str
    start: int
    size: int
    meaning: str

    def indices(self) -> slice:
        """The Python slice of this part, to read a vector: ``vector[s.indices()]``."""
        return slice(self.start, self.start + self.size)


class ObservationEncoder:
    """Observation -> float32 vector; the layout is one table (``slices``) that the docs print."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        n = self.players = rules.players
        sides = self.sides = rules.num_sides
        forced = rules.dealer_forced_bid
        top = max(rules.max_bid, forced) if forced is not None else rules.max_bid
        #: a contract's value is at most the top bid + 1 (special calls rank just above it)
        self.bid_scale = top + 1
        self.trick_scale = max(rules.play_hand_size, rules.first_deal_size)
        c = NUM_CARDS
        layout = (
            ("hand", c, "my cards (one per card index of pedro.cards)"),
            ("selection", c, "cards chosen so far in a pending card-set decision"),
            ("played", n * c, "per relative seat, the cards it played this hand (buried stack cards too)"),
            ("trick", n * c, "per relative seat, the card that counts that it put in the current trick"),
            ("trick_leader", n + 1, "relative seat that led the current trick; last: no trick in progress"),
            ("face_up", n * c, "per relative seat, the cards it laid aside face up (discards, kills)"),
            ("shown", n * c, "per relative seat, the cards it showed on going cold, up or out"),
            ("own_discards", c, "the cards I laid aside, face up or down (until gathered into the wash)"),
            ("seen", c, "other cards I saw this hand (a stock I looked through, cards I gave)"),
            ("trump", 5, "trump suit: spades, hearts, diamonds, clubs; last: not named yet"),
            ("phase", 5, "auction, trump, exchange, play, game over"),
            ("dealer", n, "relative seat of the dealer"),
            ("current_player", n + 1, "relative seat to act; last: nobody (the game is over)"),
            ("bidder", n + 1, "relative seat that won the auction; last: no contract yet"),
            ("contract", 4, "the contract's call: " + ", ".join(CONTRACT_KINDS) + " (all 0: none)"),
            ("bid", 1, f"the contract's value / {self.bid_scale} (special calls rank at the top bid + 1)"),
            ("calls", n * 6, "per relative seat, its last call this hand: " + ", ".join(CALL_KINDS)),
            ("call_values", n, f"per relative seat, the value of its last call if a bid / {self.bid_scale}"),
            ("statuses", n * 5, "per relative seat: active, folded, cold, up, out"),
            ("hand_sizes", n, f"per relative seat, cards in hand / {CARD_COUNT_SCALE} (at most 1)"),
            ("discarded", n, f"per relative seat, cards laid aside this hand / {CARD_COUNT_SCALE} (max 1)"),
            ("tricks_done", 1, f"finished tricks this hand / {self.trick_scale}"),
            ("scores", sides, "per relative side (mine first): (score / target, clipped to -1..1, + 1) / 2"),
            ("hand_index", 1, f"hands before this one (at most {HAND_INDEX_SCALE}) / {HAND_INDEX_SCALE}"),
            ("winner", sides + 1, "relative side that won the game; last: no winner yet"),
        )  # fmt: skip
        slices = []
        start = 0
        for name, size, meaning in layout:
            slices.append(Slice(name, start, size, meaning))
            start += size
        self.slices: tuple[Slice, ...] = tuple(slices)
        self.size = start
        self._at = {s.name: s.start for s in slices}

    def slice(self, name: str) -> Slice:
        """The slice called ``name`` (KeyError naming the slices if there is none)."""
        for s in self.slices:
            if s.name == name:
                return s
        raise KeyError(f"no slice {name!r}; slices: {', '.join(s.name for s in self.slices)}")

    def _rel_side(self, side: int, seat: int) -> int:
        mine = self.rules.side_of(seat)
        return (side - mine) % self.sides

    def encode(self, obs: Observation, selection: tuple[int, ...] = ()) -> npt.NDArray[np.float32]:
        """The vector of ``obs``; ``selection`` is the cards chosen so far in a card-set decision.

        The parts fill two lists, the indices that are 1 and the (index, value) pairs of the
        others, and the vector is written from them at once: faster than a write per index.
        """
        n = self.players
        rel = [(s - obs.seat) % n for s in range(n)]  # relative seat of each seat
        ones: list[int] = []
        at_index: list[int] = []
        values: list[float] = []
        self._cards(obs, selection, rel, ones)
        self._table(obs, rel, ones)
        self._calls(obs, rel, ones, at_index, values)
        self._counts(obs, rel, at_index, values)
        out = np.zeros(self.size, dtype=np.float32)
        out[ones] = 1.0
        out[at_index] = values
        return out

    def _cards(self, obs: Observation, selection: tuple[int, ...], rel: list[int], ones: list[int]) -> None:
        """The card slices: my hand and selection, the tricks, and the cards laid aside or seen."""
        at = self._at
        c = NUM_CARDS
        n = self.players
        block = [r * c for r in rel]  # offset of each seat's card block
        extend = ones.extend
        base = at["hand"]
        extend([base + card for card in obs.hand])
        base = at["selection"]
        extend([base + card for card in selection])
        played = at["played"]
        for trick in obs.tricks:
            for s, cards in trick.plays:
                base = played + block[s]
                extend([base + card for card in cards])
        current = obs.trick
        if current is not None:
            trick_at = at["trick"]
            for s, cards in current.plays:
                base = played + block[s]
                extend([base + card for card in cards])
                ones.append(trick_at + block[s] + cards[0])
            ones.append(at["trick_leader"] + rel[current.leader])
        else:
            ones.append(at["trick_leader"] + n)
        for base, per_seat in ((at["face_up"], obs.face_up), (at["shown"], obs.shown)):
            for s, cards in enumerate(per_seat):
                if cards:
                    first = base + block[s]
                    extend([first + card for card in cards])
        base = at["own_discards"]
        extend([base + card for card in obs.own_discards])
        base = at["seen"]
        extend([base + card for card in obs.seen])

    def _table(self, obs: Observation, rel: list[int], ones: list[int]) -> None:
        """The one-of slices of the table: trumps, phase, who deals, acts, bid, and each seat's status."""
        at = self._at
        n = self.players
        add = ones.append
        add(at["trump"] + (obs.trump if obs.trump is not None else 4))
        add(at["phase"] + min(obs.phase, _GAME_OVER))
        add(at["dealer"] + rel[obs.dealer])
        add(at["current_player"] + (rel[obs.current_player] if obs.current_player >= 0 else n))
        add(at["bidder"] + (rel[obs.bidder] if obs.bidder is not None else n))
        base = at["statuses"]
        for s, status in enumerate(obs.statuses):
            add(base + rel[s] * 5 + min(status, _OUT))
        winner = self._rel_side(obs.winner, obs.seat) if obs.winner is not None else self.sides
        add(at["winner"] + winner)

    def _calls(
        self, obs: Observation, rel: list[int], ones: list[int], at_index: list[int], values: list[float]
    ) -> None:
        """The auction: the contract and its value, and each seat's last call."""
        at = self._at
        last_call = dict(obs.calls)  # each seat's last call
        if obs.bidder is not None and obs.bidder in last_call:
            kind = _CALL_INDEX.get(last_call[obs.bidder] >> VERB_SHIFT, 0)
            if kind >= 2:
                ones.append(at["contract"] + kind - 2)
        if obs.bid is not None:
            at_index.append(at["bid"])
            values.append(min(1.0, obs.bid / self.bid_scale))
        calls = at["calls"]
        call_values = at["call_values"]
        for s in range(self.players):
            call = last_call.get(s)
            kind = 0 if call is None else _CALL_INDEX.get(call >> VERB_SHIFT, 0)
            ones.append(calls + rel[s] * 6 + kind)
            if kind == 2 and call is not None:
                at_index.append(call_values + rel[s])
                values.append(min(1.0, (call & ARG_MASK) / self.bid_scale))

    def _counts(self, obs: Observation, rel: list[int], at_index: list[int], values: list[float]) -> None:
        """The scaled numbers: cards held and laid aside, tricks done, scores, the hand's number."""
        at = self._at
        put_at = at_index.append
        put = values.append
        for base, sizes in ((at["hand_sizes"], obs.hand_sizes), (at["discarded"], obs.discarded)):
            for s, size in enumerate(sizes):
                if size:
                    put_at(base + rel[s])
                    put(min(1.0, size / CARD_COUNT_SCALE))
        put_at(at["tricks_done"])
        put(min(1.0, len(obs.tricks) / self.trick_scale))
        base = at["scores"]
        target = max(1, self.rules.target)
        for side, score in enumerate(obs.scores):
            put_at(base + self._rel_side(side, obs.seat))
            put((max(-1.0, min(1.0, score / target)) + 1.0) / 2.0)
        put_at(at["hand_index"])
        put(min(obs.hand_index, HAND_INDEX_SCALE) / HAND_INDEX_SCALE)


def markdown_table(encoder: ObservationEncoder) -> str:
    """The layout as a Markdown table (``docs/environments.md`` prints the cinch one)."""
    lines = ["| slice | start | size | meaning |", "|---|---:|---:|---|"]
    lines += [f"| `{s.name}` | {s.start} | {s.size} | {s.meaning} |" for s in encoder.slices]
    return "\n".join(lines)
