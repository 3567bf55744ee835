"""The position text (``GameState.to_text`` / ``from_text``): round trips in every ruleset, and its errors.

A state read back from its text must go on exactly as the original: the same
text, legal actions and observations for every seat (but the earlier hands,
which a position does not carry), and, after the same random plays to the
end of the hand, the same hand result and scores.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from tests.test_properties import RULESET_CASES, RULESETS, random_action

from pedro.cards import mask_of, parse_cards
from pedro.engine.actions import play_action
from pedro.engine.observation import Observation
from pedro.engine.phases import Phase, Status
from pedro.engine.state import GameState
from pedro.variants.options import make_ruleset

#: Hands played per random game: enough to see scores, dealers and hand numbers move on.
GAME_HANDS = 5
SEEDS = (1, 2, 3)


BASE = "play scores=0,0 hand=1 dealer=3 calls=0:pass,1:7,2:pass,3:pass trump=H size=6"
HANDS = " hands=5H4C/AH/9H/KH"


def _view(obs: Observation) -> Observation:
    """An observation without the earlier hands, which a position does not carry."""
    return dataclasses.replace(obs, history=())


def _same_hand_ahead(state: GameState, copy: GameState, rng: random.Random) -> None:
    """Play both to the end of the hand with the same random plays; results and scores must agree."""
    done = len(state.results)
    while len(state.results) == done:
        assert copy.legal_actions() == state.legal_actions()
        action = random_action(state, rng)
        state.apply(action)
        copy.apply(action)
    assert copy.results == state.results[done:]
    assert copy.scores == state.scores and copy.winner == state.winner


def _same_until_the_wash(state: GameState, copy: GameState, rng: random.Random) -> None:
    """As ``_same_hand_ahead`` from an auction: the discards shuffled when the stock runs dry are
    future chance, drawn from the text like later hands, so the two may part only there."""
    done = len(state.results)
    while len(state.results) == done:
        if state.washes[-1]:
            return
        assert copy.legal_actions() == state.legal_actions()
        action = random_action(state, rng)
        state.apply(action)
        copy.apply(action)
    assert copy.results == state.results[done:]
    assert copy.scores == state.scores and copy.winner == state.winner


def _check_round_trip(state: GameState, rng: random.Random) -> None:
    rules = state.rules
    text = state.to_text()
    copy = GameState.from_text(rules, text)
    assert copy.to_text() == text
    assert copy.legal_actions() == state.legal_actions()
    for seat in range(rules.players):
        assert _view(copy.observation(seat)) == _view(state.observation(seat)), (text, seat)
    ahead = _same_until_the_wash if text.startswith("auction ") else _same_hand_ahead
    ahead(state.clone(), copy, rng)


@pytest.mark.parametrize("name", RULESET_CASES)
def test_every_auction_and_trump_position_round_trips(name: str) -> None:
    """The hand as dealt and the calls so far: the rebuilt state bids, names trumps and plays on alike."""
    seen: set[Phase] = set()
    for seed in SEEDS:
        state = GameState(RULESETS[name], seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.hand_index < GAME_HANDS:
            if state.phase in (Phase.AUCTION, Phase.TRUMP):
                _check_round_trip(state, random.Random(len(seen) + state.hand_index))
                assert state.to_text().startswith("auction ")
                seen.add(state.phase)
            state.apply(random_action(state, rng))
    assert Phase.AUCTION in seen


@pytest.mark.parametrize("name", RULESET_CASES)
def test_every_play_position_round_trips(name: str) -> None:
    plays = 0
    for seed in SEEDS:
        state = GameState(RULESETS[name], seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.hand_index < GAME_HANDS:
            if state.phase == Phase.PLAY:
                _check_round_trip(state, random.Random(plays))
                plays += 1
            state.apply(random_action(state, rng))
    assert plays > 20


def test_the_text_of_a_hand_in_play() -> None:
    rules = make_ruleset("cinch")
    text = (
        "play scores=12,-3 hand=4 dealer=2 bgo=yes calls=3:pass,0:pass,1:8,2:9 trump=D size=6 "
        "hands=AS7D/AD2C/TD3C/QD4C discards=2H3H4H/-/-/- faceup=-/5S/-/- tricks=2:3D,3:JD,0:5D,1:2D "
        "trick=3:4D turn=0"
    )
    state = GameState.from_text(rules, text)
    assert state.to_text() == text
    assert (state.hand_index, state.dealer, state.scores, state.bidder_goes_out) == (3, 2, (12, -3), True)
    assert state.contract is not None and (state.contract.bidder, state.contract.value) == (2, 9)
    assert [t.winner for t in state.observation(0).tricks] == [3]  # the jack of trumps beats the pedro
    assert state.observation(0).trick is not None and state.observation(0).trick.leader == 3
    assert state.legal_actions() == (play_action(parse_cards("7D")),)  # trumps were led
    assert state.play_position().hands_at_play()[0] == mask_of(parse_cards("AS 7D 5D"))
    obs = state.observation(1)
    assert obs.face_up == ((), (3,), (), ()) and obs.own_discards == (3,) and obs.discarded == (3, 1, 0, 0)
    assert repr(state) == "<GameState cinch hand 4 play: 0 to play, trump ♦, contract 2 bid 9, scores 12 -3>"


def test_later_hands_are_dealt_from_the_text() -> None:
    """The next hand comes from ``SeededDeals(text)``: the same text, the same deal; the dealer moves on."""
    rules = make_ruleset("cinch")
    text = BASE + " hands=5H/AH/9H/KH turn=1"
    games = [GameState.from_text(rules, text) for _ in range(2)]
    for state in games:
        while state.hand_index == 0:
            state.apply(state.legal_actions()[0])
        assert state.dealer == 0 and state.phase == Phase.AUCTION
    assert games[0].hands == games[1].hands


def test_the_exchange_has_no_text() -> None:
    state = GameState(make_ruleset("cinch"), seed=1)
    rng = random.Random(1)
    while state.phase != Phase.EXCHANGE:
        state.apply(random_action(state, rng))
    with pytest.raises(ValueError, match="naming trumps and the card play; this state is in the exchange"):
        state.to_text()
    assert repr(state).startswith(f"<GameState cinch hand 1 exchange: {state.current_player} to play")


AUCTION = (
    "auction scores=5,-2 hand=3 dealer=1 hands=2STSQS9H4D5DTD2CAC/5S8S9SAS8HQH3DAD8C/6SJSKSJHAH9D3C6CJC/"
    "4S3H5H6HKH6DQDQCKC"
)
#: the same, its fields in the order ``to_text`` writes them (calls before hands)
HEAD, DEALT = AUCTION.split(" hands=")
STOCK = " stock=5C7DTH7H4C8D3SJDKD7C4HTC2D2H7S9C"


def test_the_text_of_an_auction() -> None:
    """The dealt hands and the calls; the stock in pack order (the cinch dealer's refills come from it)."""
    rules = make_ruleset("cinch")
    text = f"{HEAD} calls=2:pass,3:8 hands={DEALT}{STOCK} turn=0"
    state = GameState.from_text(rules, text)
    assert state.to_text() == text
    assert (state.hand_index, state.dealer, state.scores, state.phase) == (2, 1, (5, -2), Phase.AUCTION)
    assert state.hands[0] == mask_of(parse_cards("2S TS QS 9H 4D 5D TD 2C AC"))
    # without the stock, the cards left are shuffled from the text: the same text, the same stock
    short = AUCTION + " calls=2:pass,3:8 turn=0"
    stocks = {GameState.from_text(rules, short).to_text().split(" stock=")[1] for _ in range(2)}
    assert len(stocks) == 1


def test_a_text_after_the_last_call_is_naming_trumps() -> None:
    rules = make_ruleset("cinch")
    text = f"{HEAD} calls=2:pass,3:8,0:pass,1:pass hands={DEALT}{STOCK} turn=3"
    state = GameState.from_text(rules, text)
    assert state.phase == Phase.TRUMP and state.current_player == 3 and state.to_text() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("deal scores=0,0", "starts with its phase, 'play' or 'auction'"),
        (AUCTION.replace("hand=3", "hand=0") + " turn=2", "field 'hand': hands count from 1"),
        (AUCTION + " calls=2:pass,3:6 turn=0", "call 3:6: "),
        (AUCTION + " calls=3:8 turn=0", "call 3:8: it is seat 2's turn to call"),
        (AUCTION + " turn=3", "turn=3, but after these calls it is seat 2's turn"),
        (AUCTION + " stock=5C turn=2", "stock: .* is nowhere"),
        (AUCTION + " kitty=5C turn=2", "kitty: 1 cards given, this variant's kitty has 0"),
        (AUCTION.replace("2STSQS", "5STSQS") + " turn=2", "5S is in two places"),
        (AUCTION + STOCK + "5C turn=2", "field 'stock': 5C is named twice"),
        (AUCTION.replace("2STSQS", "TSQS") + " turn=2", "hands: the deal must give 4 hands of 9 cards"),
        (AUCTION + " calls=2:pass,3:8,0:pass,1:pass,3:9 turn=2", "call 3:9: the auction is over before it"),
        (BASE + HANDS + " turn=1 turn=1", "given twice"),
        (BASE + HANDS + " colour=red turn=1", "'colour=red' is not a field"),
        (BASE + HANDS, "missing field"),
        (BASE + " hands=5H4C/AH/9H turn=1", "field 'hands': 3 seats given"),
        (BASE + " hands=5H4/AH/9H/KH turn=1", "two characters each"),
        (BASE + " hands=5HAH/AH/9H/KH turn=1", "AH is in two places"),
        (BASE.replace("1:7", "1:fold") + HANDS + " turn=1", "field 'calls': '1:fold' is not a call"),
        (BASE.replace("1:7", "1:6") + HANDS + " turn=1", "call 1:6: not a legal call after 1 calls"),
        (BASE.replace("0:pass,", "") + HANDS + " turn=1", "call 1:7: it is seat 0's turn to call"),
        (BASE.replace(",3:pass", "") + HANDS + " turn=1", "the calls make no contract"),
        (BASE + HANDS + " turn=2", "turn=2, but after these plays it is seat 1's turn"),
        (BASE + " hands=5H4C/AH/-/KH trick=2:9H turn=1", "play 2:9H: it is seat 1's turn"),
        (BASE + " hands=5H/-/-/- trick=1:AH,2:9H,3:KH,0:4C turn=1", "play 0:4C: must play a trump when"),
        (BASE + " hands=-/-/-/- tricks=1:AH,2:9H,3:KH,0:5H turn=1", "card play is over after these plays"),
        (BASE + HANDS + " status=0:cold turn=1", "status: after these plays the statuses are all active"),
    ],
)
def test_a_wrong_text_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameState.from_text(make_ruleset("cinch"), text)


def test_statuses_are_written_and_derived() -> None:
    """A seat without trumps goes cold on its turn (pidro): the text names it, the engine derives it."""
    rules = make_ruleset("pidro")
    text = BASE.replace("1:7", "1:6") + " hands=4C/AH2H/9H3H/KHQH turn=1"
    state = GameState.from_text(rules, text)
    for card in ("AH", "9H", "QH"):
        state.apply(play_action(parse_cards(card)))
    assert state.observation(0).statuses[0] == Status.COLD and state.current_player == 1
    after = state.to_text()
    assert "status=0:cold tricks=1:AH,2:9H,3:QH turn=1" in after
    assert GameState.from_text(rules, after).observation(0).statuses == state.observation(0).statuses
    with pytest.raises(ValueError, match="the statuses are 0:cold"):
        GameState.from_text(rules, after.replace("status=0:cold ", ""))


def test_a_bidder_goes_out_hand_and_credits_count() -> None:
    """``bgo`` and ``credits`` (rare in random games) change how the hand ends: the bidder's side takes
    every trick and makes its bid; on a bidder-goes-out hand that wins the game."""
    rules = make_ruleset("cinch")
    base = BASE.replace("0:pass,1:7", "0:7,1:pass")
    hands = " hands=5HJHQHKHAH/2C3C4C6C7C/2S3S4S6S7S/2D3D4D6D8D turn=0"
    texts = {
        "plain": base + hands,
        "bgo": base.replace("dealer=3", "dealer=3 bgo=yes") + hands,
        "credits": base + hands.replace(" turn=0", " credits=0,3 turn=0"),
    }
    ends = {}
    for name, text in texts.items():
        state = GameState.from_text(rules, text)
        assert state.to_text() == text
        while not state.results:
            state.apply(state.legal_actions()[0])
        result = state.results[0]
        ends[name] = (result.made, result.points, state.winner)
    assert ends == {"plain": (True, (7, 0), None), "bgo": (True, (7, 0), 0), "credits": (True, (7, 3), None)}
