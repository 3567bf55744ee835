"""docs/rules.md §cases-scoring, §cases-game-end and §cases-options-and-the-low.

Seats: N=0, E=1, S=2, W=3; N-S are side 0, E-W side 1 (individual games:
one side per seat). Whole hands are scripted trick by trick where the case
is about the flow of a game; the scoring rule hooks (``score_hand``,
``decide_winner``) are also checked directly with the exact numbers of the
cases.
"""

from __future__ import annotations

import pytest
from tests.helpers import (
    EW,
    NS,
    SEATS,
    E,
    N,
    S,
    W,
    act,
    acts,
    c,
    card_set,
    choice,
    deal_state,
    first_legal_play_out,
    hand_of,
    is_legal,
    legal_bids,
    legal_cards,
    name_trump,
    names,
    play_ready,
    play_trick,
    play_tricks,
    result_trick_points,
    rotate,
    rules,
    suit,
    tables,
    trick_points,
    turn,
)

from pedro.engine.actions import Verb
from pedro.engine.phases import Phase
from pedro.engine.scoring import Contract, decide_winner, score_hand
from pedro.engine.state import GameState
from pedro.variants.model import Ruleset


def bid(seat: int, value: int, verb: Verb = Verb.BID) -> Contract:
    return Contract(seat, value, verb)


def no_taken(r: Ruleset) -> list[list[tuple[str, int]]]:
    return [[] for _ in range(r.num_sides)]


def hand_end(
    r: Ruleset, before: list[int], contract: Contract, points: list[int], bgo: bool = False
) -> tuple[list[int], int | None, bool]:
    """Score a hand and decide the game with the rule hooks: (scores after, winner, next hand BGO)."""
    change, made = score_hand(r, contract, points)
    after = [a + b for a, b in zip(before, change, strict=True)]
    winner, force = decide_winner(r, before, after, contract, made, bgo, no_taken(r))
    return after, winner, force


# ---------------------------------------------------------------- scripted whole hands

#: A cinch hand (trump ♥, dealer S, N bids) in which N-S take 7 and E-W 7 (5H, A and the Low held by E).
CINCH_7_7_HANDS = {
    N: "5D 9H 2S 3S 4S 2C",
    S: "KH QH JH TH 8H 9C",
    E: "AH 2H 7H 6H 5S 3C",
    W: "5H 4H 3H 6S 7S 4C",
}
CINCH_7_7_TRICKS = (
    "N 5D, E 2H, S KH, W 3H",
    "S JH, W 4H, N 9H, E 6H",
    "S 8H, W 5H, N 2S, E AH",
    "E 7H, S TH, W 6S, N 3S",
    "S QH, W 7S, N 4S, E 5S",
    "S 9C, W 4C, N 2C, E 3C",
)


def cinch_7_7(r: Ruleset, bid_value: int, scores: list[int] | None = None) -> GameState:
    """Play the scripted cinch hand with N bidding ``bid_value`` (from ``scores``); the state after it."""
    calls = f"W pass, N bid {bid_value}, E pass, S pass"
    state = play_ready(r, S, "H", calls, CINCH_7_7_HANDS, scores=scores)
    play_tricks(state, CINCH_7_7_TRICKS)
    return state


#: A king pedro hand (trump ♥, dealer S, N bids): N-S take 31 (the king 30 and the Low), E-W 13.
KING_31_13_HANDS = {
    N: "KH QH 4H 3H 2H 2C",
    E: "AH JH TH 5H 5D 9H",
    S: "8H 7H 2S 3S 4S 6S",
    W: "6H 2D 3D 4D 6D 7D",
}
KING_31_13_TRICKS = (
    "N KH, E 9H, S 8H, W 6H",
    "N QH, E AH, S 7H",
    "E JH, N 4H",
    "E TH, N 3H",
    "E 5H, N 2H",
    "E 5D",
)


def king_31_13(bid_value: int, scores: list[int], by: int = 0) -> GameState:
    """The scripted king pedro hand from ``scores``; ``by`` rotates every seat clockwise."""
    r = rules("king_pedro")
    hands = {(s + by) % 4: h for s, h in KING_31_13_HANDS.items()}
    dealer = (S + by) % 4
    calls = rotate(f"W pass, N bid {bid_value}, E pass, S pass", by)
    state = play_ready(r, dealer, "H", calls, hands, scores=scores)
    play_tricks(state, [rotate(t, by) for t in KING_31_13_TRICKS])
    return state


def test_scripted_hands_score_as_designed() -> None:
    state = cinch_7_7(rules("cinch"), 7)
    assert state.results[0].points == (7, 7) and state.results[0].made
    state = king_31_13(30, [0, 0])
    assert state.results[0].points == (31, 13)
    state = king_31_13(30, [0, 0], by=1)
    assert state.results[0].points == (13, 31)


# ---------------------------------------------------------------- §cases-scoring


def test_edge_case_64_cinch_set_bidders_lose_bid_defenders_score() -> None:
    state = cinch_7_7(rules("cinch"), 8)
    result = state.results[0]
    assert result.points == (7, 7) and result.made is False
    assert result.change == (-8, 7)
    assert state.scores == (-8, 7)
    r = rules("cinch")
    assert score_hand(r, bid(N, 8), [7, 7]) == ([-8, 7], False)


def test_edge_case_65_cinch_made_bid_scores_points_taken() -> None:
    r = rules("cinch")
    assert score_hand(r, bid(N, 9), [9, 5]) == ([9, 5], True)
    state = cinch_7_7(r, 7)
    assert state.results[0].change == (7, 7)  # made: the points taken, not the bid


def test_edge_case_66_cinch_difference_scoring() -> None:
    r = rules("cinch", scoring="difference")
    assert score_hand(r, bid(N, 7), [9, 5]) == ([4, 0], True)
    assert score_hand(r, bid(N, 7), [6, 8]) == ([0, 15], False)
    assert score_hand(r, bid(N, 7), [7, 7]) == ([0, 0], True)
    state = cinch_7_7(r, 7)
    assert state.results[0].change == (0, 0) and state.scores == (0, 0)
    state = cinch_7_7(r, 8)
    assert state.results[0].change == (0, 15)  # set: defenders score bid + their points


def test_edge_case_67_difference_made_but_defenders_took_more() -> None:
    r = rules("cinch", scoring="difference", min_bid=6)
    assert score_hand(r, bid(N, 6), [6, 8]) == ([0, 2], True)


def test_edge_case_68_cinch_slam() -> None:
    r = rules("cinch", slam=True)
    assert score_hand(r, bid(N, 14), [14, 0]) == ([28, 0], True)
    assert score_hand(r, bid(N, 14), [13, 1]) == ([-14, 1], False)
    # an ordinary bid is unaffected
    assert score_hand(r, bid(N, 13), [13, 1]) == ([13, 1], True)


def test_edge_case_69_cinch_28_56_scoring() -> None:
    r = rules("cinch", bid_28_56=True)
    call = bid(S, 15, Verb.BID_28_56)
    assert score_hand(r, call, [14, 0]) == ([56, 0], True)
    assert score_hand(r, call, [13, 1]) == ([-28, 1], False)


def test_edge_case_70_cinch_discarded_scoring_trump_to_opponents() -> None:
    r = rules("cinch", excess_trumps="must_discard_to_6", discarded_scoring_trumps="to_opponents")
    hands = {W: "AH KH QH JH TH 9H 8H 2C 3C", N: "7H 6H", E: "5H 5D", S: "4H 3H 2H"}
    state = deal_state(r, S, hands, trump=suit("H"))
    acts(state, "W bid 7, N pass, E pass, S pass")
    name_trump(state, "H")
    while not (turn(state) == "W" and state.phase == Phase.EXCHANGE):
        state.apply(state.legal_actions()[0])
    assert is_legal(state, "discard JH")  # a scoring trump may be discarded under this option
    act(state, "W discard JH")
    first_legal_play_out(state)
    points = state.results[0].points
    in_tricks = [sum(p) for p in zip(*result_trick_points(state, 0), strict=True)]
    assert [p - t for p, t in zip(points, in_tricks, strict=True)] == [1, 0]  # credited to NS
    assert sum(points) == 14


def test_edge_case_71_pidro_hole() -> None:
    assert score_hand(rules("pidro"), bid(N, 10), [9, 5]) == ([-10, 5], False)


def test_edge_case_72_pitch_fives_ace_in_stock() -> None:
    r = rules("pitch_fives")
    hands = {N: "JS TS", E: "5S", W: "2S KS QS"}
    state = play_ready(r, S, "S", "W bid 9, S pass", hands)  # N and E can only pass
    assert not any("AS" in hand_of(state, s) for s in range(4))
    first_legal_play_out(state)
    result = state.results[0]
    assert sum(result.points) == 8  # nobody scores High
    assert result.made is False  # 9 cannot be made
    assert result.change[EW] == -9


@pytest.mark.parametrize(("made_scores", "ns"), [(None, 45), ("bid", 40)])
def test_edge_case_73_canadian_scores(made_scores: str | None, ns: int) -> None:
    r = (
        rules("king_pedro_canadian")
        if made_scores is None
        else rules("king_pedro_canadian", made_scores=made_scores)
    )
    assert score_hand(r, bid(N, 40), [45, 17]) == ([ns, 17], True)
    tt = r.tables(suit("H"))
    assert (tt.points[c("KH")], tt.points[c("TH")], tt.points[c("9H")]) == (30, 10, 9)
    assert r.total_points == 62


def test_edge_case_74_sixty_three_three_of_trumps() -> None:
    r = rules("sixty_three")
    nontrumps = {S: "2D 3D 4D 6D 7D 8D", W: "2H 3H 4H 6H 7H 8H"}
    state = play_ready(r, S, "S", "W pass, N bid 30, E pass, S pass", {N: "3S", E: "4S", **nontrumps})
    assert play_trick(state, "N 3S, E 4S, S 2D, W 2H") == E
    assert trick_points(state, 0) == [0, 15]  # the 3S is worth 15 to its capturer
    tt = r.tables(suit("S"))
    assert (tt.points[c("KS")], tt.points[c("9S")], tt.points[c("3S")]) == (25, 9, 15)
    assert r.total_points == 63


def test_edge_case_75_sixty_three_joker() -> None:
    r = rules("sixty_three", joker=True)
    nontrumps = {S: "2D 3D 4D 6D 7D 8D", W: "2H 3H 4H 6H 7H 8H"}
    state = play_ready(r, S, "S", "W pass, N bid 30, E pass, S pass", {N: "JK", E: "2S", **nontrumps})
    assert play_trick(state, "N JK, E 2S, S 2D, W 2H") == E  # the joker is the lowest trump
    assert trick_points(state, 0) == [0, 16]  # joker 15 + Low 1 (capturer)
    tt = r.tables(suit("S"))
    assert tt.points[c("3S")] == 0 and tt.points[c("JK")] == 15
    assert r.total_points == 63


def test_edge_case_76_eighty_three_double_scoring() -> None:
    r = rules("eighty_three")
    call = bid(E, 84, Verb.BID_DOUBLE)
    assert score_hand(r, call, [0, 83]) == ([0, 166], True)
    assert score_hand(r, call, [10, 73]) == ([10, -166], False)


def test_edge_case_77_petro_individual_scoring() -> None:
    r = rules("petro_russian")
    # seats N, E, S, W score alone: W bid 8 and took 6
    assert score_hand(r, bid(W, 8), [3, 5, 0, 6]) == ([3, 5, 0, -8], False)


# ---------------------------------------------------------------- §cases-game-end


def test_edge_case_78_cinch_bidder_goes_out() -> None:
    state = cinch_7_7(rules("cinch"), 7, [57, 58])
    assert state.results[0].bidder_goes_out
    assert state.scores == (64, 65)
    assert state.is_over and state.winner == NS  # bid made, although EW have more
    r = rules("cinch")
    assert hand_end(r, [57, 58], bid(N, 7), [7, 7], bgo=True)[1:] == (NS, False)


def test_edge_case_79_bgo_made_bid_wins_below_target() -> None:
    r = rules("cinch", preset="cinch_min6_forced6")
    assert hand_end(r, [55, 55], bid(N, 6), [6, 8], bgo=True) == ([61, 63], NS, False)


def test_edge_case_80_bgo_set_defenders_reach_target() -> None:
    r = rules("cinch")
    assert hand_end(r, [56, 57], bid(N, 8), [6, 8], bgo=True) == ([48, 65], EW, False)


def test_edge_case_81_bgo_nobody_wins_next_not_bgo() -> None:
    r = rules("cinch")
    assert hand_end(r, [60, 55], bid(N, 9), [8, 6], bgo=True) == ([51, 61], None, False)
    # a real game: a set in a BGO hand that leaves NS below 55 makes the next hand a normal one
    state = cinch_7_7(rules("cinch", bgo_threshold=50), 8, [60, 50])  # BGO; NS set: 52 / 57
    assert state.results[0].bidder_goes_out and state.results[0].made is False
    assert state.scores == (52, 57) and not state.is_over
    assert state.hand_index == 1 and state.bidder_goes_out  # both still >= 50
    state = cinch_7_7(rules("cinch", bgo_threshold=53), 8, [60, 50])  # not BGO (EW < 53)
    assert not state.results[0].bidder_goes_out
    assert state.scores == (52, 57) and not state.bidder_goes_out  # NS 52 < 53


def test_edge_case_82_both_over_target_forces_bgo_hand() -> None:
    r = rules("cinch")
    assert hand_end(r, [54, 61], bid(N, 7), [8, 6], bgo=False) == ([62, 67], None, True)
    # the forced bidder-goes-out hand: EW bid 8 and make it -> EW win
    assert hand_end(r, [62, 67], bid(E, 8), [6, 8], bgo=True)[1] == EW
    # or NS bid 7 and take 6 -> 55 / 75 -> EW win
    assert hand_end(r, [62, 67], bid(N, 7), [6, 8], bgo=True)[:2] == ([55, 75], EW)


def test_edge_case_82_forced_bgo_carries_to_next_hand() -> None:
    """In a real game, both sides reaching 62 on a normal hand makes the next hand BGO."""
    r = rules("cinch")
    state = cinch_7_7(r, 7, [55, 54])  # not BGO (EW below 55) -> 62 / 61
    assert not state.results[0].bidder_goes_out and state.scores == (62, 61)
    assert state.is_over and state.winner == NS  # only NS reached 62
    state = cinch_7_7(rules("cinch", bgo_threshold=56), 7, [55, 55])  # not BGO -> 62 / 62
    assert not state.results[0].bidder_goes_out
    assert not state.is_over and state.bidder_goes_out  # both reached 62: the next hand is BGO


def test_edge_case_83_target_51_bidders_win_ties() -> None:
    r = rules("cinch", target=51)
    assert hand_end(r, [45, 48], bid(N, 7), [8, 6]) == ([53, 54], NS, False)
    state = cinch_7_7(r, 7, [45, 48])  # 52 / 55: both >= 51, NS bid
    assert state.is_over and state.winner == NS


def test_edge_case_84_cinch_defenders_win_outside_bgo() -> None:
    r = rules("cinch")
    assert hand_end(r, [40, 58], bid(N, 7), [3, 11]) == ([33, 69], EW, False)


def test_edge_case_85_pidro_bidders_win_when_both_reach() -> None:
    r = rules("pidro")
    assert hand_end(r, [56, 60], bid(N, 6), [6, 8]) == ([62, 68], NS, False)


def test_edge_case_86_nicaragua_defenders_reach_52() -> None:
    r = rules("nicaragua")
    assert hand_end(r, [40, 47], bid(N, 8), [7, 7]) == ([32, 54], EW, False)


def test_edge_case_87_king_pedro_defenders_cannot_win() -> None:
    state = king_31_13(30, [0, 195])  # NS make 31, EW reach 208 as defenders
    assert state.scores == (31, 208)
    assert not state.is_over
    r = rules("king_pedro")
    assert hand_end(r, [0, 195], bid(N, 30), [29, 15])[1] is None


def test_edge_case_88_king_pedro_set_above_target_continues() -> None:
    state = king_31_13(35, [240, 0])  # NS bid 35, take 31: set -> 205
    assert state.scores == (205, 13)
    assert not state.is_over


def test_edge_case_89_king_pedro_made_bid_wins() -> None:
    state = king_31_13(30, [170, 230])
    assert state.scores == (201, 243)
    assert state.is_over and state.winner == NS


def test_edge_case_90_king_pedro_target_passed_while_defending() -> None:
    state = king_31_13(30, [0, 210], by=1)  # EW bid 30 and take 31
    assert state.results[0].bidder in (E, W)
    assert state.scores == (13, 241)
    assert state.is_over and state.winner == EW
    r = rules("king_pedro")
    assert hand_end(r, [0, 210], bid(E, 30), [12, 32])[:2] == ([12, 242], EW)


def test_edge_case_91_king_pedro_minus_100_loses() -> None:
    state = king_31_13(35, [-70, 0])  # NS set: -105
    assert state.scores == (-105, 13)
    assert state.is_over and state.winner == EW  # whatever EW's score
    r = rules("king_pedro")
    assert hand_end(r, [-70, -90], bid(N, 35), [10, 34])[1] == EW


def test_edge_case_92_canadian_defenders_continue_no_minus_limit() -> None:
    r = rules("king_pedro_canadian")
    after, winner, _ = hand_end(r, [-110, 240], bid(N, 40), [30, 32])  # NS set, EW reach 272
    assert after == [-150, 272] and winner is None  # no win as defenders, no loss at -150
    assert hand_end(r, after, bid(E, 30), [20, 42])[1] == EW  # next hand EW make their bid
    r = rules("king_pedro_canadian", lose_at=-100)
    assert hand_end(r, [-110, 240], bid(N, 40), [30, 32])[1] == EW


def test_edge_case_93_pedro_sancho_count_out() -> None:
    r = rules("pedro_sancho")
    a, b, cc = 0, 1, 2
    taken: list[list[tuple[str, int]]] = [[] for _ in range(4)]
    taken[b] = [("A", 1), ("2", 1), ("9", 9)]
    taken[a] = [("J", 1), ("5", 5)]
    taken[cc] = [("T", 1)]
    before = [95, 92, 50, 50]
    points = [6, 11, 1, 0]
    change, made = score_hand(r, bid(a, 6), points)
    after = [x + y for x, y in zip(before, change, strict=True)]
    assert made and after == [101, 103, 51, 50]
    winner, _ = decide_winner(r, before, after, bid(a, 6), made, False, taken)
    assert winner == a  # A reaches 100 on the Pedro before B's Sancho is counted


def test_edge_case_94_dom_pedro_count_out() -> None:
    r = rules("dom_pedro")
    a, b, cc = 0, 1, 2
    taken: list[list[tuple[str, int]]] = [[] for _ in range(4)]
    taken[a] = [("JK", 15)]
    taken[b] = [("A", 1), ("2", 1), ("J", 1), ("3", 3)]
    taken[cc] = [("T", 1), ("5", 5), ("9", 9)]
    before = [90, 96, 50, 50]
    points = [15, 6, 15, 0]
    change, made = score_hand(r, bid(cc, 10), points)
    after = [x + y for x, y in zip(before, change, strict=True)]
    assert made and after == [105, 102, 65, 50]
    winner, _ = decide_winner(r, before, after, bid(cc, 10), made, False, taken)
    assert winner == b  # B reaches 100 with the Three, before the Snoozer is counted


def test_edge_case_95_eighty_three_bidders_priority_and_defenders_win() -> None:
    r = rules("eighty_three")
    assert hand_end(r, [180, 190], bid(N, 40), [45, 38])[1] == NS  # both pass 200: bidders
    assert hand_end(r, [100, 190], bid(N, 40), [45, 38])[1] == EW  # EW alone, as defenders


def test_edge_case_96_sixty_three_defenders_reach_152() -> None:
    r = rules("sixty_three")
    assert hand_end(r, [100, 140], bid(N, 30), [40, 23])[:2] == ([140, 163], EW)


def test_edge_case_97_pitch_fives_forced_dealer_two() -> None:
    state = deal_state(rules("pitch_fives"), S, {})
    acts(state, "W pass, N pass, E pass")
    assert legal_bids(state) == {f"bid {v}" for v in range(2, 10)}
    act(state, "S bid 2")
    assert state.contract is not None and (state.contract.bidder, state.contract.value) == (S, 2)


# ---------------------------------------------------------------- §cases-options-and-the-low


@pytest.mark.parametrize(
    ("option", "west", "legal"),
    [
        (True, "AH 2C 3C 4C 6S 7S", "AH"),
        (True, "2C 3C 4C 6S 7S 8S", None),  # no trump at all: any card
        (False, "AH 2C 3C 4C 6S 7S", None),
    ],
)
def test_edge_case_98_cinch_first_lead_trump(option: bool, west: str, legal: str | None) -> None:
    r = rules("cinch", first_lead_trump=True) if option else rules("cinch")
    state = play_ready(r, S, "H", "W bid 7, N pass, E pass, S pass", {W: west})
    assert turn(state) == "W"
    assert legal_cards(state) == card_set(legal or west)


def _claim_state() -> GameState:
    r = rules("cinch", discards_face_up=True)
    hands = {
        W: "AH KH 2S 3S 4S 6S 7S 8S 9S",
        N: "5D QH 2C 3C 4C 6C 7C 8C 9C",
        E: "JH TH 2D 3D 4D 6D 7D 8D 9D",
        S: "9H 8H TS JS QS KS AS TC JC",
    }
    state = deal_state(r, S, hands, trump=suit("H"))
    acts(state, "W bid 7, N pass, E pass, S pass")
    name_trump(state, "H")
    act(state, "W discard 2S 3S 4S 6S 7S 8S 9S")
    assert turn(state) == "N"
    act(state, "N discard 5D 2C 3C 4C 6C 7C 8C 9C")  # the 5D is thrown face up
    return state


def _until_claims(state: GameState) -> None:
    """E and S discard their non-trumps; the fills follow and the claims are offered."""
    discard_nontrumps(state, E)
    discard_nontrumps(state, S)


def test_edge_case_99_face_up_trump_claimed_by_opponents() -> None:
    state = _claim_state()
    assert "5D" in names(state.observation(S).face_up[N])
    _until_claims(state)
    assert turn(state) == "E"  # the first opponent clockwise from N's left, after the fills
    assert state.trump is not None
    nontrumps = names(state.hands[E] & ~tables(state).trump_mask)
    assert nontrumps  # the fill gave E non-trumps to give in exchange
    offers = {frozenset(state.words(a).split()) for a in state.legal_actions()}
    assert offers == {frozenset({"pass"})} | {frozenset({"claim", "5D", x}) for x in nontrumps}
    given = sorted(nontrumps)[0]
    act(state, f"E claim 5D {given}")
    assert "5D" in hand_of(state, E) and given not in hand_of(state, E)
    assert len(hand_of(state, E)) == 6  # a card for a card
    # the exchange card goes face up; here the dealer's fill, which follows at once, runs the stock
    # dry, and the discards (the exchange card with them) are gathered face down into the wash
    assert given not in names(state.observation(W).face_up[E])
    assert given not in names(state.observation(E).own_discards)  # gathered into the wash
    assert state.observation(W).wash > 0
    # S (N's partner, the dealer) is never offered the card
    while state.phase == Phase.EXCHANGE:
        assert not (
            turn(state) == "S" and any(state.words(a).startswith("claim") for a in state.legal_actions())
        )
        state.apply(state.legal_actions()[0])
    assert "5D" in hand_of(state, E)


def test_edge_case_99_second_opponent_may_claim_after_first_passes() -> None:
    state = _claim_state()
    _until_claims(state)
    act(state, "E pass")
    assert turn(state) == "W"
    assert any(state.words(a).startswith("claim 5D") for a in state.legal_actions())


def test_edge_case_100_cinch_low_to_the_side_that_held_it() -> None:
    r = rules("cinch")
    hands = {
        N: "AH KH QH 2D 3D 4D 6D 7D 8D",
        W: "JH TH 9H 3H 2C 3C 4C 6C 7C",
        E: "8H 8C 9C TC JC QC KC AC 9D",
        S: "7H 6H 5H 5D 4H TD JD QD KD",
    }
    stock = "2S 3S 4S 6S 7S 8S 2H 9S TS JS"  # W 2, N 3, then E 5 cards: 2H among them
    state = deal_state(r, S, hands, stock=stock)
    acts(state, "W pass, N bid 7, E pass, S pass")
    name_trump(state, "H")
    while state.phase == Phase.EXCHANGE:
        state.apply(state.legal_actions()[0])
    assert "2H" in hand_of(state, E)  # E received it in the fill
    act(state, "N play AH")
    act(state, "E play 2H")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.observation(0).tricks[0].winner == N
    assert trick_points(state, 0) == [1, 1]  # N-S the ace, E-W the Low (E held it)


def discard_nontrumps(state: GameState, seat: int) -> None:
    """``seat`` discards every non-trump (it must be his turn)."""
    assert turn(state) == SEATS[seat] and state.trump is not None
    act(state, f"{SEATS[seat]} discard " + " ".join(names(state.hands[seat] & ~tables(state).trump_mask)))


@pytest.mark.parametrize("options", [{"dealer_robs_discards": True}, {"discards_face_up": True}])
def test_edge_case_101_discarding_trumps_still_discards_every_nontrump(options: dict[str, object]) -> None:
    state = deal_state(rules("cinch", **options), S, {W: "9H 5D"}, trump=suit("H"))
    acts(state, "W pass, N pass, E pass, S bid 7")
    name_trump(state, "H")
    assert turn(state) == "W"
    assert not is_legal(state, "pass")  # W holds non-trumps: he must discard them all
    assert not is_legal(state, "discard 5D")


def until_keep(state: GameState) -> None:
    """First legal actions until the dealer's choice of cards to keep."""
    while not (state.phase == Phase.EXCHANGE and choice_verb(state) == Verb.KEEP):
        state.apply(state.legal_actions()[0])


def choice_verb(state: GameState) -> Verb | None:
    legal = state.legal()
    return None if isinstance(legal, tuple) else legal.verb


def test_edge_case_101_dealer_robs_discards() -> None:
    hands = {W: "9H 5D", N: "AH KH 6H 5H", E: "QH JH 4H 3H", S: "TH 8H 7H 2H"}
    r = rules("cinch", dealer_robs_discards=True)
    state = deal_state(r, S, hands, trump=suit("H"))
    acts(state, "W pass, N pass, E pass, S bid 7")
    name_trump(state, "H")
    west_junk = " ".join(sorted(hand_of(state, W) - {"9H", "5D"}))
    act(state, f"W discard 5D {west_junk}")  # W throws away a trump
    for seat in (N, E, S):
        discard_nontrumps(state, seat)
    until_keep(state)
    assert turn(state) == "S"
    pick = choice(state)
    assert names(pick.pool) == {"5D"}  # the dealer may take the trump from W's discards
    assert is_legal(state, "pass")  # or leave it
    act(state, "S keep 5D")
    stock = choice(state)  # then non-trumps from the stock, only to make six
    assert stock.sizes == (1,) and "5D" not in names(stock.pool)
    act(state, f"S keep {sorted(names(stock.pool))[0]}")
    assert "5D" in hand_of(state, S) and len(hand_of(state, S)) == 6
    # without the option: W keeps his trumps and the dealer searches only the stock
    state = deal_state(rules("cinch"), S, hands, trump=suit("H"))
    acts(state, "W pass, N pass, E pass, S bid 7")
    name_trump(state, "H")
    until_keep(state)
    assert turn(state) == "S"
    assert "5D" in hand_of(state, W)
    discards = set().union(*(names(state.observation(s).own_discards) for s in (W, N, E)))
    assert not names(choice(state).pool) & discards


def test_helpers_game_state_sanity() -> None:
    """The seat letters used throughout match the engine's sides."""
    r = rules("cinch")
    assert [r.side_of(s) for s in (N, E, S, W)] == [NS, EW, NS, EW]
    assert SEATS == "NESW"
