"""The state machine of a game: it moves a game on by its rules, from each deal to the count.

``Driver`` deals each hand, takes every step the rules take by themselves (a dealer's only
call, a forced discard, a fill, the next seat to play), applies a decision to the auction,
the trump, the exchange (``pedro.engine.exchange``, through the ``TableMoves``) or the card
play (``PlayTurns``), and scores each hand at its end. ``GameState`` (``pedro.engine.state``),
its one subclass, is the public face: it checks a decision before it is applied, undoes one
that fails half-way, copies the state and shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from pedro.cards import mask_of
from pedro.engine import exchange
from pedro.engine.actions import Verb, trump_action
from pedro.engine.auction import Auction, apply_call, auction_over, legal_calls, next_speaker
from pedro.engine.choices import CardChoice
from pedro.engine.deal import deal_getters, first_deal_packets
from pedro.engine.exchange_plan import Steps, start
from pedro.engine.phases import Phase, Status
from pedro.engine.play import normal_hand_size
from pedro.engine.results import DealRecord, HandResult, PlayedTrick
from pedro.engine.scoring import Contract, count_points, decide_winner, score_hand
from pedro.engine.table import Table, TableMoves
from pedro.engine.turns import TurnOrder
from pedro.variants.model import AllPassAction, LowRule

# Looking up an enum member costs a descriptor call on Python 3.11; the hot
# paths compare against these module constants instead.
# one Final name each: compiled, a Final is a C static, not a look-up in the module's dict
_AUCTION: Final = Phase.AUCTION
_TRUMP: Final = Phase.TRUMP
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER
_HOLDER: Final = LowRule.HOLDER
_DEALT: Final = LowRule.DEALT
_ACTIVE: Final = Status.ACTIVE


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: GameState subclasses it (clone, pickle)
class Driver(Table):
    """A game moved on by its rules: the hand's progress and the game's history (see the module).

    Its fields are the history of the game and what drives the turns; where the cards are is
    the ``Table``'s.
    """

    #: the game ends, with no winner, when this many hands are scored (0: it is played to its end)
    _hand_limit: int
    _first_dealer: int
    _actions: list[tuple[int, int]]  # this hand's written decisions (the last of ``hand_actions``)
    #: Per hand, the written decisions in order: (seat, action); a tuple once the hand is over.
    _hand_actions: list[Sequence[tuple[int, int]]]
    #: Per hand: the first deal, kitty and stock (for records).
    _deal_records: list[DealRecord]
    #: Per hand: the discarded cards dealt from the wash, in order; a tuple once the hand is over.
    _washes: list[Sequence[int]]
    _exchange: Steps  # the exchange's own state: its steps and the decision they wait for
    _legal: tuple[int, ...] | CardChoice | None
    # the card play's turn (``PlayTurns``)
    _first_lead_pending: bool
    _led: int  # effective suit of the current trick's lead, -1 before the lead
    _best_seat: int  # the seat winning the current trick so far
    _best_key: int
    _all_active: bool
    _order: TurnOrder  # the card play's turn order (before the first lead: the order with no trump)
    _active: int  # the seats still playing, as a bit mask (during the card play)

    __slots__ = tuple(__annotations__)

    def _copy_driver(self, new: Driver) -> None:
        """Give ``new`` a copy of the game's history and turn (``GameState.clone``, after its table:
        the last of the washes is the table's); the hand's mutable data copied."""
        new._hand_limit = self._hand_limit
        new._first_dealer = self._first_dealer
        new._actions = self._actions[:]
        new._hand_actions = [*self._hand_actions[:-1], new._actions]
        new._deal_records = self._deal_records[:]
        new._washes = [*self._washes[:-1], new._wash_dealt]
        new._exchange = self._exchange.copy()
        new._legal = self._legal
        new._first_lead_pending = self._first_lead_pending
        new._led = self._led
        new._best_seat = self._best_seat
        new._best_key = self._best_key
        new._all_active = self._all_active
        new._order = self._order
        new._active = self._active

    # ------------------------------------------------------------------ hand set-up

    def _bgo_next(self, force: bool) -> bool:
        """Whether the next hand is played under bidder-goes-out (forced, or both sides near the target)."""
        rules = self._rules
        return force or (rules.num_sides == 2 and min(self._scores) >= rules.effective_bgo_threshold)

    def _deal(self, index: int, pack: list[int], bgo: bool) -> None:
        """Set up hand ``index`` dealt from ``pack`` (dealt again when an apply is undone).

        The hand before it is over: its history and wash are frozen into tuples.
        """
        rules = self._rules
        n = self._players
        del self._hand_actions[index:], self._washes[index:], self._deal_records[index:]
        if index:
            self._hand_actions[-1] = tuple(self._hand_actions[-1])
            self._washes[-1] = tuple(self._washes[-1])
        self._hand_index = index
        self._dealer = (self._first_dealer + index) % n
        self._bgo_hand = bgo
        getters = deal_getters(n, self._dealer, rules.first_deal_size, first_deal_packets(rules))
        deal = tuple(take(pack) for take in getters)
        pos = n * rules.first_deal_size
        kitty = tuple(pack[pos : pos + rules.kitty_size])
        stock = tuple(pack[pos + len(kitty) :])
        self._lay_out([mask_of(cards) for cards in deal], kitty, stock)
        self._actions = []
        self._hand_actions.append(self._actions)
        self._washes.append(self._wash_dealt)
        self._deal_records.append((deal, kitty, stock))
        self._auction = Auction.start(rules, self._dealer)
        self._trump = -1
        self._tt = None
        self._contract = None
        self._exchange = self._exchange.next_hand()
        self._first_lead_pending = False
        self._led = -1
        self._best_seat = -1
        self._best_key = 0
        self._all_active = False
        # set at the first lead (``_start_turns``); every field is set here, as ``clone`` reads them all
        self._order = TurnOrder.of(rules, 0)
        self._active = 0
        self._phase = _AUCTION
        self._current_player = self._auction.turn
        self._legal = None
        self._advance()

    def _lay_out(self, hands: list[int], kitty: tuple[int, ...], stock: tuple[int, ...]) -> None:
        """A new hand's cards: ``hands`` dealt, the kitty and the stock aside, nothing else anywhere."""
        n = self._players
        self._hands = hands
        self._dealt_hands = tuple(hands)
        self._dealt_to = {}
        self._kitty = kitty
        self._stock = stock
        self._stock_pos = 0
        self._wash_order = None
        self._wash_pos = 0
        self._wash_gathered = 0
        self._wash_from = [0] * n
        self._wash_dealt = []
        self._status = [_ACTIVE] * n
        self._discards = [0] * n
        self._face_up = 0
        self._dead = 0
        self._killed = [0] * n
        self._credits = [0] * self._rules.num_sides
        self._credited = 0
        self._seen = [0] * n
        self._received = [[] for _ in range(n)]
        self._drawn = [0] * n
        self._shown = [0] * n
        self._tricks = []
        self._trick = None
        self._hands_at_play = []
        self._normal_hand_size = 0  # set when the play starts

    def _take_kitty(self, bidder: int) -> None:
        """The bidder takes the kitty into his hand."""
        for c in self._kitty:
            self._hands[bidder] |= 1 << c
            self._dealt_to.setdefault(c, bidder)
        self._drawn[bidder] += len(self._kitty)

    # ------------------------------------------------------------------ driver

    def _advance(self) -> None:
        """Take every automatic step until a player has a decision to make."""
        while True:
            self._legal = None
            phase = self._phase
            if phase == _GAME_OVER:
                return
            if phase == _EXCHANGE:
                seat = exchange.step(TableMoves(self), self._exchange)
                if seat < 0:
                    self._start_play()
                    continue
                self._current_player = seat
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
        """The legal actions of the decision now (``GameState.legal`` keeps them until the next move)."""
        seat = self._current_player
        phase = self._phase
        if phase == _PLAY:
            return self._legal_plays(seat)
        if phase == _AUCTION:
            return tuple(legal_calls(self._rules, self._auction, seat, self._hands[seat]))
        if phase == _TRUMP:
            if self._contract and self._contract.verb == Verb.BID_28_56:
                return tuple(trump_action(s) for s in self._auction.suits_28_56)
            return _TRUMP_ACTIONS
        if phase == _EXCHANGE:
            choice = self._exchange.choice
            assert choice is not None
            return choice
        return ()

    def _apply(self, action: int, written: bool) -> None:
        seat = self._current_player
        if written:
            self._actions.append((seat, action))
        self._legal = None
        phase = self._phase
        if phase == _AUCTION:
            self._apply_call(seat, action)
        elif phase == _TRUMP:
            self._name_trump(action & 3)
        elif phase == _EXCHANGE:
            exchange.apply(TableMoves(self), self._exchange, seat, action)
        elif phase == _PLAY:
            self._apply_play(seat, action)

    # ------------------------------------------------------------------ auction

    def _apply_call(self, seat: int, action: int) -> None:
        rules = self._rules
        apply_call(rules, self._auction, seat, action, self._hands[seat])
        if not auction_over(self._auction, seat):
            self._current_player = next_speaker(self._auction, seat)
            return
        a = self._auction
        if a.high_seat is None or a.high_value is None:
            assert (
                rules.all_pass_action == AllPassAction.REDEAL_NEXT_DEALER or rules.dealer_forced_bid is None
            )
            self._finish_hand(thrown_in=True)
            return
        self._contract = Contract(a.high_seat, a.high_value, a.high_verb)
        if rules.kitty_before_trump:
            self._take_kitty(a.high_seat)
        self._phase = _TRUMP
        self._current_player = a.high_seat

    def _name_trump(self, suit: int) -> None:
        rules = self._rules
        self._trump = suit
        self._tt = rules.tables(suit)
        if rules.kitty_size and not rules.kitty_before_trump:
            assert self._contract is not None
            self._take_kitty(self._contract.bidder)
        if rules.second_deal:
            n = self._players
            for i in range(n):
                s = (self._dealer + 1 + i) % n
                self._deal_from_stock(s, rules.second_deal)
        self._phase = _EXCHANGE
        self._exchange = start(rules, self._dealer, self._exchange)

    # ------------------------------------------------------------------ play

    def _start_play(self) -> None:
        assert self._contract is not None and self._tt is not None
        self._phase = _PLAY
        self._hands_at_play = list(self._hands)
        self._normal_hand_size = normal_hand_size(self._rules)
        self._start_turns(self._contract.bidder)

    def _lay_down(self, seat: int, status: Status) -> None:
        self._status[seat] = status
        self._shown[seat] = self._hands[seat]

    def _end_play(self) -> None:
        self._finish_hand(thrown_in=False)

    # ------------------------------------------------------------------ scoring

    def _finish_hand(self, thrown_in: bool) -> None:
        """Score the hand, then end the game (won, or its ``hand_limit`` reached) or deal the next hand.

        The next pack is asked for before anything changes, so a ``DealSource``
        that raises leaves the finished hand as it was (``_undo`` rebuilds it).
        """
        rules = self._rules
        scores = self._scores
        zeros = (0,) * rules.num_sides
        winner, force = None, False
        if thrown_in:
            result = HandResult(
                self._hand_index, self._dealer, None, None, None, None, (), (), zeros, None, zeros,
                tuple(scores),
            )  # fmt: skip
        else:
            assert self._contract is not None and self._tt is not None
            points, taken = count_points(
                rules,
                self._tt,
                self._tricks,
                self._low_owner(self._low_holder()) if rules.low_rule == _HOLDER else {},
                self._low_owner(self._low_receiver()) if rules.low_rule == _DEALT else {},
                self._credits,
                self._credited,
            )
            change, made = score_hand(rules, self._contract, points)
            scores = [a + b for a, b in zip(scores, change, strict=True)]
            contract = self._contract
            call = _CALL_NAMES.get(contract.verb)
            if call == "double":
                call = f"{rules.max_bid}-double"
            tricks = tuple(PlayedTrick(t.leader, tuple(t.plays), t.winner) for t in self._tricks)
            result = HandResult(
                self._hand_index, self._dealer, contract.bidder, contract.value, call, self._trump,
                tuple(self._hands_at_play), tricks, tuple(points), made, tuple(change),
                tuple(scores), self._bgo_hand, tuple(self._status), tuple(map(tuple, taken)),
            )  # fmt: skip
            winner, force = decide_winner(rules, self._scores, scores, contract, made, self._bgo_hand, taken)
        # a game of ``hand_limit`` hands ends after its last one, with no winner: no pack is asked for
        last = winner is not None or self._hand_index + 1 == self._hand_limit
        pack = None if last else self._deals.pack(self._hand_index + 1, rules.deck)
        self._results += (result,)
        self._scores = scores
        if pack is None:
            self._winner = winner
            self._phase = _GAME_OVER
            self._is_over = True
            self._current_player = -1
            return
        self._deal(self._hand_index + 1, pack, self._bgo_next(force))

    def _low_owner(self, seat: int) -> dict[int, int]:
        """The Low's owner as counting takes it (none: seat -1)."""
        return {} if seat < 0 else {self._low_card(): seat}


#: HandResult.call of the special calls ("double" is written with the maximum bid)
_CALL_NAMES: Final = {Verb.BID_28_56: "28-56", Verb.BID_DOUBLE: "double", Verb.PROTECT: "protect"}


_TRUMP_ACTIONS: Final = tuple(trump_action(s) for s in range(4))
