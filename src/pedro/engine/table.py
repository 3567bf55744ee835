"""The table: where every card of a game is, the view that reads it and the moves that change it.

``GameState`` (``pedro.engine.state``) plays a game by its rules; the fields it shows and
moves cards in are declared here, on its base ``Table``, so that the modules that read the
state or move its cards reach it through two documented objects and never import it:

- ``TableView``, a read-only view of the state as it is now: what the observation
  (``pedro.engine.observation``) and the position text (``pedro.engine.position_text``) read;
- ``TableMoves``, the view with the moves the exchange (``pedro.engine.exchange``) makes:
  a card laid aside, killed, given to partner, claimed, dealt from the stock … (as
  python-chess's ``Board`` changes by ``push``), each keeping every record of where the
  cards went (what a seat drew, saw or received) up to date.

Only this module and the state's own classes (``Driver``, ``GameState``) write the
fields. The engine's modules import each other in one order (tests/test_layers.py): the
rules' pieces, then ``results`` and this table, then what reads or moves it (the exchange,
the observation, the position text), then the driver and the state.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from pedro.cards import cards_of, format_cards, mask_of
from pedro.engine.auction import Auction
from pedro.engine.choices import CardChoice
from pedro.engine.deal import DealError, DealSource
from pedro.engine.phases import Phase, Status
from pedro.engine.results import HandResult, SeenHand
from pedro.engine.scoring import Contract
from pedro.engine.turns import PlayTurns, Trick
from pedro.variants.model import Ruleset
from pedro.variants.tables import TrumpTables

_FOLDED: Final = Status.FOLDED


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: GameState subclasses it (clone, pickle)
class Table(PlayTurns):
    """The fields of a game's state that its views read, and the card movements the state and its
    moves share.

    Every field is private: outside the engine the state is read through ``GameState``'s
    properties, inside it through a ``TableView``. ``Driver`` (``pedro.engine.driver``), the
    one subclass, adds the game's history and the fields that drive the turns; ``GameState``
    plays by the rules (``legal``, ``apply``).
    """

    # the game
    _rules: Ruleset
    _deals: DealSource
    _players: int
    _scores: list[int]  # per side
    _results: tuple[HandResult, ...]
    _past_hands_seen: tuple[SeenHand, ...]  # the results' ``seen``, extended as hands end
    _winner: int | None
    #: the game has ended (``phase`` is ``GAME_OVER``); read by every simulation loop
    _is_over: bool
    _hand_index: int

    # the current hand
    _phase: Phase
    _current_player: int
    _dealer: int
    _bgo_hand: bool
    _auction: Auction
    _contract: Contract | None
    _trump: int
    _tt: TrumpTables | None

    # where the cards are (set for each hand by ``Driver._lay_out``)
    _hands: list[int]  # card masks per seat
    _dealt_hands: tuple[int, ...]  # each seat's first-deal hand
    _dealt_to: dict[int, int]  # first receivers of cards given after the first deal
    _kitty: tuple[int, ...]
    _stock: tuple[int, ...]  # top first; cards before ``stock_pos`` have been dealt
    _stock_pos: int
    _wash_order: tuple[int, ...] | None
    _wash_pos: int
    #: the discards gathered face down into the wash when the stock ran dry (0 before): from then
    #: on nobody can tell where a gathered card went, so no view follows them one by one
    _wash_gathered: int
    _wash_from: list[int]  # per seat, how many of its discards were gathered into the wash
    _wash_dealt: list[int]  # this hand's cards dealt from the wash (the last of ``washes``)
    _status: list[Status]
    _discards: list[int]  # per seat, every card laid aside (face up or down)
    _face_up: int  # cards laid aside face up: public
    _dead: int  # cards out of play
    _killed: list[int]  # trumps each seat laid dead face up
    _credits: list[int]  # points credited per side for trumps laid aside (notes K11, K19)
    _credited: int  # scoring trumps whose points were credited when laid aside
    _seen: list[int]  # per seat, cards seen that are not in its hand
    _received: list[list[tuple[int, int]]]  # per seat, (from seat, cards) given by partner
    #: per seat, how many cards it received after the first deal (kitty, fills, the stock,
    #: a partner's gift, claimed trumps): a public count, as everyone sees cards handed over
    _drawn: list[int]
    _shown: list[int]  # cards shown by cold / up / out players

    # the card play
    _tricks: list[Trick]
    _trick: Trick | None
    _hands_at_play: list[int]
    _normal_hand_size: int

    # Slots make attribute access faster than a dict of some sixty attributes.
    __slots__ = tuple(__annotations__)

    @abstractmethod
    def legal(self) -> tuple[int, ...] | CardChoice:
        """The current decision's legal actions (``GameState.legal``)."""
        raise NotImplementedError

    @abstractmethod
    def apply(self, action: int) -> None:
        """Play ``action`` for the current player by the rules (``GameState.apply``)."""
        raise NotImplementedError

    def _copy_table(self, new: Table, deals: DealSource) -> None:
        """Give ``new`` a copy of this table (``GameState.clone``), its later packs from ``deals``: the
        hand's mutable data copied, everything else immutable and shared. Field by field: compiled,
        each is a few instructions, where a loop over the fields' names costs a descriptor look-up
        each (and a check of the instance's type, the fields being declared on a base class)."""
        new._rules = self._rules
        new._deals = deals
        new._players = self._players
        new._scores = self._scores[:]
        new._results = self._results
        new._past_hands_seen = self._past_hands_seen
        new._winner = self._winner
        new._is_over = self._is_over
        new._hand_index = self._hand_index
        new._phase = self._phase
        new._current_player = self._current_player
        new._dealer = self._dealer
        new._bgo_hand = self._bgo_hand
        new._auction = self._auction.copy()
        new._contract = self._contract
        new._trump = self._trump
        new._tt = self._tt
        new._hands = self._hands[:]
        new._dealt_hands = self._dealt_hands
        new._dealt_to = self._dealt_to.copy()
        new._kitty = self._kitty
        new._stock = self._stock
        new._stock_pos = self._stock_pos
        new._wash_order = self._wash_order
        new._wash_pos = self._wash_pos
        new._wash_gathered = self._wash_gathered
        new._wash_from = self._wash_from[:]
        new._wash_dealt = self._wash_dealt[:]
        new._status = self._status[:]
        new._discards = self._discards[:]
        new._face_up = self._face_up
        new._dead = self._dead
        new._killed = self._killed[:]
        new._credits = self._credits[:]
        new._credited = self._credited
        new._seen = self._seen[:]
        new._received = [r[:] for r in self._received]
        new._drawn = self._drawn[:]
        new._shown = self._shown[:]
        new._tricks = [Trick(t.leader, t.plays[:], t.winner) for t in self._tricks]
        trick = self._trick
        new._trick = Trick(trick.leader, trick.plays[:], trick.winner) if trick is not None else None
        new._hands_at_play = self._hands_at_play[:]
        new._normal_hand_size = self._normal_hand_size

    # ------------------------------------------------------------------ stock and wash

    def _deal_from_stock(self, seat: int, count: int) -> None:
        """Deal ``count`` cards to ``seat`` from the stock's top, then from the wash."""
        pos = self._stock_pos
        cards = list(self._stock[pos : pos + count])
        self._stock_pos = pos + len(cards)
        if len(cards) < count:
            cards += [self._draw_wash() for _ in range(count - len(cards))]
        hand = self._hands[seat]
        for c in cards:
            hand |= 1 << c
            self._dealt_to.setdefault(c, seat)
        self._hands[seat] = hand
        self._drawn[seat] += len(cards)

    def _draw_wash(self) -> int:
        if self._wash_order is None:
            self._wash_order = tuple(self._gather_wash())
        dealt = self._wash_dealt
        while True:
            if self._wash_pos >= len(self._wash_order):
                raise DealError(f"hand {self._hand_index + 1}: the stock and the wash ran out of cards")
            c = self._wash_order[self._wash_pos]
            self._wash_pos += 1
            if any(d >> c & 1 for d in self._discards):
                break
            # taken back from the discards (dealer's pick, a claim) after the pile was shuffled
            if not self._deals.skips_taken_wash_cards:
                raise DealError(
                    f"hand {self._hand_index + 1}: wash card {format_cards([c])} is no longer discarded"
                )
        dealt.append(c)
        for s in range(self._players):
            self._discards[s] &= ~(1 << c)
        self._face_up &= ~(1 << c)
        return c

    def _gather_wash(self) -> list[int]:
        """Gather the discards (but face-up trumps and dead cards) and shuffle them face down.

        Face-up discards turn face down here: were they left showing while the wash
        is dealt, the cards missing from them would tell everyone what was dealt.
        """
        keep_out = self._dead
        if self._tt is not None:
            keep_out |= self._face_up & self._tt.trump_mask
        pile = [c for s in range(self._players) for c in cards_of(self._discards[s] & ~keep_out)]
        gathered = mask_of(pile)
        self._wash_gathered = gathered
        self._wash_from = [(d & gathered).bit_count() for d in self._discards]
        self._face_up &= ~gathered
        return self._deals.wash(self._hand_index, pile)

    def _wash_left(self) -> int:
        """The gathered cards still in the wash: not dealt (nor taken back by a dealer's pick).

        A card dealt from the wash may be laid aside again (a claim gives a non-trump face
        up); it is then an ordinary discard of its new owner.
        """
        if not self._wash_gathered:
            return 0
        out = 0
        for d in self._discards:
            out |= d
        return out & self._wash_gathered & ~mask_of(self._wash_dealt)

    # ------------------------------------------------------------------ facts the count and the views share

    def _low_card(self) -> int:
        assert self._tt is not None
        return self._tt.low_card

    def _low_holder(self) -> int:
        """The seat holding the Low when play started, -1 if none."""
        return _first_with(self._hands_at_play, self._low_card())

    def _low_receiver(self) -> int:
        """The seat that first received the Low, in the first deal or later; -1 if none."""
        low = self._low_card()
        dealt = _first_with(self._dealt_hands, low)
        return dealt if dealt >= 0 else self._dealt_to.get(low, -1)

    def _past_hands(self) -> tuple[SeenHand, ...]:
        """Every finished hand as everyone saw it (``Observation.history``): extended as hands end,
        as every observation repeats it."""
        seen = self._past_hands_seen
        done = len(self._results)
        if len(seen) != done:
            kept = seen if len(seen) < done else ()
            seen = self._past_hands_seen = kept + tuple(r.seen for r in self._results[len(kept) :])
        return seen


def _first_with(masks: Sequence[int], card: int) -> int:
    """The first seat whose mask holds ``card`` (none: -1, also for card -1)."""
    if card >= 0:
        for seat, mask in enumerate(masks):
            if mask >> card & 1:
                return seat
    return -1


class TableView:
    """A read-only view of a game's state as it is now: the observation's and the position text's door.

    It holds the state, not a copy, so it reads every change. What it returns is immutable
    (ints, tuples, frozen values) but the tricks (``tricks``, ``trick``): the card play's own,
    which a reader must not change. What a seat has is read with the seat (``hand(seat)``, …);
    a mask is an int of card bits (``pedro.cards``); ``trump`` is None until named, as on
    ``GameState``.
    """

    __slots__ = ("_table",)

    def __init__(self, table: Table) -> None:
        self._table = table

    # the game

    @property
    def rules(self) -> Ruleset:
        return self._table._rules

    @property
    def players(self) -> int:
        return self._table._players

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._table._scores)

    @property
    def winner(self) -> int | None:
        return self._table._winner

    @property
    def is_over(self) -> bool:
        return self._table._is_over

    @property
    def history(self) -> tuple[SeenHand, ...]:
        """The finished hands as everyone saw them."""
        return self._table._past_hands()

    # the current hand

    @property
    def phase(self) -> Phase:
        return self._table._phase

    @property
    def hand_index(self) -> int:
        return self._table._hand_index

    @property
    def dealer(self) -> int:
        return self._table._dealer

    @property
    def bidder_goes_out(self) -> bool:
        return self._table._bgo_hand

    @property
    def current_player(self) -> int:
        return self._table._current_player

    def legal(self) -> tuple[int, ...] | CardChoice:
        return self._table.legal()

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        """The auction's calls so far, ``(seat, action)`` in order."""
        return tuple(self._table._auction.calls)

    @property
    def contract(self) -> Contract | None:
        return self._table._contract

    @property
    def trump(self) -> int | None:
        trump = self._table._trump
        return trump if trump >= 0 else None

    # where the cards are

    def hand(self, seat: int) -> int:
        """``seat``'s cards now."""
        return self._table._hands[seat]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds now (public)."""
        return tuple([hand.bit_count() for hand in self._table._hands])

    @property
    def laid_aside(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's marks that its public facts are made of, read at once (a cache's key):
        ``discards``, ``killed``, ``status``, ``shown``, ``gathered`` and ``drawn`` per seat.
        The discards hold face-down cards: what is public of them is for the reader to take."""
        t = self._table
        return (
            tuple(t._discards), tuple(t._killed), tuple([int(s) for s in t._status]), tuple(t._shown),
            tuple(t._wash_from), tuple(t._drawn),
        )  # fmt: skip

    def status(self, seat: int) -> Status:
        return self._table._status[seat]

    def discards(self, seat: int) -> int:
        """Every card ``seat`` laid aside this hand, face up or down (those gathered into the wash too)."""
        return self._table._discards[seat]

    @property
    def face_up(self) -> int:
        """The cards laid aside face up, every seat's (public)."""
        return self._table._face_up

    def killed(self, seat: int) -> int:
        """The trumps ``seat`` laid dead face up."""
        return self._table._killed[seat]

    def shown(self, seat: int) -> int:
        """The cards ``seat`` showed going cold, up or out."""
        return self._table._shown[seat]

    def seen(self, seat: int) -> int:
        """The cards ``seat`` has seen outside its hand (the stock it looked through, discards searched)."""
        return self._table._seen[seat]

    def received(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The gifts ``seat`` got from its partner: ``(from seat, cards)`` in order."""
        return tuple(self._table._received[seat])

    def drawn(self, seat: int) -> int:
        """How many cards ``seat`` received after the first deal (a public count)."""
        return self._table._drawn[seat]

    def gathered(self, seat: int) -> int:
        """How many of ``seat``'s discards were gathered into the wash."""
        return self._table._wash_from[seat]

    @property
    def wash(self) -> int:
        """The gathered discards still in the wash (dealt face down when the stock runs dry)."""
        return self._table._wash_left()

    @property
    def credits(self) -> tuple[int, ...]:
        """Points per side already credited for trumps laid aside."""
        return tuple(self._table._credits)

    @property
    def credited(self) -> int:
        """The cards whose points were credited (not counted again)."""
        return self._table._credited

    @property
    def dealt_hands(self) -> tuple[int, ...]:
        """Each seat's cards in the first deal."""
        return self._table._dealt_hands

    @property
    def kitty(self) -> tuple[int, ...]:
        return self._table._kitty

    @property
    def stock(self) -> tuple[int, ...]:
        """The whole stock in pack order, top card first (dealt or not)."""
        return self._table._stock

    @property
    def stock_left(self) -> int:
        """How many cards of the stock are not dealt yet."""
        return len(self._table._stock) - self._table._stock_pos

    @property
    def low_receiver(self) -> int:
        """The seat that first received the Low, in the first deal or later (-1: none)."""
        return self._table._low_receiver()

    # the card play

    @property
    def normal_hand_size(self) -> int:
        """Cards in a normal hand at the first lead (more make a stack)."""
        return self._table._normal_hand_size

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks of the hand (the play's own: read them, do not change them)."""
        return tuple(self._table._tricks)

    @property
    def trick(self) -> Trick | None:
        """The trick in progress (the play's own)."""
        return self._table._trick


class TableMoves(TableView):
    """The view with the exchange's moves: each carries cards between the places a ``TableView`` reads.

    The state hands one to ``pedro.engine.exchange``, which decides what happens between
    naming trumps and the first lead; the moves keep every count and record of the cards
    (drawn, seen, received, first receivers, credits) as the rules and the views need them.
    """

    __slots__ = ()

    @property
    def trump_tables(self) -> TrumpTables:
        """The rules' tables for the trump suit (named before the exchange)."""
        tt = self._table._tt
        assert tt is not None
        return tt

    def lay_aside(self, seat: int, mask: int, up: int, drawn: bool = False) -> None:
        """``seat`` lays ``mask`` aside (from its hand, if there), ``up`` of them face up.

        ``drawn``: the cards came from the stock it took up whole (they count as drawn).
        """
        t = self._table
        if drawn:
            t._drawn[seat] += mask.bit_count()
        t._hands[seat] &= ~mask
        t._discards[seat] |= mask
        t._face_up |= up

    def kill(self, seat: int, mask: int) -> None:
        """``seat`` lays trumps dead: out of play, face up."""
        t = self._table
        t._hands[seat] &= ~mask
        t._dead |= mask
        t._face_up |= mask
        t._killed[seat] |= mask

    def fold(self, seat: int) -> None:
        """``seat`` folds: its cards go out of play and it takes no further part in the hand."""
        t = self._table
        hand = t._hands[seat]
        t._hands[seat] = 0
        t._discards[seat] |= hand
        t._dead |= hand
        t._status[seat] = _FOLDED

    def give(self, seat: int, partner: int, mask: int) -> None:
        """``seat`` gives ``mask`` to its partner, who remembers the gift."""
        t = self._table
        t._hands[seat] &= ~mask
        t._hands[partner] |= mask
        t._received[partner].append((seat, mask))
        t._drawn[partner] += mask.bit_count()

    def claim(self, seat: int, discarder: int, trump: int, given: int) -> None:
        """``seat`` takes ``discarder``'s face-up trump and lays ``given`` face up for it (note C5)."""
        t = self._table
        t._discards[discarder] &= ~trump
        t._face_up &= ~trump
        t._hands[seat] = (t._hands[seat] | trump) & ~given
        t._drawn[seat] += trump.bit_count()
        t._discards[seat] |= given
        t._face_up |= given

    def credit(self, side: int, points: int, cards: int) -> None:
        """Credit ``side`` with the points of trumps laid aside (notes K11, K19): not counted again."""
        t = self._table
        t._credits[side] += points
        t._credited |= cards

    def receive(self, seat: int, mask: int) -> None:
        """``seat`` gets cards that were in no hand (the stock it looked through)."""
        t = self._table
        t._hands[seat] |= mask
        t._drawn[seat] += mask.bit_count()
        for c in cards_of(mask):
            t._dealt_to.setdefault(c, seat)

    def take(self, seat: int, mask: int) -> None:
        """``seat`` takes cards from the stock it looked through or from the discards."""
        t = self._table
        t._hands[seat] |= mask
        t._drawn[seat] += mask.bit_count()
        for s in range(t._players):
            t._discards[s] &= ~mask
        t._face_up &= ~mask
        for c in cards_of(mask):
            t._dealt_to.setdefault(c, seat)

    def look_through_stock(self, seat: int) -> int:
        """``seat`` (the dealer) takes the rest of the stock up to choose from it: its mask."""
        t = self._table
        rest = 0
        for c in t._stock[t._stock_pos :]:
            rest |= 1 << c
        t._stock_pos = len(t._stock)
        t._seen[seat] |= rest
        return rest

    def see(self, seat: int, mask: int) -> None:
        """``seat`` has seen ``mask`` (others' discards it searched)."""
        self._table._seen[seat] |= mask

    def out_of_play(self, mask: int) -> None:
        """Cards left over (the stock the dealer did not keep) go out of play."""
        self._table._dead |= mask

    def deal_from_stock(self, seat: int, count: int) -> None:
        """Deal ``count`` cards to ``seat`` from the stock's top, then from the wash (a fill)."""
        self._table._deal_from_stock(seat, count)
