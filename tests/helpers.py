"""Test helpers: exact deals, text-driven actions and small views of a game state.

Seats follow docs/rules.md §edge-cases: N, E, S, W clockwise = seats 0, 1, 2, 3, so N-S
(seats 0 and 2) are side 0 and E-W (seats 1 and 3) are side 1.

The main entry points:

* :func:`deal_state` - a ``GameState`` whose first hand is dealt exactly as
  given (hands, kitty, top of the stock), the unnamed cards filled in with
  junk (non-trumps of a given trump suit first, trumps last);
* :func:`act` / :func:`acts` - apply actions written ``"W bid 8"``,
  ``"S trump H"``, ``"N play 5D"``, checking whose turn it is;
* :func:`play_ready` - drive deal, auction, trump and exchange of any
  catalog variant so that the card play starts with given hands;
* :func:`play_trick` - play one trick and return its winner;
* :func:`with_hands` - the same play position with other hands, built from its text.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pedro.cards import cards_of, format_card, format_cards, mask_of, parse_card, parse_cards
from pedro.engine.actions import Verb, cards_action, parse_action_words, play_cards, trump_action
from pedro.engine.choices import CardChoice
from pedro.engine.deal import pack_from_deal
from pedro.engine.observation import SeenTrick
from pedro.engine.phases import Phase
from pedro.engine.position_text import format_position, parse_position
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.records import record_from_game
from pedro.variants.model import DiscardPolicy, ExcessTrumps, FillPolicy, Ruleset
from pedro.variants.options import make_ruleset
from pedro.variants.tables import TrumpTables

SEATS = "NESW"
N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1
SUIT_LETTERS = "SHDC"


def seat(letter: str) -> int:
    """Seat number of ``N``/``E``/``S``/``W``."""
    return SEATS.index(letter.strip().upper())


def suit(letter: str) -> int:
    """Suit number of a suit letter or symbol (``H``, ``♥``)."""
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    text = letter.strip().upper()
    return SUIT_LETTERS.index(symbols.get(text, text))


def c(text: str) -> int:
    """One card from text (``5D``, ``10♥``, ``JK``)."""
    return parse_card(text)


def cs(text: str) -> list[int]:
    """Cards from text separated by spaces."""
    return parse_cards(text) if text.strip() else []


def names(mask_or_cards: int | Iterable[int]) -> set[str]:
    """Canonical card names (``5D``) of a mask or an iterable of cards."""
    cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else list(mask_or_cards)
    return {format_card(x) for x in cards}


def card_set(text: str) -> set[str]:
    """Canonical names of cards written in any accepted form."""
    return names(cs(text))


def rules(variant: str, **options: object) -> Ruleset:
    """A ruleset: the catalog variant with house-rule options."""
    return make_ruleset(variant, options)


# ---------------------------------------------------------------- deals


class ScriptedDeals:
    """A deal source replaying given packs (and washes) first, then seeded shuffles.

    A scripted wash lists the first cards dealt from the discard pile; the rest
    of the pile follows, so cards taken back from the discards are skipped.
    """

    skips_taken_wash_cards = True

    def __init__(
        self,
        first_dealer: int,
        packs: Sequence[Sequence[int]],
        washes: Sequence[Sequence[int]] = (),
        seed: int = 0,
    ) -> None:
        self._first_dealer = first_dealer
        self.packs = [list(p) for p in packs]
        self.washes = [list(w) for w in washes]
        self.seed = seed

    def first_dealer(self, players: int) -> int:
        return self._first_dealer

    def pack(self, hand_index: int, deck: Sequence[int]) -> list[int]:
        if hand_index < len(self.packs):
            pack = self.packs[hand_index]
            assert sorted(pack) == sorted(deck), "a scripted pack must be the variant's whole deck"
            return list(pack)
        cards = list(deck)
        random.Random(f"{self.seed}:{hand_index}").shuffle(cards)
        return cards

    def wash(self, hand_index: int, pile: Sequence[int]) -> list[int]:
        if hand_index < len(self.washes) and self.washes[hand_index]:
            wash = self.washes[hand_index]
            assert all(x in pile for x in wash), "the scripted wash must come from the discard pile"
            return list(wash) + sorted(set(pile) - set(wash))
        return sorted(pile)


def junk_order(r: Ruleset, trump: int | None, exclude: int = 0) -> list[int]:
    """Deck cards not in ``exclude``, least useful first for ``trump``.

    Non-trumps (non-scoring first, low ranks first), then trumps (weakest first).
    """
    cards = [x for x in r.deck if not exclude >> x & 1]
    if trump is None:
        return cards
    tt = r.tables(trump)

    def key(x: int) -> tuple[int, int, int]:
        is_trump = tt.trump_mask >> x & 1
        return (
            is_trump,
            tt.points[x] if not is_trump else 0,
            tt.strength[x] if is_trump else x % 13 * 4 + x // 13,
        )

    return sorted(cards, key=key)


def build_pack(
    r: Ruleset,
    dealer: int,
    hands: Mapping[int, str | Sequence[int]],
    kitty: str | Sequence[int] = "",
    stock: str | Sequence[int] = "",
    trump: int | None = None,
) -> list[int]:
    """The pack order that deals ``hands`` (completed with junk), then the kitty, then the stock.

    ``stock`` gives the top of the stock in order; the rest of the stock is the
    remaining junk (non-trumps of ``trump`` first, trumps at the bottom).
    """

    def as_cards(x: str | Sequence[int]) -> list[int]:
        return cs(x) if isinstance(x, str) else list(x)

    given = {s: as_cards(h) for s, h in hands.items()}
    kitty_cards = as_cards(kitty)
    stock_cards = as_cards(stock)
    named = [x for h in given.values() for x in h] + kitty_cards + stock_cards
    assert len(named) == len(set(named)), f"a card is named twice: {format_cards(sorted(named))}"
    assert all(x in r.deck for x in named), "a named card is not in the variant's deck"
    pool = junk_order(r, trump, mask_of(named))
    size = r.first_deal_size
    deal: list[list[int]] = []
    for s in range(r.players):
        h = list(given.get(s, []))
        assert len(h) <= size, f"seat {SEATS[s] if r.players == 4 else s} is given more than {size} cards"
        while len(h) < size:
            h.append(pool.pop(0))
        deal.append(h)
    while len(kitty_cards) < r.kitty_size:
        kitty_cards.append(pool.pop(0))
    assert len(kitty_cards) == r.kitty_size
    packets = r.packets if not r.deal_all_out else (1,)
    return pack_from_deal(r.players, dealer, size, packets, deal, kitty_cards, stock_cards + pool)


def deal_state(
    r: Ruleset,
    dealer: int,
    hands: Mapping[int, str | Sequence[int]],
    kitty: str | Sequence[int] = "",
    stock: str | Sequence[int] = "",
    trump: int | None = None,
    wash: str = "",
    seed: int = 0,
    scores: Sequence[int] | None = None,
) -> GameState:
    """A game whose first hand is dealt as given (later hands are seeded shuffles), from ``scores``."""
    pack = build_pack(r, dealer, hands, kitty, stock, trump)
    return GameState(r, deals=ScriptedDeals(dealer, [pack], [cs(wash)], seed=seed), scores=scores)


# ---------------------------------------------------------------- actions


def action(state: GameState, words: str) -> int:
    """The action for ``words`` (``bid 8``, ``play 5D``) in this game."""
    return parse_action_words(words, state.rules.max_bid)


def act(state: GameState, text: str) -> None:
    """Apply ``"<seat letter> <words>"``, checking that it is that seat's turn."""
    letter, words = text.strip().split(maxsplit=1)
    who = seat(letter) if not letter.isdigit() else int(letter)
    current = state.current_player
    assert current == who, (
        f"{text!r}: it is {SEATS[current] if 0 <= current < 4 else current}'s turn "
        f"({state.phase.name}), legal: {state.describe_legal()}"
    )
    state.apply(action(state, words))


def acts(state: GameState, texts: str) -> None:
    """Apply comma-separated actions in order."""
    for t in texts.split(","):
        if t.strip():
            act(state, t)


def legal_words(state: GameState) -> set[str]:
    """Every legal action of the current decision, as words."""
    return {state.words(a) for a in state.legal_actions()}


def legal_bids(state: GameState) -> set[str]:
    """Legal auction calls as words (``pass``, ``bid 7``, ``protect`` ...)."""
    assert state.phase == Phase.AUCTION
    return legal_words(state)


def legal_cards(state: GameState) -> set[str]:
    """Cards the current player may play (single-card plays, or top cards of stacks)."""
    assert state.phase == Phase.PLAY
    return {format_card(play_cards(a)[0]) for a in state.legal_actions()}


def is_legal(state: GameState, words: str) -> bool:
    return state.why_illegal(action(state, words)) is None


def turn(state: GameState) -> str:
    """Letter of the seat to act."""
    return SEATS[state.current_player]


def tricks(state: GameState) -> tuple[SeenTrick, ...]:
    """The current hand's finished tricks, as everyone saw them."""
    return state.observation(0).tricks


def play_trick(state: GameState, plays: str) -> int:
    """Play ``"E 4H, S 5D, ..."`` as one trick; returns the winning seat."""
    before = len(tricks(state))
    hand = state.hand_index
    acts(
        state,
        ", ".join(p if " play " in p else p.strip().replace(" ", " play ", 1) for p in plays.split(",")),
    )
    if state.hand_index != hand:
        return state.results[-1].tricks[before].winner
    done = tricks(state)
    assert len(done) == before + 1, "the plays did not complete one trick"
    return done[-1].winner


def hand_of(state: GameState, s: int) -> set[str]:
    return names(state.hands[s])


def tables(state: GameState) -> TrumpTables:
    assert state.trump is not None
    return state.rules.tables(state.trump)


def name_trump(state: GameState, trump: int | str) -> None:
    t = suit(trump) if isinstance(trump, str) else trump
    state.apply(trump_action(t))


def choice(state: GameState) -> CardChoice:
    legal = state.legal()
    assert isinstance(legal, CardChoice), f"expected a card choice, got {legal}"
    return legal


def first_legal_play_out(state: GameState) -> None:
    """Finish the current hand playing the first legal action at every decision."""
    hand = state.hand_index
    while not state.is_over and state.hand_index == hand:
        state.apply(state.legal_actions()[0])


# ---------------------------------------------------------------- reaching the card play


def play_ready(
    r: Ruleset,
    dealer: int,
    trump: str,
    calls: str,
    play: Mapping[int, str],
    seed: int = 0,
    scores: Sequence[int] | None = None,
) -> GameState:
    """A game in the card play whose hands at play are exactly ``play`` (completed with junk).

    ``calls`` is the auction (``"W pass, N bid 8, ..."``); the bidder then
    names ``trump`` and the exchange is steered so that every seat keeps its
    play hand. Where every dealt card ends up in some hand (the dealer robs
    the stock, or the whole pack is dealt and reduced), unnamed trumps are
    dealt one at a time, weakest first, to the hand with room holding fewest
    trumps; elsewhere they stay
    undealt at the bottom of the stock. Hands are then completed to the play
    size with non-trumps.
    """
    t = suit(trump)
    tt = r.tables(t)
    size = r.play_hand_size
    order = [(dealer + 1 + i) % r.players for i in range(r.players)]
    target = {s: cs(play.get(s, "")) for s in range(r.players)}
    named = mask_of(x for h in target.values() for x in h)
    free_trumps = [x for x in junk_order(r, t, named) if tt.trump_mask >> x & 1]
    free_trumps.reverse()  # pop() takes the weakest first
    robbing = r.fill in (
        FillPolicy.DEALER_FILLS_OTHERS_THEN_ROBS,
        FillPolicy.FILL_OTHERS_DEALER_TAKES_STOCK_KEEPS_6,
    )
    reduce = r.discard == DiscardPolicy.REDUCE_TO_6_NONTRUMPS_FIRST
    folding = {s for s in order if r.fold and r.fold_mandatory and s in play and not play[s].strip()}
    spare: list[int] = []
    if reduce and r.excess_trumps == ExcessTrumps.PASS_TO_PARTNER:
        # non-scoring trumps may be discarded here (note E10): only scoring ones must be placed
        spare = [x for x in free_trumps if not tt.scoring_mask >> x & 1]
        free_trumps = [x for x in free_trumps if tt.scoring_mask >> x & 1]

    def trumps_in(s: int) -> int:
        return sum(1 for x in target[s] if tt.trump_mask >> x & 1)

    def give_trumps(enough: Callable[[], bool]) -> None:
        """One at a time to the seat with room holding fewest trumps (dealer's left first on ties)."""
        while free_trumps and not enough():
            room = [s for s in order if s not in folding and len(target[s]) < size]
            if not room:
                return
            target[min(room, key=trumps_in)].append(free_trumps.pop())

    if robbing or reduce:
        give_trumps(lambda: False)
        assert not free_trumps, "play_ready: more trumps than room in the hands"
    elif r.discard == DiscardPolicy.ALL_NONTRUMPS:
        # each non-trump in a hand at play was dealt as a junk card too: add trumps if short
        deck_nontrumps = sum(1 for x in r.deck if not tt.trump_mask >> x & 1)

        def need() -> int:
            held = [sum(1 for x in target[s] if tt.trump_mask >> x & 1) for s in order]
            return sum(r.first_deal_size - h for h in held) + sum(size - h for h in held)

        give_trumps(lambda: need() <= deck_nontrumps)
    named = mask_of(x for h in target.values() for x in h)
    nontrumps = [x for x in junk_order(r, t, named) if not tt.trump_mask >> x & 1 or x in spare]
    for s in order:
        while len(target[s]) < size and s not in folding:
            target[s].append(nontrumps.pop(0))
    deal: dict[int, list[int]] = {}
    stock: list[int] = []
    if r.discard == DiscardPolicy.ALL_NONTRUMPS:
        assert not r.keep_nontrumps, "play_ready: unsupported exchange"
        for s in order:
            trumps = [x for x in target[s] if tt.trump_mask >> x & 1]
            rest = [x for x in target[s] if not tt.trump_mask >> x & 1]
            assert len(trumps) <= r.first_deal_size
            deal[s] = trumps
            if s != dealer or not robbing:
                assert len(rest) == max(0, size - len(trumps)), "filled cards must make exactly the play size"
                stock += rest
        if robbing:
            stock += [x for x in target[dealer] if not tt.trump_mask >> x & 1]
    else:
        deal = {s: list(target[s]) for s in order}
    for s in order:
        if s in folding:
            deal[s] = []
        while len(deal[s]) < r.first_deal_size:
            deal[s].append(nontrumps.pop(0))
    state = deal_state(r, dealer, deal, stock=stock, trump=t, seed=seed, scores=scores)
    acts(state, calls)
    assert state.observation(0).bidder is not None and state.trump is None, (
        "the auction did not end with a bidder"
    )
    name_trump(state, t)
    for s in folding:
        target[s] = []
    steer_exchange(state, {s: mask_of(h) for s, h in target.items()})
    assert state.phase == Phase.PLAY
    for s in range(r.players):
        held = format_cards(cards_of(state.hands[s]))
        assert names(state.hands[s]) == names(target[s]), (
            f"seat {SEATS[s]} holds {held}, expected {format_cards(target[s])}"
        )
    return state


def steer_exchange(state: GameState, target: Mapping[int, int]) -> None:
    """Make every exchange decision so that each seat ends with ``target[seat]``.

    Discards drop the cards outside the target, keeps take the target cards,
    and offers to give cards to partner or fold are passed.
    """
    from pedro.engine.actions import PASS

    while state.phase == Phase.EXCHANGE:
        legal = state.legal()
        s = state.current_player
        hand = state.hands[s]
        if isinstance(legal, CardChoice):
            if legal.verb == Verb.KEEP:
                a = cards_action(Verb.KEEP, legal.pool & target[s])
            elif legal.verb == Verb.DISCARD and hand & ~target[s]:
                a = cards_action(Verb.DISCARD, hand & ~target[s])
            elif PASS in legal.alternatives:
                a = PASS
            else:
                raise AssertionError(f"steer_exchange: cannot steer {legal}")
        else:
            assert PASS in legal, f"steer_exchange: cannot steer {[state.words(x) for x in legal]}"
            a = PASS
        state.apply(a)


def _trick_points(
    r: Ruleset, tt: TrumpTables, trick: tuple[int, Sequence[tuple[int, int]]], hands_at_play: Sequence[int]
) -> list[int]:
    from pedro.engine.actions import play_mask
    from pedro.engine.scoring import TrickCards, count_points

    winner, plays = trick
    tc = TrickCards(winner, tuple((s, play_mask(a)) for s, a in plays))
    low = [x for x in r.deck if tt.roles[x] == "2"]
    holders = {x: s for x in low for s in range(r.players) if tc.mask >> x & 1 and hands_at_play[s] >> x & 1}
    points, _ = count_points(r, tt, [tc], holders, dict(holders), [0] * r.num_sides)
    return points


def trick_points(state: GameState, index: int) -> list[int]:
    """Points per side of trick ``index`` of the current hand alone, by the engine's counting.

    The Low is credited by the variant's rule (e.g. to the side of the seat
    that held it when play started), but only if it is in this trick.
    """
    pos = state.play_position()
    return _trick_points(state.rules, pos.tables, pos.tricks[index], pos.hands_at_play())


def result_trick_points(state: GameState, hand: int) -> list[list[int]]:
    """Per trick of finished hand ``hand``, its points per side (as :func:`trick_points`)."""
    result = state.results[hand]
    assert result.trump is not None
    tt = state.rules.tables(result.trump)
    hands = [mask_of(h) for h in result.hands_at_play]
    return [_trick_points(state.rules, tt, (t.winner, t.plays), hands) for t in result.tricks]


def rotate(text: str, by: int) -> str:
    """Seat letters in ``text`` (words that are a single N/E/S/W) moved ``by`` seats clockwise."""
    return " ".join(
        SEATS[(seat(w) + by) % 4] + "," * w.endswith(",") if w.rstrip(",") in SEATS else w
        for w in text.split()
    )


def play_tricks(state: GameState, tricks: Sequence[str]) -> None:
    """Play whole tricks written ``"N 5D, E 2H, ..."`` (the hand may end with the last one)."""
    for t in tricks:
        play_trick(state, t)


def played_record(
    variant: str = "cinch",
    seed: int = 2,
    hands: int = 2,
    player: str = "random",
    names: Sequence[str] = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"),
) -> dict[str, Any]:
    """The record of the first ``hands`` hands of a game between computer players of one kind."""
    rules = make_ruleset(variant)
    state = GameState(rules, seed=seed)
    players = [make_player(player, seed * 16 + s) for s in range(rules.players)]
    while not state.is_over and len(state.results) < hands:
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    return record_from_game(state, list(names[: rules.players]))


# ---------------------------------------------------------------- positions


def with_hands(state: GameState, hands: Sequence[int], size: int | None = None) -> GameState:
    """``state``'s play position with other hands (and a normal hand ``size`` at the first lead).

    Built from the position text, so the plays so far are replayed with the new hands:
    ValueError if one of them is then illegal.
    """
    pos = parse_position(state.rules, state.to_text())
    size = pos.normal_hand_size if size is None else size
    pos = dataclasses.replace(pos, hands=tuple(hands), normal_hand_size=size)
    return GameState.from_text(state.rules, format_position(state.rules, pos))


# ---------------------------------------------------------------- tournaments


def tournament_doc(
    variant: str, players: Sequence[str], seed: int, deals: int, games: int = 0
) -> dict[str, Any]:
    """A tournament's JSON document as read back from a file."""
    import json

    from pedro.tournament import run_tournament
    from pedro.tournament.report import document, summarise

    results = run_tournament(variant, {}, players, seed=seed, deals=deals, games=games)
    made = document(
        variant=variant,
        options={},
        players=players,
        seed=seed,
        max_hands=500,
        summary=summarise(players, results),
        results=results,
    )
    return dict(json.loads(json.dumps(made)))
