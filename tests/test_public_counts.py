"""What the table shows people who count: cards received after the deal, the hand's breakdown,
a forced dealer's bid.

``Observation.drawn`` is the engine's count of cards each seat received after
the first deal; here it is checked against the cards themselves in random
games of every ruleset: a seat's cards at the first lead, plus what it laid
aside or gave its partner, are its first deal plus what it drew.
``HandResult.taken`` is counting's own breakdown; its points add up to each
side's points (less what was credited for trumps laid aside).
"""

from __future__ import annotations

import random

import pytest
from tests.test_properties import RULESETS, random_action

from pedro.engine.actions import PASS, bid_action
from pedro.engine.auction import forced_call
from pedro.engine.phases import Phase
from pedro.engine.state import GameState
from pedro.variants.model import POINT_NAMES
from pedro.variants.options import make_ruleset

HANDS = 4


def _given_away(state: GameState, seat: int) -> int:
    """Cards ``seat`` gave its partner this hand."""
    return sum(mask.bit_count() for r in state._received for frm, mask in r if frm == seat)


def _taken_back(state: GameState, seat: int) -> int:
    """Cards of ``seat``'s first deal that it laid aside and another seat took from its discards
    (a dealer who robs the discards), which its ``discarded`` no longer counts."""
    given = 0
    for received in state._received:
        for frm, mask in received:
            if frm == seat:
                given |= mask
    for c in state.washes[-1]:  # gathered into the wash and dealt again: counted as discarded
        given |= 1 << c
    dealt = state._dealt_hands[seat] & ~given
    return sum(
        (state._hands_at_play[other] & dealt).bit_count() for other in range(state.players) if other != seat
    )


@pytest.mark.parametrize("name", list(RULESETS))
def test_drawn_counts_the_cards_received_after_the_deal(name: str) -> None:
    rules = RULESETS[name]
    checked = 0
    for seed in (1, 2):
        state = GameState(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.hand_index < HANDS:
            first_lead = state._trick is not None and not state._trick.plays
            if state.phase == Phase.PLAY and not state._tricks and first_lead:
                obs = state.observation(0)
                # a dealer robbing discards already gathered into the wash: ``discarded`` still
                # counts them for the seat that laid them aside, so the sum does not hold
                robbed_wash = rules.dealer_robs_discards and any(state._wash_from)
                for s in range(rules.players if not robbed_wash else 0):
                    held = state._hands_at_play[s].bit_count()
                    out = obs.discarded[s] + _given_away(state, s) + _taken_back(state, s)
                    assert held + out == rules.first_deal_size + obs.drawn[s], (name, seed, s, obs)
                checked += 1
            state.apply(random_action(state, rng))
    assert checked


def test_cinch_nondealers_draw_up_to_six_and_the_dealer_robs_the_pack() -> None:
    state = GameState(make_ruleset("cinch", {}), seed=3)
    before = state.observation(0)
    assert before.drawn == (0, 0, 0, 0)
    while state.phase != Phase.PLAY:
        state.apply(random_action(state, random.Random(0)))
    obs = state.observation(0)
    for s in range(4):
        assert obs.hand_sizes[s] == 6
        assert 9 - obs.discarded[s] + obs.drawn[s] == 6
    assert obs.drawn[state.dealer] > 0


@pytest.mark.parametrize("name", ["cinch", "pidro", "king_pedro", "pitch_fives", "eighty_three", "dom_pedro"])
def test_the_breakdown_adds_up_to_the_points(name: str) -> None:
    rules = make_ruleset(name, {})
    for seed in range(3):
        state = GameState(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(state.results) < HANDS:
            state.apply(random_action(state, rng))
        for result in state.results:
            if result.bidder is None:
                assert result.taken == ()
                continue
            assert len(result.taken) == rules.num_sides
            for side in range(rules.num_sides):
                assert sum(p for _, p in result.taken[side]) <= result.points[side]
            assert result.seen.taken == result.taken
            roles = {role for side in result.taken for role, _ in side}
            assert roles <= {*POINT_NAMES, "plain"}


def test_cinch_high_is_taken_by_the_side_that_took_the_ace() -> None:
    """The breakdown is counting's: the side whose trick held the ace of trumps has High."""
    rules = make_ruleset("cinch", {})
    state = GameState(rules, seed=5)
    rng = random.Random(5)
    while not state.results:
        state.apply(random_action(state, rng))
    result = state.results[0]
    if result.bidder is None:
        pytest.skip("thrown in")
    assert result.trump is not None
    ace = result.trump * 13 + 12
    holders = [s for s in range(4) if result.play_masks[s] >> ace & 1]
    high = [side for side in range(2) if any(role == "A" for role, _ in result.taken[side])]
    if holders:
        trick = next(t for t in result.tricks if any(a & (1 << ace) for _, a in t.plays))
        assert high == [rules.side_of(trick.winner)]
    else:
        assert high == []


def test_forced_call_marks_the_dealer_bid_after_three_passes() -> None:
    rules = make_ruleset("cinch", {})
    dealer = 3
    calls = [(0, PASS), (1, PASS), (2, PASS), (3, bid_action(7))]
    assert forced_call(rules, calls, dealer) == 3
    assert forced_call(rules, [(0, PASS), (1, bid_action(7)), (2, PASS), (3, bid_action(8))], dealer) is None
    assert forced_call(rules, calls[:3], dealer) is None
    thrown = make_ruleset("cinch", {"all_pass_action": "redeal_next_dealer"})
    assert forced_call(thrown, calls, dealer) is None
