"""A whole game as a sequence of steps: chance steps that shuffle, player steps of one action id.

A search over a game tree (OpenSpiel's) wants every shuffle as explicit chance
events and every decision as one id of a small fixed space. The engine instead
asks its ``DealSource`` for a whole pack (or, when a short stock is made up
from the discards, for the wash order) in the middle of an action, and takes a
set of cards as one wide action. ``Table`` bridges the two:

* ``ChanceDeals`` answers the engine from the shuffles chosen so far and raises
  ``ChanceWanted`` for one it does not have. The table then rebuilds the engine
  as it was before the action (the start-of-hand snapshot plus this hand's
  actions), draws the shuffle one card per chance step (``Shuffle``: every card
  not yet placed, each with the same chance, which is a uniform shuffle) and
  plays the action again. The engine itself is unchanged.
* ``Decision`` (``pedro.envs.actions``) turns each engine decision into ids:
  card sets one card at a time, then ``DONE``.
* ``recall(seat)``: everything the seat has seen, in order, built from its
  ``Observation`` (and the actions it took), for a perfect-recall information
  state.

The first dealer is a chance step too unless fixed. A game ends at the
engine's game end or after ``hand_limit`` hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from pedro.cards import cards_of, format_card, format_cards, mask_of
from pedro.engine.actions import VERB_SHIFT, Verb, action_words
from pedro.engine.observation import Observation, SeenHand, SeenTrick, seat_secrets
from pedro.engine.state import GameState, HandResult
from pedro.envs.actions import ActionSpace, Decision
from pedro.variants.model import Ruleset

#: ``current_player`` of a chance step and of a finished game (OpenSpiel's values)
CHANCE = -1
TERMINAL = -4

#: Verbs every seat sees being taken (calls, trumps, plays, folds); what the
#: others' remaining decisions (discards, gives ...) reveal shows in their observations.
PUBLIC_VERBS = frozenset({Verb.PASS, Verb.BID, Verb.BID_28_56, Verb.BID_DOUBLE, Verb.PROTECT,
                          Verb.TRUMP, Verb.PLAY, Verb.FOLD})  # fmt: skip

_SECRET_FIELDS = frozenset({"seat", "hand", "own_discards", "seen", "legal", "rules", "variant"})
#: the fields of an ``Observation`` that every seat sees alike
PUBLIC_FIELDS = tuple(f.name for f in fields(Observation) if f.name not in _SECRET_FIELDS)
#: public fields that only grow during a hand: a step logs what was added
_GROWING = frozenset({"calls", "tricks", "history"})


#: a seat's hand, own discards and other cards seen, as in its observation
_Secrets = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class ChanceWanted(Exception):
    """The engine asked for a shuffle that has not been drawn yet."""

    def __init__(self, kind: str, hand: int, cards: Sequence[int]) -> None:
        super().__init__(f"{kind} of hand {hand + 1} not drawn yet")
        self.kind = kind
        self.hand = hand
        self.cards = tuple(cards)


class ChanceDeals:
    """A ``DealSource`` answering from shuffles drawn at chance steps; raises ``ChanceWanted`` otherwise."""

    #: a wash is a shuffle of the whole discard pile: cards taken back later are skipped
    skips_taken_wash_cards = True

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer
        self.packs: dict[int, list[int]] = {}
        self.washes: dict[int, list[int]] = {}

    def first_dealer(self, players: int) -> int:
        return self.dealer

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        pack = self.packs.get(hand_index)
        if pack is None:
            raise ChanceWanted("pack", hand_index, deck)
        return list(pack)

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        order = self.washes.get(hand_index)
        if order is None:
            raise ChanceWanted("wash", hand_index, sorted(pile))
        if sorted(order) != sorted(pile):
            raise ValueError(f"hand {hand_index + 1}: the drawn wash is not a shuffle of the discard pile")
        return list(order)

    def copy(self) -> ChanceDeals:
        new = ChanceDeals(self.dealer)
        new.packs = dict(self.packs)  # the lists are never changed once drawn
        new.washes = dict(self.washes)
        return new


@dataclass
class Shuffle:
    """A shuffle drawn one card at a time; the last card needs no chance step."""

    kind: str  # "pack" or "wash"
    hand: int
    size: int
    remaining: int  # mask of the cards not placed yet
    order: list[int]

    @staticmethod
    def of(kind: str, hand: int, cards: Sequence[int]) -> Shuffle:
        shuffle = Shuffle(kind, hand, len(cards), mask_of(cards), [])
        shuffle._place_forced()
        return shuffle

    @property
    def done(self) -> bool:
        return not self.remaining

    def outcomes(self) -> list[int]:
        return cards_of(self.remaining)

    def take(self, card: int) -> None:
        if card < 0 or not self.remaining >> card & 1:
            raise ValueError(
                f"chance outcome {card} is not a card left to place in the {self.kind}; "
                f"left: {', '.join(map(str, self.outcomes()))}"
            )
        self.order.append(card)
        self.remaining &= ~(1 << card)
        self._place_forced()

    def _place_forced(self) -> None:
        if self.remaining and not self.remaining & (self.remaining - 1):
            self.order.append(self.remaining.bit_length() - 1)
            self.remaining = 0

    def copy(self) -> Shuffle:
        return Shuffle(self.kind, self.hand, self.size, self.remaining, list(self.order))


class Table:
    """One game of ``rules`` as chance steps and single-id player steps (see the module docstring).

    ``hand_limit`` ends the game after that many hands (thrown-in hands count);
    the game also ends when the engine's game is over. ``dealer`` fixes the
    first dealer; ``None`` makes it the first chance step.
    """

    def __init__(self, rules: Ruleset, hand_limit: int, dealer: int | None = None) -> None:
        if hand_limit < 1:
            raise ValueError(f"hand_limit must be at least 1, got {hand_limit}")
        if dealer is not None and not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1} (or None), got {dealer}")
        n = rules.players
        self.rules = rules
        self.space = ActionSpace(rules)
        self.hand_limit = hand_limit
        self.fixed_dealer = dealer
        self.deals = ChanceDeals(0 if dealer is None else dealer)
        self.engine: GameState | None = None
        #: the whole game's steps as (player or CHANCE, id): OpenSpiel's history
        self.steps: list[tuple[int, int]] = []
        self.choosing_dealer = dealer is None
        self.shuffle: Shuffle | None = None
        #: the engine action waiting for ``shuffle`` (None while the first pack is drawn)
        self.pending: int | None = None
        #: the engine at the start of the current hand (None for the first: it is rebuilt by dealing)
        self.base: GameState | None = None
        #: engine actions applied since ``base``
        self.hand_steps: list[int] = []
        #: index in ``steps`` of the current hand's first pack step
        self.hand_step = 0
        #: the table just before the current hand's pack was drawn (for re-dealing it)
        self.at_deal: Table | None = None
        self.selection: list[int] = []
        self._decision: Decision | None = None
        self.results: list[HandResult] = []
        self.over = False
        self.rewards = [0.0] * n
        self.logs: list[list[str]] = [[] for _ in range(n)]
        #: seats whose logs are kept up to date step by step (a rollout keeps none)
        self.logging: frozenset[int] = frozenset(range(n))
        #: seats whose logs fell behind: ``recall`` rebuilds them by replaying the game
        self.stale: set[int] = set()
        #: per seat, the length of its log when the current hand's pack began
        self.hand_log_start = [0] * n
        self._public: tuple[object, ...] | None = None
        self._secrets: list[_Secrets | None] = [None] * n
        #: work kept for this exact position (resampling chains); emptied by every step and copy
        self.cache: dict[object, object] = {}
        if dealer is not None:
            self._open_pack(0)

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hand_index(self) -> int:
        """The hand being dealt or played (0-based)."""
        if self.shuffle is not None and self.shuffle.kind == "pack":
            return self.shuffle.hand
        return self.engine.hand_index if self.engine is not None else 0

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.choosing_dealer or self.shuffle is not None:
            return CHANCE
        assert self.engine is not None
        return self.engine.current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance step's outcomes with their probabilities (empty at a player step)."""
        if self.choosing_dealer:
            n = self.players
            return [(s, 1.0 / n) for s in range(n)]
        if self.shuffle is None or self.over:
            return []
        cards = self.shuffle.outcomes()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def decision(self) -> Decision:
        """The current player's decision (with the selection made so far)."""
        if self._decision is None:
            if self.current_player() < 0:
                raise ValueError("no player decides now (a chance step or the end of the game)")
            assert self.engine is not None
            decision = Decision(self.space, self.engine.legal())
            for i in self.selection:
                decision.choose(i)
            self._decision = decision
        return self._decision

    def legal_ids(self) -> list[int]:
        return self.decision().legal_ids() if self.current_player() >= 0 else []

    def observation(self, seat: int) -> Observation | None:
        """The seat's engine observation (None before the first deal is complete)."""
        return self.engine.observation(seat) if self.engine is not None else None

    def selection_of(self, seat: int) -> tuple[int, ...]:
        """The cards the seat has chosen so far in a pending card-set decision."""
        return tuple(self.selection) if self.current_player() == seat else ()

    def returns(self) -> list[float]:
        """Each seat's side's total score change over the hands finished so far."""
        rules = self.rules
        totals = [0] * rules.num_sides
        for result in self.results:
            for side, change in enumerate(result.change):
                totals[side] += change
        return [float(totals[rules.side_of(s)]) for s in range(self.players)]

    def recall(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order: a perfect-recall information state."""
        if seat in self.stale:
            self.catch_up()
        return "\n".join(self.logs[seat])

    def catch_up(self) -> None:
        """Rebuild every seat's log by replaying the game's steps (after steps taken without logging)."""
        fresh = Table.replayed(self.rules, self.hand_limit, self.fixed_dealer, [i for _p, i in self.steps])
        cache = self.cache
        self.__dict__.update(fresh.__dict__)
        self.cache = cache

    # ------------------------------------------------------------------ stepping

    def apply(self, action_id: int) -> None:
        """Take one step: a chance outcome at a chance step, else the current player's id."""
        if self.over:
            raise ValueError("the game is over; no action can be applied")
        self.cache = {}
        if self.choosing_dealer:
            if not 0 <= action_id < self.players:
                raise ValueError(f"the first dealer is a seat from 0 to {self.players - 1}, got {action_id}")
            self.steps.append((CHANCE, action_id))
            self.choosing_dealer = False
            self.deals.dealer = action_id
            self._open_pack(0)
            return
        shuffle = self.shuffle
        if shuffle is not None:
            shuffle.take(action_id)
            self.steps.append((CHANCE, action_id))
            if shuffle.done:
                self._finish_shuffle()
            return
        assert self.engine is not None
        seat = self.engine.current_player
        action = self.decision().choose(action_id)  # ValueError naming the legal ids
        self.rewards = [0.0] * self.players
        self.steps.append((seat, action_id))
        if action is None:
            self.selection.append(action_id)
            self._log_selection(seat, action_id)
            return
        self.selection = []
        self._decision = None
        self._log_action(seat, action)
        self._engine_apply(action)

    def _open_pack(self, hand: int) -> None:
        """Start drawing a hand's pack (the table is copied first, for re-dealing this hand)."""
        self.hand_step = len(self.steps)
        self.hand_log_start = [len(log) for log in self.logs]
        self.shuffle = Shuffle.of("pack", hand, self.rules.deck)
        self.at_deal = None
        self.at_deal = self.copy()

    def _finish_shuffle(self) -> None:
        shuffle = self.shuffle
        assert shuffle is not None
        self.shuffle = None
        if shuffle.kind == "pack":
            self.deals.packs[shuffle.hand] = shuffle.order
        else:
            self.deals.washes[shuffle.hand] = shuffle.order
        if self.engine is None:  # the first pack: deal the game
            self.engine = GameState(self.rules, deals=self.deals)
            self._start_of_hand()
            self._log_step()
            return
        action = self.pending
        assert action is not None
        self.pending = None
        self._engine_apply(action)

    def _engine_apply(self, action: int) -> None:
        engine = self.engine
        assert engine is not None
        hand = engine.hand_index
        try:
            engine.apply(action)
        except ChanceWanted as want:
            if want.kind == "pack":
                self._credit(self._ended_by(action, want))  # the hand ended before the next pack was wanted
            self.engine = self._rebuild()
            if want.kind == "pack" and want.hand >= self.hand_limit:
                self.over = True
                self._log_results()
                return
            self.pending = action
            if want.kind == "pack":
                self._log_results()
                self._open_pack(want.hand)
            else:
                self.shuffle = Shuffle.of("wash", want.hand, want.cards)
                if self.shuffle.done:
                    self._finish_shuffle()
            return
        self._credit(engine.results)
        if engine.hand_index != hand:
            self._start_of_hand()
        else:
            self.hand_steps.append(action)
        if engine.is_over:
            self.over = True
        self._log_step()

    def _ended_by(self, action: int, want: ChanceWanted) -> tuple[HandResult, ...]:
        """The results once ``action`` ends the hand: the engine, whose apply raised for want of
        the next pack, is as it was, so a clone is dealt a stand-in pack to finish the hand."""
        assert self.engine is not None
        stand_in = self.deals.copy()
        stand_in.packs[want.hand] = list(want.cards)
        probe = self.engine.clone(deals=stand_in)
        probe.apply(action)
        return probe.results

    def _start_of_hand(self) -> None:
        engine = self.engine
        assert engine is not None
        self.base = engine.clone() if engine.hand_index > 0 else None
        self.hand_steps = []

    def _rebuild(self) -> GameState:
        """The engine as it was before the action being played (start of hand + this hand's actions)."""
        if self.base is None:
            engine = GameState(self.rules, deals=self.deals)
        else:
            engine = self.base.clone(deals=self.deals)
        for action in self.hand_steps:
            engine.apply(action)
        return engine

    def _credit(self, results: Sequence[HandResult]) -> None:
        """Count hands finished since the last call: returns and this step's rewards."""
        rules = self.rules
        for result in results[len(self.results) :]:
            self.results.append(result)
            for s in range(self.players):
                self.rewards[s] += result.change[rules.side_of(s)]

    # ------------------------------------------------------------------ copying

    @staticmethod
    def replayed(rules: Ruleset, hand_limit: int, dealer: int | None, ids: Sequence[int]) -> Table:
        """A table after the steps ``ids`` (chance outcomes and player ids) from the start."""
        table = Table(rules, hand_limit, dealer)
        for i in ids:
            table.apply(i)
        return table

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its steps (the engine holds rule closures): ``replayed`` rebuilds it."""
        ids = [i for _player, i in self.steps]
        return (Table.replayed, (self.rules, self.hand_limit, self.fixed_dealer, ids))

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        """OpenSpiel's ``clone``: a copy that logs nothing until asked (rollouts never ask)."""
        return self.copy(logging=())

    def copy(self, logging: Sequence[int] | None = None) -> Table:
        """An independent copy (the engine is cloned; snapshots are shared, never changed).

        ``logging`` narrows the seats whose logs the copy keeps up to date (the
        others are rebuilt if ever asked for); by default it is this table's.
        """
        new = Table.__new__(Table)  # not copy.copy: that would go through __reduce__
        new.__dict__.update(self.__dict__)
        new.deals = self.deals.copy()
        if self.engine is not None:
            new.engine = self.engine.clone(deals=new.deals)
        new.shuffle = self.shuffle.copy() if self.shuffle is not None else None
        new.steps = list(self.steps)
        new.hand_steps = list(self.hand_steps)
        new.selection = list(self.selection)
        new._decision = None
        new.results = list(self.results)
        new.rewards = list(self.rewards)
        new.logs = [list(log) for log in self.logs]
        if logging is not None:
            new.logging = frozenset(logging)
        new.stale = set(self.stale)
        new.hand_log_start = list(self.hand_log_start)
        new._secrets = list(self._secrets)
        new.cache = {}
        return new

    # ------------------------------------------------------------------ recall

    def _unlogged(self) -> None:
        """Seats not logged fall behind at every logged event."""
        if len(self.logging) < self.players:
            self.stale.update(s for s in range(self.players) if s not in self.logging)

    def _log_selection(self, seat: int, card: int) -> None:
        self._unlogged()
        if seat in self.logging:
            self.logs[seat].append(f"chose {format_card(card)}; legal {self._legal_text()}")

    def _log_action(self, seat: int, action: int) -> None:
        """The completed engine action: its taker always sees it, everyone sees a public one."""
        self._unlogged()
        if not self.logging:
            return
        words = action_words(action, self.rules.max_bid)
        public = action >> VERB_SHIFT in PUBLIC_VERBS
        for s in self.logging:
            if s == seat:
                self.logs[s].append(f"I {words}")
            elif public:
                self.logs[s].append(f"seat {seat} {words}")

    def _log_results(self) -> None:
        """A hand ended with an action that needs the next pack: its result, which is public."""
        self._unlogged()
        for s in self.logging:
            for result in self.results[-1:]:
                self.logs[s].append("hand over: " + _result_text(result))

    def _log_step(self) -> None:
        """After an engine step: each seat's changed view (public part, own secrets, its legal ids)."""
        self._unlogged()
        if not self.logging:
            return
        engine = self.engine
        assert engine is not None
        obs = engine.observation(min(self.logging))
        public = tuple(getattr(obs, name) for name in PUBLIC_FIELDS)
        delta = _delta_text(self._public, public, self.rules.max_bid)
        self._public = public
        turn = self.current_player()
        for s in sorted(self.logging):
            log = self.logs[s]
            if s == obs.seat:
                mine: _Secrets = (obs.hand, obs.own_discards, obs.seen)
            else:
                secrets = seat_secrets(engine, s)
                mine = (secrets.hand, secrets.own_discards, secrets.seen)
            parts = [delta] if delta else []
            if mine != self._secrets[s]:
                parts.append(
                    f"hand {format_cards(mine[0])} | my discards {format_cards(mine[1])} "
                    f"| seen {format_cards(mine[2])}"
                )
                self._secrets[s] = mine
            if turn == s:
                parts.append("legal " + self._legal_text())
            if parts:
                log.append("; ".join(parts))

    def _legal_text(self) -> str:
        space = self.space
        return " ".join(space.describe(i) for i in self.legal_ids())


def observation_text(table: Table, seat: int) -> str:
    """What ``seat`` sees now (not what it saw before): its observation and pending selection, in words."""
    results = " ".join(f"[{_result_text(r)}]" for r in table.results)
    if table.over:
        return f"game over after {len(table.results)} hands: {results}"
    shuffle = table.shuffle
    if table.engine is None or (shuffle is not None and shuffle.kind == "pack"):
        drawn = len(shuffle.order) if shuffle is not None else 0
        size = shuffle.size if shuffle is not None else len(table.rules.deck)
        before = results or "-"
        return f"dealing hand {table.hand_index + 1}: {drawn} of {size} cards drawn; hands before: {before}"
    obs = table.engine.observation(seat)
    public = tuple(getattr(obs, name) for name in PUBLIC_FIELDS)
    parts = [
        f"seat {seat} hand {format_cards(obs.hand)} | my discards {format_cards(obs.own_discards)} "
        f"| seen {format_cards(obs.seen)}",
        _delta_text(None, public, table.rules.max_bid),
    ]
    selection = table.selection_of(seat)
    if selection:
        parts.append("chosen " + format_cards(selection))
    if table.current_player() == seat:
        parts.append("legal " + table._legal_text())
    return "; ".join(parts)


def _result_text(result: HandResult) -> str:
    return (
        f"hand {result.index + 1} dealer {result.dealer} bidder {result.bidder} bid {result.bid} "
        f"call {result.call} trump {result.trump} points {result.points} made {result.made} "
        f"change {result.change} score {result.score}"
    )


def _delta_text(old: tuple[object, ...] | None, new: tuple[object, ...], max_bid: int) -> str:
    """The public fields that changed, in words (growing lists: only what was added)."""
    parts = []
    for i, name in enumerate(PUBLIC_FIELDS):
        value = new[i]
        before = old[i] if old is not None else None
        if before == value:
            continue
        growing = name in _GROWING and isinstance(before, tuple) and isinstance(value, tuple)
        if growing and value[: len(before)] == before:  # type: ignore[index,arg-type]
            value = value[len(before) :]  # type: ignore[index,arg-type]
            name += "+"
        parts.append(f"{name} {_field_text(name.rstrip('+'), value, max_bid)}")
    return " ".join(parts)


def _field_text(name: str, value: object, max_bid: int) -> str:
    if name == "calls":
        assert isinstance(value, tuple)
        return " ".join(f"{s}:{action_words(a, max_bid)}" for s, a in value) or "-"
    if name in ("face_up", "shown"):
        assert isinstance(value, tuple)
        return "/".join(format_cards(cards) or "-" for cards in value)
    if name == "tricks":
        assert isinstance(value, tuple)
        return " ".join(_trick_text(t) for t in value)
    if isinstance(value, SeenTrick):
        return _trick_text(value)
    if name == "history":
        assert isinstance(value, tuple)
        return " ".join(_seen_hand_text(h) for h in value)
    return str(value).replace(" ", "")


def _trick_text(trick: SeenTrick) -> str:
    plays = " ".join(f"{s}:{format_cards(cards)}" for s, cards in trick.plays)
    return f"[led {trick.leader} {plays} won {trick.winner}]"


def _seen_hand_text(hand: SeenHand) -> str:
    return (
        f"[dealer {hand.dealer} bidder {hand.bidder} bid {hand.bid} call {hand.call} trump {hand.trump} "
        f"points {','.join(map(str, hand.points))} made {hand.made} score {','.join(map(str, hand.score))}]"
    )
