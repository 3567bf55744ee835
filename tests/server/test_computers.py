"""A table's computer players are the players the tournaments measure: one per seat and hand, kept
from decision to decision (``tables.computers``), and made again the same after a restart.

Tables of computers are played through the server's room (in-process: the store commits at once)
and every decision compared: with ``players.games`` on a table of one deal, seeded as a duplicate
tournament's deal is, in every variant; with one player per seat and hand over several hands; and
with the same table restored from its stored actions in the middle of a hand.
"""

from __future__ import annotations

import functools

import pytest
from tests.server.room_helpers import play_computers, table_row

from pedro.engine.actions import action_text, parse_action_text
from pedro.players import choose, make_player
from pedro.players.games import run_game
from pedro.server.tables import computers
from pedro.server.tables.computers import player_seed
from pedro.server.tables.game import table_game
from pedro.variants.catalog import VARIANTS
from pedro.variants.options import make_ruleset

#: A table seeded with a number: its first hand is the game of that seed in ``players.games``.
SEED = 12


def texts(actions: list[tuple[int, int]], max_bid: int) -> list[str]:
    return [action_text(seat, action, max_bid) for seat, action in actions]


def one_player_per_seat_and_hand(
    variant: str, seed: str, names: list[str], hands: int, kept: bool = True
) -> list[str]:
    """The table's game with each seat's player made at its first decision of each hand and asked
    every decision of its seat in that hand, as ``players.games`` asks its players (``choose``);
    ``kept=False``: made anew, seeded the same, for every decision."""
    state = table_game(variant, {}, seed, hands)
    players = {}
    played = []
    while not state.is_over:
        seat, hand = state.current_player, state.hand_index
        if (seat, hand) not in players or not kept:
            players[seat, hand] = make_player(names[seat], player_seed(seed, seat, hand))
        action = choose(players[seat, hand], state)
        played.append(action_text(seat, action, state.rules.max_bid))
        state.apply(action)
    return played


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_tables_computers_decide_as_players_games_on_the_same_deal(variant: str) -> None:
    """Made, seeded and asked as ``players.games`` makes, seeds and asks its players: the heuristic
    bids by simulation and names trumps on the deals it bid on, basic's random draws go on from one
    decision to the next."""
    rules = make_ruleset(variant, {})
    names = ["heuristic"] + ["basic"] * (rules.players - 1)
    played = play_computers(table_row(variant, {}, str(SEED), names, hands=1))
    run = run_game(rules, names, SEED, max_hands=1)
    assert played == texts(list(run.state.hand_actions[0]), rules.max_bid)


@pytest.mark.parametrize("variant", ["king_pedro", "pitch_fives"])
def test_the_experts_decide_as_players_games_on_the_same_deal(variant: str) -> None:
    rules = make_ruleset(variant, {})
    names = ["expert:2", "basic", "heuristic", "basic"]
    played = play_computers(table_row(variant, {}, str(SEED), names, hands=1))
    run = run_game(rules, names, SEED, max_hands=1)
    assert run.state.results[0].bidder is not None
    assert played == texts(list(run.state.hand_actions[0]), rules.max_bid)


@pytest.mark.parametrize(("variant", "seed"), [("cinch", "a3f9c0"), ("sixty_three", "7"), ("pidro", "b1")])
def test_every_hand_is_played_with_one_player_per_seat(variant: str, seed: str) -> None:
    names = ["heuristic", "basic", "random", "basic"]
    played = play_computers(table_row(variant, {}, seed, names, hands=3))
    assert played == one_player_per_seat_and_hand(variant, seed, names, 3)


#: A table whose heuristic players call more than once in an auction: a player made again for a
#: later call, and not asked the earlier ones, values it on other deals.
RESTORED = ("eighty_three", "1", ["heuristic", "basic", "heuristic", "basic"], 2)


@functools.cache
def restored_game() -> tuple[str, ...]:
    """RESTORED's game, each seat's player kept for the hand: the tests below compare with it, and
    its heuristic's calls take seconds, so it is played once."""
    variant, seed, names, hands = RESTORED
    return tuple(one_player_per_seat_and_hand(variant, seed, names, hands))


def catch_up_points(actions: list[str]) -> list[tuple[int, int]]:
    """Where a room restored from ``actions[:i]`` must catch a heuristic player up (its seat is to
    act and decided before in the hand), with the end of that hand: (i, end)."""
    variant, seed, names, hands = RESTORED
    state = table_game(variant, {}, seed, hands)
    points = []
    starts = []
    decided: set[int] = set()
    for i, text in enumerate(actions):
        seat, hand = state.current_player, state.hand_index
        if seat in decided and names[seat] == "heuristic":
            points.append(i)
        decided.add(seat)
        state.apply(parse_action_text(text, state.rules.max_bid)[1])
        if state.hand_index != hand or state.is_over:
            starts.append(i + 1)
            decided.clear()
    return [(i, next(end for end in starts if end > i)) for i in points]


def test_a_player_made_anew_for_each_decision_would_decide_otherwise() -> None:
    """What the tests here tell apart: keeping a player for the hand changes its decisions."""
    variant, seed, names, hands = RESTORED
    kept = list(restored_game())
    assert one_player_per_seat_and_hand(variant, seed, names, hands, kept=False) != kept


def test_a_room_restored_mid_hand_decides_as_the_uninterrupted_one() -> None:
    """A restart (or another process taking the table over) in the middle of a hand: the players
    made again are asked their seats' earlier decisions of the hand, and go on as before."""
    variant, seed, names, hands = RESTORED
    whole = play_computers(table_row(variant, {}, seed, names, hands=hands))
    assert whole == list(restored_game())
    points = catch_up_points(whole)
    second_hand = [p for p in points if p[1] == len(whole)]
    assert len(points) > len(second_hand) > 2
    # in the first hand's auction, in its play, and in the next hand's auction
    for point, end in [*points[:2], points[len(points) // 4], *second_hand[:2]]:
        row = table_row(variant, {}, seed, names, hands=hands)
        row.actions = whole[:point]
        assert play_computers(row, until=end) == whole[:end], f"restored after {point} actions"


def test_a_room_restored_without_catching_its_players_up_would_decide_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The test above can fail: players made again but not asked the hand so far decide otherwise."""
    variant, seed, names, hands = RESTORED
    whole = list(restored_game())
    monkeypatch.setattr(computers.Computers, "_catch_up", lambda *args: None)
    for point, end in catch_up_points(whole):
        row = table_row(variant, {}, seed, names, hands=hands)
        row.actions = whole[:point]
        if play_computers(row, until=end) != whole[:end]:
            return
    raise AssertionError("every restored room decided as the uninterrupted one without catching up")


def test_a_seat_is_played_by_its_computer_or_the_stand_in_and_never_by_a_program() -> None:
    assert computers.player_name("computer", "expert:2") == "expert:2"
    assert computers.player_name("human", None) == computers.STAND_IN_PLAYER
    assert computers.player_name("computer", "cmd:./bot") == computers.STAND_IN_PLAYER  # a tampered database
