"""The offline app's table (``server.offline.solo``) and what its worker calls (``offline.worker``),
on CPython: a person against computer players, told in a served table's messages.

The browser runs this same code in Pyodide (tests/e2e/test_offline_app.py compares the two)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from tests.server.test_computers import one_player_per_seat_and_hand

from pedro.records import read_record, replay
from pedro.server.offline import record_calls, worker
from pedro.server.offline.solo import SetupError, SoloSetup, SoloTable
from pedro.server.tables.refusals import RoomError
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

SETUP: dict[str, Any] = {
    "variant": "cinch",
    "seats": [None, "beginner", "beginner", "club"],
    "name": "Ann",
    "seed": "5",
}


def words(table: SoloTable, action: int) -> str:
    """The protocol's words of ``action`` by the seat to act (a record's text without its seat)."""
    from pedro.engine.actions import action_text

    return action_text(table.state.current_player, action, table.rules.max_bid).split(" ", 1)[1]


def recorded(table: SoloTable) -> str:
    """The table's record, as the worker gives it: the table opened there, then asked."""
    worker.open_game(json.dumps({"setup": table.setup.json(), "actions": table.actions}))
    return record_calls.record()


def played_to(table: SoloTable, actions: int) -> None:
    """Play on to ``actions`` actions: computers decide, the person takes the first legal action."""
    while table.seq < actions and not table.state.is_over:
        if table.computer_to_act:
            table.computer_move()
        else:
            table.act(words(table, table.state.legal_actions()[0]), table.seq)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"variant": "whist"}, "whist"),
        ({"seats": [None, "beginner", "beginner"]}, "4 seats"),
        ({"seats": [None, None, "beginner", "club"]}, "exactly one seat"),
        ({"seats": [None, "expert", "beginner", "club"]}, "allowed: beginner, club"),
        ({"name": "  "}, "a name of 1 to 24"),
        ({"options": {"target": -3}}, "option target; allowed"),
    ],
)
def test_a_setup_that_cannot_be_played_is_refused_saying_what_it_allows(
    change: dict[str, Any], said: str
) -> None:
    with pytest.raises(SetupError, match=said):
        SoloSetup.from_json(SETUP | change)
    answer = json.loads(worker.open_game(json.dumps({"setup": SETUP | change})))
    assert answer["type"] == "error" and answer["code"] == "bad_setup" and said in answer["message"]


def test_joining_tells_the_seat_and_its_state_as_a_served_table_does() -> None:
    assert json.loads(worker.open_game(json.dumps({"setup": SETUP})))["actions"] == []
    welcome, state = json.loads(worker.receive(json.dumps({"type": "join", "secret": "", "chat": True})))
    assert welcome == {"type": "welcome", "seat": 0}
    assert state["type"] == "state" and state["you"] == 0 and state["seq"] == 0 and state["started"]
    assert [s["name"] for s in state["seats"]] == ["Ann", "2 · beginner", "3 · beginner", "4 · club"]
    assert state["table"]["unrated"] == "no_profiles" and state["table"]["variant"] == "cinch"
    while worker.computer_to_act():
        state = json.loads(worker.computer_move())[-1]
    assert json.loads(worker.computer_move())[-1]["code"] == "turn", "the person's turn is theirs"
    assert json.loads(worker.computer_move(True))[-1]["seq"] == state["seq"] + 1, "unless stood in for"


def test_a_refused_action_says_why_and_changes_nothing() -> None:
    table = SoloTable(SoloSetup.from_json(SETUP))
    while table.computer_to_act:
        table.computer_move()
    before = list(table.actions)
    with pytest.raises(RoomError) as stale:
        table.act("pass", table.seq + 1)
    with pytest.raises(RoomError) as illegal:
        table.act("play AS AS", table.seq)
    assert (stale.value.code, illegal.value.code) == ("stale", "illegal")
    assert "legal:" in illegal.value.message
    assert table.actions == before
    table.act(words(table, table.state.legal_actions()[0]), table.seq)
    with pytest.raises(RoomError) as turn:
        table.act("pass", table.seq)
    assert turn.value.code == "turn" and "2 · beginner is to play" in turn.value.message
    assert len(table.actions) == len(before) + 1


def test_the_worker_answers_a_malformed_message_with_an_error_not_an_exception() -> None:
    json.loads(worker.open_game(json.dumps({"setup": SETUP})))
    saved = json.loads(worker.saved())
    for message in ({"type": "act", "action": "pass", "seq": "x"}, {"type": "act", "action": "pass"}):
        (answer,) = json.loads(worker.receive(json.dumps(message)))
        assert answer["type"] == "error" and answer["code"] == "bad_message" and "seq" in answer["message"]
    (answer,) = json.loads(worker.receive(json.dumps({"type": "chat"})))
    assert answer["code"] == "bad_message" and "join, act and ping" in answer["message"]
    assert json.loads(worker.saved()) == saved


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_plays_a_hand_at_a_solo_table(variant: str) -> None:
    players = make_ruleset(variant).players
    setup = {"variant": variant, "seats": [None] + ["beginner"] * (players - 1), "name": "Ann", "seed": "1"}
    table = SoloTable(SoloSetup.from_json(setup))
    while table.state.hand_index == 0 and not table.state.is_over:
        played_to(table, table.seq + 1)
    assert table.state.results, f"{variant}: the first hand was scored"
    state = json.loads(table.state_json())
    assert state["game"]["hand_index"] == 1 and len(state["seats"]) == players


def test_a_whole_game_ends_and_its_record_replays_to_the_same_end() -> None:
    table = SoloTable(SoloSetup.from_json(SETUP | {"seats": [None, "beginner", "beginner", "beginner"]}))
    played_to(table, 10_000)
    assert table.state.is_over and not table.computer_to_act
    record = read_record(json.loads(recorded(table)))
    result = replay(record)
    assert result.finished and result.names == ["Ann", "2 · beginner", "3 · beginner", "4 · beginner"]
    assert [a for hand in record["hands"] for a in hand["actions"]] == table.actions
    assert list(result.state.scores) == list(table.state.scores)
    saved = table.saved()
    assert saved["finished"] and saved["scores"] == list(table.state.scores)


def test_a_game_resumed_from_its_stored_actions_goes_on_as_the_uninterrupted_one() -> None:
    """The page stores the actions after each; a closed tab's game is played again from them, and
    its computers, caught up on the hand so far, decide as if nothing had happened."""
    whole = SoloTable(SoloSetup.from_json(SETUP))
    played_to(whole, 60)
    for cut in (7, 23):
        resumed = SoloTable(whole.setup, whole.actions[:cut])
        played_to(resumed, 60)
        assert resumed.actions == whole.actions


def test_stored_actions_that_do_not_fit_the_game_are_refused() -> None:
    table = SoloTable(SoloSetup.from_json(SETUP))
    played_to(table, 3)
    with pytest.raises(SetupError, match="stored action 2"):
        SoloTable(table.setup, [table.actions[0], table.actions[0]])


@pytest.mark.parametrize("variant", ["cinch", "sixty_three"])
def test_the_computers_decide_as_a_served_table_and_the_tournaments_do(variant: str) -> None:
    """Played out (the person's seat by the stand-in), a solo game's first hand is the game the
    tournaments' players play on that seed: the fingerprint the browser is compared with."""
    names = ["heuristic", "basic", "basic", "basic"]
    setup = {
        "variant": variant,
        "seats": [None, "beginner", "beginner", "beginner"],
        "name": "Ann",
        "seed": "abc",
    }
    table = SoloTable(SoloSetup.from_json(setup))
    table.play_out(hands=1)
    expected = one_player_per_seat_and_hand(variant, "abc", names, hands=1)
    assert table.actions == expected
    assert (
        worker.fingerprint(json.dumps(setup), 1) == hashlib.sha256("\n".join(expected).encode()).hexdigest()
    )


def test_an_imported_record_replays_in_frames_and_a_broken_one_is_refused() -> None:
    table = SoloTable(SoloSetup.from_json(SETUP))
    played_to(table, 40)
    text = recorded(table)
    body = json.loads(record_calls.replay(text))
    assert body["record"]["hands"][0]["actions"] == json.loads(text)["hands"][0]["actions"]
    assert len(body["frames"]) >= 40 and body["table"]["variant"] == "cinch"
    broken = json.loads(text)
    broken["hands"][0]["actions"][0] = "0 play ZZ"
    refused = json.loads(record_calls.replay(json.dumps(broken)))
    assert refused["code"] == "bad_record" and "hand 1, action 1" in refused["message"]
