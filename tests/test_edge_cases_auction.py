"""docs/rules.md §cases-auction, driven through real games.

Seats: N=0, E=1, S=2, W=3. With dealer S the auction order is W, N, E, S.
"""

from __future__ import annotations

import pytest
from tests.helpers import (
    SEATS,
    E,
    N,
    S,
    W,
    act,
    action,
    acts,
    deal_state,
    is_legal,
    legal_bids,
    legal_words,
    rules,
    suit,
    turn,
)

from pedro.engine.actions import Verb
from pedro.engine.phases import Phase
from pedro.engine.state import IllegalActionError


def bids(low: int, high: int) -> set[str]:
    return {f"bid {v}" for v in range(low, high + 1)}


def contract(state: object) -> tuple[str, int, Verb]:
    """(bidder letter, value, verb) of the hand's contract."""
    c = state.contract  # type: ignore[attr-defined]
    assert c is not None, "no contract"
    return SEATS[c.bidder], c.value, c.verb


def test_edge_case_23_cinch_forced_dealer() -> None:
    state = deal_state(rules("cinch"), S, {})
    acts(state, "W pass, N pass, E pass")
    assert turn(state) == "S"
    assert legal_bids(state) == bids(7, 14)
    with pytest.raises(IllegalActionError):
        state.apply(action(state, "pass"))
    assert turn(state) == "S" and state.phase == Phase.AUCTION
    act(state, "S bid 8")  # he may bid more than the forced 7 (note G3)
    assert contract(state) == ("S", 8, Verb.BID)


def test_edge_case_23_cinch_forced_dealer_takes_seven() -> None:
    state = deal_state(rules("cinch"), S, {})
    acts(state, "W pass, N pass, E pass, S bid 7")
    assert contract(state) == ("S", 7, Verb.BID)
    assert state.phase == Phase.TRUMP and turn(state) == "S"


def test_edge_case_24_cinch_no_equal_bids() -> None:
    state = deal_state(rules("cinch"), S, {})
    acts(state, "W bid 8, N pass, E pass")
    assert legal_bids(state) == {"pass"} | bids(9, 14)
    assert not is_legal(state, "bid 8")
    act(state, "S pass")
    assert contract(state) == ("W", 8, Verb.BID)


def test_edge_case_25_min6_forced7() -> None:
    r = rules("cinch", preset="cinch_min6_forced7")
    state = deal_state(r, S, {})
    assert "bid 6" in legal_bids(state)
    acts(state, "W bid 6, N pass, E pass, S pass")
    assert contract(state) == ("W", 6, Verb.BID)
    state = deal_state(r, S, {})
    acts(state, "W pass, N pass, E pass")
    assert legal_bids(state) == bids(7, 14)


def test_edge_case_26_nicaragua_forced_six_below_minimum() -> None:
    r = rules("nicaragua")
    state = deal_state(r, S, {})
    assert "bid 6" not in legal_bids(state)  # W may not open at 6
    acts(state, "W pass, N pass, E pass")
    assert legal_bids(state) == {"bid 6"} | bids(7, 14)
    act(state, "S bid 6")
    assert contract(state) == ("S", 6, Verb.BID)


def test_edge_case_27_pidro_fourteen_over_fourteen() -> None:
    state = deal_state(rules("pidro"), S, {})
    acts(state, "W bid 14, N pass")
    assert legal_bids(state) == {"pass", "bid 14"}
    acts(state, "E bid 14")
    assert legal_bids(state) == {"pass", "bid 14"}
    act(state, "S bid 14")
    assert contract(state) == ("S", 14, Verb.BID)


def test_edge_case_27_pidro_earlier_fourteen_stands_if_not_retaken() -> None:
    state = deal_state(rules("pidro"), S, {})
    acts(state, "W bid 14, N pass, E bid 14, S pass")
    assert contract(state) == ("E", 14, Verb.BID)


def test_edge_case_28_pidro_forced_six() -> None:
    state = deal_state(rules("pidro"), S, {})
    acts(state, "W pass, N pass, E pass")
    assert legal_bids(state) == bids(6, 14)
    act(state, "S bid 6")
    assert contract(state) == ("S", 6, Verb.BID)


def test_edge_case_29_pitch_fives_dealer_steal() -> None:
    r = rules("pitch_fives")
    state = deal_state(r, S, {})
    acts(state, "W bid 4, N pass")
    assert not is_legal(state, "bid 4")  # only the dealer may equal
    acts(state, "E pass")
    assert legal_bids(state) == {"pass"} | bids(4, 9)
    act(state, "S bid 4")
    assert contract(state) == ("S", 4, Verb.BID)
    state = deal_state(r, S, {})
    acts(state, "W bid 4, N pass, E bid 5")
    assert legal_bids(state) == {"pass"} | bids(5, 9)
    act(state, "S bid 5")
    assert contract(state) == ("S", 5, Verb.BID)


def test_edge_case_30_pedro_sancho_dealer_equal_only() -> None:
    state = deal_state(rules("pedro_sancho"), S, {})
    acts(state, "W bid 5, N pass")
    assert not is_legal(state, "bid 5")
    assert legal_bids(state) == {"pass"} | bids(6, 18)
    acts(state, "E bid 7")
    assert "bid 7" in legal_bids(state)
    act(state, "S bid 7")
    assert contract(state) == ("S", 7, Verb.BID)


def test_edge_case_31_piedro_protect() -> None:
    r = rules("piedro_jokers")
    state = deal_state(r, S, {})
    act(state, "W pass")
    assert "protect" in legal_bids(state)
    act(state, "N protect")
    assert "bid 10" in legal_bids(state) and "bid 9" not in legal_bids(state)
    acts(state, "E bid 10, S bid 11")
    assert contract(state) == ("S", 11, Verb.BID)
    # nobody overbids: the protector is the bidder at 9 and names trumps
    state = deal_state(r, S, {})
    acts(state, "W pass, N protect, E pass, S pass")
    assert contract(state) == ("N", 9, Verb.PROTECT)
    assert state.phase == Phase.TRUMP and turn(state) == "N"
    # after a bid of 9 there is nothing to protect [default J4]
    state = deal_state(r, S, {})
    act(state, "W bid 9")
    assert "protect" not in legal_bids(state)
    # only the dealer's partner may protect
    state = deal_state(r, S, {})
    assert "protect" not in legal_bids(state)


def test_edge_case_31_piedro_protect_may_equal_option() -> None:
    state = deal_state(rules("piedro_jokers", protect_may_equal=True), S, {})
    act(state, "W bid 9")
    assert "protect" in legal_bids(state)
    acts(state, "N protect, E pass, S pass")
    assert contract(state) == ("N", 9, Verb.PROTECT)


def test_edge_case_32_piedro_all_pass_dealer_bids_nine() -> None:
    state = deal_state(rules("piedro_jokers"), S, {})
    acts(state, "W pass, N pass, E pass")
    assert legal_bids(state) == bids(9, 17)
    act(state, "S bid 9")
    assert contract(state) == ("S", 9, Verb.BID)
    assert state.phase == Phase.TRUMP and turn(state) == "S"


def test_edge_case_33_king_pedro_bidding_goes_round() -> None:
    state = deal_state(rules("king_pedro"), S, {})
    acts(state, "W bid 30, N bid 32, E pass, S pass")
    assert turn(state) == "W"  # the auction goes round again
    act(state, "W bid 35")
    assert turn(state) == "N"  # E and S have passed and are skipped
    act(state, "N pass")
    assert contract(state) == ("W", 35, Verb.BID)
    assert state.phase == Phase.TRUMP


def test_edge_case_34_king_pedro_all_pass_redeal_by_next_dealer() -> None:
    state = deal_state(rules("king_pedro"), S, {})
    acts(state, "W pass, N pass, E pass, S pass")
    assert state.hand_index == 1
    assert state.dealer == W  # the next dealer, left of S
    assert state.scores == (0, 0)
    assert state.results[0].bidder is None and state.results[0].change == (0, 0)
    assert state.phase == Phase.AUCTION and turn(state) == "N"


def test_edge_case_35_eighty_three_double() -> None:
    state = deal_state(rules("eighty_three"), W, {})
    act(state, "N bid 83")
    assert "bid 83-double" in legal_bids(state)
    assert "bid 83" not in legal_bids(state)
    act(state, "E bid 83-double")
    # nothing outranks the double: S, W and N can only pass, so the engine passes for them
    assert contract(state) == ("E", 84, Verb.BID_DOUBLE)
    assert [(SEATS[s], state.words(a)) for s, a in state.observation(0).calls[-3:]] == [
        ("S", "pass"),
        ("W", "pass"),
        ("N", "pass"),
    ]


def test_edge_case_36_cinch_28_56_dealer_must_name_that_suit() -> None:
    r = rules("cinch", bid_28_56=True)
    state = deal_state(r, S, {S: "AS KS 2S", W: "AC KC 2C"}, trump=suit("H"))
    assert "bid 28-56" not in legal_bids(state)  # W is not the dealer
    act(state, "W bid 14")  # N and E can only pass now: the engine passes for them
    assert turn(state) == "S"
    assert legal_bids(state) == {"pass", "bid 28-56"}
    act(state, "S bid 28-56")
    assert contract(state)[0] == "S" and contract(state)[2] == Verb.BID_28_56
    # only spades can be named, so the engine names them
    assert state.trump == suit("S")
    assert state.phase != Phase.TRUMP


def test_edge_case_36_cinch_28_56_suit_without_king_is_refused() -> None:
    r = rules("cinch", bid_28_56=True)
    state = deal_state(r, S, {S: "AS KS 2S AD KD 2D AH 2H"})
    acts(state, "W bid 14, S bid 28-56")
    assert state.phase == Phase.TRUMP
    assert legal_words(state) == {"trump S", "trump D"}
    assert not is_legal(state, "trump H")  # S lacks the K♥
    with pytest.raises(IllegalActionError):
        state.apply(action(state, "trump H"))


def test_edge_case_36_cinch_28_56_not_for_other_seats() -> None:
    r = rules("cinch", bid_28_56=True)
    state = deal_state(r, S, {W: "AS KS 2S", N: "AH KH 2H", E: "AD KD 2D", S: "3C 4C 5C"})
    for seat in (W, N, E):
        assert turn(state) == SEATS[seat]
        assert "bid 28-56" not in legal_bids(state)
        act(state, f"{SEATS[seat]} pass")
    # S holds no suit with ace, king and two: no 28-56 for him either
    assert "bid 28-56" not in legal_bids(state)
