"""The ``basic`` player: always legal in every variant, deterministic, sensible, and better than random."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pedro.cards import mask_of, parse_card, parse_cards
from pedro.engine.actions import (
    FOLD,
    PASS,
    Verb,
    action_words,
    arg_of,
    bid_action,
    cards_action,
    play_action,
    trump_action,
    verb_of,
)
from pedro.engine.choices import CardChoice
from pedro.engine.observation import Observation, SeenTrick
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.players import PLAYERS, make_player
from pedro.players import hand_strength as hs
from pedro.players.base import RandomPlayer
from pedro.players.basic import BasicPlayer
from pedro.players.hand_strength import expected_points
from pedro.variants.catalog import VARIANTS, get_variant
from pedro.variants.model import Ruleset
from pedro.variants.options import make_ruleset

HEARTS = 1


def play_game(rules: Ruleset, seed: int, kinds: list[str], max_hands: int) -> GameState:
    """One game, checking that every action is in the acting seat's legal set."""
    state = GameState(rules, seed=seed)
    players = [
        BasicPlayer(seed * 16 + s) if kind == "basic" else RandomPlayer(seed * 16 + s)
        for s, kind in enumerate(kinds)
    ]
    while not state.is_over and state.hand_index < max_hands:
        seat = state.current_player
        obs = state.observation(seat)
        action = players[seat].act(obs)
        assert obs.legal is not None and action in obs.legal, (rules.id, seed, state.words(action))
        state.apply(action)
    return state


def test_basic_is_registered() -> None:
    assert "basic" in PLAYERS
    assert isinstance(make_player("basic", 3), BasicPlayer)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_basic_always_plays_legal_actions(variant_id: str) -> None:
    rules = VARIANTS[variant_id]
    for seed in range(8):
        play_game(rules, seed, ["basic"] * rules.players, max_hands=4)


@pytest.mark.parametrize(
    ("variant_id", "options"),
    [
        ("cinch", {"keep_nontrumps": True}),
        ("cinch", {"dealer_robs_discards": True}),
        ("cinch", {"excess_trumps": "must_discard_to_6"}),
        ("cinch", {"bid_28_56": True, "slam": True}),
        ("king_pedro_canadian", {"fold_mandatory": False}),
        ("eighty_three", {"nine_card_deal": True}),
        ("sixty_three", {"joker": True}),
        ("pedro_sancho", {"players": 7}),
        ("dom_pedro", {"deal_all_out": True}),
        ("piedro_jokers", {"protect_may_equal": True}),
    ],
)
def test_basic_is_legal_under_house_rules(variant_id: str, options: dict[str, object]) -> None:
    rules = make_ruleset(variant_id, options)
    for seed in range(5):
        play_game(rules, seed, ["basic"] * rules.players, max_hands=3)


def test_basic_is_deterministic_for_a_seed() -> None:
    rules = VARIANTS["nicaragua"]
    first = play_game(rules, 11, ["basic"] * 4, max_hands=3)
    second = play_game(rules, 11, ["basic"] * 4, max_hands=3)
    assert first.hand_actions == second.hand_actions


def test_basic_beats_random_at_cinch() -> None:
    rules = VARIANTS["cinch"]
    wins = games = 0
    for seed in range(30):
        kinds = ["basic", "random"] * 2 if seed % 2 == 0 else ["random", "basic"] * 2
        state = play_game(rules, seed, kinds, max_hands=200)
        if state.winner is None:
            continue
        games += 1
        wins += kinds[state.winner] == "basic"  # side 0 = seats 0 and 2
    assert games >= 25
    assert wins >= 0.8 * games, f"basic won {wins} of {games}"


# --------------------------------------------------------------------------- single decisions


def obs_for(
    hand: str,
    legal: tuple[int, ...] | CardChoice,
    *,
    phase: Phase = Phase.PLAY,
    trick: list[tuple[int, str]] | None = None,
    seen: str = "",
    bidder: int | None = 0,
    trump: int | None = HEARTS,
    calls: tuple[tuple[int, int], ...] = (),
    seat: int = 0,
    dealer: int = 3,
) -> Observation:
    """A cinch observation for ``seat`` with the given hand, trick in progress and known cards."""
    plays = tuple((s, (parse_card(c),)) for s, c in trick or [])
    cards = tuple(sorted(parse_cards(hand)))
    return Observation(
        seat=seat, variant="cinch", rules=get_variant("cinch"), phase=int(phase), hand_index=0,
        dealer=dealer, current_player=seat,
        hand=cards, hand_sizes=(len(cards),) * 4, calls=calls, bidder=bidder,
        bid=7 if bidder is not None else None,
        trump=trump, face_up=((),) * 4, own_discards=(), seen=tuple(parse_cards(seen)), statuses=(0,) * 4,
        shown=((),) * 4, tricks=(), trick=SeenTrick(plays[0][0], plays, -1) if plays else None, scores=(0, 0),
        history=(), winner=None, legal=legal,
    )  # fmt: skip


def plays(text: str) -> tuple[int, ...]:
    return tuple(play_action([c]) for c in parse_cards(text))


def chosen(obs: Observation) -> str:
    action = BasicPlayer(1).act(obs)
    assert obs.legal is not None and action in obs.legal
    return action_words(action)


def test_feeds_points_to_partners_safe_trick() -> None:
    # partner (seat 2) led the ace of trumps: the pedro is safe on it
    obs = obs_for("5h 9h 3c", plays("5h 9h"), trick=[(2, "ah"), (3, "3h")], bidder=2)
    assert chosen(obs) == "play 5H"


def test_keeps_a_pedro_off_a_trick_the_opponents_hold() -> None:
    obs = obs_for("5h 4h", plays("5h 4h"), trick=[(3, "kh")], bidder=3)
    assert chosen(obs) == "play 4H"


def test_wins_a_point_trick_with_the_lowest_card_that_holds() -> None:
    # the ace is gone, so the queen is as good as the king here
    obs = obs_for("kh qh 3h", plays("kh qh 3h"), trick=[(3, "5h")], seen="ah", bidder=3)
    assert chosen(obs) == "play QH"


def test_bidder_leads_the_top_trump() -> None:
    obs = obs_for("ah 7h 3c", plays("ah 7h 3c"), bidder=0)
    assert chosen(obs) == "play AH"


def test_defender_leads_a_low_plain_card() -> None:
    obs = obs_for("9h 4c ks", plays("9h 4c ks"), bidder=1)
    assert chosen(obs) == "play 4C"


def test_discards_the_lowest_plain_cards() -> None:
    pool = mask_of(parse_cards("as 2s 3d 7c"))
    choice = CardChoice(Verb.DISCARD, pool, (2,), "discard 2 non-trumps")
    obs = obs_for("as 2s 3d 7c ah kh", choice, phase=Phase.EXCHANGE)
    assert chosen(obs) == "discard 2S 3D"


def test_kills_a_non_scoring_trump() -> None:
    pool = mask_of(parse_cards("ah jh 5h 3h 9h 2h 7h"))
    choice = CardChoice(Verb.KILL, pool, (1,), "kill 1 trump")
    obs = obs_for("ah jh 5h 3h 9h 2h 7h", choice, phase=Phase.EXCHANGE)
    assert chosen(obs) == "kill 3H"


def test_refused_greedy_choice_falls_back_to_a_legal_one() -> None:
    pool = mask_of(parse_cards("as 2s 3d 7c"))

    def check(mask: int) -> str | None:
        return None if mask >> parse_card("as") & 1 else "the ace must go"

    choice = CardChoice(Verb.DISCARD, pool, (2,), "discard 2 including the ace", check)
    obs = obs_for("as 2s 3d 7c ah kh", choice, phase=Phase.EXCHANGE)
    assert chosen(obs) == "discard 2S AS"


def test_gives_single_trump_to_partner_unless_bidding() -> None:
    give = cards_action(Verb.GIVE, mask_of(parse_cards("9h")))
    legal = (PASS, give)
    assert BasicPlayer(1).act(obs_for("9h 3c", legal, phase=Phase.EXCHANGE, bidder=1)) == give
    assert BasicPlayer(1).act(obs_for("9h 3c", legal, phase=Phase.EXCHANGE, bidder=0)) == PASS
    assert BasicPlayer(1).act(obs_for("3c 4d", (PASS, FOLD), phase=Phase.EXCHANGE, bidder=1)) == FOLD


def test_bids_on_strong_trumps_and_passes_weak_hands() -> None:
    rules = VARIANTS["cinch"]
    strong = mask_of(parse_cards("ah kh jh 10h 5h 5d 2h 3c 4s"))
    weak = mask_of(parse_cards("3h 4d 6s 7c 8c 9s 9d qd kc"))
    assert expected_points(rules, strong, HEARTS) >= 11
    assert max(expected_points(rules, weak, s) for s in range(4)) < rules.min_bid
    auction = (PASS, *(bid_action(v) for v in range(7, 15)))
    bid = BasicPlayer(1).act(obs_for("ah kh jh 10h 5h 5d 2h 3c 4s", auction, phase=Phase.AUCTION, trump=None))
    assert verb_of(bid) == Verb.BID and arg_of(bid) >= 9
    assert BasicPlayer(1).act(obs_for("3h 4d 6s 7c 8c 9s 9d qd kc", auction, phase=Phase.AUCTION)) == PASS


def test_forced_dealer_bids_and_partner_is_not_overbid_lightly() -> None:
    forced = tuple(bid_action(v) for v in range(7, 15))
    weak = obs_for("3h 4d 6s 7c 8c 9s 9d qd kc", forced, phase=Phase.AUCTION, trump=None, dealer=0)
    assert BasicPlayer(1).act(weak) == bid_action(7)
    legal = (PASS, *(bid_action(v) for v in range(9, 15)))
    calls = ((1, PASS), (2, bid_action(8)), (3, PASS))
    fair = obs_for("ah 9h 5h 3c 4s 6d 7d 8c 2s", legal, phase=Phase.AUCTION, trump=None, calls=calls)
    assert BasicPlayer(1).act(fair) == PASS


def test_names_the_strongest_suit() -> None:
    legal = tuple(trump_action(s) for s in range(4))
    obs = obs_for("ad kd jd 5d 2d 3c 4s 6h 7h", legal, phase=Phase.TRUMP, trump=None)
    assert chosen(obs) == "trump D"


def test_observation_helper_matches_the_engine_fields() -> None:
    """Guard for the hand-built observations above: the engine's own observation has the same fields."""
    state = GameState(VARIANTS["cinch"], seed=1)
    real = state.observation(state.current_player)
    built = obs_for("ah", plays("ah"))
    assert set(vars(real)) == set(vars(built))
    assert replace(built, seat=1).seat == 1


def test_a_hands_estimate_counts_its_trumps_only() -> None:
    """The estimate is cached by trump holding (bidding asks it a million times a game), which is
    right only because the cards outside the trump suit do not change it."""
    rules = VARIANTS["cinch"]
    trumps = "ah jh 5h 2h"
    first = mask_of(parse_cards(f"{trumps} 3c 4s 9d qd kc"))
    second = mask_of(parse_cards(f"{trumps} ac as ad 10c 10s"))
    assert expected_points(rules, first, HEARTS) == expected_points(rules, second, HEARTS)
    fewer = mask_of(parse_cards("ah jh 2h 3h 3c 4s 9d qd kc"))  # the pedro of hearts swapped for the three
    assert expected_points(rules, fewer, HEARTS) < expected_points(rules, first, HEARTS)


def test_a_house_rules_estimate_is_its_own_not_the_catalog_variants() -> None:
    """Estimates are cached per what they read of the rules: a house rule that changes what a hand
    is worth (no partnerships: the points a hand lacks are not shared with a partner) gets its own
    values, asked in turn with the catalog variant's; rulesets that agree share them, and the
    cache stays bounded however many rulesets a server makes."""
    hand = mask_of(parse_cards("ah kh jh 10h 5h 5d 2h 3c 4s"))
    partners = make_ruleset("pitch_fives")
    alone = make_ruleset("pitch_fives", {"partnerships": False})
    with_partner = [expected_points(partners, hand, s) for s in range(4)]
    on_its_own = [expected_points(alone, hand, s) for s in range(4)]
    assert on_its_own[0] < with_partner[0]  # spades: none held, the partner's share is gone
    assert [expected_points(partners, hand, s) for s in range(4)] == with_partner
    for _ in range(3 * hs._KEPT):  # a server makes a ruleset per game with house rules
        again = make_ruleset("pitch_fives", {"partnerships": False, "target": 21})
        assert again is not alone and expected_points(again, hand, 0) == on_its_own[0]
        assert all(a is b for a, b in zip(hs._suit_values(again), hs._suit_values(alone), strict=True))
    assert len(hs._BY_RULES) <= hs._KEPT and len(hs._SHARED) <= hs._KEPT
