"""The game state: one state machine driven by a Ruleset, from the first deal to the winner.

In the spirit of OpenSpiel: ``current_player``, ``legal_actions()``,
``apply(action)``, ``observation(seat)``. Chance (shuffles) comes from a
``DealSource``, so a seed or a record fixes every card. A decision with only
one legal outcome is taken by the engine itself and not written to the
history, except plays, which are always written (records list every play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from pedro.cards import NUM_CARDS, cards_of, format_cards, mask_of
from pedro.engine import exchange
from pedro.engine.actions import (
    PASS,
    VERB_SHIFT,
    Verb,
    action_words,
    arg_of,
    play_mask,
    play_top,
    trump_action,
    verb_of,
)
from pedro.engine.auction import Auction, apply_call, auction_over, legal_calls, next_speaker
from pedro.engine.choices import CardChoice
from pedro.engine.deal import DealSource, SeededDeals, deal_getters, pack_from_deal
from pedro.engine.observation import SeenHand
from pedro.engine.phases import Phase, Status
from pedro.engine.play import TRUMP_SUIT, normal_hand_size, stack_size
from pedro.engine.scoring import Contract, count_points, decide_winner, score_hand
from pedro.engine.turns import PlayTurns, TurnOrder
from pedro.engine.turns import Trick as Trick  # re-exported: records and views read tricks
from pedro.variants.model import AllPassAction, LowRule, Ruleset, TrumpTables, cached_value

if TYPE_CHECKING:
    from pedro.engine.observation import Observation


# Looking up an enum member costs a descriptor call on Python 3.11; the hot
# paths compare against these module constants instead.
# one Final name each: compiled, a Final is a C static, not a look-up in the module's dict
_AUCTION: Final = Phase.AUCTION
_TRUMP: Final = Phase.TRUMP
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER
_ACTIVE: Final = Status.ACTIVE
_HOLDER: Final = LowRule.HOLDER
_DEALT: Final = LowRule.DEALT


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; says why and what is allowed."""

    def __init__(self, reason: str, legal: str) -> None:
        super().__init__(f"{reason}; legal: {legal}")
        self.reason = reason
        self.legal = legal


# compiled: a Python class, as a frozen native one cannot be unpickled or copied
@mypyc_attr(native_class=False)
@dataclass(frozen=True)  # no slots: compiled, a slotted Python class lost its fields
class PlayedTrick:
    """A trick of a finished hand: frozen, as finished hands are shared by every clone."""

    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, play action)
    winner: int


@mypyc_attr(native_class=False)  # compiled, a Python class, for its ``cached_value``
@dataclass(frozen=True)
class HandResult:
    """Everything a record or a score sheet needs to know about a finished hand.

    Frozen, and made of tuples: clones of a game share their finished hands.
    """

    index: int
    dealer: int
    bidder: int | None
    bid: int | None
    call: str | None
    trump: int | None
    #: each seat's cards at the first lead, as masks (see ``hands_at_play``)
    play_masks: tuple[int, ...]
    tricks: tuple[PlayedTrick, ...]
    points: tuple[int, ...]
    made: bool | None
    change: tuple[int, ...]
    score: tuple[int, ...]
    bidder_goes_out: bool = False
    #: each seat's status when the hand ended (folded, cold, up, out or still active)
    statuses: tuple[Status, ...] = ()

    @property
    def hands_at_play(self) -> list[list[int]]:
        """Each seat's cards at the first lead (empty for a hand thrown in)."""
        return [cards_of(mask) for mask in self.play_masks]

    @cached_value
    def seen(self) -> SeenHand:
        """The hand as everyone saw it; built once, as every observation repeats the whole history."""
        return SeenHand(
            self.dealer, self.bidder, self.bid, self.call, self.trump, self.points, self.made, self.score,
        )  # fmt: skip


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: ``__new__`` runs no ``__init__`` (clone, pickle)
class GameState(PlayTurns):
    """A whole game of one variant; mutate with ``apply``, copy with ``clone``.

    The card play's turn order is ``PlayTurns``'s (``pedro.engine.turns``).
    """

    # the game
    rules: Ruleset
    deals: DealSource
    players: int
    scores: list[int]  # per side
    results: list[HandResult]
    winner: int | None
    #: the game has ended (``phase`` is ``GAME_OVER``); read by every simulation loop
    is_over: bool
    written: list[tuple[int, int]]  # this hand's written decisions (the last of ``histories``)
    first_dealer: int
    hand_index: int
    #: Per hand, the written decisions in order: (seat, action); a tuple once the hand is over.
    histories: list[Sequence[tuple[int, int]]]
    #: Per hand: the first deal, kitty and stock (for records).
    deal_records: list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]]
    #: Per hand: the discarded cards dealt from the wash, in order; a tuple once the hand is over.
    washes: list[Sequence[int]]
    wash_dealt: list[int]  # this hand's cards dealt from the wash (the last of ``washes``)
    ex_plans: dict[int, tuple[tuple[str, int], ...]]  # the exchange's steps by dealer (a cache)

    # the current hand (set up by ``_deal``)
    phase: Phase
    current_player: int
    dealer: int
    bgo_hand: bool
    hands: list[int]  # card masks per seat
    dealt_hands: tuple[int, ...]  # each seat's first-deal hand
    dealt_to: dict[int, int]  # first receivers of cards given after the first deal
    kitty: tuple[int, ...]
    stock: tuple[int, ...]  # top first; cards before ``stock_pos`` have been dealt
    stock_pos: int
    wash_order: tuple[int, ...] | None
    wash_pos: int
    #: the discards gathered face down into the wash when the stock ran dry (0 before): from then
    #: on nobody can tell where a gathered card went, so no view follows them one by one
    wash_gathered: int
    wash_from: list[int]  # per seat, how many of its discards were gathered into the wash
    auction: Auction
    contract: Contract | None
    trump: int
    tt: TrumpTables | None
    status: list[Status]
    discards: list[int]  # per seat, every card laid aside (face up or down)
    face_up: int  # cards laid aside face up: public
    dead: int  # cards out of play
    killed: list[int]
    credits: list[int]  # points credited per side for trumps laid aside (notes K11, K19)
    credited: int
    known: list[int]  # per seat, cards seen that are not in its hand
    received: list[list[tuple[int, int]]]  # per seat, (from seat, cards) given by partner
    laid_down: list[int]  # cards shown by cold / up / out players
    rob_pool: int
    ex_steps: list[tuple[str, int]]
    ex_index: int
    ex_done: set[tuple[str, int]]
    ex_choice: tuple[int, ...] | CardChoice | None
    ex_committed: int
    tricks: list[Trick]
    trick: Trick | None
    hands_at_play: list[int]
    normal_hand: int
    first_lead_pending: bool
    led: int  # effective suit of the current trick's lead, -1 before the lead
    best_seat: int  # the seat winning the current trick so far
    best_key: int
    all_active: bool
    order: TurnOrder  # the card play's turn order (before the first lead: the order with no trump)
    active: int  # the seats still playing, as a bit mask (during the card play)
    _legal: tuple[int, ...] | CardChoice | None
    _seen_history: tuple[SeenHand, ...]  # the results' ``seen``, extended as hands end

    # Slots make attribute access faster than a dict of some sixty attributes.
    __slots__ = tuple(__annotations__)

    def __init__(
        self, rules: Ruleset, deals: DealSource | None = None, seed: int | str | None = None
    ) -> None:
        self.rules = rules
        self.deals = deals if deals is not None else SeededDeals(seed)
        self.players = rules.players
        self.scores = [0] * rules.num_sides
        self.results = []
        self.winner = None
        self.first_dealer = self.deals.first_dealer(rules.players)
        self.hand_index = -1
        self.histories = []
        self.deal_records = []
        self.washes = []
        self.ex_plans = {}
        self.is_over = False
        self._seen_history = ()
        self._deal(0, self.deals.pack(0, rules.deck), self._bgo_next(False))

    # ------------------------------------------------------------------ public API

    @property
    def history(self) -> list[tuple[int, int]]:
        """The current hand's written decisions."""
        return self.written

    def seen_history(self) -> tuple[SeenHand, ...]:
        """Every finished hand as everyone saw it: extended as hands end, as every observation repeats it."""
        seen = self._seen_history
        done = len(self.results)
        if len(seen) != done:
            kept = seen if len(seen) < done else ()
            seen = self._seen_history = kept + tuple(r.seen for r in self.results[len(kept) :])
        return seen

    def legal(self) -> tuple[int, ...] | CardChoice:
        """The current decision's legal actions: a tuple (the engine's own, so immutable), or a card rule."""
        legal = self._legal
        if legal is None:
            if self.phase == _PLAY:  # the common case, without a detour
                legal = self._legal = self._legal_plays(self.current_player)
            else:
                legal = self._legal = self._compute_legal()
        return legal

    def legal_actions(self) -> tuple[int, ...]:
        """All legal actions (may be long for card-set choices)."""
        legal = self.legal()
        return legal if isinstance(legal, tuple) else tuple(legal)

    def why_illegal(self, action: int) -> str | None:
        """None if ``action`` is legal now, else the reason it is not."""
        if self.phase == _GAME_OVER:
            return "the game is over"
        legal = self.legal()
        if isinstance(legal, CardChoice):
            return legal.reason_illegal(action)
        if action in legal:
            return None
        return self._explain(action, legal)

    def apply(self, action: int) -> None:
        """Play ``action`` for the current player; raises IllegalActionError and changes nothing.

        Should the ``DealSource`` raise (a record's next deal missing), the state is
        left as it was too (``_undo``).
        """
        if self.phase == _PLAY:
            # the hot path of simulations: plays are always in a plain tuple
            legal = self._legal
            if legal is None:
                legal = self._legal = self._legal_plays(self.current_player)
            if action not in legal:
                raise IllegalActionError(self._explain(action, legal), self.describe_legal())  # type: ignore[arg-type]
            seat = self.current_player
            self.written.append((seat, action))
            self._legal = None
            try:
                self._apply_play(seat, action)
                if self.phase != _PLAY:
                    return  # the hand is over and the next one set up (``_deal`` advanced it)
                if self.all_active or self._prepare_play_turn():
                    return  # everyone plays every trick: the next seat (or the trick's winner) simply plays
                self._advance()
            except BaseException:
                self._undo()
                raise
            return
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(reason, self.describe_legal())
        try:
            self._apply(action, written=True)
            self._advance()
        except BaseException:
            self._undo()
            raise

    def _undo(self) -> None:
        """Undo an apply that raised half-way: deal this hand again and replay its decisions but the last.

        A hand's end changes nothing until the next pack is in hand (``_finish_hand``),
        so only the current hand, whose last written decision is the one that raised,
        is rebuilt. Its pack comes from its deal record: the source is not asked again.
        """
        rules = self.rules
        deal, kitty, stock = self.deal_records[-1]
        size = rules.first_deal_size
        pack = pack_from_deal(self.players, self.dealer, size, self._packets(), deal, kitty, stock)
        done = self.written[:-1]
        self._deal(self.hand_index, pack, self.bgo_hand)
        for _seat, action in done:
            self.apply(action)

    def describe_legal(self, limit: int = 40) -> str:
        """Legal actions as record text, for messages."""
        if self.phase == _GAME_OVER:
            return "none (the game is over)"
        legal = self.legal()
        seat = self.current_player
        if isinstance(legal, CardChoice):
            if legal.upper_bound() <= limit:
                return ", ".join(f"{seat} {self.words(a)}" for a in legal)
            alts = "".join(f" or {seat} {self.words(a)}" for a in legal.alternatives)
            return f"{seat} {legal.verb.name.lower()} CARDS where {legal.rule}{alts}"
        texts = [f"{seat} {self.words(a)}" for a in legal[:limit]]
        more = f" (and {len(legal) - limit} more)" if len(legal) > limit else ""
        return ", ".join(texts) + more

    def words(self, action: int) -> str:
        return action_words(action, self.rules.max_bid)

    def clone(self) -> GameState:
        """A copy to play on: this hand's mutable data is copied, everything else is immutable and shared.

        ``_COPIED`` names the fields copied here; every other field holds immutable
        values or is in ``_SHARED`` (tests/test_engine_clone.py checks both).
        """
        new = _new_state(GameState)
        for name, value in zip(_SLOTS, _get_all(self), strict=True):
            _set(new, name, value)
        new.scores = self.scores[:]
        new.results = self.results[:]
        new.written = self.written[:]
        new.histories = [*self.histories[:-1], new.written]
        new.wash_dealt = self.wash_dealt[:]
        new.washes = [*self.washes[:-1], new.wash_dealt]
        new.deal_records = self.deal_records[:]
        new.hands = self.hands[:]
        new.auction = self.auction.copy()
        new.status = self.status[:]
        new.discards = self.discards[:]
        new.wash_from = self.wash_from[:]
        new.credits = self.credits[:]
        new.known = self.known[:]
        new.received = [r[:] for r in self.received]
        new.ex_steps = self.ex_steps[:]
        new.ex_done = self.ex_done.copy()
        new.tricks = [Trick(t.leader, t.plays[:], t.winner) for t in self.tricks]
        trick = self.trick
        new.trick = Trick(trick.leader, trick.plays[:], trick.winner) if trick is not None else None
        new.hands_at_play = self.hands_at_play[:]
        new.dealt_to = self.dealt_to.copy()
        new.laid_down = self.laid_down[:]
        new.killed = self.killed[:]
        return new

    # ------------------------------------------------------------------ hand set-up

    def _packets(self) -> tuple[int, ...]:
        """The first deal's packet sizes."""
        return (1,) if self.rules.deal_all_out else self.rules.packets

    def _bgo_next(self, force: bool) -> bool:
        """Whether the next hand is played under bidder-goes-out (forced, or both sides near the target)."""
        rules = self.rules
        return force or (rules.num_sides == 2 and min(self.scores) >= rules.effective_bgo_threshold)

    def _deal(self, index: int, pack: list[int], bgo: bool) -> None:
        """Set up hand ``index`` dealt from ``pack`` (dealt again when an apply is undone).

        The hand before it is over: its history and wash are frozen into tuples.
        """
        rules = self.rules
        n = self.players
        del self.histories[index:], self.washes[index:], self.deal_records[index:]
        if index:
            self.histories[-1] = tuple(self.histories[-1])
            self.washes[-1] = tuple(self.washes[-1])
        self.hand_index = index
        self.dealer = (self.first_dealer + index) % n
        self.bgo_hand = bgo
        getters = deal_getters(n, self.dealer, rules.first_deal_size, self._packets())
        deal = tuple(take(pack) for take in getters)
        bit = _BITS.__getitem__
        hands = [sum(map(bit, cards)) for cards in deal]  # distinct cards: the sum is the union
        pos = n * rules.first_deal_size
        self.dealt_hands = tuple(hands)
        #: first receivers of cards given after the first deal (kitty, fills, picks)
        self.dealt_to = {}
        kitty = tuple(pack[pos : pos + rules.kitty_size])
        pos += len(kitty)
        self.hands = hands
        self.kitty = kitty
        self.stock = tuple(pack[pos:])
        self.stock_pos = 0
        self.wash_order = None
        self.wash_pos = 0
        self.wash_gathered = 0
        self.wash_from = [0] * n
        self.written = []
        self.histories.append(self.written)
        self.wash_dealt = []
        self.washes.append(self.wash_dealt)
        self.deal_records.append((deal, kitty, self.stock))
        self.auction = Auction.start(rules, self.dealer)
        self.trump = -1
        self.tt = None
        self.contract = None
        self.status = [_ACTIVE] * n
        self.discards = [0] * n  # everything each seat laid aside
        self.face_up = 0  # cards laid aside face up (public)
        self.dead = 0  # cards out of play
        self.credits = [0] * rules.num_sides
        self.credited = 0  # scoring trumps whose points were credited when laid aside
        self.laid_down = [0] * n  # cards shown by cold / up / out players
        self.killed = [0] * n  # trumps each seat laid dead face up
        self.rob_pool = 0
        self.ex_choice = None
        self.ex_committed = 0
        self.known = [0] * n  # cards a seat has seen that are not in its hand
        self.received = [[] for _ in range(n)]  # (from seat, mask)
        self.ex_steps = []
        self.ex_index = 0
        self.ex_done = set()
        self.tricks = []
        self.trick = None
        self.hands_at_play = []
        self.first_lead_pending = False
        self.normal_hand = 0  # set when the play starts
        self.led = -1
        self.best_seat = -1
        self.best_key = 0
        self.all_active = False
        # set at the first lead (``_start_turns``); every field is set here, as ``clone`` reads them all
        self.order = TurnOrder.of(rules, 0)
        self.active = 0
        self.phase = _AUCTION
        self.current_player = self.auction.turn
        self._legal = None
        self._advance()

    # ------------------------------------------------------------------ driver

    def _advance(self) -> None:
        """Take every automatic step until a player has a decision to make."""
        while True:
            self._legal = None
            phase = self.phase
            if phase == _GAME_OVER:
                return
            if phase == _EXCHANGE:
                if not exchange.step(self):
                    continue
            elif phase == _PLAY:
                if not self._prepare_play_turn():
                    continue
                return
            legal = self.legal()
            only = (
                legal.only_action()
                if isinstance(legal, CardChoice)
                else (legal[0] if len(legal) == 1 else None)
            )
            if only is None:
                return
            self._apply(only, written=False)

    def _compute_legal(self) -> tuple[int, ...] | CardChoice:
        seat = self.current_player
        phase = self.phase
        if phase == _PLAY:
            return self._legal_plays(seat)
        if phase == _AUCTION:
            return tuple(legal_calls(self.rules, self.auction, seat, self.hands[seat]))
        if phase == _TRUMP:
            if self.contract and self.contract.verb == Verb.BID_28_56:
                return tuple(trump_action(s) for s in self.auction.suits_28_56)
            return _TRUMP_ACTIONS
        if phase == _EXCHANGE:
            assert self.ex_choice is not None
            return self.ex_choice
        return ()

    def _apply(self, action: int, written: bool) -> None:
        seat = self.current_player
        if written:
            self.written.append((seat, action))
        self._legal = None
        phase = self.phase
        if phase == _AUCTION:
            self._apply_call(seat, action)
        elif phase == _TRUMP:
            self._name_trump(action & 3)
        elif phase == _EXCHANGE:
            exchange.apply(self, seat, action)
        elif phase == _PLAY:
            self._apply_play(seat, action)

    # ------------------------------------------------------------------ auction

    def _apply_call(self, seat: int, action: int) -> None:
        rules = self.rules
        apply_call(rules, self.auction, seat, action, self.hands[seat])
        if not auction_over(rules, self.auction, seat):
            self.current_player = next_speaker(self.auction, seat)
            return
        a = self.auction
        if a.high_seat is None or a.high_value is None:
            assert (
                rules.all_pass_action == AllPassAction.REDEAL_NEXT_DEALER or rules.dealer_forced_bid is None
            )
            self._finish_hand(thrown_in=True)
            return
        self.contract = Contract(a.high_seat, a.high_value, a.high_verb)
        if rules.kitty_before_trump:
            self._take_kitty()
        self.phase = _TRUMP
        self.current_player = a.high_seat

    def _take_kitty(self) -> None:
        assert self.contract is not None
        bidder = self.contract.bidder
        for c in self.kitty:
            self.hands[bidder] |= 1 << c
            self.dealt_to.setdefault(c, bidder)

    def _name_trump(self, suit: int) -> None:
        rules = self.rules
        self.trump = suit
        self.tt = rules.tables(suit)
        if rules.kitty_size and not rules.kitty_before_trump:
            self._take_kitty()
        if rules.second_deal:
            n = self.players
            for i in range(n):
                s = (self.dealer + 1 + i) % n
                self.give_from_stock(s, rules.second_deal)
        self.phase = _EXCHANGE
        exchange.start(self)

    # ------------------------------------------------------------------ stock and wash

    def stock_left(self) -> tuple[int, ...]:
        return self.stock[self.stock_pos :]

    def give_from_stock(self, seat: int, count: int) -> None:
        """Deal ``count`` cards to ``seat`` from the stock's top, then from the wash."""
        pos = self.stock_pos
        cards = list(self.stock[pos : pos + count])
        self.stock_pos = pos + len(cards)
        if len(cards) < count:
            cards += [self._draw_wash() for _ in range(count - len(cards))]
        hand = self.hands[seat]
        for c in cards:
            hand |= 1 << c
            self.dealt_to.setdefault(c, seat)
        self.hands[seat] = hand

    def _draw_wash(self) -> int:
        from pedro.engine.deal import DealError

        if self.wash_order is None:
            self.wash_order = tuple(self._gather_wash())
        dealt = self.wash_dealt
        while True:
            if self.wash_pos >= len(self.wash_order):
                raise DealError(f"hand {self.hand_index + 1}: the stock and the wash ran out of cards")
            c = self.wash_order[self.wash_pos]
            self.wash_pos += 1
            if any(d >> c & 1 for d in self.discards):
                break
            # taken back from the discards (dealer's pick, a claim) after the pile was shuffled
            if not self.deals.skips_taken_wash_cards:
                raise DealError(
                    f"hand {self.hand_index + 1}: wash card {format_cards([c])} is no longer discarded"
                )
        dealt.append(c)
        for s in range(self.players):
            self.discards[s] &= ~(1 << c)
        self.face_up &= ~(1 << c)
        return c

    def _gather_wash(self) -> list[int]:
        """Gather the discards (but face-up trumps and dead cards) and shuffle them face down.

        Face-up discards turn face down here: were they left showing while the wash
        is dealt, the cards missing from them would tell everyone what was dealt.
        """
        keep_out = self.dead
        if self.tt is not None:
            keep_out |= self.face_up & self.tt.trump_mask
        pile = [c for s in range(self.players) for c in cards_of(self.discards[s] & ~keep_out)]
        gathered = mask_of(pile)
        self.wash_gathered = gathered
        self.wash_from = [(d & gathered).bit_count() for d in self.discards]
        self.face_up &= ~gathered
        return self.deals.wash(self.hand_index, pile)

    def wash_left(self) -> int:
        """The gathered cards still in the wash: not dealt (nor taken back by a dealer's pick).

        A card dealt from the wash may be laid aside again (a claim gives a non-trump face
        up); it is then an ordinary discard of its new owner.
        """
        if not self.wash_gathered:
            return 0
        out = 0
        for d in self.discards:
            out |= d
        return out & self.wash_gathered & ~mask_of(self.wash_dealt)

    def _is_trump(self, c: int) -> bool:
        return self.tt is not None and bool(self.tt.trump_mask >> c & 1)

    # ------------------------------------------------------------------ play

    def start_play(self) -> None:
        assert self.contract is not None and self.tt is not None
        self.phase = _PLAY
        self.hands_at_play = list(self.hands)
        self.normal_hand = normal_hand_size(self.rules)
        self._start_turns(self.contract.bidder)

    def _lay_down(self, seat: int, status: Status) -> None:
        self.status[seat] = status
        self.laid_down[seat] = self.hands[seat]

    def _end_play(self) -> None:
        self._finish_hand(thrown_in=False)

    # ------------------------------------------------------------------ scoring

    def _finish_hand(self, thrown_in: bool) -> None:
        """Score the hand, then end the game or deal the next hand.

        The next pack is asked for before anything changes, so a ``DealSource``
        that raises leaves the finished hand as it was (``_undo`` rebuilds it).
        """
        rules = self.rules
        scores = self.scores
        zeros = (0,) * rules.num_sides
        winner, force = None, False
        if thrown_in:
            result = HandResult(
                self.hand_index, self.dealer, None, None, None, None, (), (), zeros, None, zeros,
                tuple(scores),
            )  # fmt: skip
        else:
            assert self.contract is not None and self.tt is not None
            points, taken = count_points(
                rules,
                self.tt,
                self.tricks,
                self._holders() if rules.low_rule == _HOLDER else {},
                self._first_receivers() if rules.low_rule == _DEALT else {},
                self.credits,
                self.credited,
            )
            change, made = score_hand(rules, self.contract, points)
            scores = [a + b for a, b in zip(scores, change, strict=True)]
            contract = self.contract
            call = _CALL_NAMES.get(contract.verb)
            if call == "double":
                call = f"{rules.max_bid}-double"
            tricks = tuple(PlayedTrick(t.leader, tuple(t.plays), t.winner) for t in self.tricks)
            result = HandResult(
                self.hand_index, self.dealer, contract.bidder, contract.value, call, self.trump,
                tuple(self.hands_at_play), tricks, tuple(points), made, tuple(change),
                tuple(scores), self.bgo_hand, tuple(self.status),
            )  # fmt: skip
            winner, force = decide_winner(rules, self.scores, scores, contract, made, self.bgo_hand, taken)
        pack = self.deals.pack(self.hand_index + 1, rules.deck) if winner is None else None
        self.results.append(result)
        self.scores = scores
        if pack is None:
            self.winner = winner
            self.phase = _GAME_OVER
            self.is_over = True
            self.current_player = -1
            return
        self._deal(self.hand_index + 1, pack, self._bgo_next(force))

    def _low_card(self) -> int:
        assert self.tt is not None
        return self.tt.low_card

    def _holders(self) -> dict[int, int]:
        """Seat holding the Low when play started (counting needs no other card's holder)."""
        low = self._low_card()
        holder = _first_with(self.hands_at_play, low)
        return {} if holder < 0 else {low: holder}

    def _first_receivers(self) -> dict[int, int]:
        """Seat that first received the Low, in the first deal or later."""
        low = self._low_card()
        dealt = _first_with(self.dealt_hands, low)
        if dealt >= 0:
            return {low: dealt}
        return {low: self.dealt_to[low]} if low in self.dealt_to else {}

    # ------------------------------------------------------------------ messages

    def _explain(self, action: int, legal: Sequence[int]) -> str:
        """Why an action that is not in ``legal`` is refused, in a player's words."""
        if action < 0 or action >> VERB_SHIFT >= len(Verb):
            return f"{action} is not an action (see pedro.engine.actions)"
        verb = verb_of(action)
        if self.phase == _PLAY and verb == Verb.PLAY:
            return self._explain_play(action, legal)
        if self.phase == _AUCTION:
            return self._explain_call(action, verb)
        if self.phase == _TRUMP:
            if verb == Verb.TRUMP:
                return "after 28-56 the dealer must name the suit in which he holds ace, king and two"
            return "the bidder must name trumps now"
        return "that is not a decision the rules ask for now"

    def _explain_call(self, action: int, verb: Verb | None) -> str:
        rules = self.rules
        a = self.auction
        if action == PASS:
            return "the dealer may not pass when everyone else has passed"
        if verb == Verb.BID:
            value = arg_of(action)
            if value > rules.max_bid:
                return f"bids go up to {rules.max_bid}"
            if value < rules.min_bid and value != rules.dealer_forced_bid:
                return f"the lowest bid is {rules.min_bid}"
            if a.high_value is not None:
                return f"a bid must be higher than the current bid of {a.high_value}"
            if a.is_forced(rules, self.current_player) and rules.dealer_forced_bid is not None:
                return f"the forced dealer bids {rules.dealer_forced_bid} or at least {rules.min_bid}"
        names = {
            Verb.BID_28_56: "28-56 is a dealer's call, with ace, king and two of one suit, above 14",
            Verb.BID_DOUBLE: "the double call is not allowed now",
            Verb.PROTECT: "only the dealer's partner may protect, before any bid",
        }
        if verb in names:
            return names[verb]
        return "that is not a call; call pass or bid a number"

    def _explain_play(self, action: int, legal: Sequence[int]) -> str:
        assert self.tt is not None and self.trick is not None
        seat = self.current_player
        cards = play_mask(action)
        if not cards or cards & ~self.rules.deck_mask:
            return "that names no card of this pack"
        if cards & ~self.hands[seat]:
            return f"{format_cards(cards_of(cards & ~self.hands[seat]))} not in hand"
        need = stack_size(self.rules, self.hands[seat], self.normal_hand)
        if not self.tricks and need > 1 and cards.bit_count() != need:
            return f"holding {self.hands[seat].bit_count()} cards, play {need} cards to the first trick"
        if cards.bit_count() != 1 and (self.tricks or need <= 1):
            return "play one card"
        if not self.tricks and need > 1:
            top = play_top(action)
            if any(play_top(a) == top for a in legal):
                return "those cards may not be buried under it (see the burying rule)"
        led = self.led
        if led < 0:
            return "the first lead must be a trump" if self.first_lead_pending else "must lead a trump"
        if led == TRUMP_SUIT:
            return "must play a trump when a trump is led"
        return {
            "follow_or_trump": "must follow suit or trump",
            "must_follow": "must follow suit",
            "nontrump_if_able": "must play a non-trump when a plain suit is led",
            "follow_or_trump_void_must_trump": "must follow suit or trump, and trump when void",
        }.get(self.rules.plain_lead.value, "that card may not be played now")

    # ------------------------------------------------------------------ observation

    def observation(self, seat: int) -> Observation:
        from pedro.engine.observation import observe

        return observe(self, seat)

    # ------------------------------------------------------------------ position text

    def to_text(self) -> str:
        """The position as one line of text (docs/engine.md, "Position text"); the play phase only.

        >>> from pedro.variants.options import make_ruleset
        >>> text = "play scores=3,5 hand=2 dealer=0 calls=1:pass,2:pass,3:pass,0:7 trump=S size=6"
        >>> state = GameState.from_text(make_ruleset("cinch"), text + " hands=AS/KS/QS/JS turn=0")
        >>> state.to_text() == text + " hands=AS/KS/QS/JS turn=0"
        True
        >>> state
        <GameState cinch hand 2 play: 0 to play, trump ♠, contract 0 bid 7, scores 3-5>
        """
        from pedro.engine.position_text import format_position, position_of

        return format_position(self.rules, position_of(self))

    @classmethod
    def from_text(cls, rules: Ruleset, text: str) -> GameState:
        """The state of a position text; later hands are dealt by ``SeededDeals(text)``."""
        from pedro.engine.position_text import parse_state

        return parse_state(rules, text)

    def __repr__(self) -> str:
        from pedro.engine.position_text import summary

        return summary(self)


#: HandResult.call of the special calls ("double" is written with the maximum bid)
_CALL_NAMES: Final = {Verb.BID_28_56: "28-56", Verb.BID_DOUBLE: "double", Verb.PROTECT: "protect"}


def _first_with(masks: Sequence[int], card: int) -> int:
    """The first seat whose mask holds ``card`` (none: -1, also for card -1)."""
    if card >= 0:
        for seat, mask in enumerate(masks):
            if mask >> card & 1:
                return seat
    return -1


_TRUMP_ACTIONS: Final = tuple(trump_action(s) for s in range(4))
_BITS: Final = tuple(1 << c for c in range(NUM_CARDS))


#: Fields ``clone`` copies: the current hand's mutable data.
_COPIED: Final = frozenset({
    "scores", "results", "written", "histories", "wash_dealt", "washes", "deal_records", "hands", "auction",
    "status", "discards", "wash_from", "credits", "known", "received", "ex_steps", "ex_done", "tricks",
    "trick", "hands_at_play", "dealt_to", "laid_down", "killed",
})  # fmt: skip
#: Fields shared by clones on purpose: the rules, the source of chance, and a cache of pure values.
_SHARED: Final = frozenset({"rules", "deals", "ex_plans"})
#: The instance fields: the slots, or mypyc's native attributes in the compiled build (which has
#: no ``__slots__``, lists ``PlayTurns``'s twice, and whose instances only ``GameState.__new__`` makes).
_SLOTS: tuple[str, ...] = tuple(
    dict.fromkeys(getattr(GameState, "__mypyc_attrs__", None) or getattr(GameState, "__slots__"))  # noqa: B009
)
_get_all: Final = attrgetter(*_SLOTS)
_set: Final = setattr
_new_state: Final = GameState.__new__
