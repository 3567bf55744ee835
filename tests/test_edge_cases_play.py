"""docs/rules.md §cases-trumps-ranking-and-following and §cases-play-flow, driven through real games.

Seats: N=0, E=1, S=2, W=3; N-S are side 0, E-W side 1. Each test deals
exact hands, runs the auction and the exchange, and then checks the engine's
legal plays, trick winners and points.
"""

from __future__ import annotations

import pytest
from tests.helpers import (
    E,
    N,
    S,
    W,
    act,
    action,
    acts,
    c,
    card_set,
    hand_of,
    legal_cards,
    names,
    play_ready,
    play_trick,
    rules,
    suit,
    tables,
    trick_points,
    turn,
)

from pedro.engine.phases import Phase, Status
from pedro.engine.play import trick_winner
from pedro.engine.state import GameState, IllegalActionError

# ---------------------------------------------------------------- §cases-trumps-ranking-and-following

E_BIDS = "W pass, N pass, E bid 7, S pass"  # dealer S: E becomes the bidder and leads
W_BIDS = "W bid 7, N pass, E pass, S pass"
N_BIDS = "W pass, N bid 7, E pass, S pass"


def test_edge_case_01_left_pedro_wins_and_low_to_holder() -> None:
    state = play_ready(rules("cinch"), S, "H", E_BIDS, {E: "4H", S: "5D", W: "2H", N: "3H"})
    assert play_trick(state, "E 4H, S 5D, W 2H, N 3H") == S
    # NS capture the left pedro (5); the Low goes to EW, whose W held the 2H
    assert trick_points(state, 0) == [5, 1]


def test_edge_case_02_right_pedro_beats_left_pedro() -> None:
    state = play_ready(rules("cinch"), S, "H", N_BIDS, {N: "5D", E: "4H", S: "5H", W: "3H"})
    assert play_trick(state, "N 5D, E 4H, S 5H, W 3H") == S
    state = play_ready(rules("cinch"), S, "H", N_BIDS, {N: "5H", E: "4H", S: "5D", W: "3H"})
    assert play_trick(state, "N 5H, E 4H, S 5D, W 3H") == N


def test_edge_case_03_left_pedro_is_not_a_diamond() -> None:
    state = play_ready(rules("cinch"), S, "H", E_BIDS, {E: "KD", S: "QD", W: "JD", N: "5D 9C QS 8C 7S 6C"})
    acts(state, "E play KD, S play QD, W play JD")
    assert turn(state) == "N"
    # N holds no diamond (5D is a trump), so every card is legal
    assert legal_cards(state) == card_set("5D 9C QS 8C 7S 6C")
    act(state, "N play 5D")
    assert state.observation(0).tricks[0].winner == N  # 5D trumped the diamond lead


def test_edge_case_04_trump_lead_left_pedro() -> None:
    state = play_ready(rules("cinch"), S, "H", E_BIDS, {E: "3H", S: "6H", W: "7H", N: "5D 9C 8C 7S 6C 4S"})
    acts(state, "E play 3H, S play 6H, W play 7H")
    assert legal_cards(state) == {"5D"}
    snapshot = state.to_text()
    with pytest.raises(IllegalActionError):
        state.apply(action(state, "play 9C"))
    assert state.to_text() == snapshot


@pytest.mark.parametrize(
    ("plain_lead", "legal"),
    [(None, "KS AH"), ("must_follow", "KS"), ("any", "KS 2C AH 3D 4C 6D")],
)
def test_edge_case_05_follow_or_trump(plain_lead: str | None, legal: str) -> None:
    r = rules("cinch") if plain_lead is None else rules("cinch", plain_lead=plain_lead)
    state = play_ready(r, S, "H", E_BIDS, {E: "7S", S: "8S", W: "9S", N: "KS 2C AH 3D 4C 6D"})
    acts(state, "E play 7S, S play 8S, W play 9S")
    assert legal_cards(state) == card_set(legal)


def test_edge_case_06_no_trump_highest_of_led_suit() -> None:
    state = play_ready(rules("cinch"), S, "S", W_BIDS, {W: "9D", N: "KD", E: "AH 7C 8C 9C", S: "4C 8H 9H TH"})
    assert play_trick(state, "W 9D, N KD, E AH, S 4C") == N
    assert trick_points(state, 0) == [0, 0]


def test_edge_case_07_left_pedro_club_lead_is_a_trump() -> None:
    state = play_ready(rules("cinch"), S, "S", W_BIDS, {W: "9C", N: "5C 8H 9H 8D 9D TD", E: "AC", S: "KC"})
    act(state, "W play 9C")
    # N's only club-looking card is the 5C, a trump: N is void in clubs
    assert legal_cards(state) == card_set("5C 8H 9H 8D 9D TD")
    act(state, "N play 5C")
    act(state, "E play AC")
    act(state, "S play KC")
    assert state.observation(0).tricks[0].winner == N
    assert trick_points(state, 0) == [5, 0]


def test_edge_case_08_pitch_fives_sister_five_is_plain() -> None:
    r = rules("pitch_fives")
    state = play_ready(
        r, S, "S", "W bid 2, N pass, E pass, S pass",
        {W: "AS 7C", N: "5C 9D 8D 9H 8H 7D", E: "4S 3S 9S 8S 7S 6S", S: "8C 9C TC JC QC KC"},
    )  # fmt: skip
    act(state, "W play AS")
    # a spade (trump) lead: the 5C is not a trump, so N (no spades) may play anything
    assert legal_cards(state) == card_set("5C 9D 8D 9H 8H 7D")
    act(state, "N play 9D")
    act(state, "E play 3S")
    act(state, "S play 9C")
    assert state.observation(0).tricks[0].winner == W
    act(state, "W play 7C")
    # a club lead: the 5C is a club and must follow suit
    assert legal_cards(state) == {"5C"}
    act(state, "N play 5C")
    act(state, "E play 4S")
    act(state, "S play 8C")
    assert state.observation(0).tricks[1].winner == E  # 4S trumps the club trick
    assert trick_points(state, 1) == [0, 0]  # the 5C is worth nothing


@pytest.mark.parametrize(("north", "legal"), [("8D 5S 9H 8H 9C 8C", "8D"), ("5S 9H 8H 9C 8C 7H", None)])
def test_edge_case_09_pitch_fives_must_follow_suit(north: str, legal: str | None) -> None:
    r = rules("pitch_fives")
    state = play_ready(r, S, "S", "W bid 2, N pass, E pass, S pass", {W: "7D", N: north})
    act(state, "W play 7D")
    assert legal_cards(state) == card_set(legal or north)


def test_edge_case_10_nicaragua_must_follow_not_trump() -> None:
    state = play_ready(rules("nicaragua"), S, "S", W_BIDS, {W: "7D", N: "8D 5C AS 9H 8H 9C 8C"})
    act(state, "W play 7D")
    assert legal_cards(state) == {"8D"}


def test_edge_case_11_pedro_sancho_low_to_capturer() -> None:
    r = rules("pedro_sancho")
    state = play_ready(
        r, S, "H", "W bid 5, N pass, E pass, S pass", {W: "9H", N: "5D 9C 8C 7S 6C 4S", E: "2H", S: "3H"}
    )
    act(state, "W play 9H")
    # 5D is a plain diamond: N has no trump and may play anything
    assert legal_cards(state) == card_set("5D 9C 8C 7S 6C 4S")
    act(state, "N play 5D")
    act(state, "E play 2H")
    act(state, "S play 3H")
    assert state.observation(0).tricks[0].winner == W
    # W takes Sancho (9) and the Low (capturer); 5D scores nothing
    assert trick_points(state, 0) == [0, 0, 0, 10]


def test_edge_case_12_dom_pedro_snoozer_is_lowest_trump() -> None:
    r = rules("dom_pedro")
    state = play_ready(
        r, S, "C", "W bid 5, N pass, E pass, S pass",
        {W: "JK 9H 8H 7H 6H 4H", N: "2C 9D 8D 7D 6D 4D", E: "AH KH QH JH TH 3H", S: "AD KD QD JD TD 3D"},
    )  # fmt: skip
    assert legal_cards(state) == {"JK"}  # first lead must be a trump, and the joker is one
    act(state, "W play JK")
    assert legal_cards(state) == {"2C"}  # a trump lead must be followed with a trump
    act(state, "N play 2C")
    act(state, "E play AH")
    act(state, "S play AD")
    assert state.observation(0).tricks[0].winner == N
    assert trick_points(state, 0) == [16, 0, 0, 0]  # Snoozer 15 + Low 1 (capturer)


def test_edge_case_13_eighty_three_joker_and_low_capture() -> None:
    r = rules("eighty_three")
    calls = "W pass, N bid 30, E pass, S pass"
    state = play_ready(
        r, S, "H", calls,
        {N: "2H AH KH QH JH TH", E: "JK 9H 5H 5D 7C 8C", S: "7S 8S 9S TS JS QS", W: "7D 8D 9D TD JD QD"},
    )  # fmt: skip
    assert play_trick(state, "N 2H, E JK, S 7S, W 7D") == N
    assert trick_points(state, 0) == [16, 0]


@pytest.mark.parametrize(("low_rule", "points"), [(None, [0, 1]), ("holder", [1, 0])])
def test_edge_case_13_eighty_three_low_goes_to_capturer(low_rule: str | None, points: list[int]) -> None:
    r = rules("eighty_three") if low_rule is None else rules("eighty_three", low_rule=low_rule)
    calls = "W pass, N pass, E bid 30, S pass"
    state = play_ready(
        r, S, "H", calls,
        {E: "4H JK 9H 5H 5D 7C", N: "2H AH KH QH JH TH", S: "7S 8S 9S TS JS QS", W: "7D 8D 9D TD JD QD"},
    )  # fmt: skip
    assert play_trick(state, "E 4H, S 7S, W 7D, N 2H") == E
    assert trick_points(state, 0) == points


@pytest.mark.parametrize(
    ("plain_lead", "east_legal"), [(None, "4D KS JH 7H 8D 9D"), ("follow_or_trump_void_must_trump", "KS")]
)
def test_edge_case_14_eighty_three_void_player(plain_lead: str | None, east_legal: str) -> None:
    r = rules("eighty_three") if plain_lead is None else rules("eighty_three", plain_lead=plain_lead)
    state = play_ready(
        r,
        S,
        "S",
        "W bid 30, N pass, E pass, S pass",
        {W: "9C", N: "7C 3D QS 8H 9H TH", E: "4D KS JH 7H 8D 9D"},
    )
    act(state, "W play 9C")
    # N holds the led suit: he may follow or trump, not throw a diamond or a heart
    assert legal_cards(state) == card_set("7C QS")
    act(state, "N play 7C")
    # E is void in clubs: any card by default; under the German reading he must trump
    assert legal_cards(state) == card_set(east_legal)


def test_edge_case_15_king_pedro_leader_wins_without_trumps() -> None:
    state = play_ready(
        rules("king_pedro"), S, "H", "W bid 30, N pass, E pass, S pass",
        {W: "3S", N: "AS", E: "KC", S: "2D"},
    )  # fmt: skip
    assert play_trick(state, "W 3S, N AS, E KC, S 2D") == W


def test_edge_case_16_king_pedro_any_card_on_plain_lead() -> None:
    state = play_ready(
        rules("king_pedro"), S, "H", "W bid 30, N pass, E pass, S pass", {W: "3S", N: "8S 4C JH 9D 7C 6D"}
    )
    act(state, "W play 3S")
    assert legal_cards(state) == card_set("8S 4C JH 9D 7C 6D")


CANADIAN_17 = {
    W: "AH JH 4C 3C 8C 9C",
    N: "3H KH 9D 4H 5H 5D",
    E: "2H 6H 7H 9H TH QH",
    S: "8H 7S 6S 8S 9S TS",
}


def test_edge_case_17_canadian_nontrump_if_able() -> None:
    state = play_ready(rules("king_pedro_canadian"), S, "H", "W bid 30, N pass, E pass, S pass", CANADIAN_17)
    assert play_trick(state, "W AH, N 3H, E 6H, S 8H") == W
    act(state, "W play 4C")
    assert legal_cards(state) == {"9D"}  # a non-trump of any suit; K♥ may not be played
    act(state, "N play 9D")
    assert legal_cards(state) == card_set("2H 7H 9H TH QH")  # E holds only trumps
    act(state, "E play 2H")
    act(state, "S play 7S")
    assert state.observation(0).tricks[1].winner == E  # the only trump wins
    assert trick_points(state, 1) == [0, 1]


def test_edge_case_18_canadian_leader_wins_without_trumps() -> None:
    hands = {W: "AH KH 3C 8C 9C JC", N: "3H 4H 5H 6H 7H AC", E: "8H 9H TH JH QH TD", S: "2H 5D 5S 7S 8S 9S"}
    state = play_ready(rules("king_pedro_canadian"), S, "H", "W bid 30, N pass, E pass, S pass", hands)
    assert play_trick(state, "W AH, N 3H, E 8H, S 2H") == W
    assert play_trick(state, "W 3C, N AC, E TD, S 5S") == W


def test_edge_case_19_piedro_off_jack_and_jokers_ranking() -> None:
    r = rules("piedro_jokers")
    tt = r.tables(suit("S"))
    order = [
        c(x)
        for x in [
            "AS",
            "KS",
            "QS",
            "JS",
            "JC",
            "BJ",
            "SJ",
            "TS",
            "9S",
            "8S",
            "7S",
            "6S",
            "5S",
            "5C",
            "4S",
            "3S",
            "2S",
        ]
    ]
    strengths = [tt.strength[x] for x in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(order)
    calls = "W pass, N bid 10, E pass, S pass"
    state = play_ready(r, S, "S", calls, {N: "BJ", E: "JC", S: "2S", W: "3S"})
    assert play_trick(state, "N BJ, E JC, S 2S, W 3S") == E
    state = play_ready(r, S, "S", calls, {N: "JC", E: "JS", S: "2S", W: "3S"})
    assert play_trick(state, "N JC, E JS, S 2S, W 3S") == E


def test_edge_case_20_piedro_off_jack_is_a_trump() -> None:
    r = rules("piedro_jokers")
    state = play_ready(r, S, "S", "W bid 10, N pass, E pass, S pass", {W: "7C", N: "JC", E: "AC", S: "9D"})
    assert play_trick(state, "W 7C, N JC, E AC, S 9D") == N
    assert trick_points(state, 0) == [1, 0]
    # without the off-jack, the leader would have won the trick
    tt = r.tables(suit("S"))
    assert trick_winner(r, tt, W, [(W, c("7C")), (E, c("AC")), (S, c("9D"))]) == W


def test_edge_case_21_piedro_play_returns_to_the_starter() -> None:
    state = play_ready(
        rules("piedro_jokers"), S, "H", "W bid 10, N pass, E pass, S pass",
        {W: "7D", N: "AD", E: "KD", S: "2C"},
    )  # fmt: skip
    assert play_trick(state, "W 7D, N AD, E KD, S 2C") == W


@pytest.mark.parametrize(("fives_rank", "first_winner"), [(None, N), ("standard", E)])
def test_edge_case_22_petro_fives_on_top(fives_rank: str | None, first_winner: int) -> None:
    r = rules("petro_russian") if fives_rank is None else rules("petro_russian", fives_rank=fives_rank)
    calls = "W pass, N bid 7, E pass, S pass"
    state = play_ready(r, S, "D", calls, {N: "5H", E: "AD", S: "2D", W: "3D"})
    assert play_trick(state, "N 5H, E AD, S 2D, W 3D") == first_winner
    state = play_ready(r, S, "D", calls, {N: "5H", E: "5D", S: "2D", W: "3D"})
    assert play_trick(state, "N 5H, E 5D, S 2D, W 3D") == E


# ---------------------------------------------------------------- §cases-play-flow


@pytest.mark.parametrize("east_has_trump", [True, False])
def test_edge_case_55_pidro_lead_after_last_trump(east_has_trump: bool) -> None:
    if east_has_trump:
        hands = {N: "AH KH QH", E: "2H 3H 4H 6H", S: "JH TH 9H", W: "8H 7H 5H 5D"}
    else:
        hands = {N: "AH KH QH", E: "2H 3H 4H", S: "JH TH 9H 6H", W: "8H 7H 5H 5D"}
    state = play_ready(rules("pidro"), S, "H", N_BIDS.replace("bid 7", "bid 6"), hands)
    play_trick(state, "N AH, E 2H, S 9H, W 7H")
    play_trick(state, "N KH, E 3H, S TH, W 8H")
    assert play_trick(state, "N QH, E 4H, S JH, W 5D") == N  # N's last trump
    if east_has_trump:
        assert turn(state) == "E"
        assert state.observation(0).statuses[E] == Status.ACTIVE
    else:
        assert state.observation(0).statuses[E] == Status.COLD
        assert turn(state) == "S"
    assert state.observation(0).statuses[N] == Status.COLD  # his turn to lead came and he had no trump


def test_edge_case_56_pidro_goes_cold_only_on_turn() -> None:
    hands = {N: "AH KH QH JH 5H 5D", E: "2H 3H 4H", S: "TH 9H 8H", W: "7H 6H"}
    state = play_ready(rules("pidro"), S, "H", "W pass, N bid 6, E pass, S pass", hands)
    play_trick(state, "N AH, E 2H, S 8H, W 6H")
    play_trick(state, "N KH, E 3H, S 9H, W 7H")
    # W is out of trumps but does not lay his hand down before his turn
    assert state.observation(0).statuses[W] == Status.ACTIVE and not state.observation(0).shown[W]
    assert not state.observation(N).shown[W]
    act(state, "N play QH")
    act(state, "E play 4H")
    assert state.observation(0).statuses[W] == Status.ACTIVE
    act(state, "S play TH")
    assert state.observation(0).statuses[W] == Status.COLD
    assert names(state.observation(N).shown[W]) == hand_of(state, W)
    assert [s for s, _ in state.observation(0).tricks[2].plays] == [N, E, S]


def test_edge_case_57_pidro_remaining_points_to_the_side_with_trumps() -> None:
    hands = {
        E: "AH 3H 8H",
        W: "6H 5D",
        N: "TH 9H 7H 5H 2H",
        S: "KH QH JH 4H",
    }
    state = play_ready(rules("pidro"), S, "H", "W pass, N bid 6, E pass, S pass", hands)
    play_trick(state, "N 7H, E AH, S KH, W 6H")
    play_trick(state, "E 3H, S 4H, W 5D, N 9H")
    assert play_trick(state, "N TH, E 8H, S QH") == S
    # E and W are out of trumps; N holds 5H 2H, S holds JH
    assert hand_of(state, S) & card_set("JH 5H 2H") == {"JH"}
    assert {"5H", "2H"} <= hand_of(state, N)
    hand = state.hand_index
    while state.hand_index == hand:
        state.apply(state.legal_actions()[0])
    result = state.results[hand]
    later = result.tricks[3:]
    assert later and all(t.winner in (N, S) for t in later)
    assert all(s in (N, S) for t in later for s, _ in t.plays)
    # 5 (5D) + 1 (ten) before, then 5 + 1 (J) + 1 (Low) for NS; EW only the ace
    assert result.points == (13, 1)


def test_edge_case_58_pidro_trumpless_bidder_goes_cold() -> None:
    hands = {W: "8C 9C TC JC QC KC"}
    state = play_ready(rules("pidro"), S, "H", "W bid 6, N pass, E pass, S pass", hands)
    assert state.observation(0).statuses[W] == Status.COLD
    assert turn(state) == "N"
    assert state.observation(0).trick is not None and state.observation(0).trick.leader == N
    trumps = tables(state).trump_mask
    assert legal_cards(state) == names(state.hands[N] & trumps)


def test_edge_case_59_king_pedro_up_after_last_trump() -> None:
    hands = {N: "AH KH", E: "2H 6H 9H TH", S: "3H 7H JH QH", W: "4H 8H 5H 5D"}
    state = play_ready(rules("king_pedro"), S, "H", "W pass, N bid 30, E pass, S pass", hands)
    play_trick(state, "N AH, E 2H, S 3H, W 4H")
    assert play_trick(state, "N KH, E 6H, S 7H, W 8H") == N
    assert state.observation(0).statuses[N] == Status.UP
    # he lays down his non-trumps, which everyone sees
    assert names(state.observation(E).shown[N]) == names(state.hands[N])
    assert not state.hands[N] & tables(state).trump_mask
    assert turn(state) == "E"
    hand = state.hand_index
    while state.hand_index == hand:
        state.apply(state.legal_actions()[0])
    later = state.results[hand].tricks[2:]
    assert later and all(len(t.plays) <= 3 and N not in [s for s, _ in t.plays] for t in later)


def test_edge_case_60_king_pedro_up_before_first_trick() -> None:
    hands = {S: "2C 3C 4C 2D 3D 4D"}
    state = play_ready(rules("king_pedro"), S, "H", "W pass, N bid 30, E pass, S pass", hands)
    assert state.observation(0).statuses[S] == Status.UP
    hand = state.hand_index
    while state.hand_index == hand:
        state.apply(state.legal_actions()[0])
    tricks = state.results[hand].tricks
    assert tricks and all(S not in [s for s, _ in t.plays] for t in tricks)


def test_edge_case_61_piedro_out_on_trump_lead() -> None:
    # 17 trumps among W, N and S: E has none
    hands = {W: "6H", S: "AH 9C", E: "2C 3C 4C 2D 3D 4D"}
    state = play_ready(rules("piedro_jokers"), S, "H", "W bid 10, N pass, E pass, S pass", hands)
    act(state, "W play 6H")
    state.apply(state.legal_actions()[0])  # N follows with a trump
    assert state.observation(0).statuses[E] == Status.OUT
    assert turn(state) == "S"
    act(state, "S play AH")
    assert [s for s, _ in state.observation(0).tricks[0].plays] == [W, N, S]
    act(state, "S play 9C")  # a plain lead: E stays out
    assert turn(state) == "W"
    act(state, f"W play {sorted(hand_of(state, W))[0]}")
    act(state, f"N play {sorted(hand_of(state, N))[0]}")
    assert [s for s, _ in state.observation(0).tricks[1].plays] == [S, W, N]
    hand = state.hand_index
    while state.hand_index == hand:
        state.apply(state.legal_actions()[0])
    assert all(E not in [s for s, _ in t.plays] for t in state.results[hand].tricks)


def test_edge_case_62_canadian_first_lead_trump() -> None:
    r = rules("king_pedro_canadian")
    hands = {W: "AH 5H 3C 8C 9C JC"}
    state = play_ready(r, S, "H", "W bid 30, N pass, E pass, S pass", hands)
    assert legal_cards(state) == {"AH", "5H"}
    state.apply(action(state, "play AH"))
    while not state.observation(0).tricks:
        state.apply(state.legal_actions()[0])
    assert state.observation(0).tricks[0].winner == W
    assert legal_cards(state) == hand_of(state, W)  # trick 2: anything


def test_edge_case_62_canadian_folded_bidder_next_leads_trump() -> None:
    r = rules("king_pedro_canadian")
    hands = {W: "", N: "AH KH 3C 8C 9C JC"}
    state = play_ready(r, S, "H", "W bid 30, N pass, E pass, S pass", hands)
    assert state.observation(0).statuses[W] == Status.FOLDED
    assert turn(state) == "N"
    assert legal_cards(state) == {"AH", "KH"}


@pytest.mark.parametrize(("west", "legal"), [("9H 4H 8C 9C TC JC", "9H 4H"), ("8C 9C TC JC QC KC", None)])
def test_edge_case_63_pedro_sancho_bidder_leads_trump(west: str, legal: str | None) -> None:
    r = rules("pedro_sancho")
    state = play_ready(r, S, "H", "W bid 5, N pass, E pass, S pass", {W: west})
    assert turn(state) == "W"
    assert legal_cards(state) == card_set(legal or west)


def test_play_ready_sets_up_real_hands() -> None:
    """The helper reaches the play phase with the exact hands (guards the other tests)."""
    state = play_ready(rules("cinch"), S, "H", E_BIDS, {E: "4H 2C 2D 2S 3D 3S"})
    assert state.phase == Phase.PLAY
    assert hand_of(state, E) == card_set("4H 2C 2D 2S 3D 3S")
    assert state.contract is not None and state.contract.bidder == E
    # the other seats got what the exchange gave them: 6 cards, all 14 trumps in the hands
    assert all(len(hand_of(state, s)) == 6 for s in range(4))
    assert sum(len(hand_of(state, s) & trumps_of(state)) for s in range(4)) == 14


def trumps_of(state: GameState) -> set[str]:
    return names(tables(state).trump_mask)
