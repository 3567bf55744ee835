"""Property tests over random games of every variant.

Each example plays a game of one catalog variant from a seed, choosing random
legal actions (capped at a number of hands, since random bidding may never
end a game), and checks at every step:

(a) every card of the pack is in exactly one place;
(b) every applied action was legal, and a random illegal action raises
    ``IllegalActionError`` and leaves the state unchanged;
(c) the points taken in a hand add up to the points in play;
(d) no observation shows a seat a card it may not know;
(e) games of ``basic`` players end;
(f) the same seed gives the same game;
(g) when the card play starts every hand has the size of docs/rules.md
    §hand-size-at-the-first-lead;
(h) a game that is not over always offers a legal action, also in nine-card
    deals stacked so that the dealer's side holds most of the trumps (note E9);
(i) where ``Ruleset.fixed_hand_total`` says so, a hand's points add up to the
    same total however its cards are played (the bidding simulation counts on
    it), and classic Pitch's Game point, which says not, does make it differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import E, N, S, W, acts, deal_state, suit

from pedro.cards import cards_of, mask_of
from pedro.engine.actions import (
    PASS,
    PROTECT,
    Verb,
    action_cards,
    bid_action,
    cards_action,
    make,
    play_action,
    play_mask,
    trump_action,
)
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState, IllegalActionError
from pedro.players import PLAYERS, make_player
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import DiscardPolicy, ExcessTrumps, FillPolicy, LowRule, Ruleset
from pedro.variants.options import make_ruleset

VARIANT_IDS = list(VARIANTS)
#: Random bidding may never end a game: games stop after this many hands.
HAND_CAP = 30
#: Cards in a hand at the first lead.
SIX = 6
#: House-rule combinations whose engine paths the catalog variants do not reach (claims, robbing
#: discards, keeping non-trumps, nine-card deals, more players ...), played beside every variant.
OPTION_SETS: list[tuple[str, dict[str, object]]] = [
    ("cinch", {"discards_face_up": True}),
    ("cinch", {"dealer_robs_discards": True}),
    ("cinch", {"excess_trumps": "must_discard_to_6", "discarded_scoring_trumps": "to_opponents"}),
    ("cinch", {"keep_nontrumps": True, "first_lead_trump": True}),
    ("cinch", {"slam": True, "bid_28_56": True, "scoring": "difference", "preset": "cinch_min6_forced6"}),
    ("eighty_three", {"nine_card_deal": True}),
    ("sixty_three", {"nine_card_deal": True}),
    ("sixty_three", {"joker": True, "low_rule": "holder"}),
    ("pedro_sancho", {"deal_all_out": True, "players": 5}),
    ("dom_pedro", {"discard_and_fill": True, "players": 7}),
    ("king_pedro_canadian", {"fold_mandatory": False, "made_scores": "bid"}),
    ("king_pedro_canadian", {"excess_trumps": "pass_to_partner"}),
    ("nicaragua", {"play_hand_size": 6, "low_rule": "dealt"}),
    ("pitch_fives", {"relative_high_low": True}),
    (
        "petro_russian",
        {"plain_honours_score": True, "fives_rank": "standard", "auction_model": "single_round"},
    ),
    ("petro_russian", {"discards_face": "down"}),
    ("pedro_sancho", {"partnerships": True, "all_pass_action": "redeal_next_dealer"}),
]
RULESETS: dict[str, Ruleset] = dict(VARIANTS) | {
    variant + "".join(f"+{k}={v}" for k, v in options.items()): make_ruleset(variant, options)
    for variant, options in OPTION_SETS
}
RULESET_IDS = list(RULESETS)
#: RULESET_IDS as the cases of a test that walks games: each variant as it is runs in the fast
#: tier, the house-rule combinations only in the full run (marked slow)
RULESET_CASES = [
    name if name in VARIANTS else pytest.param(name, marks=pytest.mark.slow) for name in RULESETS
]


def hand_cap(name: str) -> int:
    """Hands per random game: fewer for the option sets, whose card choices cost more."""
    return HAND_CAP if name in VARIANTS else HAND_CAP // 3


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: Hypothesis settings per variant: a few random games each, no deadline (games vary in length).
#: A random game of 30 hands takes about 10 ms, most of a test's time goes to the per-step checks.
GAMES = settings(
    max_examples=5, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

# ---------------------------------------------------------------- playing random games


def random_action(state: GameState, rng: random.Random) -> int:
    legal = state.legal()
    if isinstance(legal, CardChoice):
        return legal.sample(rng)
    return rng.choice(legal)


def play_random(name: str, seed: int) -> GameState:
    state = GameState(RULESETS[name], seed=seed)
    rng = random.Random(seed)
    while not state.is_over and state.hand_index < hand_cap(name):
        state.apply(random_action(state, rng))
    return state


# ---------------------------------------------------------------- (a) where the cards are


def kitty_in_place(state: GameState) -> bool:
    """Whether the kitty still lies on the table (not yet taken by the bidder)."""
    r = state.rules
    if not r.kitty_size:
        return False
    taken = state._contract is not None and (r.kitty_before_trump or state.trump is not None)
    return not taken


def dealer_choosing(state: GameState) -> bool:
    """Whether the dealer is choosing what to keep of the rest of the stock (rob, take, pick).

    The engine takes the rest of the stock off the table (``_exchange.pool``) when the
    dealer looks through it; until he has chosen, those cards are neither in
    the stock nor in his hand.
    """
    if state.phase != Phase.EXCHANGE or state.current_player != state.dealer:
        return False
    legal = state.legal()
    return isinstance(legal, CardChoice) and legal.verb == Verb.KEEP


def places(state: GameState) -> dict[str, int]:
    """Every place a card can be during a hand, as masks."""
    out: dict[str, int] = {}
    for s in range(state.players):
        out[f"hand {s}"] = state.hands[s]
        out[f"discards {s}"] = state._discards[s]
    all_discards = 0
    for d in state._discards:
        all_discards |= d
    # dead cards: killed trumps, stock cards the dealer left, folded hands (also in the discards)
    out["dead"] = state._dead & ~all_discards
    out["kitty"] = mask_of(state._kitty) if kitty_in_place(state) else 0
    out["stock"] = mask_of(state._stock[state._stock_pos :])
    # while the dealer chooses from the rest of the stock, it is off the stock but not yet his
    out["stock the dealer looks through"] = state._exchange.pool if dealer_choosing(state) else 0
    played = 0
    tricks = list(state._tricks)
    if state.phase == Phase.PLAY and state._trick is not None:
        tricks.append(state._trick)
    for t in tricks:
        for _, a in t.plays:
            played |= play_mask(a)
    out["tricks"] = played
    return out


def check_cards(state: GameState) -> None:
    p = places(state)
    union = 0
    for name, mask in p.items():
        overlap = union & mask
        assert not overlap, f"{cards_of(overlap)} is in {name} and somewhere else ({state.phase.name})"
        union |= mask
    assert union == state.rules.deck_mask, f"missing cards: {cards_of(state.rules.deck_mask & ~union)}"


# ---------------------------------------------------------------- (b) illegal actions change nothing


def snapshot(state: GameState) -> tuple[Any, ...]:
    trick = state._trick
    return (
        state.phase,
        state.current_player,
        state.hand_index,
        tuple(state.hands),
        tuple(state._discards),
        state._dead,
        state._face_up,
        state._stock_pos,
        tuple(state.scores),
        tuple(tuple(h) for h in state.hand_actions),
        tuple(state._auction.calls),
        tuple((t.leader, tuple(t.plays), t.winner) for t in state._tricks),
        (trick.leader, tuple(trick.plays)) if trick is not None else None,
        tuple(state._status),
        state.trump,
        state._exchange.index,
        state.describe_legal(),
    )


def random_other_action(state: GameState, rng: random.Random) -> int:
    """Some action of the right or a wrong kind, often illegal."""
    deck = list(state.rules.deck)
    kind = rng.randrange(6)
    if kind == 0:
        return bid_action(rng.randrange(0, state.rules.max_bid + 3))
    if kind == 1:
        return rng.choice([PASS, PROTECT, make(Verb.BID_28_56), make(Verb.BID_DOUBLE), make(Verb.FOLD)])
    if kind == 2:
        return trump_action(rng.randrange(4))
    if kind == 3:
        return play_action(rng.sample(deck, rng.choice((1, 1, 2, 3))))
    verb = rng.choice([Verb.DISCARD, Verb.KEEP, Verb.KILL, Verb.GIVE, Verb.CLAIM])
    legal = state.legal()
    if isinstance(legal, CardChoice) and rng.random() < 0.7:
        verb = legal.verb
    return cards_action(verb, mask_of(rng.sample(deck, rng.randrange(1, 8))))


def check_illegal_is_refused(state: GameState, rng: random.Random) -> None:
    for _ in range(2):
        a = random_other_action(state, rng)
        if state.why_illegal(a) is None:
            continue
        before = snapshot(state)
        with pytest.raises(IllegalActionError):
            state.apply(a)
        assert snapshot(state) == before


# ---------------------------------------------------------------- (d) what a seat may see


def mentioned(obs: Observation) -> int:
    """Every card an observation names."""
    cards = set(obs.hand) | set(obs.own_discards) | set(obs.seen)
    for group in (*obs.face_up, *obs.shown):
        cards |= set(group)
    for t in (*obs.tricks, *([obs.trick] if obs.trick else [])):
        for _, played in t.plays:
            cards |= set(played)
    if isinstance(obs.legal, CardChoice):
        cards |= set(cards_of(obs.legal.pool))
        for a in obs.legal.alternatives:
            cards |= set(action_cards(a))
    elif obs.legal is not None:
        for a in obs.legal:
            cards |= set(action_cards(a))
    return mask_of(cards)


def secret_from(state: GameState, seat: int) -> int:
    """Cards ``seat`` may not know: others' hands, face-down cards, the stock, the kitty and the wash.

    Exceptions: cards laid down face up, cards the seat itself gave to its
    partner, cards it has looked at (``known``: a stock or discards it
    searched), and the trumps in the others' discards while a dealer who may
    rob them chooses.
    """
    secret = 0
    shown = 0
    for s in range(state.players):
        if s == seat:
            continue
        secret |= state.hands[s]
        secret |= state._discards[s] & ~state._face_up
        status = state._status[s]
        if status in (Status.UP, Status.OUT) or (status == Status.COLD and state.rules.cold_cards_face_up):
            shown |= state._shown[s]
    secret |= state._dead & ~state._face_up & ~state._discards[seat]
    # the wash: discards gathered and shuffled face down when the stock ran dry (own ones too)
    secret |= state._wash_left()
    secret |= mask_of(state._stock[state._stock_pos :])
    if dealer_choosing(state):
        secret |= state._exchange.pool
    if kitty_in_place(state):
        secret |= mask_of(state._kitty)
    given = 0
    for receiver in range(state.players):
        for giver, mask in state._received[receiver]:
            if giver == seat:
                given |= mask
    looked = 0
    if dealer_choosing(state) and seat == state.dealer and state.rules.dealer_robs_discards:
        # the dealer may search the others' discards for trumps (docs/rules.md §filling)
        assert state._tt is not None
        for s in range(state.players):
            looked |= state._discards[s] & state._tt.trump_mask
    return secret & ~shown & ~given & ~looked & ~state._seen[seat] & ~state.hands[seat]


def check_observations(state: GameState) -> None:
    for seat in range(state.players):
        obs = state.observation(seat)
        leak = mentioned(obs) & secret_from(state, seat)
        assert not leak, f"seat {seat} sees {cards_of(leak)} ({state.phase.name})"
        assert set(obs.hand) == set(cards_of(state.hands[seat]))
        assert (obs.legal is not None) == (state.current_player == seat and not state.is_over)


# ---------------------------------------------------------------- (c) points add up


def expected_points(state: GameState, hand: int, credits: list[int]) -> int:
    """Points in play for a finished hand: every card held when play started, plus credits."""
    result = state.results[hand]
    assert result.trump is not None
    tt = state.rules.tables(result.trump)
    held = mask_of(c for h in result.hands_at_play for c in h)
    return sum(tt.points[c] for c in cards_of(held)) + sum(credits)


# ---------------------------------------------------------------- the tests

Check = Callable[[GameState, random.Random], None]


def walk(name: str, seed: int, before: Check, hands: int = HAND_CAP) -> GameState:
    """Play a random game, running ``before`` ahead of every action, and check legality (b)."""
    state = GameState(RULESETS[name], seed=seed)
    rng = random.Random(seed)
    while not state.is_over and state.hand_index < min(hands, hand_cap(name)):
        before(state, rng)
        a = random_action(state, rng)
        assert state.why_illegal(a) is None
        state.apply(a)
    before(state, rng)
    return state


@pytest.mark.parametrize("variant", RULESET_CASES)
@GAMES
@given(seed=SEEDS)
def test_every_card_is_in_exactly_one_place(variant: str, seed: int) -> None:
    walk(variant, seed, lambda state, rng: check_cards(state))


@pytest.mark.parametrize("variant", RULESET_CASES)
@GAMES
@given(seed=SEEDS)
def test_only_legal_actions_are_applied_and_illegal_ones_change_nothing(variant: str, seed: int) -> None:
    def check(state: GameState, rng: random.Random) -> None:
        if not state.is_over:
            check_illegal_is_refused(state, rng)

    walk(variant, seed, check, hands=8)


@pytest.mark.parametrize(
    "variant",
    [v for v, r in RULESETS.items() if not r.relative_high_low and r.low_rule != LowRule.DEALT],
)
@GAMES
@given(seed=SEEDS)
def test_points_taken_add_up_to_the_points_in_play(variant: str, seed: int) -> None:
    state = GameState(RULESETS[variant], seed=seed)
    rng = random.Random(seed)
    credits = [0] * state.rules.num_sides
    while not state.is_over and state.hand_index < hand_cap(variant):
        if state.phase in (Phase.EXCHANGE, Phase.PLAY):
            credits = list(state._credits)
        hand = state.hand_index
        state.apply(random_action(state, rng))
        if len(state.results) > hand and state.results[hand].bidder is not None:
            result = state.results[hand]
            assert sum(result.points) == expected_points(state, hand, credits)
            assert sum(result.points) <= state.rules.total_points
        if state.hand_index != hand:
            credits = [0] * state.rules.num_sides
    assert state.results


@pytest.mark.parametrize("variant", RULESET_CASES)
@GAMES
@given(seed=SEEDS)
def test_observations_never_show_hidden_cards(variant: str, seed: int) -> None:
    walk(variant, seed, lambda state, rng: check_observations(state), hands=6)


@pytest.mark.skipif("basic" not in PLAYERS, reason="no basic player")
@pytest.mark.parametrize("variant", VARIANT_IDS)
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_games_of_basic_players_end(variant: str, seed: int) -> None:
    state = GameState(VARIANTS[variant], seed=seed)
    players = [make_player("basic", seed + s) for s in range(state.players)]
    while not state.is_over:
        assert state.hand_index < 400, "a game of basic players did not end"
        seat = state.current_player
        a = players[seat].act(state.observation(seat))
        assert state.why_illegal(a) is None
        state.apply(a)
    assert state.winner is not None
    assert 0 <= state.winner < state.rules.num_sides


@pytest.mark.parametrize("variant", RULESET_CASES)
@settings(max_examples=2, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_same_seed_same_game(variant: str, seed: int) -> None:
    first = play_random(variant, seed)
    second = play_random(variant, seed)
    assert first.hand_actions == second.hand_actions
    assert first.deal_records == second.deal_records
    assert first.washes == second.washes
    assert [r.points for r in first.results] == [r.points for r in second.results]
    assert first.scores == second.scores and first.winner == second.winner


def bad_hand_sizes(state: GameState) -> list[tuple[int, int]]:
    """Seats whose hand at the start of play breaks docs/rules.md §hand-size-at-the-first-lead.

    Every active player holds the play size (6; 7 in nicaragua; the deal in
    variants without exchange), a folded player none, and a player under
    ``keep_and_bury`` may hold more, all trumps.
    """
    r = state.rules
    assert state._tt is not None
    out = []
    for s in range(state.players):
        hand = state._hands_at_play[s]
        n = hand.bit_count()
        if state._status[s] == Status.FOLDED:
            ok = n == 0
        elif r.keep_nontrumps and s == state.dealer:
            # open question: a dealer who kept non-trumps must still take every stock trump
            # (docs/rules.md §filling), and no rule lets him throw a non-trump back; he may hold more than 6
            ok = n >= r.play_hand_size
        else:
            exchanged = r.discard != DiscardPolicy.NONE or r.fill != FillPolicy.NONE
            size = r.play_hand_size if exchanged else r.first_deal_size
            buried = r.excess_trumps == ExcessTrumps.KEEP_AND_BURY and not hand & ~state._tt.trump_mask
            ok = n == size or (n > size and buried)
        if not ok:
            out.append((s, n))
    return out


@pytest.mark.parametrize("variant", RULESET_CASES)
@GAMES
@given(seed=SEEDS)
def test_hands_at_play_have_the_play_size(variant: str, seed: int) -> None:
    state = GameState(RULESETS[variant], seed=seed)
    rng = random.Random(seed)
    starts = 0
    while not state.is_over and state.hand_index < hand_cap(variant):
        before = state.phase
        state.apply(random_action(state, rng))
        if before != Phase.PLAY and state.phase == Phase.PLAY:
            starts += 1
            assert not bad_hand_sizes(state), (state.hand_index, bad_hand_sizes(state))
    assert starts or state.results


# ---------------------------------------------------------------- (h) always a legal action


def has_a_legal_action(state: GameState) -> bool:
    """Whether the player to act has a legal action (a card choice is searched, not listed)."""
    legal = state.legal()
    if isinstance(legal, CardChoice):
        return bool(legal.alternatives) or next(legal.masks(), None) is not None
    return bool(legal)


def check_a_legal_action(state: GameState) -> None:
    if not state.is_over:
        assert has_a_legal_action(state), (
            f"no legal action for seat {state.current_player} ({state.phase.name}): {state.describe_legal()}"
        )


@pytest.mark.parametrize("variant", RULESET_CASES)
@GAMES
@given(seed=SEEDS)
def test_a_game_not_over_always_offers_a_legal_action(variant: str, seed: int) -> None:
    walk(variant, seed, lambda state, rng: check_a_legal_action(state))


#: Random deals almost never give the dealer's partner more than six trumps to pass and then
#: the dealer more than six scoring trumps from the stock (note E9), so these deals are stacked.
NINE_CARD_DEALS = [name for name, r in RULESETS.items() if r.nine_card_deal and len(r.options) == 1]


def trump_rich_nine_card_deal(name: str, seed: int) -> GameState:
    """A nine-card deal by S for hearts trumps in which S's side holds most of the trumps.

    N, the dealer's partner, holds seven to nine trumps; most of the others are in
    S's hand or in the stock below the cards that fill W and E, so the dealer
    takes them with the rest of the stock.
    """
    r = RULESETS[name]
    rng = random.Random(seed)
    tt = r.tables(suit("H"))
    trumps = [x for x in r.deck if tt.trump_mask >> x & 1]
    others = [x for x in r.deck if not tt.trump_mask >> x & 1]
    rng.shuffle(trumps)
    rng.shuffle(others)
    size = r.first_deal_size
    partner = rng.randint(7, size)
    hands = {N: trumps[:partner], E: [], S: [], W: []}
    in_stock = []
    for t in trumps[partner:]:
        seat = rng.choice([S, S, None, None, None, W, E][: 5 if rng.random() < 0.8 else 7])
        if seat is not None and len(hands[seat]) < size:
            hands[seat].append(t)
        else:
            in_stock.append(t)
    filling = 2 * SIX - len(hands[W]) - len(hands[E])  # W and E keep their trumps, filled to six
    for cards in hands.values():
        while len(cards) < size:
            cards.append(others.pop())
    rng.shuffle(in_stock)
    stock = others[:filling] + in_stock + others[filling:]
    return deal_state(r, S, hands, stock=stock)


@pytest.mark.parametrize("variant", NINE_CARD_DEALS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_trump_rich_nine_card_deals_offer_a_legal_action_to_the_end(variant: str, seed: int) -> None:
    state = trump_rich_nine_card_deal(variant, seed)
    acts(state, f"W bid {state.rules.min_bid}, N pass, E pass, S pass, W trump H")
    rng = random.Random(seed)
    while not state.is_over and state.hand_index == 0:
        check_a_legal_action(state)
        state.apply(random_action(state, rng))
    assert state.results


def test_random_games_reach_every_phase() -> None:
    """The random walks above really play: bids, exchanges, tricks and finished hands."""
    seen: set[Phase] = set()
    for variant in RULESET_IDS:
        state = GameState(RULESETS[variant], seed=1)
        rng = random.Random(1)
        while not state.is_over and state.hand_index < 3:
            seen.add(state.phase)
            state.apply(random_action(state, rng))
        assert state.results, variant
    assert {Phase.AUCTION, Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY} <= seen


# ---------------------------------------------------------------- (i) a total the play cannot change


def at_a_first_lead(name: str, seed: int, rng: random.Random) -> GameState | None:
    """A random game up to the first lead of one of its first hands (None if none was reached)."""
    state = GameState(RULESETS[name], seed=seed)
    while not state.is_over and state.hand_index < 3:
        if state.phase == Phase.PLAY:
            return state
        state.apply(random_action(state, rng))
    return None


def totals_of_random_plays(state: GameState, rng: random.Random, plays: int) -> set[int]:
    """The points the hand scores in all, played to its end ``plays`` times by random cards."""
    totals = set()
    for _ in range(plays):
        play = state.clone()
        hand = len(play.results)
        while not play.is_over and len(play.results) == hand:
            play.apply(random_action(play, rng))
        totals.add(sum(play.results[hand].points))
    return totals


@pytest.mark.parametrize("variant", [v for v, r in RULESETS.items() if r.fixed_hand_total])
@GAMES
@given(seed=SEEDS)
def test_a_fixed_hand_total_is_the_same_however_the_hand_is_played(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    state = at_a_first_lead(variant, seed, rng)
    if state is not None:
        assert len(totals_of_random_plays(state, rng, 4)) == 1


def test_classic_pitch_game_point_makes_the_total_depend_on_the_play() -> None:
    """A tie for Game goes to no one, so the total is not fixed: some deal shows it."""
    name = "pitch_fives+relative_high_low=True"
    assert not RULESETS[name].fixed_hand_total
    differing = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = at_a_first_lead(name, seed, rng)
        differing += state is not None and len(totals_of_random_plays(state, rng, 4)) > 1
    assert differing > 0
