"""A state from a position text: the checks of its cards and calls, and the replay of its plays.

``GameState.from_text`` sets a hand up from a position (``pedro.engine.position_text``
reads the text) with the cards ``played_cards`` and the auction ``auction_of`` check, or
deals the pack of ``auction_pack``; then ``replay_plays`` (``replay_calls``) replays the
text through the engine, which checks each play or call as it would in a game. A text
that contradicts the rules is refused with a ``ValueError`` naming the field, call or play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pedro.cards import cards_of, format_card, mask_of
from pedro.engine.actions import CARD_BITS, play_cards
from pedro.engine.auction import Auction, apply_call, auction_over, legal_calls, next_speaker
from pedro.engine.deal import DealError, first_deal_packets, pack_from_deal
from pedro.engine.phases import Phase
from pedro.engine.position_text import AuctionPosition, Position, call_text, cards_text, plays_text
from pedro.engine.scoring import Contract
from pedro.engine.table import Table, TableView
from pedro.variants.model import Ruleset

# ---------------------------------------------------------------- the card play


def played_cards(rules: Ruleset, pos: Position) -> list[int]:
    """Each seat's cards played in the text, once every card the text names is found in one place
    and in the variant's pack (ValueError otherwise)."""
    n = rules.players
    played = [0] * n
    for seat, action in (p for t in (*pos.tricks, pos.trick) for p in t):
        played[seat] |= action & CARD_BITS
    places = [*pos.hands, *played, *pos.discards, *pos.face_up, *pos.killed]
    union = 0
    for mask in places:
        if union & mask:
            raise ValueError(f"{cards_text(union & mask)} is in two places")
        union |= mask
    if pos.wash & ~union_of(pos.discards):
        raise ValueError(
            f"wash card {cards_text(pos.wash & ~union_of(pos.discards))} is not a face-down discard"
        )
    if union & ~rules.deck_mask:
        raise ValueError(f"{cards_text(union & ~rules.deck_mask)} is not in this variant's pack")
    return played


def replay_plays(state: Table, pos: Position) -> None:
    """Play the text's tricks on a state set up at their first lead; ValueError where the text
    breaks the rules or ends elsewhere than it says."""
    view = TableView(state)
    for k, plays in enumerate((*pos.tricks, pos.trick)):
        for seat, action in plays:
            where = f"play {seat}:{''.join(map(format_card, play_cards(action)))}"
            _check_in_play(view, pos)
            if seat != view.current_player:
                raise ValueError(f"{where}: it is seat {view.current_player}'s turn")
            try:
                state.apply(action)
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
        _check_in_play(view, pos)
        if k < len(pos.tricks) and len(view.tricks) != k + 1:
            raise ValueError(f"trick {k + 1} ({plays_text(plays)}) does not end after its plays")
    if view.current_player != pos.turn:
        raise ValueError(f"turn={pos.turn}, but after these plays it is seat {view.current_player}'s turn")
    statuses = tuple(view.status(s) for s in range(view.players))
    if statuses != pos.statuses:
        got = ",".join(f"{s}:{st.name.lower()}" for s, st in enumerate(statuses) if st)
        raise ValueError(f"status: after these plays the statuses are {got or 'all active'}")


def _check_in_play(view: TableView, pos: Position) -> None:
    if view.phase != Phase.PLAY or view.hand_index != pos.hand:
        raise ValueError("the hand's card play is over after these plays: nobody is to play")


def auction_of(rules: Ruleset, pos: Position) -> tuple[Auction, Contract]:
    """The auction of the calls, each checked as the engine would (hands unknown: special calls on trust)."""
    auction = Auction.start(rules, pos.dealer)
    speaker = auction.turn
    for i, (seat, action) in enumerate(pos.calls):
        where = f"call {seat}:{call_text(action, rules.max_bid)}"
        if speaker < 0:
            raise ValueError(f"{where}: the auction is over before it")
        if seat != speaker:
            raise ValueError(f"{where}: it is seat {speaker}'s turn to call")
        if action not in legal_calls(rules, auction, seat, rules.deck_mask):
            raise ValueError(f"{where}: not a legal call after {i} calls")
        apply_call(rules, auction, seat, action, 0)
        speaker = -1 if auction_over(auction, seat) else next_speaker(auction, seat)
    if speaker >= 0 or auction.high_seat is None or auction.high_value is None:
        raise ValueError("the calls make no contract")
    return auction, Contract(auction.high_seat, auction.high_value, auction.high_verb)


def union_of(masks: Sequence[int]) -> int:
    """Every card of ``masks``."""
    out = 0
    for m in masks:
        out |= m
    return out


# ---------------------------------------------------------------- the auction


def auction_pack(rules: Ruleset, pos: AuctionPosition, seed: str) -> list[int]:
    """The pack that deals the text's hands, then its kitty and stock (the cards it does not name
    shuffled from ``seed`` when it leaves the stock out); ValueError if the cards do not fit."""
    named = 0
    for mask in (*pos.hands, mask_of(pos.kitty), mask_of(pos.stock or ())):
        if named & mask:
            raise ValueError(f"{cards_text(named & mask)} is in two places")
        named |= mask
    if named & ~rules.deck_mask:
        raise ValueError(f"{cards_text(named & ~rules.deck_mask)} is not in this variant's pack")
    if len(pos.kitty) != rules.kitty_size:
        raise ValueError(f"kitty: {len(pos.kitty)} cards given, this variant's kitty has {rules.kitty_size}")
    rest = [c for c in rules.deck if not named >> c & 1]
    if pos.stock is None:
        random.Random(seed).shuffle(rest)
        stock = tuple(rest)
    elif rest:
        missing = cards_text(mask_of(rest))
        raise ValueError(f"stock: {missing} is nowhere (leave out stock= to have the rest shuffled)")
    else:
        stock = pos.stock
    deal = [cards_of(h) for h in pos.hands]
    try:
        size, packets = rules.first_deal_size, first_deal_packets(rules)
        return pack_from_deal(rules.players, pos.dealer, size, packets, deal, pos.kitty, stock)
    except DealError as exc:
        raise ValueError(f"hands: {exc}") from None


def replay_calls(state: Table, pos: AuctionPosition) -> None:
    """Make the text's calls on a state dealt its hand; ValueError where the text breaks the rules
    or ends elsewhere than it says (a call the engine made itself must be in the text as made)."""
    view = TableView(state)
    for i, (seat, action) in enumerate(pos.calls):
        where = f"call {seat}:{call_text(action, view.rules.max_bid)}"
        made = view.calls
        if i < len(made):  # a call the engine made itself (the only one there was)
            if made[i] != (seat, action):
                raise ValueError(f"{where}: the engine made call {i + 1} itself, and it was another")
            continue
        if view.phase != Phase.AUCTION:
            raise ValueError(f"{where}: the auction is over before it")
        if seat != view.current_player:
            raise ValueError(f"{where}: it is seat {view.current_player}'s turn to call")
        try:
            state.apply(action)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if view.phase not in (Phase.AUCTION, Phase.TRUMP) or view.hand_index != pos.hand:
        raise ValueError("after these calls the hand is past naming trumps: an auction text ends there")
    if view.current_player != pos.turn:
        raise ValueError(f"turn={pos.turn}, but after these calls it is seat {view.current_player}'s turn")
