"""docs/rules.md §cases-exchange (discards, fills, kitty, excess trumps, folding), through real games.

Seats: N=0, E=1, S=2, W=3; N-S are side 0, E-W side 1.
"""

from __future__ import annotations

import pytest
from tests.helpers import (
    EW,
    SEATS,
    E,
    N,
    S,
    W,
    act,
    action,
    acts,
    card_set,
    choice,
    deal_state,
    first_legal_play_out,
    hand_of,
    is_legal,
    legal_words,
    name_trump,
    names,
    play_ready,
    result_trick_points,
    rules,
    suit,
    tables,
    turn,
)

from pedro.cards import mask_of
from pedro.engine.actions import Verb, play_mask
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState, IllegalActionError


def to_play(state: GameState) -> None:
    """Take the first legal action until the card play starts."""
    while state.phase == Phase.EXCHANGE:
        state.apply(state.legal_actions()[0])
    assert state.phase == Phase.PLAY


def stack_sizes(state: GameState) -> set[int]:
    return {play_mask(a).bit_count() for a in state.legal_actions()}


# ---------------------------------------------------------------- cinch: keep and bury, robbing, shortage


def test_edge_case_37_cinch_seven_trumps_no_fill_two_cards_to_trick_one() -> None:
    r = rules("cinch")
    hands = {W: "AH KH QH JH TH 9H 8H 2C 3C", N: "5H 5D", E: "7H 6H", S: "4H 3H 2H"}
    state = deal_state(r, S, hands, trump=suit("H"))
    acts(state, "W bid 7, N pass, E pass, S pass")
    name_trump(state, "H")
    to_play(state)
    assert hand_of(state, W) == card_set("AH KH QH JH TH 9H 8H")  # no fill card
    assert turn(state) == "W"
    assert stack_sizes(state) == {2}
    assert not is_legal(state, "play AH")
    assert is_legal(state, "play AH KH")
    assert not is_legal(state, "play AH JH")  # a scoring trump may not be buried
    act(state, "W play AH KH")
    assert len(hand_of(state, W)) == 5


def test_edge_case_38_cinch_dealer_must_take_all_stock_trumps() -> None:
    r = rules("cinch")
    hands = {S: "AH KH QH JH TH", W: "6H 5H", N: "5D 4H", E: "3H 2H"}
    state = deal_state(r, S, hands, trump=suit("H"))  # 9H 8H 7H end at the bottom of the stock
    acts(state, "W pass, N pass, E pass, S bid 7")
    name_trump(state, "H")
    to_play(state)
    assert hand_of(state, S) == card_set("AH KH QH JH TH 9H 8H 7H")
    assert stack_sizes(state) == {3}  # 8 cards: three to trick 1


CASE_39 = "AH KH QH 9H 8H 7H 5D 3H"


def _case_39(dealer_hand_at: int) -> GameState:
    r = rules("cinch")
    others = [s for s in (W, N, E, S) if s != dealer_hand_at]
    rest = ["JH TH", "6H 5H", "4H 2H"]
    hands = {dealer_hand_at: CASE_39 + " 2C", **dict(zip(others, rest, strict=True))}
    state = deal_state(r, S, hands, trump=suit("H"))
    calls = {S: "W pass, N pass, E pass, S bid 7", W: "W bid 7, N pass, E pass, S pass"}[dealer_hand_at]
    acts(state, calls)
    name_trump(state, "H")
    to_play(state)
    return state


def _check_case_39_burying(state: GameState, seat: int) -> None:
    assert hand_of(state, seat) == card_set(CASE_39)
    assert turn(state) == SEATS[seat]
    assert stack_sizes(state) == {3}
    assert is_legal(state, "play KH QH 3H")
    assert is_legal(state, "play AH QH 3H")  # the ace on top is fine
    assert not is_legal(state, "play KH AH 3H")  # burying A♥ is illegal
    assert not is_legal(state, "play KH 5D 3H")  # burying 5♦ is illegal
    act(state, f"{SEATS[seat]} play KH QH 3H")
    assert len(hand_of(state, seat)) == 5


def test_edge_case_39_cinch_dealer_buries_nonscoring_trumps() -> None:
    _check_case_39_burying(_case_39(S), S)


def test_edge_case_39_cinch_burying_rule_non_dealer() -> None:
    """Case 39's stack played by a non-dealer (W), who is filled rather than robbing the stock."""
    _check_case_39_burying(_case_39(W), W)


def test_edge_case_40_cinch_stock_shortage_filled_from_discards() -> None:
    r = rules("cinch")
    hands = {
        W: "2S 3S 4S 6S 7S 8S 2C 3C 4C",
        N: "AH 2D 3D 4D 6D 7D 8D 9D TD",
        E: "5C 6C 7C 8C 9C TC JC QC KC",
        S: "KH QH JH TH 9H JD QD KD AD",
    }
    stock = "8H 7H 6H AS KS QS 5H 5D 4H 3H 2H JS TS 9S AC 5S"
    wash = "2C 2S"  # the order in which the discard pile is dealt
    state = deal_state(r, S, hands, stock=stock, wash=wash)
    acts(state, "W pass, N pass, E pass, S bid 7")
    name_trump(state, "H")
    to_play(state)
    assert hand_of(state, W) == card_set("8H 7H 6H AS KS QS")  # 6 from the stock
    assert hand_of(state, N) == card_set("AH 5H 5D 4H 3H 2H")  # 5 from the stock
    assert hand_of(state, E) == card_set("JS TS 9S AC 5S 2C")  # 5 from the stock, 1 from the wash
    assert hand_of(state, S) == card_set("KH QH JH TH 9H 2S")  # the dealer completes from the wash
    assert names(state.washes[0]) == card_set("2C 2S")


# ---------------------------------------------------------------- pidro: killing


def test_edge_case_41_pidro_kill_nonscoring_trumps() -> None:
    r = rules("pidro")
    hands = {N: "AH KH QH 9H 8H 5H 5D 3H 2C"}
    state = deal_state(r, S, hands, trump=suit("H"))
    acts(state, "W pass, N bid 6, E pass, S pass")
    name_trump(state, "H")
    while not (state.phase == Phase.EXCHANGE and turn(state) == "N" and choice(state).verb == Verb.KILL):
        state.apply(state.legal_actions()[0])
    assert hand_of(state, N) == card_set("AH KH QH 9H 8H 5H 5D 3H")  # no fill
    assert choice(state).sizes == (2,)
    assert is_legal(state, "kill KH QH") and is_legal(state, "kill 9H 3H")
    for bad in ("kill AH KH", "kill 5H KH", "kill 5D 3H"):
        assert not is_legal(state, bad), bad
    act(state, "N kill KH 3H")
    assert hand_of(state, N) == card_set("AH QH 9H 8H 5H 5D")
    # killed face up: every seat sees them
    assert all(names(state.observation(s).face_up[N]) >= card_set("KH 3H") for s in range(4))


def test_edge_case_42_pidro_dealer_keeps_six_trumps_kills_one() -> None:
    r = rules("pidro")
    hands = {S: "AH 2H", W: "KH QH JH", N: "TH 9H", E: "8H 7H"}
    state = deal_state(r, S, hands, trump=suit("H"))  # 6H 5H 5D 4H 3H stay at the bottom of the stock
    acts(state, "W pass, N pass, E pass, S bid 6")
    name_trump(state, "H")
    while state.phase == Phase.EXCHANGE and turn(state) != "S":
        state.apply(state.legal_actions()[0])
    assert turn(state) == "S"
    assert {state.words(a) for a in state.legal_actions()} == {"kill 6H", "kill 4H", "kill 3H"}
    act(state, "S kill 4H")
    assert hand_of(state, S) == card_set("AH 2H 6H 5H 5D 3H")  # six trumps, no non-trump


# ---------------------------------------------------------------- nicaragua


NICARAGUA_43 = {
    W: "2D 3D 4D 6D 7D 8D 9D",
    N: "5C 2H 3H 4H 6H 7H 8H",
    E: "AS KS QS JS TS 9S 8S",
    S: "2C 3C 4C 6C 7C 8C 9C",
}


def test_edge_case_43_nicaragua_dealer_picks_from_stock_and_discards() -> None:
    state = deal_state(rules("nicaragua"), S, NICARAGUA_43, stock="TD JD QD KD AD TH JH QH")
    acts(state, "W pass, N pass, E pass, S bid 6")
    name_trump(state, "S")
    assert is_legal(state, "pass")  # any number of cards, none included
    acts(state, "W discard 2D 3D, N discard 5C, E pass, S discard 2C 3C 4C")
    # W gets the top two stock cards, N the third, E none
    assert hand_of(state, W) == card_set("4D 6D 7D 8D 9D TD JD")
    assert hand_of(state, N) == card_set("2H 3H 4H 6H 7H 8H QD")
    assert hand_of(state, E) == card_set(NICARAGUA_43[E])
    assert turn(state) == "S"
    pick = choice(state)
    assert pick.verb == Verb.KEEP and pick.sizes == (3,)
    # the rest of the stock and W's and N's discards (the 5C, a trump, included)
    assert card_set("KD AD TH JH QH 5C 2D 3D") <= names(pick.pool)
    assert not names(pick.pool) & (card_set("2C 3C 4C") | card_set("TD JD QD"))
    act(state, "S keep 5C 2D AD")
    assert state.phase == Phase.PLAY
    assert hand_of(state, S) == card_set("6C 7C 8C 9C 5C 2D AD")
    hand = state.hand_index
    first_legal_play_out(state)
    assert len(state.results[hand].tricks) == 7


def test_edge_case_43_nicaragua_six_card_play() -> None:
    state = deal_state(rules("nicaragua", play_hand_size=6), S, NICARAGUA_43, stock="TD JD QD KD AD TH JH QH")
    acts(state, "W pass, N pass, E pass, S bid 6")
    name_trump(state, "S")
    assert not is_legal(state, "pass")  # at least one card
    acts(state, "W discard 2D 3D, N discard 5C, E discard 8S, S discard 2C 3C 4C")
    assert hand_of(state, W) == card_set("4D 6D 7D 8D 9D TD")
    assert hand_of(state, N) == card_set("2H 3H 4H 6H 7H 8H")
    assert choice(state).sizes == (2,)
    act(state, "S keep 5C 2D")
    assert all(len(hand_of(state, s)) == 6 for s in range(4))
    hand = state.hand_index
    first_legal_play_out(state)
    assert len(state.results[hand].tricks) == 6


@pytest.mark.parametrize(("low_rule", "low_to"), [(None, None), ("dealt", EW)])
def test_edge_case_44_nicaragua_discarded_low_scores_for_nobody(
    low_rule: str | None, low_to: int | None
) -> None:
    r = rules("nicaragua") if low_rule is None else rules("nicaragua", low_rule=low_rule)
    hands = {
        N: "AS JS TS 5S 5C 3S 4S",
        E: "2S 2D 3D 4D 6D 7D 8D",
        S: "KS QS 9S 8S 7S 6S 2C",
        W: "3C 4C 6C 7C 8C 9C TC",
    }
    state = deal_state(r, S, hands, trump=suit("S"))
    acts(state, "W pass, N pass, E pass, S bid 6")
    name_trump(state, "S")
    acts(state, "W pass, N pass, E discard 2S, S pass")
    # the dealer's hand is full: nobody takes the 2S
    assert state.phase == Phase.PLAY
    assert not any("2S" in hand_of(state, s) for s in range(4))
    hand = state.hand_index
    first_legal_play_out(state)
    points = state.results[hand].points
    if low_to is None:
        assert sum(points) == 13  # the Low is scored by nobody
    else:
        assert sum(points) == 14
        in_tricks = [sum(p) for p in zip(*result_trick_points(state, hand), strict=True)]
        assert [p - t for p, t in zip(points, in_tricks, strict=True)] == [0, 1]


# ---------------------------------------------------------------- king pedro


def test_edge_case_45_king_pedro_trump_then_kitty() -> None:
    r = rules("king_pedro")
    hands = {W: "AH KH QH 2S 3S 4S 6S 7S 8S 9S TS JS"}
    kitty = "JH 2D 3D 4D"
    state = deal_state(r, S, hands, kitty=kitty, trump=suit("H"))
    acts(state, "W bid 30, N pass, E pass, S pass")
    assert state.phase == Phase.TRUMP
    # the kitty is not in W's hand, nor seen by him, before he names trumps
    obs = state.observation(W)
    assert len(obs.hand) == 12 and not names(obs.hand) & card_set(kitty)
    assert not names(obs.seen) & card_set(kitty)
    name_trump(state, "H")
    assert len(hand_of(state, W)) == 16 and turn(state) == "W"
    assert choice(state).sizes == (10,)
    assert is_legal(state, "discard 2S 3S 4S 6S 7S 8S 9S TS 2D 3D")  # keeps JS 4D of his choice
    assert not is_legal(state, "discard JH 3S 4S 6S 7S 8S 9S TS 2D 3D")  # a trump
    act(state, "W discard 2S 3S 4S 6S 7S 8S 9S TS 2D 3D")
    assert hand_of(state, W) == card_set("AH KH QH JH JS 4D")


def test_edge_case_46_king_pedro_stack_at_most_one_scoring() -> None:
    hands = {N: "AH KH QH 9H 8H 7H 6H 3H"}
    state = play_ready(rules("king_pedro"), S, "H", "W pass, N bid 30, E pass, S pass", hands)
    assert stack_sizes(state) == {3}
    assert is_legal(state, "play KH 9H 3H")
    assert is_legal(state, "play 9H KH 3H")  # one scoring card anywhere in the stack
    assert not is_legal(state, "play AH KH 3H")
    assert not is_legal(state, "play KH AH 3H")


def test_edge_case_46_king_pedro_all_seven_scoring_trumps() -> None:
    hands = {N: "AH KH JH TH 5H 5D 2H"}
    state = play_ready(rules("king_pedro"), S, "H", "W pass, N bid 30, E pass, S pass", hands)
    assert stack_sizes(state) == {2}
    assert is_legal(state, "play AH 2H") and is_legal(state, "play 2H KH")
    assert not is_legal(state, "play AH KH")  # two scoring trumps without the two
    assert not is_legal(state, "play 5H 5D")


# ---------------------------------------------------------------- eighty-three: pass to partner


def test_edge_case_47_eighty_three_kitty_then_trump_then_pass_to_partner() -> None:
    r = rules("eighty_three")
    hands = {
        W: "AH KH QH JK JH TH 8H 7H 2S 3S 4S 6S",
        E: "9H 5H 5D 2H 2C 3C 4C 6C 7C 8C 9C TC",
    }
    kitty = "6H 7S 8S 9S TS"
    state = deal_state(r, S, hands, kitty=kitty, trump=suit("H"))
    acts(state, "W bid 30, N pass, E pass, S pass")
    assert state.trump is None and turn(state) == "W"  # trumps not named yet
    assert len(hand_of(state, W)) == 17 and card_set(kitty) <= hand_of(state, W)  # kitty first
    name_trump(state, "H")
    assert turn(state) == "W" and choice(state).verb == Verb.GIVE
    assert is_legal(state, "give 8H 6H")
    assert is_legal(state, "give AH 8H 6H")
    assert not is_legal(state, "give AH KH QH")  # E would hold 7 scoring trumps
    assert is_legal(state, "pass")  # he may discard his excess non-scoring trumps instead
    act(state, "W give AH 8H 6H")
    while state.phase == Phase.EXCHANGE and turn(state) != "E":
        state.apply(state.legal_actions()[0])
    assert card_set("AH 8H 6H") <= hand_of(state, E)
    # E reduces to 6 and may not discard a scoring trump
    assert not is_legal(state, "discard 2H 2C 3C 4C 6C 7C 8C 9C TC")
    act(state, "E discard 8H 6H 2C 3C 4C 6C 7C 8C 9C")
    assert hand_of(state, E) == card_set("AH 9H 5H 5D 2H TC")
    to_play(state)
    assert len(hand_of(state, W)) == 6 and card_set("KH QH JK JH TH") <= hand_of(state, W)


# ---------------------------------------------------------------- sixty-three: the nine-card deal (note E9)


def test_nine_card_deal_dealer_given_trumps_discards_his_cheapest_scoring_trumps() -> None:
    """Note E9: dealer S, given a trump by N, may not give any back; the stock brings him eight
    scoring trumps and nothing else to discard, so he throws away the cheapest two in the order of
    note J6 (the two, then a 1-point trump), face up, and their points go to nobody (found as an
    engine stall: he had no legal action)."""
    r = rules("sixty_three", nine_card_deal=True)
    hands = {
        N: "8H 7H 6H 4H QH AH KH 2C 3C",
        S: "JH TH 9H 5H 5D 4C 5C 6C 7C",
        W: "2S 3S 4S 5S 6S 7S 8S 9S TS",
        E: "2D 3D 4D 6D 7D 8D 9D TD JD",
    }
    stock = "JS QS KS AS QD KD AD 8C 9C TC JC QC 3H 2H KC AC"
    state = deal_state(r, S, hands, stock=stock, trump=suit("H"))
    acts(state, "W bid 10, N pass, E pass, S pass")
    name_trump(state, "H")
    assert turn(state) == "N" and is_legal(state, "give AH")
    act(state, "N give AH")
    # S kept his five trumps, got A♥ from N and took 3♥ 2♥ from the stock: eight scoring trumps
    assert turn(state) == "S"
    assert hand_of(state, S) == card_set("JH TH 9H 5H 5D AH 3H 2H")
    assert legal_words(state) == {"discard 2H AH", "discard 2H JH", "discard 2H TH"}
    assert not is_legal(state, "give AH")  # nothing goes back to the partner who gave
    act(state, "S discard 2H JH")
    assert hand_of(state, S) == card_set("TH 9H 5H 5D AH 3H")
    assert card_set("2H JH") <= names(state.observation(W).face_up[S])
    assert state.phase == Phase.PLAY
    first_legal_play_out(state)
    assert state.hand_index == 1
    points = state.results[0].points
    in_tricks = [sum(p) for p in zip(*result_trick_points(state, 0), strict=True)]
    assert list(points) == in_tricks  # nobody is credited with the discarded trumps
    assert sum(points) == r.total_points - 2 == 61  # the 2♥ and J♥ score for nobody


# ---------------------------------------------------------------- canadian king pedro: folding, excess


@pytest.mark.parametrize("mandatory", [True, False])
def test_edge_case_48_canadian_trumpless_player_folds(mandatory: bool) -> None:
    r = rules("king_pedro_canadian") if mandatory else rules("king_pedro_canadian", fold_mandatory=False)
    if mandatory:
        state = play_ready(r, S, "H", "W pass, N bid 30, E pass, S pass", {W: ""})
        assert state.observation(0).statuses[W] == Status.FOLDED and not state.hands[W]
        hand = state.hand_index
        first_legal_play_out(state)
        tricks = state.results[hand].tricks
        assert tricks and all(len(t.plays) == 3 and W not in [s for s, _ in t.plays] for t in tricks)
    else:
        hands = {W: "2S 3S 4S 6S 7S 8S 9S TS JS", N: "AH KH QH", E: "JH TH 9H", S: "8H 7H 6H"}
        state = deal_state(r, S, hands, stock="QS KS AS 2C", trump=suit("H"))
        acts(state, "W pass, N bid 30, E pass, S pass")
        name_trump(state, "H")
        assert hand_of(state, W) == card_set("2S 3S 4S 6S 7S 8S 9S TS JS QS KS AS 2C")
        assert turn(state) == "W" and {state.words(a) for a in state.legal_actions()} == {"pass", "fold"}


def test_edge_case_49_canadian_pass_trumps_to_partner_and_fold() -> None:
    r = rules("king_pedro_canadian")
    hands = {
        N: "2H 7H 2S 3S 4S 6S 7S 8S 9S",
        S: "AH KH 2C 3C 4C 6C 7C 8C 9C",
        W: "3H 6H 8H 9H 5D 2D 3D 4D 6D",
        E: "4H 5H TH JH QH 7D 8D 9D TD",
    }
    state = deal_state(r, W, hands, trump=suit("H"))
    acts(state, "N pass, E pass, S bid 30, W pass")
    name_trump(state, "H")
    assert turn(state) == "N"
    assert {state.words(a) for a in state.legal_actions()} == {"pass", "give 2H 7H"}
    act(state, "N give 2H 7H")
    assert state.observation(0).statuses[N] == Status.FOLDED
    assert len(hand_of(state, S)) == 15 and card_set("2H 7H") <= hand_of(state, S)
    while state.phase == Phase.EXCHANGE:
        state.apply(state.legal_actions()[0])
    assert len(hand_of(state, S)) == 6 and card_set("AH KH 2H 7H") <= hand_of(state, S)
    # S leads the 2H, E-W win the trick, and the Low still scores for N-S (its holder)
    act(state, "S play 2H")
    act(state, "W play 3H")
    act(state, "E play 4H")
    assert state.observation(0).tricks[0].winner == E
    assert [s for s, _ in state.observation(0).tricks[0].plays] == [S, W, E]  # N folded
    from tests.helpers import trick_points

    assert trick_points(state, 0) == [1, 0]


def test_edge_case_49_canadian_pass_to_partner_policy_refuses_a_seventh_scoring_trump() -> None:
    """Under the ``pass_to_partner`` option scoring trumps are never discarded (docs/rules.md
    §excess-trumps), so N may not give S a seventh scoring trump: S could not reduce to six (found by
    random play)."""
    hands = {
        N: "2H 7H 2S 3S 4S 6S 7S 8S 9S",
        S: "AH KH JH TH 9H 5H 8C 9C TC",
        W: "3H 6H 8H QH 5D 2D 3D 4D 6D",
        E: "4H 2C 3C 4C 6C 7C 7D 8D 9D",
    }
    state = deal_state(rules("king_pedro_canadian"), W, hands, trump=suit("H"))
    acts(state, "N pass, E pass, S bid 30, W pass")
    name_trump(state, "H")
    assert turn(state) == "N"
    assert {state.words(a) for a in state.legal_actions()} == {"pass", "give 2H 7H"}
    # the same deal under pass_to_partner: N's only choice (pass) is made for him
    r = rules("king_pedro_canadian", excess_trumps="pass_to_partner")
    state = deal_state(r, W, hands, trump=suit("H"))
    acts(state, "N pass, E pass, S bid 30, W pass")
    name_trump(state, "H")
    assert turn(state) != "N"
    assert card_set("2H 7H") <= hand_of(state, N) and state.observation(0).statuses[N] == Status.ACTIVE
    assert "2H" not in hand_of(state, S)


def _canadian_east(east: str, others: dict[int, str]) -> GameState:
    r = rules("king_pedro_canadian")
    hands = {E: east, **others}
    state = deal_state(r, S, hands, trump=suit("H"))
    acts(state, "W bid 30, N pass, E pass, S pass")
    name_trump(state, "H")
    while state.phase == Phase.EXCHANGE and not (turn(state) == "E" and choice(state).verb == Verb.DISCARD):
        a = state.legal_actions()[0]
        state.apply(a)
    return state


def _trump_parts(state: GameState) -> set[str]:
    """The trump part of every legal discard of the current decision."""
    from pedro.engine.actions import arg_of

    tt = tables(state)
    assert tt is not None
    return {" ".join(sorted(names(arg_of(a) & tt.trump_mask))) for a in choice(state)}


@pytest.mark.parametrize(
    ("east", "others", "trump_discards", "discard", "credit"),
    [
        # all eight scoring trumps: the two, then a 1-point trump (ace or jack)
        ("AH KH JH TH 9H 5H 5D 2H 2S", {W: "QH 8H 7H", N: "6H 4H", S: "3H"}, {"2H AH", "2H JH"}, "2H AH", 2),
        # seven including the two: only the two
        ("AH KH JH TH 9H 5H 2H 2S 3S", {W: "QH 8H 7H 5D", N: "6H 4H", S: "3H"}, {"2H"}, "2H", 1),
        # the seven other than the two: the ace or the jack
        ("AH KH JH TH 9H 5H 5D 2S 3S", {W: "QH 8H 7H 2H", N: "6H 4H", S: "3H"}, {"AH", "JH"}, "JH", 1),
    ],
)
def test_edge_case_50_canadian_more_than_six_scoring_trumps(
    east: str, others: dict[int, str], trump_discards: set[str], discard: str, credit: int
) -> None:
    state = _canadian_east(east, others)
    tt = tables(state)
    assert tt is not None
    if len(trump_discards) > 1:
        assert turn(state) == "E"
        assert _trump_parts(state) == trump_discards
        nontrumps = " ".join(names(state.hands[E] & ~tt.trump_mask))
        act(state, f"E discard {discard} {nontrumps}")
    else:
        # a single legal discard: the engine makes it
        assert state.phase == Phase.PLAY or turn(state) != "E"
    assert names(mask_of(state.observation(E).own_discards) & tt.trump_mask) == card_set(discard)
    assert len(hand_of(state, E)) == 6
    # face up: everyone sees the discarded trumps
    assert card_set(discard) <= names(state.observation(N).face_up[E])
    hand = state.hand_index
    while state.hand_index == hand:
        state.apply(state.legal_actions()[0])
    points = state.results[hand].points
    in_tricks = [sum(p) for p in zip(*result_trick_points(state, hand), strict=True)]
    assert [p - t for p, t in zip(points, in_tricks, strict=True)] == [0, credit]  # credited to EW
    assert sum(points) == 62


def test_edge_case_51_canadian_discard_nonscoring_trumps_face_up() -> None:
    state = _canadian_east("AH 2H QH 8H 7H 6H 4H 3H 2S", {W: "KH JH", N: "TH 9H", S: "5H 5D"})
    assert _trump_parts(state) == {" ".join(sorted(p)) for p in _pairs(["QH", "8H", "7H", "6H", "4H", "3H"])}
    assert state.trump is not None
    nontrumps = " ".join(names(state.hands[E] & ~tables(state).trump_mask))
    act(state, f"E discard 8H 3H {nontrumps}")
    assert hand_of(state, E) == card_set("AH 2H QH 7H 6H 4H")
    assert card_set("8H 3H") <= names(state.observation(W).face_up[E])


def _pairs(items: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(items) for b in items[i + 1 :]]


# ---------------------------------------------------------------- petro


def test_edge_case_52_petro_discard_at_least_three() -> None:
    r = rules("petro_russian")
    hands = {
        W: "AD 2S 3S 4S 6S 7S 8S 9S TS",
        N: "JD TD 5D 2C 3C 4C 6C 7C 8C",
        E: "5H 2D 9C TC JC QC KC AC 3D",
        S: "4D 6D 7D 8D 9D QD KD 2H 3H",
    }
    state = deal_state(r, S, hands, stock="JS QS 4H 6H 7H 8H", trump=suit("D"))
    acts(state, "W bid 7, N pass, E pass, S pass")
    name_trump(state, "D")
    assert turn(state) == "W"
    assert not is_legal(state, "discard 2S 3S")  # at least three
    act(state, "W discard AD 2S 3S 4S 6S")  # a trump too: lost for the hand
    act(state, "N discard 2C 3C 4C")
    acts(state, "E discard 9C TC JC, S discard 2H 3H 4D")
    assert state.phase == Phase.PLAY
    assert hand_of(state, W) == card_set("7S 8S 9S TS JS QS")  # 2 from the talon
    assert hand_of(state, N) == card_set("JD TD 5D 6C 7C 8C")  # none
    # the discards are face up: everyone sees the lost ace of trumps
    assert "AD" in names(state.observation(E).face_up[W])
    hand = state.hand_index
    first_legal_play_out(state)
    assert sum(state.results[hand].points) == 13  # the A♦ (High) scores for nobody


def test_edge_case_53_petro_discard_cap_from_the_talon() -> None:
    r = rules("petro_russian")
    state = deal_state(r, S, {}, trump=suit("D"))
    acts(state, "W bid 7, N pass, E pass, S pass")
    name_trump(state, "D")
    act(state, "W discard " + " ".join(sorted(hand_of(state, W))))
    act(state, "N discard " + " ".join(sorted(hand_of(state, N))))
    assert turn(state) == "E"
    assert choice(state).sizes == (3, 4, 5, 6, 7)
    east = sorted(hand_of(state, E))
    assert not is_legal(state, "discard " + " ".join(east[:8]))
    act(state, "E discard " + " ".join(east[:7]))
    assert choice(state).sizes == (3,)  # the talon is all committed: S discards exactly 3


# ---------------------------------------------------------------- piedro: dealer short of cards


def test_edge_case_54_piedro_dealer_completes_from_the_wash() -> None:
    r = rules("piedro_jokers")
    hands = {
        W: "2S 3S 4S 6S 7S 8S 9S TS JS",
        N: "2C 3C 4C 6C 7C 8C 9C TC QC",
        E: "AH 2D 3D 4D 6D 7D 8D 9D TD",
        S: "KH QH JH 5S 5C KC AC KS AS",
    }
    # W, N and E keep 0, 0 and 1 trumps and take 17 of the 18 stock cards; the last one is a trump
    stock = "TH 9H 8H 7H 6H 5H 5D JD BJ SJ 4H 3H QS KD AD QD JC 2H"
    state = deal_state(r, S, hands, stock=stock, wash="2S 3S 4S")
    acts(state, "W pass, N pass, E pass, S bid 9")
    name_trump(state, "H")
    to_play(state)
    assert hand_of(state, W) == card_set("TH 9H 8H 7H 6H 5H")
    assert hand_of(state, N) == card_set("5D JD BJ SJ 4H 3H")
    assert hand_of(state, E) == card_set("AH QS KD AD QD JC")
    # S takes the stock's last card, a trump, then two cards from the wash
    assert hand_of(state, S) == card_set("KH QH JH 2H 2S 3S")
    assert names(state.washes[0]) == card_set("2S 3S")


def test_exchange_refuses_illegal_choice_and_keeps_state() -> None:
    """An illegal exchange choice raises and changes nothing (guards the tests above)."""
    state = _canadian_east("AH 2H QH 8H 7H 6H 4H 3H 2S", {W: "KH JH", N: "TH 9H", S: "5H 5D"})
    before = (state.hands, [state.observation(s) for s in range(4)], turn(state))
    with pytest.raises(IllegalActionError):
        state.apply(action(state, "discard AH 2H"))
    assert (state.hands, [state.observation(s) for s in range(4)], turn(state)) == before
