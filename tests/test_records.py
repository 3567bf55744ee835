"""Game records (pedro-record/1): writing, reading, replaying, and the errors a hand-edited record gets."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.helpers import played_record

from pedro.cards import format_card, pretty_card
from pedro.engine.actions import PASS, Verb, action_text, play_cards, play_top, verb_of
from pedro.engine.deal import SeededDeals
from pedro.engine.phases import Phase
from pedro.engine.play import TRUMP_SUIT, effective_suit
from pedro.engine.state import GameState
from pedro.players import make_player
from pedro.records import (
    FORMAT,
    RecordError,
    ReplayError,
    ReplayResult,
    dumps_record,
    pack_from_deal,
    read_record,
    record_from_game,
    record_line,
    replay,
    replay_json,
    resume,
    write_record,
)
from pedro.variants.catalog import VARIANTS
from pedro.variants.model import Ruleset
from pedro.variants.options import make_ruleset

NAMES = ["Ann", "Bo", "Cy", "Di"]
DOCS = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def play_random(rules: Ruleset, seed: int, max_hands: int, until: Any = None) -> GameState:
    """A game between random players, stopped after ``max_hands`` hands (or when ``until(state)``)."""
    state = GameState(rules, seed=seed)
    players = [make_player("random", seed * 16 + s) for s in range(rules.players)]
    while not state.is_over and len(state.results) < max_hands:
        if until is not None and until(state):
            break
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    return state


def original_json(state: GameState, record: dict[str, Any]) -> dict[str, Any]:
    """``replay_json`` of the game as it was played (not replayed), for comparison."""
    return replay_json(ReplayResult(record, state.rules, state, []))


def round_trip(state: GameState) -> ReplayResult:
    """Record -> JSON text -> replay, checking the replay rebuilt exactly the same game."""
    record = record_from_game(state, [f"P{s}" for s in range(state.rules.players)])
    text = dumps_record(record)
    assert json.loads(text) == record
    assert json.loads(record_line(record)) == record
    result = replay(text)
    assert result.state.hand_actions == state.hand_actions
    assert result.state.deal_records == state.deal_records
    assert result.state.washes == state.washes
    assert replay_json(result) == original_json(state, record)
    assert result.finished == state.is_over
    assert result.winner == state.winner
    assert result.state.scores == state.scores
    return result


def sample_record(variant: str = "cinch", seed: int = 3, hands: int = 3) -> dict[str, Any]:
    return record_from_game(play_random(make_ruleset(variant), seed, hands), NAMES)


def replay_error(record: dict[str, Any]) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(record)
    return info.value


# ---------------------------------------------------------------------------
# round trips


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_round_trip_every_variant(variant: str) -> None:
    rules = VARIANTS[variant]
    for seed in range(3):
        state = play_random(rules, seed, max_hands=5)
        result = round_trip(state)
        assert len(result.results) == len(state.results) >= 1


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("cinch", {"keep_nontrumps": True}),
        ("cinch", {"dealer_robs_discards": True}),
        ("cinch", {"discards_face_up": True}),  # claims of face-up trumps
        ("cinch", {"excess_trumps": "must_discard_to_6", "discarded_scoring_trumps": "to_opponents"}),
        ("cinch", {"bid_28_56": True, "slam": True}),
        ("cinch", {"preset": "cinch_min6_forced6"}),
        ("pedro_sancho", {"players": 5}),
        ("dom_pedro", {"deal_all_out": True}),
        ("pedro_sancho", {"discard_and_fill": True}),
        ("nicaragua", {"play_hand_size": 6}),
        ("king_pedro_canadian", {"fold_mandatory": False}),
        ("sixty_three", {"nine_card_deal": True}),
        ("eighty_three", {"nine_card_deal": True}),
        ("sixty_three", {"joker": True}),
        ("piedro_jokers", {"protect_may_equal": True}),
    ],
)
def test_round_trip_with_options(variant: str, options: dict[str, Any]) -> None:
    rules = make_ruleset(variant, options)
    for seed in range(3):
        state = play_random(rules, seed, max_hands=4)
        round_trip(state)
        record = record_from_game(state)
        assert record["options"] == options
        assert record["players"] == rules.players
        assert len(record["hands"][0]["deal"]) == rules.players


@pytest.mark.parametrize(
    ("variant", "options", "verb", "text", "call"),
    [
        ("cinch", {"bid_28_56": True}, Verb.BID_28_56, "bid 28-56", "28-56"),
        ("eighty_three", {}, Verb.BID_DOUBLE, "bid 83-double", "83-double"),
        ("piedro_jokers", {}, Verb.PROTECT, "protect", "protect"),
    ],
)
def test_special_calls_round_trip(
    variant: str, options: dict[str, Any], verb: Verb, text: str, call: str
) -> None:
    rules = make_ruleset(variant, options)
    for seed in range(200):
        state = GameState(rules, seed=seed)
        players = [make_player("random", seed * 16 + s) for s in range(rules.players)]
        while len(state.results) < 1:
            legal = state.legal()
            special = [a for a in legal if verb_of(a) == verb] if isinstance(legal, tuple) else []
            seat = state.current_player
            state.apply(special[0] if special else players[seat].act(state.observation(seat)))
        if state.results[0].call == call:
            record = record_from_game(state)
            assert any(a.endswith(text) for a in record["hands"][0]["actions"])
            assert replay_json(round_trip(state))["hands"][0]["call"] == call
            return
    pytest.fail(f"no {call} call found")


def test_finished_games_replay_to_the_same_winner() -> None:
    finished = 0
    for variant in ("king_pedro", "sixty_three", "pitch_fives"):
        for seed in range(12):
            state = play_random(VARIANTS[variant], seed, max_hands=40)
            if state.is_over:
                result = round_trip(state)
                assert result.finished
                assert result.winner is not None
                assert replay_json(result)["winner"] == state.winner
                finished += 1
                break
    assert finished >= 2


def test_washes_are_recorded_and_replayed() -> None:
    rules = VARIANTS["cinch"]
    washed = 0
    for seed in range(40):
        state = play_random(rules, seed, max_hands=4)
        record = record_from_game(state)
        for k, hand in enumerate(record["hands"]):
            assert ("wash" in hand) == bool(state.washes[k])
            if "wash" in hand:
                washed += 1
                assert hand["wash"] == [format_card(c) for c in state.washes[k]]
                assert list(hand) == ["deal", "kitty", "stock", "wash", "actions"]
                round_trip(state)
                # without its wash the hand cannot be dealt
                broken = copy.deepcopy(record)
                del broken["hands"][k]["wash"]
                error = replay_error(broken)
                assert f"hand {k + 1}" in str(error)
        if washed >= 2:
            break
    assert washed >= 2


def test_pack_from_deal_rebuilds_the_seeded_pack() -> None:
    options: list[tuple[str, dict[str, Any]]] = [(v, {}) for v in VARIANTS]
    options += [("dom_pedro", {"deal_all_out": True}), ("pedro_sancho", {"players": 7})]
    for variant, opts in options:
        rules = make_ruleset(variant, opts)
        for seed in range(3):
            state = play_random(rules, seed, max_hands=2)
            for k, (deal, kitty, stock) in enumerate(state.deal_records):
                dealer = (state.first_dealer + k) % rules.players
                pack = pack_from_deal(rules, dealer, deal, kitty, stock)
                assert pack == SeededDeals(seed).pack(k, rules.deck), (variant, seed, k)


def test_card_aliases_are_read_and_written_canonically() -> None:
    record = sample_record(hands=1)
    aliased = copy.deepcopy(record)
    hand = aliased["hands"][0]
    hand["deal"] = [[pretty_card_alias(c) for c in cards] for cards in hand["deal"]]
    hand["stock"] = [c.lower() for c in hand["stock"]]
    hand["actions"] = [re.sub(r"\bT([SHDC])\b", r"10\1", a).lower() for a in hand["actions"]]
    assert read_record(aliased)["hands"][0]["deal"] == record["hands"][0]["deal"]
    assert read_record(aliased)["hands"][0]["stock"] == record["hands"][0]["stock"]
    assert replay_json(replay(aliased)) == replay_json(replay(record))


def pretty_card_alias(text: str) -> str:
    from pedro.cards import parse_card

    return pretty_card(parse_card(text))


def test_record_fields_follow_the_contract() -> None:
    rules = make_ruleset("cinch", {"min_bid": 6})
    state = play_random(rules, 5, max_hands=2)
    record = record_from_game(state, NAMES)
    assert list(record) == ["format", "variant", "options", "players", "names", "first_dealer", "hands"]
    assert record["format"] == FORMAT == "pedro-record/1"
    assert record["variant"] == "cinch"
    assert record["options"] == {"min_bid": 6}
    assert record["players"] == 4
    assert record["names"] == NAMES
    assert record["first_dealer"] == state.first_dealer
    for k, hand in enumerate(record["hands"]):
        cards = [c for seat in hand["deal"] for c in seat] + hand["kitty"] + hand["stock"]
        assert sorted(cards) == sorted(format_card(c) for c in rules.deck)
        assert all(len(seat) == 9 for seat in hand["deal"])
        assert hand["actions"] == [action_text(s, a, rules.max_bid) for s, a in state.hand_actions[k]]
    assert record_from_game(state)["names"] == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]
    with pytest.raises(ValueError, match="4 players"):
        record_from_game(state, ["Ann"])


def test_timed_out_decisions_are_marked_per_hand_and_replay_as_before() -> None:
    """A server's table writes which decisions a stand-in made as a turn clock ran out: each hand's
    optional ``timed_out``, places in its ``actions``; replaying reads past it."""
    state = play_random(make_ruleset("cinch"), 3, max_hands=2)
    first = len(state.hand_actions[0])
    record = record_from_game(state, NAMES, timed_out={1, first + 2})
    assert record["hands"][0]["timed_out"] == [1] and record["hands"][1]["timed_out"] == [2]
    assert list(record["hands"][0])[-1] == "timed_out"
    assert "timed_out" not in record_from_game(state, NAMES)["hands"][0], "none: the field is left out"
    result = replay(dumps_record(record))
    assert result.state.hand_actions == state.hand_actions
    assert read_record(record_line(record)) == record
    for wrong in ([1, 1], [3, 2], [len(state.hand_actions[0])]):
        bad = copy.deepcopy(record)
        bad["hands"][0]["timed_out"] = wrong
        assert "hand 1: timed_out" in str(replay_error(bad))
    bad["hands"][0]["timed_out"] = [-1]
    assert "timed_out" in str(replay_error(bad))


def test_write_and_read_a_file(tmp_path: Path) -> None:
    record = sample_record(hands=2)
    path = tmp_path / "game.json"
    write_record(record, path)
    assert read_record(path) == record
    assert read_record(str(path)) == record
    assert read_record(path.read_text()) == record
    assert read_record(path.read_bytes()) == record
    assert replay(path).results


# ---------------------------------------------------------------------------
# unfinished games


def test_a_record_may_stop_in_the_middle_of_a_hand() -> None:
    state = play_random(
        VARIANTS["cinch"], 7, max_hands=5, until=lambda s: len(s.results) == 1 and len(s.actions) == 9
    )
    result = round_trip(state)
    assert not result.finished
    assert len(result.results) == 1
    assert len(result.steps[1]) == 9
    assert replay_json(result)["winner"] is None


def test_a_record_may_stop_between_hands() -> None:
    record = sample_record(hands=2)
    assert record["hands"][-1]["actions"] == []  # the third hand was dealt when the game was stopped
    del record["hands"][-1]
    result = replay(record)
    assert not result.finished
    assert len(result.results) == 2


def test_resume_deals_the_recorded_hands_and_then_shuffles_from_the_seed() -> None:
    record = sample_record(hands=2)
    del record["hands"][-1]  # stopped between hands, before the third was dealt
    first = resume(record, seed=7)
    assert not first.finished and len(first.results) == 2
    assert first.state.hand_index == 2
    again, other = resume(record, seed=7), resume(record, seed=8)
    assert first.state.deal_records[:2] == again.state.deal_records[:2] == other.state.deal_records[:2]
    assert first.state.deal_records[2] == again.state.deal_records[2] != other.state.deal_records[2]
    rules = first.rules
    unshuffled = sorted(rules.deck)
    assert [c for hand in first.state.deal_records[2][0] for c in hand] != unshuffled[: 4 * 9]
    # and play goes on to the end of the game
    state = first.state
    players = [make_player("basic", s) for s in range(4)]
    while not state.is_over:
        seat = state.current_player
        state.apply(players[seat].act(state.observation(seat)))
    assert replay(record_from_game(state, NAMES)).winner == state.winner
    # a record stopped in a hand resumes in it, and a bad one is refused as replay refuses it
    part = sample_record(hands=1)
    del part["hands"][1:]
    part["hands"][0]["actions"] = part["hands"][0]["actions"][:5]
    assert resume(part, seed=1).state.actions == replay(part).state.actions
    part["hands"][0]["actions"][0] = "3 play AS"
    with pytest.raises(ReplayError):
        resume(part, seed=1)


# ---------------------------------------------------------------------------
# JSON results


def test_replay_json_shape() -> None:
    record = sample_record(hands=2)
    out = replay_json(replay(record))
    assert list(out) == ["variant", "options", "sides", "hands", "winner"]
    assert out["sides"] == [[0, 2], [1, 3]]
    for hand in out["hands"]:
        assert list(hand) == [
            "dealer", "bidder", "bid", "call", "trump", "hands_at_play", "tricks", "points", "made", "score",
        ]  # fmt: skip
        assert hand["trump"] in ("S", "H", "D", "C")
        assert len(hand["hands_at_play"]) == 4
        for trick in hand["tricks"]:
            assert list(trick) == ["leader", "plays", "winner"]
            assert trick["plays"][0]["seat"] == trick["leader"]
            for play in trick["plays"]:
                assert list(play) == ["seat", "cards"]
    json.dumps(out)


def test_multi_card_plays_list_the_top_card_first() -> None:
    for seed in range(300):
        state = play_random(VARIANTS["cinch"], seed, max_hands=1)
        plays = [a for _, a in state.hand_actions[0] if verb_of(a) == Verb.PLAY and len(play_cards(a)) > 1]
        if not plays:
            continue
        record = record_from_game(state)
        out = replay_json(replay(record))
        stacks = [p["cards"] for p in out["hands"][0]["tricks"][0]["plays"] if len(p["cards"]) > 1]
        assert stacks
        assert stacks[0][0] == format_card(play_top(plays[0]))
        assert stacks[0] == [format_card(c) for c in play_cards(plays[0])]
        text = next(t for t in record["hands"][0]["actions"] if t.split()[1] == "play" and len(t.split()) > 3)
        assert text.split()[2] == stacks[0][0]
        return
    pytest.fail("no multi-card play found")


def test_thrown_in_hand_in_json() -> None:
    state = GameState(VARIANTS["king_pedro"], seed=4)
    for _ in range(4):
        state.apply(PASS)
    assert len(state.results) == 1
    record = record_from_game(state, NAMES)
    assert record["hands"][0]["actions"] == [f"{(state.first_dealer + 1 + i) % 4} pass" for i in range(4)]
    result = replay(record)
    hand = replay_json(result)["hands"][0]
    assert hand["dealer"] == state.first_dealer
    assert hand["bidder"] is None and hand["bid"] is None and hand["call"] is None
    assert hand["trump"] is None and hand["made"] is None
    assert hand["hands_at_play"] == [] and hand["tricks"] == []
    assert hand["points"] == [0, 0] and hand["score"] == [0, 0]
    assert result.state.dealer == (state.first_dealer + 1) % 4


def test_docs_example_replays() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    examples = [json.loads(b) for b in blocks if '"format": "pedro-record/1"' in b and '"..."' not in b]
    assert examples, "docs/records.md has no complete example record"
    for example in examples:
        result = replay(example)
        assert result.results


# ---------------------------------------------------------------------------
# errors in hand-edited records


def _trump_led_to_a_mixed_hand(s: GameState) -> bool:
    """A trump was led and the player to follow holds a trump and a non-trump."""
    trick = s.observation(0).trick
    if s.phase != Phase.PLAY or trick is None or not trick.plays or s.trump is None:
        return False
    trump_mask = s.rules.tables(s.trump).trump_mask
    led = effective_suit(trick.plays[0][1][0], trump_mask)  # the led play's top card
    hand = s.hands[s.current_player]
    return led == TRUMP_SUIT and bool(hand & trump_mask) and bool(hand & ~trump_mask)


def _first_trump_follow(variant: str = "cinch") -> tuple[GameState, int, int]:
    """A game stopped where following a trump lead with a non-trump is illegal: (state, seat, non-trump)."""
    for seed in range(100):
        state = play_random(make_ruleset(variant), seed, max_hands=3, until=_trump_led_to_a_mixed_hand)
        if _trump_led_to_a_mixed_hand(state):
            assert state.trump is not None
            hand = state.hands[state.current_player]
            return (
                state,
                state.current_player,
                (hand & ~state.rules.tables(state.trump).trump_mask).bit_length() - 1,
            )
    raise AssertionError("no trump lead found")


def test_illegal_play_names_hand_action_reason_and_legal_plays() -> None:
    state, seat, card = _first_trump_follow()
    record = record_from_game(state, NAMES)
    hand_no = len(record["hands"])
    actions = record["hands"][-1]["actions"]
    bad = f"{seat} play {format_card(card)}"
    actions.append(bad)
    error = replay_error(record)
    message = str(error)
    assert message.startswith(
        f'hand {hand_no}, action {len(actions)} "{bad}": must play a trump when a trump is led'
    )
    assert "; legal: " in message
    assert f"{seat} play " in message.split("; legal: ")[1]
    assert (error.hand, error.action) == (hand_no, len(actions))


def test_wrong_seat() -> None:
    record = sample_record()
    first = record["hands"][1]["actions"][0]
    seat = int(first.split()[0])
    record["hands"][1]["actions"][0] = f"{(seat + 1) % 4} {first.split(maxsplit=1)[1]}"
    message = str(replay_error(record))
    assert message.startswith(f'hand 2, action 1 "{(seat + 1) % 4} ')
    assert f"it is seat {seat}'s turn" in message
    assert "legal: " in message


def test_card_not_in_the_pack() -> None:
    record = sample_record()
    record["hands"][1]["deal"][2][4] = "JK"
    with pytest.raises(RecordError, match=r"hand 2: the deal of seat 2: JK is not in the cinch pack"):
        replay(record)
    record = sample_record()
    record["hands"][0]["actions"].insert(0, "9 play JK")
    assert "hand 1, action 1" in str(replay_error(record))


def test_duplicate_card() -> None:
    record = sample_record()
    record["hands"][0]["stock"][0] = record["hands"][0]["deal"][1][0]
    message = str(replay_error(record))
    assert message.startswith("hand 1: ")
    assert "appears twice" in message and "the deal of seat 1" in message and "the stock" in message


def test_bad_card_text() -> None:
    record = sample_record()
    record["hands"][2]["kitty"] = ["1X"]
    message = str(replay_error(record))
    assert message.startswith("hand 3, kitty card 1: '1X' is not a card")
    assert "Cinch is played with the 52 cards: a card is its rank (A K Q J 10" in message
    assert "joker" not in message.lower()  # Cinch has none: the message names only its cards


def test_a_bad_card_names_the_jokers_only_of_a_variant_with_jokers() -> None:
    record = played_record(variant="piedro_jokers")
    record["hands"][0]["deal"][0][0] = "1X"
    message = str(replay_error(record))
    assert message.endswith("or the joker BJ or SJ") and "JK" not in message
    record = played_record(variant="cinch")
    record["hands"][0]["actions"][6] = "3 play 1X"
    message = str(replay_error(record))
    assert "'1X' is not a card; Cinch is played with the 52 cards" in message
    assert "joker" not in message.lower()


def test_malformed_actions() -> None:
    for bad, why in [
        ("1 plya AS", "unknown verb 'plya'"),
        ("play AS", "must start with a seat number"),
        ("1 play", "'play' needs at least one card"),
        ("1 bid eight", "not a whole number"),
        ("1 play AS AS", "a card is named twice"),
        ("1 trump X", "is not a suit"),
    ]:
        record = sample_record()
        record["hands"][1]["actions"][3] = bad
        message = str(replay_error(record))
        assert message.startswith(f'hand 2, action 4 "{bad}": '), message
        assert why in message, message


def test_too_many_actions() -> None:
    record = sample_record()
    n = len(record["hands"][0]["actions"])
    record["hands"][0]["actions"].append("0 play AS")
    message = str(replay_error(record))
    assert message == (
        f'hand 1, action {n + 1} "0 play AS": hand 1 is over after action {n}; '
        "the record has 1 action too many"
    )


def test_too_few_actions_before_a_later_hand() -> None:
    record = sample_record()
    record["hands"][0]["actions"].pop()
    message = str(replay_error(record))
    assert message.startswith("hand 1: the record stops after")
    assert "before the hand is over, but hand 2 follows" in message


def test_actions_after_the_game_is_over() -> None:
    for seed in range(12):
        state = play_random(VARIANTS["king_pedro"], seed, max_hands=40)
        if state.is_over:
            break
    else:
        pytest.fail("no finished game")
    record = record_from_game(state)
    last = len(record["hands"])
    n = len(record["hands"][-1]["actions"])
    extra = copy.deepcopy(record)
    extra["hands"][-1]["actions"].append("0 pass")
    assert f'hand {last}, action {n + 1} "0 pass": the game is over after action {n}' in str(
        replay_error(extra)
    )
    more = copy.deepcopy(record)
    more["hands"].append(copy.deepcopy(record["hands"][0]))
    assert str(replay_error(more)).startswith(f"hand {last + 1}: the game was over after hand {last}")


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda r: r.update(format="pedro-record/2"),
            'field format: must be "pedro-record/1" (got "pedro-record/2")',
        ),
        (lambda r: r.pop("format"), 'field format: must be "pedro-record/1" (got missing)'),
        (
            lambda r: r.update(variant="cinchy"),
            "field variant: unknown variant 'cinchy'; valid variants: cinch,",
        ),
        (lambda r: r.update(options={"min_bid": 20}), "field options: min_bid=20"),
        (lambda r: r.update(options={"nonsense": 1}), "field options: unknown option 'nonsense' for cinch"),
        (lambda r: r.update(players="4"), 'field players must be a whole number (got "4")'),
        (lambda r: r.update(players=5), "field players: 5, but cinch with these options is played by 4"),
        (lambda r: r.update(names=["A"]), "field names: 1 names given; the game has 4 players"),
        (lambda r: r.update(first_dealer=4), "field first_dealer: 4; allowed: a seat from 0 to 3"),
        (lambda r: r.update(first_dealer=-1), "field first_dealer must be at least 0 (got -1)"),
        (lambda r: r.update(hands=[]), "field hands must list at least one hand"),
        (
            lambda r: r.update(extra=1),
            "field extra is not a field of a pedro-record/1 record; allowed fields:",
        ),
        (lambda r: r["hands"][0].pop("stock"), "hand 1, field stock is missing"),
        (lambda r: r["hands"][0].update(washes=[]), "hand 1, field washes is not a field"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, 7), "hand 1, action 1 must be a string (got 7)"),
        (lambda r: r["hands"][0]["deal"][0].pop(), "hand 1: deal: seat 0 was dealt 8 cards; cinch deals 9"),
        (lambda r: r["hands"][0]["deal"].pop(), "hand 1: deal: 3 hands listed"),
        (
            lambda r: r["hands"][0]["stock"].pop(),
            "hand 1: deal, kitty and stock must hold the whole cinch pack",
        ),
        (lambda r: r["hands"][0].update(kitty=["AS"]), "hand 1: kitty: 1 card; cinch has a kitty of 0 cards"),
        (lambda r: r["hands"][0].update(wash=["XX"]), "hand 1, wash card 1: 'XX' is not a card"),
        (lambda r: r["hands"][0].update(wash=["AS"]), "hand 1: the wash lists 1 card (AS) but 0 were dealt"),
    ],
)
def test_malformed_records(edit: Any, expected: str) -> None:
    record = sample_record()
    edit(record)
    message = str(replay_error(record))
    assert expected in message, message
    assert "Traceback" not in message


def test_not_json_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        read_record("{not json")
    # json's own message ends in "at" here; the place is said once
    with pytest.raises(RecordError) as control:
        read_record('{"format": "pedro-\x01record/1"}')
    assert str(control.value) == "not valid JSON at line 1, column 19: Invalid control character"
    with pytest.raises(RecordError, match="no such file"):
        read_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="must be a JSON object"):
        read_record(tmp_path / "list.json") if (tmp_path / "list.json").write_text("[1, 2]") else None
    with pytest.raises(RecordError, match="is a folder"):
        read_record(tmp_path)
