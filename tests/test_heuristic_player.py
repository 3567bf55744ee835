"""The ``heuristic`` player: legal everywhere, deterministic, and sensible where club players care."""

from __future__ import annotations

import pytest
from tests.helpers import E, N, S, W, c, deal_state, play_ready, rules

from pedro.cards import RANK_INDEX, cards_of, format_card, mask_of
from pedro.engine.actions import PASS, Verb, arg_of, play_cards, verb_of
from pedro.engine.choices import CardChoice
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import PLAYERS, make_player
from pedro.players.base import RandomPlayer
from pedro.players.basic import BasicPlayer
from pedro.players.heuristic import HeuristicPlayer, make_chance, rollout_player
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset

#: what these tests exercise is the same Python on both builds: CI's compiled run leaves them out
pytestmark = pytest.mark.players

E_BIDS = "W pass, N pass, E bid 7, S pass"  # dealer S: E is the bidder and leads
N_BIDS = "W pass, N bid 7, E pass, S pass"  # dealer S: N is the bidder and leads


def play_game(rules_: Ruleset, seed: int, kinds: list[str], max_hands: int) -> GameState:
    """One game, checking that every action is in the acting seat's legal set."""
    state = GameState(rules_, seed=seed)
    # few samples keep the bidding by simulation cheap (the bidding has its own tests)
    players = [
        HeuristicPlayer(seed * 16 + s, samples=3) if kind == "heuristic" else BasicPlayer(seed * 16 + s)
        for s, kind in enumerate(kinds)
    ]
    while not state.is_over and state.hand_index < max_hands:
        seat = state.current_player
        obs = state.observation(seat)
        action = players[seat].act(obs)
        assert obs.legal is not None and action in obs.legal, (rules_.id, seed, state.words(action))
        state.apply(action)
    return state


def test_heuristic_is_registered() -> None:
    assert "heuristic" in PLAYERS
    assert isinstance(make_player("heuristic", 3), HeuristicPlayer)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
@pytest.mark.slow
def test_heuristic_always_plays_legal_actions(variant_id: str) -> None:
    rules_ = VARIANTS[variant_id]
    n = rules_.players
    for seed in range(3):
        play_game(rules_, seed, ["heuristic"] * n, max_hands=4)
        play_game(rules_, seed, ["heuristic" if s % 2 else "basic" for s in range(n)], max_hands=3)


def test_heuristic_is_deterministic_with_a_seed() -> None:
    a = play_game(VARIANTS["cinch"], 5, ["heuristic"] * 4, max_hands=3)
    b = play_game(VARIANTS["cinch"], 5, ["heuristic"] * 4, max_hands=3)
    assert a.hand_actions == b.hand_actions


def test_make_chance_falls_with_the_bid() -> None:
    assert make_chance(9.0, 7, 14) > make_chance(9.0, 9, 14) > make_chance(9.0, 12, 14)
    assert make_chance(9.0, 7, 14) > 0.6


def _act(state: GameState) -> int:
    seat = state.current_player
    return HeuristicPlayer(1).act(state.observation(seat))


def _played(state: GameState) -> str:
    action = _act(state)
    assert verb_of(action) == Verb.PLAY
    return format_card(play_cards(action)[0])


# ---------------------------------------------------------------- card play


def test_keeps_its_high_trumps_rather_than_cinching() -> None:
    # N (partner) leads a low trump and E takes it with the nine; W, last to play, may drop a pedro
    # on E's trick. S keeps its ace and king for later tricks (trumping high to stop a possible
    # throw lost points in duplicate play against basic) and follows with its lowest trump.
    hands = {N: "4H", E: "9H", S: "AH KH 3H", W: "5H 5D"}
    state = play_ready(rules("cinch"), S, "H", N_BIDS, hands)
    state.apply(_find_play(state, "4H"))
    state.apply(_find_play(state, "9H"))
    assert state.current_player == S
    assert _played(state) == "3H"


def test_does_not_cinch_when_partner_already_holds_the_trick() -> None:
    # N (partner) leads the boss ace: S does not waste its king on it
    hands = {N: "AH 7H", E: "8H", S: "KH 3H", W: "9H"}
    state = play_ready(rules("cinch"), S, "H", N_BIDS, hands)
    state.apply(_find_play(state, "AH"))
    state.apply(_find_play(state, "8H"))
    assert _played(state) != "KH"


def test_keeps_the_pedro_off_an_opponents_trick() -> None:
    # E leads the ace of trumps: S follows with the four, not the pedro
    hands = {E: "AH 9H", S: "5H 4H", W: "8H", N: "7H"}
    state = play_ready(rules("cinch"), S, "H", E_BIDS, hands)
    state.apply(_find_play(state, "AH"))
    assert _played(state) == "4H"


def test_saves_the_pedro_behind_partners_sure_winner() -> None:
    # N's ace is the boss and only E is left to play after S... S is last: the pedro goes on it
    hands = {N: "AH 7H", E: "8H", S: "5H 4H", W: "9H"}
    state = play_ready(rules("cinch"), W, "H", "N bid 7, E pass, S pass, W pass", hands)
    assert state.current_player == N
    state.apply(_find_play(state, "AH"))
    state.apply(_find_play(state, "8H"))
    assert state.current_player == S
    assert _played(state) == "5H"


@pytest.mark.parametrize("variant_id", ["sixty_three", "eighty_three"])
def test_plays_the_low_where_the_side_keeps_it(variant_id: str) -> None:
    # the capturer scores the Low: S saves points on partner's boss
    r = rules(variant_id)
    assert r.low_rule == "capturer"
    tt = r.tables(1)
    top = format_card(max(cards_of(tt.trump_mask), key=lambda x: tt.strength[x]))
    state = _capturer_ready(r, N, {N: f"{top} 7H", E: "8H", S: "2H 6H", W: "9H"})
    state.apply(_find_play(state, top))
    state.apply(_find_play(state, "8H"))
    # the Low, or a card worth more than it (the deal may give S a bigger scoring trump)
    assert tt.points[c(_played(state))] >= tt.points[c("2H")]
    # on the opponents' boss S gives up the one-point Low and keeps the six, which may still take a
    # pedro or a big low trump (the three of 63, the joker of 83): keeping the Low instead lost points
    # in duplicate play against basic
    state = _capturer_ready(r, E, {E: f"{top} 7H", S: "2H 6H", W: "9H", N: "8H"})
    state.apply(_find_play(state, top))
    assert _played(state) == "2H"


def _capturer_ready(r: Ruleset, bidder: int, hands: dict[int, str]) -> GameState:
    seats = "NESW"
    order = [W, N, E, S]  # dealer S: W speaks first
    calls = ", ".join(f"{seats[s]} bid {r.min_bid}" if s == bidder else f"{seats[s]} pass" for s in order)
    return play_ready(r, S, "H", calls, hands)


def _find_play(state: GameState, card: str) -> int:
    for a in state.legal_actions():
        if verb_of(a) == Verb.PLAY and play_cards(a)[0] == c(card):
            return a
    raise AssertionError(f"{card} is not a legal play: {state.describe_legal()}")


# ---------------------------------------------------------------- bidding and exchange


def _no_high_cards(hand: tuple[int, ...]) -> bool:
    high = {RANK_INDEX["A"], RANK_INDEX["K"], RANK_INDEX["Q"]}
    return all(x >= 52 or x % 13 not in high for x in hand)


@pytest.mark.parametrize("variant_id", ["cinch", "pidro", "king_pedro_canadian", "eighty_three"])
@pytest.mark.slow
def test_never_bids_the_maximum_without_high_cards(variant_id: str) -> None:
    r = VARIANTS[variant_id]
    seen = 0
    for seed in range(16):
        state = GameState(r, seed=seed)
        players = [HeuristicPlayer(seed * 16 + s, samples=4) for s in range(r.players)]
        while state.phase == Phase.AUCTION:
            seat = state.current_player
            obs = state.observation(seat)
            action = players[seat].act(obs)
            if _no_high_cards(obs.hand):
                seen += 1
                assert not (verb_of(action) == Verb.BID and arg_of(action) >= r.max_bid), (seed, obs.hand)
            state.apply(action)
    assert seen  # the property was exercised


def test_partners_do_not_outbid_each_other_to_the_maximum_in_king_pedro_canadian() -> None:
    """Seed 26 against basic: the two heuristic partners used to outbid each other from 32 to 60."""
    r = VARIANTS["king_pedro_canadian"]
    seats = [HeuristicPlayer(26 * 16), BasicPlayer(26 * 16 + 1), HeuristicPlayer(26 * 16 + 2), BasicPlayer(3)]
    state = GameState(r, seed=26)
    while state.phase == Phase.AUCTION:
        seat = state.current_player
        state.apply(seats[seat].act(state.observation(seat)))
    assert state.contract is not None and state.contract.value <= 45


def test_passes_a_weak_hand_in_cinch() -> None:
    r = rules("cinch")
    state = play_ready_auction(r)
    obs = state.observation(state.current_player)
    assert HeuristicPlayer(0).act(obs) == PASS


def play_ready_auction(r: Ruleset) -> GameState:
    # W speaks first (dealer S) holding nothing above a nine
    return deal_state(r, S, {W: "2S 3H 4D 6C 7S 8H 9D 3C 4S"})


@pytest.mark.parametrize("variant_id", ["cinch", "nicaragua", "pidro", "king_pedro", "eighty_three"])
@pytest.mark.slow
def test_keeps_trumps_in_the_exchange(variant_id: str) -> None:
    r = VARIANTS[variant_id]
    checked = 0
    for seed in range(12):
        state = GameState(r, seed=seed)
        players = [HeuristicPlayer(seed * 16 + s, samples=3) for s in range(r.players)]
        while not state.is_over and state.hand_index < 1:
            seat = state.current_player
            obs = state.observation(seat)
            action = players[seat].act(obs)
            legal = obs.legal
            if isinstance(legal, CardChoice) and state.trump is not None and action not in legal.alternatives:
                trumps = r.tables(state.trump).trump_mask
                chosen = arg_of(action)
                if legal.verb == Verb.DISCARD:
                    held = mask_of(obs.hand) & trumps
                    if held.bit_count() <= r.play_hand_size and legal.pool & ~trumps:
                        checked += 1
                        assert not chosen & trumps, (seed, [format_card(x) for x in cards_of(chosen)])
                elif legal.verb == Verb.KEEP:
                    offered = legal.pool & trumps
                    if offered.bit_count() <= min(legal.sizes[-1], r.play_hand_size):
                        checked += 1
                        assert chosen & offered == offered, seed
            state.apply(action)
    assert checked


@pytest.mark.parametrize("variant_id", ["cinch", "nicaragua"])
def test_claims_a_face_up_trump_for_its_least_useful_card(variant_id: str) -> None:
    # random players throw trumps away face up; the heuristic takes them back with its lowest card
    r = rules(variant_id, discards_face_up=True, trump_discard_claim="anyone")
    claims = 0
    for seed in range(6):
        state = GameState(r, seed=seed)
        others = [RandomPlayer(seed * 4 + s) for s in range(r.players)]
        player = rollout_player(seed)
        while not state.is_over and state.hand_index < 1:
            obs = state.observation(state.current_player)
            legal = obs.legal
            if isinstance(legal, tuple) and any(verb_of(a) == Verb.CLAIM for a in legal):
                action = player.act(obs)
                assert verb_of(action) == Verb.CLAIM
                trumps = r.tables(state.trump).trump_mask
                given = [x for x in cards_of(arg_of(action)) if not trumps >> x & 1]
                offered = {x for a in legal if a != PASS for x in cards_of(arg_of(a)) if not trumps >> x & 1}
                assert given[0] % 13 == min(x % 13 for x in offered)
                claims += 1
            else:
                action = others[state.current_player].act(obs)
            state.apply(action)
    assert claims
