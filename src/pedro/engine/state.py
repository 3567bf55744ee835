"""The game state: one state machine driven by a Ruleset, from the first deal to the winner.

In the spirit of OpenSpiel: ``current_player``, ``legal_actions()``,
``apply(action)``, ``observation(seat)``. Chance (shuffles) comes from a
``DealSource``, so a seed or a record fixes every card. A decision with only
one legal outcome is taken by the engine itself and not written to the
history, except plays, which are always written (records list every play).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from pedro.engine.actions import VERB_SHIFT, Verb, action_words, verb_of
from pedro.engine.auction import call_refusal
from pedro.engine.choices import CardChoice
from pedro.engine.deal import DealSource, SeededDeals, first_deal_packets, pack_from_deal
from pedro.engine.driver import Driver
from pedro.engine.exchange_plan import no_steps
from pedro.engine.observation import Observation, observe
from pedro.engine.phases import Phase, Status
from pedro.engine.play import play_refusal
from pedro.engine.play_position import PlayPosition
from pedro.engine.position_replay import (
    auction_of,
    auction_pack,
    played_cards,
    replay_calls,
    replay_plays,
    union_of,
)
from pedro.engine.position_text import (
    AuctionPosition,
    Position,
    is_auction_text,
    parse_auction,
    parse_position,
    summary,
    text_of,
)
from pedro.engine.results import DealRecord as DealRecord  # re-exported, with the results
from pedro.engine.results import HandResult as HandResult
from pedro.engine.results import PlayedTrick as PlayedTrick
from pedro.engine.scoring import Contract
from pedro.engine.table import Table
from pedro.engine.turns import Trick as Trick  # re-exported: records and views read tricks
from pedro.marks import N_
from pedro.variants.model import LowRule, Ruleset

# Looking up an enum member costs a descriptor call on Python 3.11; the hot
# paths compare against these module constants instead.
# one Final name each: compiled, a Final is a C static, not a look-up in the module's dict
_AUCTION: Final = Phase.AUCTION
_TRUMP: Final = Phase.TRUMP
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER
_DEALT: Final = LowRule.DEALT


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; says why and what is allowed."""

    def __init__(self, reason: str, legal: str) -> None:
        super().__init__(f"{reason}; legal: {legal}")
        self.reason = reason
        self.legal = legal


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: ``__new__`` runs no ``__init__`` (clone, pickle)
class GameState(Driver):
    """A whole game of one variant; mutate with ``apply``, copy with ``clone``.

    The public face of the engine. How the game moves on by its rules is the ``Driver``'s
    (``pedro.engine.driver``); where the cards are is the ``Table``'s (``pedro.engine.table``,
    with the views the observation, the position text and the exchange read and move it
    through); the card play's turn order is ``PlayTurns``'s (``pedro.engine.turns``).
    """

    __slots__ = ()

    def __init__(
        self,
        rules: Ruleset,
        deals: DealSource | None = None,
        seed: int | str | None = None,
        scores: Sequence[int] | None = None,
        hand_limit: int | None = None,
    ) -> None:
        """A new game: packs from ``deals``, else shuffled from ``seed``; the sides start at
        ``scores`` (as if earlier hands had left them: a game taken up again), else at 0.

        ``hand_limit``: the game ends, with no winner, once that many hands are scored (a
        duplicate tournament's deal is a one-hand game); None plays it to its end."""
        if hand_limit is not None and hand_limit < 1:
            raise ValueError(f"a game of at most {hand_limit} hands has no hand to play")
        self._hand_limit = hand_limit or 0
        self._rules = rules
        self._deals = deals if deals is not None else SeededDeals(seed)
        self._players = rules.players
        if scores is not None and len(scores) != rules.num_sides:
            raise ValueError(f"{rules.id} has {rules.num_sides} sides, but {len(scores)} scores were given")
        self._scores = list(scores) if scores is not None else [0] * rules.num_sides
        self._results = ()
        self._winner = None
        self._first_dealer = self._deals.first_dealer(rules.players)
        self._hand_index = -1
        self._hand_actions = []
        self._deal_records = []
        self._washes = []
        self._exchange = no_steps()
        self._is_over = False
        self._past_hands_seen = ()
        self._deal(0, self._deals.pack(0, rules.deck), self._bgo_next(False))

    # ------------------------------------------------------------------ public API
    # Read-only properties (docs/engine.md, "State"): immutable values, or copies, never
    # the state's own lists. Everything else is private: the state changes only by ``apply``.

    @property
    def rules(self) -> Ruleset:
        """The rules in force (a variant and its house rules)."""
        return self._rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._players

    @property
    def deals(self) -> DealSource:
        """Where the packs come from (``SeededDeals``, ``RecordedDeals``, …); ``clone`` may give another."""
        return self._deals

    @property
    def phase(self) -> Phase:
        """The phase of the current hand, ``GAME_OVER`` at the end."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """The game has ended (``phase`` is ``GAME_OVER``); read by every simulation loop."""
        return self._is_over

    @property
    def hand_limit(self) -> int | None:
        """The game ends, with no winner, once this many hands are scored; None: played to its end."""
        return self._hand_limit or None

    @property
    def scores(self) -> tuple[int, ...]:
        """The game's score per side."""
        return tuple(self._scores)

    @property
    def winner(self) -> int | None:
        """The side that won the game, None until it is over."""
        return self._winner

    @property
    def results(self) -> tuple[HandResult, ...]:
        """One ``HandResult`` per finished hand, in order (frozen: shared by clones)."""
        return self._results

    @property
    def hand_index(self) -> int:
        """The current hand, from 0 (the last one once the game is over)."""
        return self._hand_index

    @property
    def first_dealer(self) -> int:
        """The dealer of the first hand (the deal rotates from there)."""
        return self._first_dealer

    @property
    def dealer(self) -> int:
        """The current hand's dealer."""
        return self._dealer

    @property
    def contract(self) -> Contract | None:
        """The auction's outcome (bidder, value, call), None before it ends (frozen)."""
        return self._contract

    @property
    def bidder_goes_out(self) -> bool:
        """The current hand is played under bidder-goes-out (forced, or both sides near the target)."""
        return self._bgo_hand

    @property
    def trump(self) -> int | None:
        """The trump suit 0-3 once named, else None (as ``Observation.trump``)."""
        trump = self._trump
        return trump if trump >= 0 else None

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's cards now, as masks: the whole table (replays, debugging, omniscient
        players); a player is given its ``observation`` instead."""
        return tuple(self._hands)

    @property
    def seen(self) -> tuple[int, ...]:
        """Per seat, the cards it has seen outside its hand (the stock it looked through, the
        discards it searched), as masks: ``Observation.seen`` without the gifts to partner."""
        return tuple(self._seen)

    def later_receivers(self) -> dict[int, int]:
        """A copy of: card -> the seat that first received it after the first deal (kitty, fills,
        the stock, the wash); with the first deal (``deal_records``) it tells who took what."""
        return dict(self._dealt_to)

    @property
    def actions(self) -> tuple[tuple[int, int], ...]:
        """The current hand's written decisions, ``(seat, action)`` in order (the record's ``actions``)."""
        return tuple(self._actions)

    @property
    def hand_actions(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per hand, the written decisions in order: the current hand's last."""
        return tuple(tuple(h) for h in self._hand_actions)

    @property
    def deal_records(self) -> tuple[DealRecord, ...]:
        """Per hand, the first deal (each seat's cards), the kitty and the stock: a record's ``deal``."""
        return tuple(self._deal_records)

    @property
    def washes(self) -> tuple[tuple[int, ...], ...]:
        """Per hand, the discards dealt from the wash, in order: a record's ``wash``."""
        return tuple(tuple(w) for w in self._washes)

    def play_position(self) -> PlayPosition:
        """The card play's position now, every hand included: what the solver searches.

        Raises ValueError outside the card play.
        """
        if self._phase != _PLAY or self._trick is None or self._contract is None:
            raise ValueError("a play position needs a state in the play phase")
        low_dealt_to = self._low_receiver() if self._rules.low_rule == _DEALT else -1
        return self._play_position(
            self._trump, self._contract.bidder, tuple(self._credits), self._credited, low_dealt_to
        )

    # defined here, not on Driver: a method of the instance's own class is called from Python without
    # the check of the instance's type a base class's method makes at every call
    def legal(self) -> tuple[int, ...] | CardChoice:
        """The current decision's legal actions: a tuple (the engine's own, so immutable), or a card rule."""
        legal = self._legal
        if legal is None:
            if self._phase == _PLAY:  # the common case, without a detour
                legal = self._legal = self._legal_plays(self._current_player)
            else:
                legal = self._legal = self._compute_legal()
        return legal

    def legal_actions(self) -> tuple[int, ...]:
        """All legal actions (may be long for card-set choices)."""
        legal = self.legal()
        return legal if isinstance(legal, tuple) else tuple(legal)

    def why_illegal(self, action: int) -> str | None:
        """None if ``action`` is legal now, else the reason it is not."""
        if self._phase == _GAME_OVER:
            return N_("the game is over")
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
        if self._phase == _PLAY:
            # the hot path of simulations: plays are always in a plain tuple
            legal = self._legal
            if legal is None:
                legal = self._legal = self._legal_plays(self._current_player)
            if action not in legal:
                raise IllegalActionError(self._explain(action, legal), self.describe_legal())  # type: ignore[arg-type]
            seat = self._current_player
            self._actions.append((seat, action))
            self._legal = None
            try:
                self._apply_play(seat, action)
                if self._phase != _PLAY:
                    return  # the hand is over and the next one set up (``_deal`` advanced it)
                if self._all_active or self._prepare_play_turn():
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
        rules = self._rules
        deal, kitty, stock = self._deal_records[-1]
        size = rules.first_deal_size
        pack = pack_from_deal(
            self._players, self._dealer, size, first_deal_packets(rules), deal, kitty, stock
        )
        done = self._actions[:-1]
        self._deal(self._hand_index, pack, self._bgo_hand)
        for _seat, action in done:
            self.apply(action)

    def describe_legal(self, limit: int = 40) -> str:
        """Legal actions as record text, for messages."""
        if self._phase == _GAME_OVER:
            return "none (the game is over)"
        legal = self.legal()
        seat = self._current_player
        if isinstance(legal, CardChoice):
            if legal.upper_bound() <= limit:
                return ", ".join(f"{seat} {self.words(a)}" for a in legal)
            alts = "".join(f" or {seat} {self.words(a)}" for a in legal.alternatives)
            return f"{seat} {legal.verb.name.lower()} CARDS where {legal.rule}{alts}"
        texts = [f"{seat} {self.words(a)}" for a in legal[:limit]]
        more = f" (and {len(legal) - limit} more)" if len(legal) > limit else ""
        return ", ".join(texts) + more

    def words(self, action: int) -> str:
        return action_words(action, self._rules.max_bid)

    def clone(self, deals: DealSource | None = None) -> GameState:
        """A copy to play on: this hand's mutable data is copied, everything else is immutable and shared.

        The copy takes its later packs from ``deals`` if given (a stand-in for chance), else
        from this state's source. ``_COPIED`` names the fields copied (by ``Table._copy_table`` and
        ``Driver._copy_driver``, each for the fields it declares); every other field holds immutable
        values or is in ``_SHARED`` (tests/test_engine_clone.py checks both, and that the copy has
        every field).
        """
        new = _new_state(GameState)
        self._copy_table(new, self._deals if deals is None else deals)
        self._copy_driver(new)
        return new

    # ------------------------------------------------------------------ messages

    def _explain(self, action: int, legal: Sequence[int]) -> str:
        """Why an action that is not in ``legal`` is refused, in a player's words."""
        if action < 0 or action >> VERB_SHIFT >= len(Verb):
            return N_("{action} is not an action (see pedro.engine.actions)").format(action=action)
        verb = verb_of(action)
        if self._phase == _PLAY and verb == Verb.PLAY:
            assert self._tt is not None
            hand = self._hands[self._current_player]
            return play_refusal(
                self._rules, self._tt, hand, action, legal, not self._tricks, self._normal_hand_size,
                self._led, self._first_lead_pending,
            )  # fmt: skip
        if self._phase == _AUCTION:
            return call_refusal(self._rules, self._auction, self._current_player, action)
        if self._phase == _TRUMP:
            if verb == Verb.TRUMP:
                return N_("after 28-56 the dealer must name the suit in which he holds ace, king and two")
            return N_("the bidder must name trumps now")
        return N_("that is not a decision the rules ask for now")

    # ------------------------------------------------------------------ observation

    def observation(self, seat: int) -> Observation:
        return observe(self, seat)

    # ------------------------------------------------------------------ position text

    def to_text(self) -> str:
        """The position as one line of text (docs/engine.md, "Position text"): in the auction,
        naming trumps or the card play (ValueError in the exchange and once the game is over).

        >>> from pedro.variants.options import make_ruleset
        >>> text = "play scores=3,5 hand=2 dealer=0 calls=1:pass,2:pass,3:pass,0:7 trump=S size=6"
        >>> state = GameState.from_text(make_ruleset("cinch"), text + " hands=AS/KS/QS/JS turn=0")
        >>> state.to_text() == text + " hands=AS/KS/QS/JS turn=0"
        True
        >>> state
        <GameState cinch hand 2 play: 0 to play, trump ♠, contract 0 bid 7, scores 3-5>
        """
        return text_of(self)

    @classmethod
    def from_text(cls, rules: Ruleset, text: str) -> GameState:
        """The state of a position text; later hands are dealt by ``SeededDeals(text)``.

        The hand is set up (an auction text's dealt, a play text's laid out as at its first
        lead), then the text's calls or plays are replayed through the engine, which checks
        them (``pedro.engine.position_replay``).
        """
        n = rules.players
        if is_auction_text(text):
            auction = parse_auction(rules, text)
            pack = auction_pack(rules, auction, text)
            deals = SeededDeals(text, first_dealer=(auction.dealer - auction.hand) % n)
            state = cls(rules, deals, scores=auction.scores)
            state._deal_auction(auction, pack)
            replay_calls(state, auction)
            return state
        pos = parse_position(rules, text)
        state = cls(rules, SeededDeals(text, first_dealer=(pos.dealer - pos.hand) % n))
        state._lay_out_play(pos)
        replay_plays(state, pos)
        return state

    def _deal_auction(self, pos: AuctionPosition, pack: list[int]) -> None:
        """Deal the hand of an auction text from ``pack``, as at its first call."""
        self._deal(pos.hand, pack, pos.bgo)

    def _lay_out_play(self, pos: Position) -> None:
        """Set the hand up as at the first lead of a play text (each seat holding its cards now and
        those it played), every field the text gives set here; cards it does not place are out of play."""
        rules = self._rules
        n = rules.players
        played = played_cards(rules, pos)
        auction, contract = auction_of(rules, pos)
        tt = rules.tables(pos.trump)
        self._hand_index = pos.hand
        self._dealer = pos.dealer
        self._scores = list(pos.scores)
        self._bgo_hand = pos.bgo
        self._auction = auction
        self._contract = contract
        self._trump = pos.trump
        self._tt = tt
        self._hands = [h | p for h, p in zip(pos.hands, played, strict=True)]
        self._dealt_hands = (0,) * n
        self._dealt_to = {tt.low_card: pos.low} if pos.low >= 0 and tt.low_card >= 0 else {}
        self._kitty = ()
        self._stock = ()
        self._deal_records[-1] = (tuple(() for _ in range(n)), (), ())
        self._status = [Status.FOLDED if st == Status.FOLDED else Status.ACTIVE for st in pos.statuses]
        self._discards = [d | u for d, u in zip(pos.discards, pos.face_up, strict=True)]
        self._killed = list(pos.killed)
        self._face_up = union_of(pos.face_up) | union_of(pos.killed)
        self._dead = rules.deck_mask & ~(union_of(self._hands) | union_of(self._discards))
        self._seen = list(pos.known)
        self._received = [list(r) for r in pos.received]
        self._credits = list(pos.credits)
        self._credited = pos.credited
        self._wash_from = list(pos.gathered)
        self._drawn = list(pos.drawn) if pos.drawn else [0] * n
        self._wash_gathered = pos.wash
        self._start_play()
        self._normal_hand_size = pos.normal_hand_size
        self._advance()

    def __repr__(self) -> str:
        return summary(self)


#: Fields ``clone`` copies: the current hand's mutable data.
_COPIED: Final = frozenset({
    "_scores", "_actions", "_hand_actions", "_wash_dealt", "_washes", "_deal_records", "_hands", "_auction",
    "_status", "_discards", "_wash_from", "_credits", "_seen", "_received", "_drawn", "_exchange", "_tricks",
    "_trick", "_hands_at_play", "_dealt_to", "_shown", "_killed",
})  # fmt: skip
#: Fields shared by clones on purpose: the rules, the source of chance, and a cache of pure values.
_SHARED: Final = frozenset({"_rules", "_deals"})
#: The instance fields: the slots of ``Table`` and ``Driver``, or mypyc's native attributes in the
#: compiled build (which has no ``__slots__``, lists ``PlayTurns``'s twice, and whose instances only
#: ``GameState.__new__`` makes).
_SLOTS: tuple[str, ...] = tuple(
    dict.fromkeys(
        getattr(GameState, "__mypyc_attrs__", None)
        or (*getattr(Table, "__slots__"), *getattr(Driver, "__slots__"))  # noqa: B009
    )
)
_new_state: Final = GameState.__new__
